// The table: a person at seat 0 against the computer player at every other seat, on the public
// API only. The page holds its own seat key and the computer key, never another seat's key or
// hand: the service deals (`sealed/deal-against-computer`) and plays the computer's seats
// (`sealed/computer-move`); the person's seat follows every move through its own events.
import { back, face, suitSign } from "./cards";
import { type GameDetail, type GameId, type Json, type Listing, type Moved, type Refusal, Service, type Wire, isObject, isTableSize } from "./api";
import { type Family, builder } from "./families";
import { type Lang, WORDS, fieldName } from "./words";

const params = new URLSearchParams(location.search);
const lang: Lang = params.get("lang") === "ru" ? "ru" : "en";
const words = WORDS[lang];
/** Milliseconds the computer may think a move, and between two of its shown events (a test asks for less). */
const budgetMs = Number(params.get("budget") ?? 200);
const pauseMs = Number(params.get("pause") ?? 350);
const service = new Service(params.get("api") ?? location.origin, lang);

interface Table {
  game: GameId;
  detail: GameDetail;
  token: string;
  seatKey: string;
  computerKey: string;
  seat: number;
  seats: number;
  seen: number;
  toMove: number | null;
  commitment: string;
  dealt: string[];
  matchToken: string | null;
  /** The seat's view, as last drawn. */
  view: Wire;
}

let table: Table | null = null;
let busy = false;

/** What the table waits for, on #table's data-state: "busy" (the service or the computer), "your-turn",
 * "over" (the hand scored and verified). */
