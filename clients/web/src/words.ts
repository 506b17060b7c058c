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
  yes: "yes",
  no: "no",
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
  yes: "да",
  no: "нет",
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
    leader: "On lead", first_leader: "First lead", tricks_played: "Tricks played", stock_closed_by: "Stock closed by",
    first_to_66: "First to 66", claimed_by: "Claimed by", trick_winner: "Trick won by", decl_counts: "Declarations",
    bezique_jack: "Bezique jack", turn: "To play", has_melded: "Has melded", pile_frozen: "Pile frozen",
    qc_captured_team: "Queen of clubs lost by", named_by: "Trump named by", received_trump: "Trump received",
    winning_seat: "Winning", winning_set: "Winning cards", seat: "Seat", card: "Card", cards: "Cards", suit: "Suit",
    rank: "Rank", credited: "Counted", id: "No.", tags: "Declared as", as: "Stands for", count: "Count",
    kind: "Kind", key: "Rank", plays: "Plays", size: "Size", face_down: "Face down", beat: "Beaten",
  },
  ru: {
    trick: "Взятка", trump: "Козырь", trump_suit: "Козырь", trump_card: "Открытый козырь", stock_size: "Колода",
    undealt_size: "Не сдано", pile: "Сброс", melds: "Выкладки", points: "Очки", card_points: "Очки в картах",
    won: "Взятки", won_sizes: "Карт во взятках", tricks_won: "Взятки", marriages: "Марьяжи", exposed: "Показки",
    red_threes: "Красные тройки", side_scores: "Счёт", hand_sizes: "Карт на руках", phase: "Фаза",
    bonus_points: "Премии", scores: "Счёт", turned: "Открытые", teams: "Команды",
    leader: "Ходит первым", first_leader: "Первый ход", tricks_played: "Сыграно взяток", stock_closed_by: "Колоду закрыл",
    first_to_66: "Первым набрал 66", claimed_by: "Остановил игру", trick_winner: "Взятку взял", decl_counts: "Показки",
    bezique_jack: "Безиковый валет", turn: "Ходит", has_melded: "Выложился", pile_frozen: "Сброс заморожен",
    qc_captured_team: "Даму треф потеряла команда", named_by: "Козыря назначил", received_trump: "Полученный козырь",
    winning_seat: "Берёт", winning_set: "Старшие карты", seat: "Место", card: "Карта", cards: "Карты", suit: "Масть",
    rank: "Достоинство", credited: "Засчитан", id: "№", tags: "Объявлена как", as: "Заменяет", count: "Количество",
    kind: "Вид", key: "Достоинство", plays: "Ходы", size: "Размер", face_down: "Рубашкой вверх", beat: "Побита",
  },
};

export function fieldName(field: string, lang: Lang): string {
  return FIELDS[lang][field] ?? field.replaceAll("_", " ");
}
