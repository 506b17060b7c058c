// The page's own words in both languages. Everything about a game (its name, options, moves,
// events, cards, refusals) comes from the service in the language asked for.

import type { Count, Unmet } from "./families";

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
  match: "The match",
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
  build: "Or build the move",
  play: "Play it",
  topGroup: (key: string) => `${key}, with the pile's top card`,
  group: (key: string) => `Group ${key}`,
  meld: (key: string) => key === "W" ? "Wild cards" : `Rank ${key}`,
  counts: {
    naturals: "naturals", twos: "2s", jokers: "jokers", hand: "from the hand", wild: "wild cards as", table: "from the table",
  } as Record<Count["kind"], string>,
  unmet: (item: Unmet, groupName: (group: number) => string): string => {
    switch (item.what) {
      case "count": return `${groupName(item.group)}: a count is a whole number from ${item.least} to ${item.most}`;
      case "naturals": return `${groupName(item.group)}: at least ${item.need} naturals`;
      case "wild": return `${groupName(item.group)}: at most ${item.most} wild cards`;
      case "group-size": return `${groupName(item.group)}: a meld has at least 3 cards`;
      case "twos": return `only ${item.most} 2s in hand`;
      case "jokers": return `only ${item.most} wild cards in hand`;
      case "nothing-laid": return "lay at least one meld";
      case "points": return `${item.have} of the ${item.need} points the first meld needs`;
      case "cards-left": return `leaves ${item.have} cards; it must leave ${
        item.most === null ? `at least ${item.least}` : item.least === item.most ? item.least : `${item.least} to ${item.most}`}`;
      case "canastas": return `${item.have} of the ${item.need} canastas going out needs`;
      case "slot": return `${groupName(item.group)}: ${item.have} of its ${item.need} cards`;
      case "from-hand": return "at least one card from the hand";
    }
  },
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
  match: "Партия",
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
  build: "Или составьте ход",
  play: "Сыграть",
  topGroup: (key) => `${key}, с верхней картой сброса`,
  group: (key) => `Группа ${key}`,
  meld: (key) => key === "W" ? "Джокеры и двойки" : `Достоинство ${key}`,
  counts: {
    naturals: "простых", twos: "двоек", jokers: "джокеров", hand: "с руки", wild: "инфузорок вместо", table: "со стола",
  },
  unmet: (item, groupName) => {
    switch (item.what) {
      case "count": return `${groupName(item.group)}: число — целое, от ${item.least} до ${item.most}`;
      case "naturals": return `${groupName(item.group)}: простых карт не меньше ${item.need}`;
      case "wild": return `${groupName(item.group)}: джокеров и двоек не больше ${item.most}`;
      case "group-size": return `${groupName(item.group)}: в выкладке не меньше 3 карт`;
      case "twos": return `двоек на руке только ${item.most}`;
      case "jokers": return `джокеров на руке только ${item.most}`;
      case "nothing-laid": return "выложите хотя бы одну выкладку";
      case "points": return `${item.have} из ${item.need} очков, нужных для первой выкладки`;
      case "cards-left": return `останется карт: ${item.have}; должно остаться ${
        item.most === null ? `не меньше ${item.least}` : item.least === item.most ? item.least : `от ${item.least} до ${item.most}`}`;
      case "canastas": return `канаст: ${item.have} из ${item.need}, нужных, чтобы выйти`;
      case "slot": return `${groupName(item.group)}: ${item.have} из ${item.need} карт`;
      case "from-hand": return "хотя бы одна карта с руки";
    }
  },
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
