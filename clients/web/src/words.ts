// The page's own words in both languages. Everything about a game (its name, options, moves,
// events, cards, refusals) comes from the service in the language asked for.

export type Lang = "en" | "ru";

const EN = {
  title: "Card table",
  game: "Game",
  players: "Players",
  options: "Options",
  deal: "Deal",
  nextHand: "Next hand",
  language: "Русский",
  you: "You",
  seat: (seat: number) => `Seat ${seat + 1}`,
  computer: (seat: number) => `Seat ${seat + 1} (computer)`,
  yourTurn: "Your turn",
  thinking: (seat: number) => `Seat ${seat + 1} is thinking…`,
  handOver: "The hand is over",
  hint: "Hint",
  hintTitle: "The computer player's values for your moves",
  refused: "Not allowed",
  moves: "Your moves",
  choose: "Choose",
  log: "Moves",
  score: "Score",
  checks: "Verification",
  commitment: "The server's seed is the one it committed to before the deal",
  dealtHand: "The hand you were dealt is the one the record starts from",
  record: "Every move of the record is legal and scores the same",
  cards: (n: number) => `${n} cards`,
  backOf: (seat: number) => `a card of seat ${seat + 1}`,
  stock: "Stock",
  error: "The service did not answer as expected",
};

const RU: typeof EN = {
  title: "Карточный стол",
  game: "Игра",
  players: "Игроков",
  options: "Опции",
  deal: "Сдать",
  nextHand: "Следующая сдача",
  language: "English",
  you: "Вы",
  seat: (seat) => `Место ${seat + 1}`,
  computer: (seat) => `Место ${seat + 1} (компьютер)`,
  yourTurn: "Ваш ход",
  thinking: (seat) => `Место ${seat + 1} думает…`,
  handOver: "Игра окончена",
  hint: "Подсказка",
  hintTitle: "Оценки ваших ходов компьютерным игроком",
  refused: "Так нельзя",
  moves: "Ваши ходы",
  choose: "Выберите",
  log: "Ходы",
  score: "Счёт",
  checks: "Проверка",
  commitment: "Зерно сервера — то, которое он обещал до сдачи",
  dealtHand: "Карты, которые вам сдали, — те, с которых начинается запись",
  record: "Каждый ход записи разрешён правилами и даёт тот же счёт",
  cards: (n) => `карт: ${n}`,
  backOf: (seat) => `карта места ${seat + 1}`,
  stock: "Колода",
  error: "Сервис ответил не так, как ожидалось",
};

export const WORDS: Record<Lang, typeof EN> = { en: EN, ru: RU };

/** The name of a field of a seat's view, as a player calls what it holds. */
const FIELDS: Record<Lang, Record<string, string>> = {
  en: {
    trick: "Trick", trump: "Trump", trump_suit: "Trump", trump_card: "Turned trump", stock_size: "Stock",
    undealt_size: "Undealt", pile: "Discard pile", melds: "Melds", points: "Points", card_points: "Card points",
    won: "Won", won_sizes: "Cards won", tricks_won: "Tricks won", marriages: "Marriages", exposed: "Declared",
    red_threes: "Red threes", side_scores: "Scores", hand_sizes: "Cards in hand", phase: "Phase",
    bonus_points: "Bonus points", scores: "Scores", turned: "Turned", teams: "Teams",
  },
  ru: {
    trick: "Взятка", trump: "Козырь", trump_suit: "Козырь", trump_card: "Открытый козырь", stock_size: "Колода",
    undealt_size: "Не сдано", pile: "Сброс", melds: "Выкладки", points: "Очки", card_points: "Очки в картах",
    won: "Взятки", won_sizes: "Карт во взятках", tricks_won: "Взятки", marriages: "Марьяжи", exposed: "Показки",
    red_threes: "Красные тройки", side_scores: "Счёт", hand_sizes: "Карт на руках", phase: "Фаза",
    bonus_points: "Премии", scores: "Счёт", turned: "Открытые", teams: "Команды",
  },
};

export function fieldName(field: string, lang: Lang): string {
  return FIELDS[lang][field] ?? field.replaceAll("_", " ");
}
