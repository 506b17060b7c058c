// The table: a person at seat 0 against the computer player at every other seat, on the public
// API only. The page holds its own seat key and the computer key, never another seat's key or
// hand: the service deals (`sealed/deal-against-computer`) and plays the computer's seats
// (`sealed/computer-move`); the person's seat follows every move through its own events.
// An address whose fragment names a table (`#table=…`) is a table of several people instead
// (friends.ts), which the setup's "Play with friends" opens.
import { type GameDetail, type GameId, type Json, type Listing, type Moved, type Refusal, Service, ServiceError, type Wire, isObject, isTableSize } from "./api";
import { type Seated, cardsOf, drawTable, logEvent, moveLabel, scoreNode } from "./draw";
import { atTable, offerFriends, tableLink } from "./friends";
import { apiBase, byId, el, labelPage, lang, params, selectById, sha256, sleep, words } from "./page";
import { number } from "./words";

/** Milliseconds the computer may think a move, and between two of its shown events (a test asks for less). */
const budgetMs = Number(params.get("budget") ?? 200);
const pauseMs = Number(params.get("pause") ?? 350);
const service = new Service(apiBase, lang);

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

const NOTHING: Listing = { moves: [], families: [] };

function isGameId(value: string, ids: string[]): value is GameId {
  return ids.includes(value);
}

// --- choosing a game ----------------------------------------------------------------------------

async function start(): Promise<void> {
  // any other fragment (another table's link pasted into this tab) is another page
  window.addEventListener("hashchange", () => location.reload());
  const link = tableLink(location.hash);
  if (link !== null) {
    await atTable(link);
    return;
  }
  labelPage();
  const games = await service.games();
  const select = selectById("game");
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
  offerFriends(() => {
    const players = Number(selectById("players").value);
    return chosen === null || !isTableSize(players) ? null
      : { game: chosen.game, detail: chosen.detail, players, options: optionsChosen(chosen.detail) };
  });
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
    for (const event of events) logEvent(seated(table), event);
  }
  await play();
}

let chosen: { game: GameId; detail: GameDetail } | null = null;

async function chooseGame(id: string, ids: string[]): Promise<void> {
  if (!isGameId(id, ids)) return;
  const detail = await service.game(id);
  chosen = { game: id, detail };
  const players = selectById("players");
  byId("players-label").textContent = words.players;
  players.replaceChildren(...detail.players.map((n) => el("option", { value: String(n) }, String(n))));
  players.value = params.get("players") ?? String(detail.default_players);
  players.dispatchEvent(new Event("change"));  // the seats offered to friends
  renderOptions(detail);
}

/** The game's options, each said as the game's description says it: a choice by its sentence, a
 * switch by what it turns on, a number by what it counts. */
function renderOptions(detail: GameDetail): void {
  const form = byId("options");
  form.replaceChildren(el("legend", {}, words.options));
  for (const [name, value] of Object.entries(detail.options)) {
    if (name === "players") continue;  // the table size, chosen above (Bura's options repeat it)
    const text = detail.descriptions.options[name];
    const said = text?.description ?? "";
    const label = el("label", {}, said);
    const choices = Object.entries(text?.choices ?? {});
    let input: HTMLInputElement | HTMLSelectElement;
    if (choices.length) {
      input = el("select", { name });
      for (const [choice, chosenSaid] of choices) input.append(el("option", { value: choice }, chosenSaid));
      input.value = String(value);
    } else if (typeof value === "boolean") {
      input = el("input", { type: "checkbox", name });
      input.checked = value;
    } else {
      input = el("input", { type: "number", name, value: String(value) });
    }
    const row = el("div", { class: "option" }, label);
    if (input instanceof HTMLSelectElement) label.append(input);
    else label.prepend(input);
    form.append(row);
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
      logEvent(seated(current), event);
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
    refusal.replaceChildren(el("strong", {}, `${words.refused}: `), answer.message);
    refusal.dataset["code"] = answer.code;
    refusal.dataset["rule"] = answer.rule;
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
    list.append(el("li", {}, moveLabel(seated(current), candidate.move), " — ",
                   candidate.value === null ? "…" : number(candidate.value, lang, 2)));
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
    scoreNode(seated(current), scored["hand"] ?? null, scored["match"] ?? null),
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

const sorted = (cards: string[]): string => JSON.stringify([...cards].sort());

// --- drawing the table --------------------------------------------------------------------------

/** The person's seat as the drawing takes it: every other seat is the computer's. */
function seated(current: Table): Seated {
  return {
    detail: current.detail, seat: current.seat, seats: current.seats, view: current.view, toMove: current.toMove,
    name: (seat) => seat === current.seat ? words.you : words.computer(seat),
    play: (chosenMove) => void move(current, chosenMove),
  };
}

async function render(current: Table, listing: Listing): Promise<void> {
  const view = await service.view(current.game, current.token, current.seatKey);
  current.view = view;
  byId("status").textContent = current.toMove === null ? words.handOver
    : current.toMove === current.seat ? words.yourTurn : words.thinking(current.toMove);
  drawTable(seated(current), listing);
}

window.addEventListener("unhandledrejection", (event) => {
  const reason: unknown = event.reason;
  // a problem of the service's: its sentence for a person (`message`), never its codes
  const problem = reason instanceof ServiceError && isObject(reason.problem) ? reason.problem : null;
  const said = problem !== null && typeof problem["message"] === "string" ? problem["message"] : String(reason);
  byId("refusal").textContent = `${words.error}: ${said}`;
});
void start();

