// The page's own words in both languages. Everything about a game (its name, options, moves,
// events, cards, refusals) comes from the service in the language asked for.

import type { Count, Unmet } from "./families";

export type Lang = "en" | "ru";

/** ``n`` and its noun in the form the language's plural rules give it (Intl.PluralRules), the
 * number in the language's own writing (Intl.NumberFormat): "1 card", «2 карты», «5 карт». */
export function counted(n: number, lang: Lang, forms: [string, string] | [string, string, string]): string {
  const rule = new Intl.PluralRules(lang).select(n);
  const form = lang === "ru" ? (rule === "one" ? forms[0] : rule === "few" ? forms[1] : forms[2] ?? forms[1]) : (rule === "one" ? forms[0] : forms[1]);
  return `${number(n, lang)} ${form}`;
}

/** ``n`` written as the language writes numbers (a decimal comma in Russian). */
export function number(n: number, lang: Lang, digits?: number): string {
  const options: Intl.NumberFormatOptions = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(lang, options).format(n);
}

const capital = (said: string): string => said.charAt(0).toUpperCase() + said.slice(1);
const EN_RANKS: Record<string, string> = { A: "aces", K: "kings", Q: "queens", J: "jacks", "10": "tens", "9": "nines", "8": "eights",
  "7": "sevens", "6": "sixes", "5": "fives", "4": "fours", "3": "threes", "2": "twos" };