function waiting(state: "busy" | "your-turn" | "over"): void {
  byId("table").dataset["state"] = state;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {},
                                                   ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function byId(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node;
}

const NOTHING: Listing = { moves: [], families: [] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isGameId(value: string, ids: string[]): value is GameId {
  return ids.includes(value);
}

// --- choosing a game ----------------------------------------------------------------------------

async function start(): Promise<void> {
  document.documentElement.lang = lang;
  document.title = words.title;
  byId("title").textContent = words.title;
  const other: Lang = lang === "ru" ? "en" : "ru";
  const switcher = byId("language");
  switcher.textContent = words.language;
  switcher.setAttribute("href", `?${new URLSearchParams({ ...Object.fromEntries(params), lang: other })}`);
  const games = await service.games();
  const select = byId("game");
  if (!(select instanceof HTMLSelectElement)) throw new Error("#game is not a select");
  byId("game-label").textContent = words.game;
  for (const game of games) select.append(el("option", { value: game.id }, lang === "ru" ? game.name_ru : game.name));
  const ids = games.map((game) => game.id);
  const asked = params.get("game") ?? ids[0] ?? "";
  select.value = asked;
  select.addEventListener("change", () => void chooseGame(select.value, ids));
  byId("deal").textContent = words.deal;
  byId("deal").addEventListener("click", () => void deal(null));
  byId("hint").textContent = words.hint;
  byId("hint").addEventListener("click", () => void hint());
  const kept = keptTable(ids);
  if (kept !== null) select.value = kept.game;
  await chooseGame(kept?.game ?? asked, ids);
  if (kept !== null && chosen !== null) await resume(kept, chosen.detail);
}

// --- the hand kept for this tab: a reload resumes it ---------------------------------------------

const KEPT = "card-table";
type Kept = Omit<Table, "detail" | "view">;

function keep(current: Table): void {
  const { detail: _detail, view: _view, ...kept } = current;
  sessionStorage.setItem(KEPT, JSON.stringify(kept));
}

/** The hand this tab kept, unfinished, if it is a table of a game the service has and the one the
 * address asks for (if it asks). */
function keptTable(ids: string[]): Kept | null {
  let value: unknown;
  try {
    value = JSON.parse(sessionStorage.getItem(KEPT) ?? "null");
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  const { game, token, seatKey, computerKey, seat, seats, seen, toMove, commitment, dealt, matchToken } = value;
  const text = (item: Json | undefined): item is string => typeof item === "string";
  const number = (item: Json | undefined): item is number => typeof item === "number";
  if (!text(game) || !isGameId(game, ids) || !text(token) || !text(seatKey) || !text(computerKey) || !number(seat)
      || !number(seats) || !number(seen) || !(toMove === null || number(toMove)) || !text(commitment)
      || !Array.isArray(dealt) || !(matchToken === null || text(matchToken))) return null;
  if ((params.has("game") && params.get("game") !== game) || (params.has("players") && params.get("players") !== String(seats))) {
    return null;
  }
  return { game, token, seatKey, computerKey, seat, seats, seen, toMove, commitment, dealt: cardsOf(dealt), matchToken };
}

/** The kept hand again: its log from the seat's events, then on as from any move. */
async function resume(kept: Kept, detail: GameDetail): Promise<void> {
  table = { ...kept, detail, view: {} };
  const players = byId("players");
  if (players instanceof HTMLSelectElement) players.value = String(kept.seats);
  for (const events of await service.events(kept.game, kept.token, kept.seatKey, 0)) {
    for (const event of events) logEvent(table, event);
  }
  await play();
}

let chosen: { game: GameId; detail: GameDetail } | null = null;

async function chooseGame(id: string, ids: string[]): Promise<void> {
  if (!isGameId(id, ids)) return;
  const detail = await service.game(id);
  chosen = { game: id, detail };
  const players = byId("players");
  if (!(players instanceof HTMLSelectElement)) throw new Error("#players is not a select");
  byId("players-label").textContent = words.players;
  players.replaceChildren(...detail.players.map((n) => el("option", { value: String(n) }, String(n))));
  players.value = params.get("players") ?? String(detail.default_players);
  renderOptions(detail);
}

function renderOptions(detail: GameDetail): void {
  const form = byId("options");
  form.replaceChildren(el("legend", {}, words.options));
  for (const [name, value] of Object.entries(detail.options)) {
    if (name === "players") continue;  // the table size, chosen above (Bura's options repeat it)
    const text = detail.descriptions.options[name];
    const label = el("label", { title: text?.description ?? "" }, text?.description ?? name);
    const choices = Object.entries(text?.choices ?? {});
    let input: HTMLInputElement | HTMLSelectElement;
    if (choices.length) {
      input = el("select", { name });
      for (const [choice, said] of choices) input.append(el("option", { value: choice, title: said }, `${choice}: ${said}`));
      input.value = String(value);
    } else if (typeof value === "boolean") {
      input = el("input", { type: "checkbox", name });
      input.checked = value;
    } else {
      input = el("input", { type: "number", name, value: String(value) });
    }
    form.append(el("div", { class: "option" }, input, label));
    label.prepend(input);
  }
}

function optionsChosen(detail: GameDetail): Wire {
  const chosenOptions: Wire = {};
  for (const [name, value] of Object.entries(detail.options)) {
    const input = document.querySelector(`#options [name="${name}"]`);
    if (input instanceof HTMLInputElement && input.type === "checkbox") chosenOptions[name] = input.checked;
    else if (input instanceof HTMLInputElement) chosenOptions[name] = Number(input.value);
    else if (input instanceof HTMLSelectElement) {
      chosenOptions[name] = typeof value === "number" ? Number(input.value) : input.value;
    }
  }
  return chosenOptions;
}

// --- a hand -------------------------------------------------------------------------------------

async function deal(matchToken: string | null): Promise<void> {
  if (chosen === null || busy) return;
  const { game, detail } = chosen;
  const select = byId("players");
  const players = select instanceof HTMLSelectElement ? Number(select.value) : detail.default_players;
  if (!isTableSize(players)) return;
  byId("result").replaceChildren();
  byId("log").replaceChildren();
  byId("refusal").replaceChildren();
  const dealt = await service.deal(game, players, optionsChosen(detail), matchToken);
  table = {
    game, detail, token: dealt.token, seatKey: dealt.seat_key, computerKey: dealt.computer_key, seat: dealt.seat,
    seats: players, seen: 0, toMove: dealt.to_move, commitment: dealt.seed_commitment, dealt: [], matchToken, view: {},
  };
  const view = await service.view(game, table.token, table.seatKey);
  table.dealt = cardsOf(view["hand"]);
  keep(table);
  await play();
}

/** Until it is the person's turn, or the hand is over: the computer's moves, shown one by one. */
async function play(): Promise<void> {
  const current = table;
  if (current === null) return;
  busy = true;
  waiting("busy");
  let yourTurn = false;
  try {
    while (current.toMove !== null && current.toMove !== current.seat) {
      if (pauseMs) await render(current, NOTHING);  // the table between the computer's moves (not when fast-forwarding)
      const moved = await service.computerMove(current.game, current.token, current.computerKey, budgetMs);
      await follow(current, moved);
    }
    if (current.toMove === null) {
      await render(current, NOTHING);
      await finish(current);
      return;
    }
    await render(current, await service.legalMoves(current.game, current.token, current.seatKey));
    yourTurn = true;
  } finally {
    busy = false;
  }
  if (yourTurn) waiting("your-turn");  // only once a click is taken
}

/** A move made: the new token, and what this seat saw of it, from its own events. */
async function follow(current: Table, moved: Moved): Promise<void> {
  current.token = moved.token;
  current.toMove = moved.toMove;
  const moves = await service.events(current.game, current.token, current.seatKey, current.seen);
  current.seen = moved.moveNumber;
  keep(current);
  for (const events of moves) {
    for (const event of events) {
      logEvent(current, event);
      if (pauseMs) await sleep(pauseMs);
    }
  }
}

async function move(current: Table, chosenMove: Wire): Promise<void> {
  if (busy) return;
  busy = true;
  waiting("busy");
  let answer: Moved | Refusal;
  try {
    answer = await service.validate(current.game, current.token, current.seatKey, chosenMove);
  } finally {
    busy = false;
  }
  const refusal = byId("refusal");
  if ("code" in answer) {
    refusal.replaceChildren(el("strong", {}, `${words.refused}: `), answer.message, el("small", {}, ` (${answer.rule})`));
    waiting("your-turn");
    return;
  }
  refusal.replaceChildren();
  busy = true;
  try {
    await follow(current, answer);
  } finally {
    busy = false;
  }
  await play();
}

async function hint(): Promise<void> {
  const current = table;
  if (current === null || current.toMove !== current.seat || busy) return;
  const candidates = await service.suggest(current.game, current.token, current.seatKey);
  const list = el("ol", {});
  for (const candidate of candidates) {
    list.append(el("li", {}, moveLabel(current, candidate.move), " — ",
                   candidate.value === null ? "…" : candidate.value.toFixed(2)));
  }
  byId("hints").replaceChildren(el("h3", {}, words.hintTitle), list);
}

async function finish(current: Table): Promise<void> {
  sessionStorage.removeItem(KEPT);
  byId("status").textContent = words.handOver;
  const scored = await service.score(current.game, current.token);
  const record = scored["record"] ?? null;
  const checks: [string, boolean][] = [];
  const seed = String(scored["server_seed"]);
  checks.push([words.commitment, await sha256(seed) === current.commitment]);
  const start = isObject(record) && isObject(record["start"]) ? record["start"] : {};
  const hands = Array.isArray(start["hands"]) ? start["hands"] : [];
  checks.push([words.dealtHand, sorted(cardsOf(hands[current.seat] ?? null)) === sorted(current.dealt)]);
  const again = await service.scoreRecord(current.game, record);
  checks.push([words.record, JSON.stringify(again["hand"]) === JSON.stringify(scored["hand"])]);
  const result = byId("result");
  result.replaceChildren(
    el("h2", {}, words.score), valueNode(current, scored["hand"] ?? null),
    el("h3", {}, words.match), valueNode(current, scored["match"] ?? null),
    el("h3", {}, words.checks),
    el("ul", { class: "checks" }, ...checks.map(([said, ok]) => el("li", { class: ok ? "ok" : "failed" }, `${ok ? "✓" : "✗"} ${said}`))),
  );
  const next = el("button", { id: "next-hand", type: "button" }, words.nextHand);
  const matchToken = typeof scored["match_token"] === "string" ? scored["match_token"] : null;
  next.addEventListener("click", () => void deal(matchToken));
  result.append(next);
  result.dataset["finished"] = checks.every(([, ok]) => ok) ? "verified" : "failed";
  waiting("over");
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const sorted = (cards: string[]): string => JSON.stringify([...cards].sort());

// --- drawing the table --------------------------------------------------------------------------

function cardsOf(value: Json | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function isCard(current: Table, value: Json): value is string {
  return typeof value === "string" && value in current.detail.card_names;
}

function cardNode(current: Table, code: string): SVGSVGElement {
  return face(code, current.detail.card_names[code] ?? code, lang);
}

function seatName(current: Table, seat: number): string {
  return seat === current.seat ? words.you : words.computer(seat);
}

/** Fields whose number is a seat (and ``teams``, whose lists' numbers are). */
const SEAT_FIELDS = new Set(["seat", "leader", "first_leader", "trick_winner", "winning_seat", "claimed_by",
                             "stock_closed_by", "named_by", "first_to_66", "turn", "last_taker"]);

/** Any value of a view or a score (``field``: the field it is the value of): cards drawn, seats
 * named, a list with an entry per seat by seat, a trick by its plays, the rest laid out as text. */
function valueNode(current: Table, value: Json, field = ""): Node {
  if (isCard(current, value)) return cardNode(current, value);
  if (typeof value === "number" && (SEAT_FIELDS.has(field) || field === "teams")) {
    return document.createTextNode(seatName(current, value));
  }
  if (Array.isArray(value)) {
    const drawn = (item: Json) => isCard(current, item) || (isObject(item) && isCard(current, item["card"] ?? null));
    if (value.length && value.every(drawn)) {
      return el("span", { class: "cards small" }, ...value.map((item) => valueNode(current, item)));
    }
    if (value.length === current.seats && field !== "" && field !== "plays" && field !== "teams") {  // a view's field only
      return el("ul", { class: "list per-seat" }, ...value.map((item, seat) =>
        el("li", {}, el("span", { class: "who" }, `${seatName(current, seat)}: `), valueNode(current, item))));
    }
    const inner = field === "teams" ? field : "";  // a team's entries are seats
    return el("ol", { class: "list", start: "0" }, ...value.map((item) => el("li", {}, valueNode(current, item, inner))));
  }
  if (isObject(value)) {
    const card = value["card"];
    if (card !== undefined && isCard(current, card)) return placedCard(current, card, value);
    if (Array.isArray(value["plays"])) return trickNode(current, value["plays"], value["winning_seat"] ?? null);
    if (typeof value["seat"] === "number" && cardsOf(value["cards"]).length) return playNode(current, value);
    return el("dl", {}, ...Object.entries(value).flatMap(([key, item]) => [
      el("dt", {}, fieldName(key, lang)), el("dd", {}, valueNode(current, item, key))]));
  }
  if (typeof value === "boolean") return document.createTextNode(value ? words.yes : words.no);
  return document.createTextNode(value === null ? "—" : String(value));
}

/** A trick of several cards a play (Bura's, Kozel's): each play, and who takes the trick so far. */
function trickNode(current: Table, plays: Json[], winning: Json): Node {
  const node = el("div", { class: "plays" }, ...plays.map((play) => valueNode(current, play)));
  if (typeof winning === "number") node.append(el("small", {}, `${fieldName("winning_seat", lang)}: ${seatName(current, winning)}`));
  return node;
}

/** One seat's cards played together, and whether they were beaten. */
function playNode(current: Table, play: Wire): Node {
  const notes = [typeof play["seat"] === "number" ? seatName(current, play["seat"]) : ""];
  if (play["beat"] === true) notes.push(fieldName("beat", lang));
  if (play["face_down"] === true) notes.push(fieldName("face_down", lang));
  return el("span", { class: "placed" }, el("span", { class: "cards small" }, ...cardsOf(play["cards"]).map((code) => cardNode(current, code))),
            ...notes.map((note) => el("small", {}, note)));
}

/** A card with what the rules say of it where it lies (a trick's card and its seat, an exposed
 * card and the declarations it scored in, a wild card and what it stands for), drawn, not listed. */
function placedCard(current: Table, card: string, placed: Wire): HTMLElement {
  const notes: string[] = [];
  if (typeof placed["seat"] === "number") notes.push(seatName(current, placed["seat"]));
  const as = placed["as"];
  if (typeof as === "string" && as !== card) notes.push(`${fieldName("as", lang)}: ${current.detail.card_names[as] ?? as}`);
  const tags = placed["tags"];
  if (Array.isArray(tags)) notes.push(...tags.filter((tag) => typeof tag === "string").map((tag) => kindName(current, tag)));
  return el("span", { class: "placed" }, cardNode(current, card), ...notes.map((note) => el("small", {}, note)));
}

const SHOWN_APART = new Set(["game", "seats", "options", "status", "seat", "hand", "to_move", "dealer", "hand_sizes",
                             "trump_card", "trump", "trump_suit", "stock_size", "undealt_size", "trick", "pile", "result"]);
/** What the rules keep to check the next move, which a player does not look at. */
const BOOKKEEPING = new Set(["next_exposed_id", "declared_in_window", "last_declared_after_trick", "turn_index",
                             "turn_info", "visit", "exchange_done", "first_deal", "passes", "ending", "last_taker",
                             "closed_snapshot", "active", "phase", "won_sizes"]);

async function render(current: Table, listing: Listing): Promise<void> {
  const view = await service.view(current.game, current.token, current.seatKey);
  current.view = view;
  byId("status").textContent = current.toMove === null ? words.handOver
    : current.toMove === current.seat ? words.yourTurn : words.thinking(current.toMove);
  byId("hints").replaceChildren();
  // the other seats: their hands face down
  const sizes = Array.isArray(view["hand_sizes"]) ? view["hand_sizes"] : [];
  byId("opponents").replaceChildren(...sizes.flatMap((size, seat) => seat === current.seat ? [] : [
    el("div", { class: current.toMove === seat ? "opponent to-move" : "opponent" },
       el("div", { class: "name" }, seatName(current, seat)),
       el("div", { class: "cards backs" }, ...Array.from({ length: Math.min(Number(size), 12) }, () => back(words.backOf(seat)))),
       el("div", { class: "count" }, words.cards(Number(size))))]));
  // the middle of the table: trump, stock, trick, pile
  const middle: Node[] = [];
  const trump = view["trump_suit"] ?? view["trump"];
  if (typeof trump === "string") middle.push(el("div", { class: "trump" }, fieldName("trump", lang), ": ", suitSign(trump)));
  if (typeof view["trump_card"] === "string") middle.push(el("div", { class: "pile" }, cardNode(current, view["trump_card"])));
  const stock = view["stock_size"] ?? view["undealt_size"];
  if (typeof stock === "number" && stock > 0) {
    middle.push(el("div", { class: "pile stock" }, back(words.stock), el("span", { class: "count" }, `${words.stock}: ${stock}`)));
  }
  for (const field of ["trick", "pile"]) {
    const value = view[field];
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) {
      middle.push(el("div", { class: `zone ${field}` }, el("div", { class: "label" }, fieldName(field, lang)), valueNode(current, value, field)));
    }
  }
  byId("middle").replaceChildren(...middle);
  // everything else the seat sees, field by field
  byId("details").replaceChildren(...Object.entries(view).filter(([key]) => !SHOWN_APART.has(key) && !BOOKKEEPING.has(key)).map(([key, value]) =>
    el("div", { class: "detail" }, el("span", { class: "label" }, fieldName(key, lang)), valueNode(current, value, key))));
  renderHand(current, cardsOf(view["hand"]), listing.moves);
  renderFamilies(current, listing.families);
}

/** The hand: a card is a button when a legal move plays it; moves with choices or without
 * cards are buttons of their own. */
function renderHand(current: Table, hand: string[], moves: Wire[]): void {
  const byCard = new Map<string, Wire[]>();
  for (const listed of moves) for (const code of cardsOf(listed["cards"])) byCard.set(code, [...(byCard.get(code) ?? []), listed]);
  const played = new Set<string>();
  const cards = hand.map((code) => {
    const using = byCard.get(code) ?? [];
    const single = using.filter((listed) => cardsOf(listed["cards"]).length === 1);
    const button = el("button", { type: "button", class: "card-button", "data-card": code }, cardNode(current, code));
    if (!using.length) {
      button.disabled = true;
    } else if (single.length === 1 && using.length === 1 && single[0] !== undefined) {
      const only = single[0];
      played.add(code);
      button.addEventListener("click", () => void move(current, only));
    } else {  // the card's moves are offered, and the card shown pressed until one is chosen
      button.addEventListener("click", () => {
        for (const other of document.querySelectorAll("#hand .card-button")) other.setAttribute("aria-pressed", "false");
        button.setAttribute("aria-pressed", "true");
        choose(current, using);
      });
    }
    return button;
  });
  byId("hand").replaceChildren(...cards);
  const others = moves.filter((listed) => cardsOf(listed["cards"]).length !== 1 || !played.has(cardsOf(listed["cards"])[0] ?? ""));
  byId("moves-label").textContent = moves.length ? words.moves : "";
  choose(current, others.filter((listed) => !cardsOf(listed["cards"]).length || cardsOf(listed["cards"]).length > 1));
}

/** The moves to choose from, by type: what the type does said once, then a button for each move
 * showing what it plays (a move of no values is a button saying what it does). */
function choose(current: Table, moves: Wire[]): void {
  const byType = new Map<string, Wire[]>();
  for (const listed of moves) byType.set(String(listed["type"]), [...(byType.get(String(listed["type"])) ?? []), listed]);
  byId("moves").replaceChildren(...[...byType].map(([type, listed]) => {
    const buttons = listed.map((one) => {
      const values = moveValues(current, one);
      const button = el("button", { type: "button", class: "move", "data-move": type },
                        values.childNodes.length ? values : moveSaid(current, type));
      button.addEventListener("click", () => void move(current, one));
      return button;
    });
    const shown = listed.some((one) => moveValues(current, one).childNodes.length);
    return el("div", { class: "move-group" }, ...(shown ? [el("span", { class: "move-type" }, moveSaid(current, type))] : []), ...buttons);
  }));
}

/** Each family: a number per count it leaves open, what the choice still lacks, and a button that
 * plays the move once it lacks nothing. */
function renderFamilies(current: Table, families: Family[]): void {
  const section = byId("families");
  section.replaceChildren();
  if (!families.length) return;
  section.append(el("h3", {}, words.build));
  families.forEach((family, index) => {
    const built = builder(family);
    const groupName = (group: number) => {
      const shape = built.groups[group];
      if (shape === undefined) return "";
      if (shape.size !== null) return `${words.group(shape.key)} (${words.cards(shape.size)})`;
      return shape.top ? words.topGroup(words.meld(shape.key)) : words.meld(shape.key);
    };
    const inputs = built.counts.map((count, n) => el("input", {
      type: "number", min: String(count.least), max: String(count.most), value: String(count.least),
      id: `family-${index}-${n}`, "data-group": String(count.group), "data-count": count.kind,
    }));
    const lacking = el("ul", { class: "unmet", "aria-live": "polite" });
    const play = el("button", { type: "button", class: "move" }, words.play);
    const choice = () => inputs.map((input) => Number(input.value));
    const check = () => {
      const unmet = built.unmet(choice());
      lacking.replaceChildren(...unmet.map((item) => el("li", {}, words.unmet(item, groupName))));
      play.disabled = unmet.length > 0;
    };
    const groups = built.groups.map((_, group) => el("div", { class: "group" }, el("div", { class: "label" }, groupName(group)),
      ...built.counts.flatMap((count, n) => count.group !== group ? [] : [el("label", { for: `family-${index}-${n}` },
        el("span", { class: "cards tiny" }, ...countCards(current, count.table, count.kind === "twos" || count.kind === "jokers" ? count.cards.slice(0, 1) : count.cards)),
        ` ${words.counts[count.kind]} `, inputs[n] ?? "")])));
    for (const input of inputs) input.addEventListener("input", check);
    play.addEventListener("click", () => void move(current, built.move(choice())));
    const kind = family.type === "declare" ? `: ${kindName(current, family.kind)} × ${family.multiplicity}` : "";
    section.append(el("fieldset", { class: "family", "data-family": family.type },
      el("legend", {}, moveLabel(current, { type: family.type }), kind), ...groups, lacking, play));
    check();
  });
}

/** The cards a count takes from: a table source's exposed cards by their ids, else its cards. */
function countCards(current: Table, ids: number[], cards: string[]): SVGSVGElement[] {
  if (!ids.length) return cards.filter((code) => isCard(current, code)).map((code) => cardNode(current, code));
  const exposed = current.view["exposed"];
  const mine = Array.isArray(exposed) ? exposed[current.seat] : undefined;
  const shown = Array.isArray(mine) ? mine.filter(isObject) : [];
  return ids.flatMap((id) => {
    const card = shown.find((entry) => entry["id"] === id)?.["card"];
    return typeof card === "string" && isCard(current, card) ? [cardNode(current, card)] : [];
  });
}

/** What a value of `kind` is, in the game's words. */
function kindName(current: Table, kind: string): string {
  const said = current.detail.descriptions.kinds[kind];
  return said === undefined ? kind : said.split(":")[0] ?? said;  // its name, before what it is made of
}

/** What a move type does, without its rule citation. */
function moveSaid(current: Table, type: string): string {
  return (current.detail.descriptions.moves[type] ?? type).replace(/\s*\(§[^)]*\)/g, "").replace(/\.$/, "");
}

/** A move's values (its cards, suit, kind…), without its type and seat. */
function moveValues(current: Table, listed: Wire): HTMLElement {
  const values = el("span", { class: "move-values" });
  for (const [key, value] of Object.entries(listed)) {
    if (key === "type" || key === "seat" || value === null || value === false) continue;
    if (values.childNodes.length) values.append(" ");
    values.append(key === "suit" && typeof value === "string" ? suitSign(value)
      : key === "kind" && typeof value === "string" ? kindName(current, value)
      : key === "multiplicity" && typeof value === "number" ? `× ${value}`
      : key === "exposed_id" && typeof value === "number" ? exposedCard(current, value) : inlineNode(current, value));
  }
  return values;
}

function moveLabel(current: Table, listed: Wire): Node {
  const label = el("span", { class: "move-label" }, moveSaid(current, String(listed["type"])));
  const values = moveValues(current, listed);
  if (values.childNodes.length) label.append(" ", values);
  return label;
}

/** An exposed card of this seat, by its id. */
function exposedCard(current: Table, id: number): Node {
  return el("span", { class: "cards tiny" }, ...countCards(current, [id], []));
}

/** A move's value on one line: cards drawn small, a group's fields after one another. */
function inlineNode(current: Table, value: Json): Node {
  if (isCard(current, value)) return cardNode(current, value);
  if (Array.isArray(value)) return el("span", { class: "inline" }, ...value.map((item) => inlineNode(current, item)));
  if (isObject(value) && isCard(current, value["card"] ?? null)) {  // a card, and what a wild card stands for
    const { card, as } = value;
    const shown = [inlineNode(current, card ?? null)];
    if (typeof as === "string" && as !== card) shown.push(document.createTextNode("="), inlineNode(current, as));
    return el("span", { class: "inline" }, ...shown);
  }
  if (isObject(value)) {
    return el("span", { class: "inline group" }, ...Object.entries(value).filter(([, item]) => item !== null)
      .map(([key, item]) => el("span", {}, key === "cards" ? "" : `${fieldName(key, lang)} `, inlineNode(current, item))));
  }
  if (typeof value === "boolean") return document.createTextNode(value ? words.yes : words.no);
  return document.createTextNode(String(value));
}

/** An event's value where its description names the field (`kind`, `points`, `suit`). */
function eventValue(current: Table, field: string, value: Json | undefined): string | null {
  if (field === "kind" && typeof value === "string") return kindName(current, value);
  if (field === "suit" && typeof value === "string") return suitSign(value);
  if ((field === "to" || field === "seat") && typeof value === "number") return seatName(current, value);
  if (typeof value === "number" || typeof value === "string") return String(value);
  return null;
}

function logEvent(current: Table, event: Wire): void {
  const type = String(event["type"]);
  const seat = typeof event["seat"] === "number" ? seatName(current, event["seat"]) : "";
  const told = new Set<string>();
  const said = (current.detail.descriptions.events[type] ?? type).replace(/\s*\(§[^)]*\)/g, "")
    .replace(/`(\w+)`/g, (code, field: string) => {
      const value = eventValue(current, field, event[field]);
      if (value !== null) told.add(field);
      return value ?? code;
    });
  const line = el("li", { "data-event": type }, el("strong", {}, seat ? `${seat}: ` : ""), said);
  const cards = cardsOf(event["cards"]);
  if (cards.length) line.append(" ", el("span", { class: "cards tiny" }, ...cards.map((code) => cardNode(current, code))));
  if (typeof event["points"] === "number" && !told.has("points")) line.append(` (${event["points"]})`);
  const log = byId("log");
  log.prepend(line);
}

window.addEventListener("unhandledrejection", (event) => {
  byId("refusal").textContent = `${words.error}: ${String(event.reason)}`;
});
void start();