const RU_RANKS: Record<string, string> = { A: "тузы", K: "короли", Q: "дамы", J: "валеты", "10": "десятки", "9": "девятки",
  "8": "восьмёрки", "7": "семёрки", "6": "шестёрки", "5": "пятёрки", "4": "четвёрки", "3": "тройки", "2": "двойки" };

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
  // a table of several people (friends.ts)
  friends: "Play with friends",
  friendsHelp: "Deal at a table of your own and send each friend their invitation; seat 1 is yours.",
  seatChoice: (seat: number) => `Seat ${seat + 1}`,
  seatYours: "you",
  seatFriend: "a friend",
  seatComputer: "the computer",
  timer: "Time for a move",
  noTimer: "no limit",
  duration: (seconds: number): string => seconds >= 86_400 ? `${seconds / 86_400} day${seconds === 86_400 ? "" : "s"}`
    : seconds >= 3600 ? `${seconds / 3600} h` : seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`,
  level: "The computer's strength",
  levels: ["1 (plays at once)", "2", "3", "4", "5 (thinks longest)"],
  create: "Open the table",
  links: "Links to this table",
  inviteFor: (seat: number) => `Invitation to seat ${seat + 1}`,
  ownLink: "Your seat (keep this link to yourself: it opens your seat on any device)",
  spectatorLink: "For spectators",
  inviteOnce: "Each invitation seats one person, once.",
  copy: "Copy",
  copied: "Copied",
  atTable: "At the table",
  invited: "waiting for the player",
  online: "online",
  offline: "offline",
  away: "the computer plays for now",
  computerPlays: "the computer",
  letComputer: "Let the computer play for me",
  takeBack: "Take my seat back",
  newTable: "Another table",
  toMove: (name: string) => `${name} to move`,
  timeLeft: (clock: string) => `${clock} left`,
  watching: "You are watching",
  hand: (n: number) => `Hand ${n}`,
  matchOver: "The match is over",
  tableClosed: "The table is closed",
  reconnecting: "Connection lost; reconnecting…",
  moveTaken: "Another move came first: the table is shown as it is now",
  inviteUsed: "This invitation has been used already. Ask for another, or open your seat's own link.",
  badLink: "This link opens no seat at this table (the table may have closed).",
  noTable: "There is no such table (it may have expired).",
  byComputer: "the computer's move for this seat",
  byTimer: "time ran out: the computer's move",
  told: {
    joined: "joined the table", connected: "online", reconnected: "back online", left: "offline",
    computer_took: "the computer plays for this seat", taken_back: "plays again", timer_expired: "time ran out",
  },
  timerStarted: (duration: string) => `${duration} for the move`,
  dealt: (n: number) => `Hand ${n} is dealt`,
  handOverNumber: (n: number) => `Hand ${n} is over`,
  closedIdle: "The table was closed: nobody played for a long time",
  cards: (n: number) => counted(n, "en", ["card", "cards"]),
  backOf: (seat: number) => `a card of seat ${seat + 1}`,
  stock: "Stock",
  team: (n: number) => `Team ${n + 1}`,
  dealer: "dealer",
  toPlay: "to play",
  trump: "Trump",
  turnedTrump: "Turned trump",
  turnedForTrump: "Turned for the trump",
  pile: "Discard pile",
  trick: "Trick",
  lastTrick: "Last trick",
  takes: (name: string) => `${name} takes it so far`,
  beat: "beats",
  faceDown: "face down",
  redThrees: "Red threes",
  melds: "Melds",
  declared: "Declared",
  scoreboard: "Score",
  who: "Who",
  total: "Total",
  winner: "won",
  sittingOut: "sits out this hand",
  pileCards: (n: number) => counted(n, "en", ["card", "cards"]) + " in the pile",
  stockCards: (n: number) => counted(n, "en", ["card", "cards"]) + " in the stock",
  stockClosed: (you: boolean, name: string) => you ? "You closed the stock." : `${name} closed the stock.`,
  pileFrozen: "The discard pile is frozen.",
  queenLost: (team: string) => `${team} lost the queen of clubs.`,
  trumpNamedBy: (you: boolean, name: string) => you ? "You named the trump." : `${name} named the trump.`,
  beziqueJack: (card: string) => `The bezique jack is the ${card}.`,
  receivedTrump: (card: string) => `The trump your partner gave you: the ${card}.`,
  firstTo66: (you: boolean, name: string) => you ? "You reached 66 first." : `${name} reached 66 first.`,
  withMarriage: "with a marriage",
  byLast: "by the last card",
  modes: { beat: "to beat", discard: "to throw off" } as Record<string, string>,
  ranks: EN_RANKS,
  error: "The service did not answer as expected",
  yes: "yes",
  no: "no",
  build: "Or build the move",
  play: "Play it",
  topGroup: (key: string) => `${key}, with the pile's top card`,
  group: (key: string) => `Group ${key}`,
  meld: (key: string) => key === "W" ? "Wild cards" : capital(EN_RANKS[key] ?? key),
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
  friends: "Игра с друзьями",
  friendsHelp: "Откройте свой стол и отправьте каждому другу его приглашение; место 1 — ваше.",
  seatChoice: (seat) => `Место ${seat + 1}`,
  seatYours: "вы",
  seatFriend: "друг",
  seatComputer: "компьютер",
  timer: "Время на ход",
  noTimer: "без ограничения",
  duration: (seconds) => seconds >= 86_400 ? `${seconds / 86_400} сут.`
    : seconds >= 3600 ? `${seconds / 3600} ч` : seconds >= 60 ? `${seconds / 60} мин` : `${seconds} с`,
  level: "Сила компьютера",
  levels: ["1 (ходит сразу)", "2", "3", "4", "5 (думает дольше всех)"],
  create: "Открыть стол",
  links: "Ссылки на этот стол",
  inviteFor: (seat) => `Приглашение на место ${seat + 1}`,
  ownLink: "Ваше место (эту ссылку никому не давайте: она открывает ваше место на любом устройстве)",
  spectatorLink: "Для зрителей",
  inviteOnce: "Каждое приглашение сажает за стол одного человека, один раз.",
  copy: "Копировать",
  copied: "Скопировано",
  atTable: "За столом",
  invited: "ждём игрока",
  online: "в сети",
  offline: "не в сети",
  away: "пока играет компьютер",
  computerPlays: "компьютер",
  letComputer: "Пусть за меня сыграет компьютер",
  takeBack: "Вернуться в игру",
  newTable: "Другой стол",
  toMove: (name) => `Ходит: ${name}`,
  timeLeft: (clock) => `осталось ${clock}`,
  watching: "Вы зритель",
  hand: (n) => `Сдача ${n}`,
  matchOver: "Партия окончена",
  tableClosed: "Стол закрыт",
  reconnecting: "Связь прервалась, подключаемся снова…",
  moveTaken: "Другой ход успел раньше: стол показан таким, какой он сейчас",
  inviteUsed: "Это приглашение уже использовано. Попросите новое или откройте ссылку на своё место.",
  badLink: "Эта ссылка не открывает место за этим столом (возможно, стол уже закрыт).",
  noTable: "Такого стола нет (возможно, его время истекло).",
  byComputer: "за это место сходил компьютер",
  byTimer: "время вышло, сходил компьютер",
  told: {
    joined: "за столом", connected: "в сети", reconnected: "снова в сети", left: "не в сети",
    computer_took: "за это место играет компьютер", taken_back: "снова в игре", timer_expired: "время вышло",
  },
  timerStarted: (duration) => `на ход ${duration}`,
  dealt: (n) => `Сдача ${n}: карты розданы`,
  handOverNumber: (n) => `Сдача ${n} сыграна`,
  closedIdle: "Стол закрыт: долго никто не играл",
  cards: (n) => counted(n, "ru", ["карта", "карты", "карт"]),
  backOf: (seat) => `карта места ${seat + 1}`,
  stock: "Колода",
  team: (n) => `Команда ${n + 1}`,
  dealer: "сдающий",
  toPlay: "ход",
  trump: "Козырь",
  turnedTrump: "Открытый козырь",
  turnedForTrump: "Открыты при выборе козыря",
  pile: "Сброс",
  trick: "Взятка",
  lastTrick: "Последняя взятка",
  takes: (name) => `Пока берёт: ${name.toLowerCase() === "вы" ? "вы" : name}`,
  beat: "бьёт",
  faceDown: "рубашкой вверх",
  redThrees: "Красные тройки",
  melds: "Выкладки",
  declared: "Показки",
  scoreboard: "Счёт",
  who: "Кто",
  total: "Итого",
  winner: "выигрыш",
  sittingOut: "в этой сдаче не играет",
  pileCards: (n) => `в сбросе ${counted(n, "ru", ["карта", "карты", "карт"])}`,
  stockCards: (n) => `в колоде ${counted(n, "ru", ["карта", "карты", "карт"])}`,
  stockClosed: (you, name) => you ? "Вы закрыли колоду." : `${name} закрыло колоду.`,
  pileFrozen: "Сброс заморожен.",
  queenLost: (team) => `${team} потеряла даму треф.`,
  trumpNamedBy: (you, name) => you ? "Козыря назначили вы." : `Козыря назначило ${name.toLowerCase()}.`,
  beziqueJack: (card) => `Безиковый валет — ${card}.`,
  receivedTrump: (card) => `Партнёр отдал вам козыря: ${card}.`,
  firstTo66: (you, name) => you ? "Вы первыми набрали 66." : `${name} первым набрало 66.`,
  withMarriage: "с марьяжем",
  byLast: "по последней",
  modes: { beat: "бить", discard: "сбросить" },
  ranks: RU_RANKS,
  error: "Сервис ответил не так, как ожидалось",
  yes: "да",
  no: "нет",
  build: "Или составьте ход",
  play: "Сыграть",
  topGroup: (key) => `${key}, с верхней картой сброса`,
  group: (key) => `Группа ${key}`,
  meld: (key) => key === "W" ? "Джокеры и двойки" : capital(RU_RANKS[key] ?? key),
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
    red_threes: "Red threes", side_scores: "Match score", hand_sizes: "Cards in hand", phase: "Phase",
    bonus_points: "Bonus points", scores: "Points", turned: "Turned", teams: "Teams",
    leader: "On lead", first_leader: "First lead", tricks_played: "Tricks played", stock_closed_by: "Stock closed by",
    first_to_66: "First to 66", claimed_by: "Claimed by", trick_winner: "Trick won by", decl_counts: "Declarations",
    bezique_jack: "Bezique jack", turn: "To play", has_melded: "Has melded", pile_frozen: "Pile frozen",
    qc_captured_team: "Queen of clubs lost by", named_by: "Trump named by", received_trump: "Trump received",
    winning_seat: "Winning", winning_set: "Winning cards", seat: "Seat", card: "Card", cards: "Cards", suit: "Suit",
    rank: "Rank", credited: "Counted", id: "No.", tags: "Declared as", as: "Stands for", count: "Count",
    kind: "Kind", key: "Rank", plays: "Plays", size: "Size", face_down: "Face down", beat: "Beaten",
    game_points: "Game points", party_score: "Games", tricks: "Tricks", marriage_points: "Marriages",
    match_scores: "Games won", penalties: "Penalty points", pairs_opened_this_hand: "Pairs opened this hand",
    pairs_opened: "Pairs opened", pairs_left: "Pairs left", totals: "Total", meld_points: "Melds",
    canasta_bonus: "Canastas", red_three_points: "Red threes", going_out_bonus: "Going out", hand_penalty: "Cards in hand",
    total: "Total", next_minimums: "Next first meld",
  },
  ru: {
    trick: "Взятка", trump: "Козырь", trump_suit: "Козырь", trump_card: "Открытый козырь", stock_size: "Колода",
    undealt_size: "Не сдано", pile: "Сброс", melds: "Выкладки", points: "Очки", card_points: "Очки в картах",
    won: "Взятки", won_sizes: "Карт во взятках", tricks_won: "Взятки", marriages: "Марьяжи", exposed: "Показки",
    red_threes: "Красные тройки", side_scores: "Счёт партии", hand_sizes: "Карт на руках", phase: "Фаза",
    bonus_points: "Премии", scores: "Очки", turned: "Открытые", teams: "Команды",
    leader: "Ходит первым", first_leader: "Первый ход", tricks_played: "Сыграно взяток", stock_closed_by: "Колоду закрыл",
    first_to_66: "Первым набрал 66", claimed_by: "Остановил игру", trick_winner: "Взятку взял", decl_counts: "Показки",
    bezique_jack: "Безиковый валет", turn: "Ходит", has_melded: "Выложился", pile_frozen: "Сброс заморожен",
    qc_captured_team: "Даму треф потеряла команда", named_by: "Козыря назначил", received_trump: "Полученный козырь",
    winning_seat: "Берёт", winning_set: "Старшие карты", seat: "Место", card: "Карта", cards: "Карты", suit: "Масть",
    rank: "Достоинство", credited: "Засчитан", id: "№", tags: "Объявлена как", as: "Заменяет", count: "Количество",
    kind: "Вид", key: "Достоинство", plays: "Ходы", size: "Размер", face_down: "Рубашкой вверх", beat: "Побита",
    game_points: "Очки в партию", party_score: "Счёт партии", tricks: "Взятки", marriage_points: "За марьяжи",
    match_scores: "Выиграно игр", penalties: "Штрафные очки", pairs_opened_this_hand: "Открыто пар за сдачу",
    pairs_opened: "Открыто пар", pairs_left: "Осталось пар", totals: "Всего", meld_points: "Выкладки",
    canasta_bonus: "Канасты", red_three_points: "Красные тройки", going_out_bonus: "Окончание", hand_penalty: "Карты на руке",
    total: "Итого", next_minimums: "Первая выкладка от",
  },
};

/** A field's name, or null for a field the page has no word for (it is then not shown). */
export function fieldName(field: string, lang: Lang): string | null {
  return FIELDS[lang][field] ?? null;
}
