// A table of several people at the table host (`/v1/tables`): opened from the setup's "Play with
// friends", joined by an invitation link, resumed by a seat's own link, watched by the
// spectators' link. Every link keeps its key in the address's fragment, which no request carries:
//   /play#table=<id>&invite=<invitation>   a seat, once: joining replaces it with the seat's own link
//   /play#table=<id>&seat_key=<key>        the seat, on any device, after any reload
//   /play#table=<id>&watch=<spectator key> the spectators' view
// The page draws the seat's view and moves as the rules answer them (draw.ts), sends a click's
// move with the hand's move number, and follows the table's event stream (a ticket opens it,
// as an EventSource sends no header), re-reading the table on every event that changes it.
import { type GameDetail, type GameId, type Json, Service, type TableSize, type Wire, isObject } from "./api";
import { type Seated, cardsOf, drawTable, logEvent, scoreNode } from "./draw";
import { apiBase, byId, el, labelPage, lang, params, selectById, sha256, speak, words } from "./page";
import { HostProblem, type Snapshot, type TableEvent, Tables, tableEvent } from "./tables";

type KeyKind = "invite" | "seat_key" | "watch";

/** A table's link, from the address's fragment. */
export interface Link {
  table: string;
  kind: KeyKind;
  key: string;
}

const KINDS: KeyKind[] = ["invite", "seat_key", "watch"];

export function tableLink(hash: string): Link | null {
  const fragment = new URLSearchParams(hash.replace(/^#/, ""));
  const table = fragment.get("table");
  if (!table) return null;
  for (const kind of KINDS) {
    const key = fragment.get(kind);
    if (key) return { table, kind, key };
  }
  return null;
}

/** The address of ``kind``'s link to ``table``: this page, its `api` kept, the key in the fragment. */
function linkTo(table: string, kind: KeyKind, key: string): string {
  const api = params.get("api");
  const query = api === null ? "" : `?${new URLSearchParams({ api })}`;
  return `${location.origin}${location.pathname}${query}#${fragment(table, kind, key)}`;
}

function fragment(table: string, kind: KeyKind, key: string): string {
  return new URLSearchParams({ table, [kind]: key }).toString();
}

const host = () => new Tables(apiBase, lang);

// --- opening a table ----------------------------------------------------------------------------

export interface Setup {
  game: GameId;
  detail: GameDetail;
  players: TableSize;
  options: Wire;
}

const TIMERS = [null, 15, 30, 60, 120, 300, 900, 3600, 86_400];
/** What the opener keeps of a table it opened: the invitations, to show again after a reload. */
const OPENED = "card-table-opened:";

/** The setup's "Play with friends": who plays each seat, a timer, the computer's strength. */
export function offerFriends(setup: () => Setup | null): void {
  byId("friends-label").textContent = words.friends;
  byId("friends-help").textContent = words.friendsHelp;
  byId("timer-label").textContent = words.timer;
  byId("level-label").textContent = words.level;
  selectById("timer").replaceChildren(...TIMERS.map((seconds) =>
    el("option", { value: seconds === null ? "" : String(seconds) }, seconds === null ? words.noTimer : words.duration(seconds))));
  const level = selectById("level");
  level.replaceChildren(...words.levels.map((said, n) => el("option", { value: String(n + 1) }, said)));
  level.value = "3";
  const players = selectById("players");
  players.addEventListener("change", () => drawSeatChoices(Number(players.value)));
  drawSeatChoices(Number(players.value));
  const create = byId("create");
  create.textContent = words.create;
  create.addEventListener("click", () => void openTable(setup()));
}

function drawSeatChoices(players: number): void {
  const seats = Number.isInteger(players) && players > 0 ? players : 0;
  byId("computer-seats").replaceChildren(...Array.from({ length: seats }, (_, seat) => {
    if (seat === 0) return el("span", { class: "seat-choice" }, `${words.seatChoice(0)}: ${words.seatYours}`);
    const choice = el("select", { "data-seat": String(seat) },
                      el("option", { value: "person" }, words.seatFriend), el("option", { value: "computer" }, words.seatComputer));
    return el("label", { class: "seat-choice" }, `${words.seatChoice(seat)}: `, choice);
  }));
}

let opening = false;

async function openTable(setup: Setup | null): Promise<void> {
  if (setup === null || opening) return;
  opening = true;
  try {
    const computer = [...document.querySelectorAll("#computer-seats select")].flatMap((choice) =>
      choice instanceof HTMLSelectElement && choice.value === "computer" ? [Number(choice.dataset["seat"])] : []);
    const timer = selectById("timer").value;
    const opened = await host().open({
      game: setup.game, players: setup.players, options: setup.options, computer_seats: computer,
      computer_level: Number(selectById("level").value), turn_seconds: timer === "" ? null : Number(timer), lang,
    });
    const mine = opened.invites.find((invite) => invite.seat === 0);
    if (mine === undefined) throw new Error("the table has no invitation for seat 1");
    sessionStorage.setItem(OPENED + opened.table_id, JSON.stringify({
      invites: opened.invites.filter((invite) => invite.seat !== 0), spectator_key: opened.spectator_key,
    }));
    const joined = await host().join(opened.table_id, mine.invite);
    await sit(opened.table_id, joined.seat_key, "seat_key");
  } catch (error) {
    if (!(error instanceof HostProblem)) throw error;
    byId("refusal").textContent = `${words.error}: ${error.message}`;
  } finally {
    opening = false;
  }
}

/** The invitations and the spectators' key of a table this tab opened. */
function openedHere(table: string): { invites: { seat: number; invite: string }[]; spectator: string | null } {
  let kept: unknown = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(OPENED + table) ?? "null");
  } catch {
    // nothing kept
  }
  if (!isObject(kept)) return { invites: [], spectator: null };
  const invites = Array.isArray(kept["invites"]) ? kept["invites"].flatMap((item) => {
    if (!isObject(item)) return [];
    const { seat, invite } = item;
    return typeof seat === "number" && typeof invite === "string" ? [{ seat, invite }] : [];
  }) : [];
  const spectator = kept["spectator_key"];
  return { invites, spectator: typeof spectator === "string" ? spectator : null };
}

// --- at the table -------------------------------------------------------------------------------

interface At {
  id: string;
  key: string;
  kind: KeyKind;
  game: GameId;
  detail: GameDetail;
  service: Service;
  snapshot: Snapshot;
  /** How far the host's clock is ahead of this one's, in ms. */
  skew: number;
  /** The last event the stream told. */
  lastEventId: number;
  source: EventSource | null;
  failures: number;
  /** A move sent and not yet answered, or answered and not yet read back: at this hand and move. */
  sent: { hand: number; move: number } | null;
  /** What a hand's check needs: the seed each deal committed to, the cards this seat was dealt. */
  commitments: Map<number, string>;
  dealt: Map<number, string[]>;
  /** The hand whose score is shown. */
  scored: number;
  /** The stream told the match is over. */
  matchOver: boolean;
  /** What the table's drawing was last made of: a table drawn again only when it changed. */
  drawn: string;
  /** What the seats' list was last drawn of. */
  seatsDrawn: string;
  /** A read of the table failed: it is read again when the stream opens again. */
  stale: boolean;
}

/** The table a link names: the invitation used (and the address made the seat's own link), then
 * the table as its seat sees it, followed as it changes. */
export async function atTable(link: Link): Promise<void> {
  labelPage();
  showTable();
  let { kind, key } = link;
  if (kind === "invite") {
    try {
      key = (await host().join(link.table, key)).seat_key;
      kind = "seat_key";
    } catch (error) {
      failed(error);
      return;
    }
  }
  await sit(link.table, key, kind);
}

async function sit(id: string, key: string, kind: KeyKind): Promise<void> {
  if (kind === "seat_key") history.replaceState(null, "", `#${fragment(id, kind, key)}`);  // a reload resumes the seat
  showTable();
  let read: Awaited<ReturnType<Tables["read"]>>;
  try {
    read = await host().read(id, key);
  } catch (error) {
    failed(error);
    return;
  }
  if (!params.has("lang")) speak(read.snapshot.lang);  // the table's language, unless the address asks for one
  labelPage();
  const service = new Service(apiBase, lang);
  const ids: string[] = (await service.games()).map((game) => game.id);
  const game = read.snapshot.game;
  if (!isGameId(game, ids)) throw new Error(`the rules have no game ${game}`);
  const at: At = {
    id, key, kind, game, detail: await service.game(game), service, snapshot: read.snapshot, skew: read.skew,
    lastEventId: 0, source: null, failures: 0, sent: null, commitments: new Map(), dealt: new Map(), scored: 0, drawn: "",
    stale: false, seatsDrawn: "", matchOver: false,
  };
  drawLinks(at);
  render(at);
  setInterval(() => drawClock(at), 250);
  await listen(at);
}

function isGameId(value: string, ids: string[]): value is GameId {
  return ids.includes(value);
}

/** The page as a table's: the setup and the hint put away. */
function showTable(): void {
  byId("setup").hidden = true;
  byId("hint").hidden = true;
  byId("sharing").hidden = false;
  byId("seats").hidden = false;
}

/** A link that opens nothing: said, with the way to another table. */
function failed(error: unknown): void {
  if (!(error instanceof HostProblem)) throw error;
  const said = error.status === 409 ? words.inviteUsed : error.status === 404 ? words.noTable
    : error.status === 401 || error.status === 403 ? words.badLink : `${words.error}: ${error.message}`;
  byId("refusal").textContent = said;
  byId("table").dataset["state"] = "failed";
  byId("sharing").replaceChildren(anotherTable());
}

function anotherTable(): HTMLElement {
  const query = new URLSearchParams(params);
  return el("a", { href: `${location.pathname}${query.size ? `?${query}` : ""}`, class: "another" }, words.newTable);
}

/** The links this page can give: the invitations of a table it opened, its seat's own, the spectators'. */
function drawLinks(at: At): void {
  const section = byId("sharing");
  const opened = openedHere(at.id);
  const rows: HTMLElement[] = opened.invites.map(({ seat, invite }) =>
    linkRow(`invite-${seat}`, words.inviteFor(seat), linkTo(at.id, "invite", invite)));
  if (at.kind === "seat_key") rows.push(linkRow("seat", words.ownLink, linkTo(at.id, "seat_key", at.key)));
  const spectator = at.kind === "watch" ? at.key : opened.spectator;
  if (spectator !== null) rows.push(linkRow("watch", words.spectatorLink, linkTo(at.id, "watch", spectator)));
  section.replaceChildren(el("h2", {}, words.links), ...rows,
                          ...(opened.invites.length ? [el("p", { class: "note" }, words.inviteOnce)] : []), anotherTable());
}

function linkRow(name: string, said: string, address: string): HTMLElement {
  const id = `link-${name}`;
  const input = el("input", { id, type: "text", readonly: "", value: address, "data-link": name });
  const copy = el("button", { type: "button", class: "copy", "data-copy": name }, words.copy);
  copy.addEventListener("click", () => void copyLink(input, copy));
  input.addEventListener("focus", () => input.select());
  return el("div", { class: "link" }, el("label", { for: id }, said), input, copy);
}

async function copyLink(input: HTMLInputElement, button: HTMLButtonElement): Promise<void> {
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    document.execCommand("copy");  // a page without the clipboard's permission: the selection
  }
  button.textContent = words.copied;
  setTimeout(() => { button.textContent = words.copy; }, 1500);
}

/** The seat as the drawing takes it. */
function seated(at: At): Seated {
  const snapshot = at.snapshot;
  return {
    detail: at.detail, seat: snapshot.seat, seats: snapshot.players, view: snapshot.view, toMove: snapshot.to_move,
    name: (seat) => seatName(at, seat),
    play: (chosen) => void play(at, chosen),
  };
}

function seatName(at: At, seat: number): string {
  if (seat === at.snapshot.seat) return words.you;
  return at.snapshot.seats[seat]?.computer ? words.computer(seat) : words.seat(seat);
}

/** The table as last read: its status, its seats, and (when the hand has moved) the table itself. */
function render(at: At): void {
  const snapshot = at.snapshot;
  if (at.sent !== null && (snapshot.hand_number !== at.sent.hand || snapshot.move_number !== at.sent.move)) at.sent = null;
  const table = byId("table");
  table.dataset["hand"] = String(snapshot.hand_number);
  table.dataset["moveNumber"] = String(snapshot.move_number);
  table.dataset["seat"] = snapshot.seat === null ? "spectator" : String(snapshot.seat);
  const mine = snapshot.seat !== null && snapshot.to_move === snapshot.seat;
  table.dataset["state"] = snapshot.over || snapshot.closed ? "over" : at.sent !== null ? "busy"
    : snapshot.seat === null ? "watching" : mine ? "your-turn" : "waiting";
  byId("status").textContent = `${words.hand(snapshot.hand_number)} — ${status(at)}`;
  if (snapshot.seat !== null && snapshot.move_number === 0) at.dealt.set(snapshot.hand_number, cardsOf(snapshot.view["hand"]));
  const drawn = JSON.stringify([snapshot.hand_number, snapshot.move_number, snapshot.over, snapshot.seats.map((seat) => seat.computer)]);
  if (drawn !== at.drawn) {
    at.drawn = drawn;
    drawTable(seated(at), { moves: snapshot.moves, families: snapshot.families ?? [] });
  }
  drawSeats(at);
  drawClock(at);
}

function status(at: At): string {
  const { seat, to_move: toMove, over, closed, seats } = at.snapshot;
  if (closed) return words.tableClosed;
  if (over) return words.matchOver;
  const whose = toMove === null ? "" : toMove === seat ? words.yourTurn
    : seats[toMove]?.computer || seats[toMove]?.away ? words.thinking(toMove) : words.toMove(seatName(at, toMove));
  return seat === null ? `${words.watching}. ${whose}` : whose;
}

/** Who sits where: a person, the computer, or the computer for a person for now; online or not;
 * and, for this seat, handing it to the computer or taking it back. */
function drawSeats(at: At): void {
  const { seats, to_move: toMove, seat: mine, over } = at.snapshot;
  const drawn = JSON.stringify([seats, toMove, mine, over]);
  if (drawn === at.seatsDrawn) return;  // its button stays where a click may be aiming
  at.seatsDrawn = drawn;
  const list = el("ul", {}, ...seats.map((place) => {
    const state = place.computer ? words.computerPlays : !place.joined ? words.invited
      : place.away ? words.away : place.connected ? words.online : words.offline;
    const classes = [place.seat === toMove ? "to-move" : "", !place.computer && place.joined && !place.connected ? "offline" : ""];
    return el("li", { "data-seat": String(place.seat), class: classes.join(" ").trim() },
              el("strong", {}, words.seat(place.seat)), place.seat === mine ? ` (${words.you.toLowerCase()})` : "",
              " — ", el("span", { class: "state" }, state));
  }));
  const parts: Node[] = [el("h2", { class: "visually-hidden" }, words.atTable), list];
  const place = mine === null ? undefined : seats[mine];
  if (place !== undefined && !place.computer && !over) {
    const away = el("button", { id: "away", type: "button" }, place.away ? words.takeBack : words.letComputer);
    away.addEventListener("click", () => void giveSeat(at, !place.away));
    parts.push(away);
  }
  byId("seats").replaceChildren(...parts);
}

/** The time the seat to move has left, counting down. */
function drawClock(at: At): void {
  const { deadline, to_move: toMove, over, turn_seconds: seconds } = at.snapshot;
  const clock = byId("clock");
  if (deadline === null || toMove === null || over) {
    clock.textContent = "";
    delete clock.dataset["seconds"];
    return;
  }
  let left = Math.max(0, Math.ceil((deadline * 1000 - (Date.now() + at.skew)) / 1000));
  if (seconds !== null) left = Math.min(left, seconds);
  const said = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  clock.textContent = `${toMove === at.snapshot.seat ? words.you : seatName(at, toMove)}: ${words.timeLeft(said)}`;
  clock.dataset["seconds"] = String(left);
}

// --- playing ------------------------------------------------------------------------------------

async function play(at: At, move: Wire): Promise<void> {
  const snapshot = at.snapshot;
  if (at.sent !== null || snapshot.seat === null || snapshot.to_move !== snapshot.seat) return;
  at.sent = { hand: snapshot.hand_number, move: snapshot.move_number };
  byId("table").dataset["state"] = "busy";
  const refusal = byId("refusal");
  try {
    const played = await host().move(at.id, at.key, move, snapshot.move_number);
    if (played.legal) {
      refusal.replaceChildren();
    } else {
      at.sent = null;
      const { message, rule, code } = played.reason;
      refusal.replaceChildren(el("strong", {}, `${words.refused}: `), message);
      refusal.dataset["code"] = code;
      refusal.dataset["rule"] = rule;
    }
  } catch (error) {
    at.sent = null;
    // another move came first (the seat's other page, the timer): the table as it is now
    if (!(error instanceof HostProblem) || error.status !== 409) throw error;
    refusal.textContent = words.moveTaken;
  }
  await refresh(at);
}

async function giveSeat(at: At, computer: boolean): Promise<void> {
  await host().seat(at.id, at.key, computer);
  await refresh(at);
}

let reading: Promise<void> | null = null;
let readAgain = false;

/** The table read again: one read at a time, and one more after it if another was asked for meanwhile. */
async function refresh(at: At): Promise<void> {
  if (reading !== null) {
    readAgain = true;
    return reading;
  }
  reading = (async () => {
    do {
      readAgain = false;
      const read = await host().read(at.id, at.key);
      if (read.snapshot.last_event_id >= at.snapshot.last_event_id) {
        at.snapshot = read.snapshot;
        at.skew = read.skew;
        render(at);
      }
    } while (readAgain);
  })();
  try {
    await reading;
  } finally {
    reading = null;
  }
}

// --- the table's events -------------------------------------------------------------------------

/** The stream from the last event seen, opened with a new ticket; opened again when it ends or fails. */
async function listen(at: At): Promise<void> {
  let ticket: string;
  try {
    ticket = (await host().ticket(at.id, at.key)).ticket;
  } catch (error) {
    if (error instanceof HostProblem && (error.status === 404 || error.status === 401)) {
      at.snapshot = { ...at.snapshot, closed: true, over: true, to_move: null, moves: [], families: [] };
      render(at);
      return;
    }
    reconnect(at);
    return;
  }
  const source = new EventSource(host().eventsUrl(at.id, ticket, at.lastEventId));
  at.source = source;
  source.addEventListener("open", () => {
    at.failures = 0;
    const page = document.body;
    page.dataset["streams"] = String(Number(page.dataset["streams"] ?? "0") + 1);  // opened so far in this page
    connection(true, at);
    if (at.stale) reread(at);
  });
  source.addEventListener("message", (message) => {
    let data: unknown;
    try {
      data = JSON.parse(String(message.data));
    } catch {
      return;
    }
    const event = tableEvent(data);
    if (event !== null) told(at, event);
  });
  source.addEventListener("error", () => {  // the stream's time is up, or the connection lost
    if (at.source !== source) return;
    source.close();
    at.source = null;
    reconnect(at);
  });
}

function reconnect(at: At): void {
  connection(false, at);
  const delay = Math.min(15_000, 500 * 2 ** at.failures);
  at.failures += 1;
  setTimeout(() => void listen(at), delay);
}

function connection(open: boolean, at: At): void {
  byId("table").dataset["stream"] = open ? "open" : "reconnecting";
  byId("connection").textContent = open || at.failures < 2 ? "" : words.reconnecting;  // not for a stream's planned end
}

function told(at: At, event: TableEvent): void {
  if (event.id <= at.lastEventId) return;
  at.lastEventId = event.id;
  logged(at, event);
  if (event.id > at.snapshot.last_event_id) reread(at);  // an event since the table was read: read it again
}

/** The table read again as an event asks; a read that fails is tried again when the stream reopens. */
function reread(at: At): void {
  refresh(at).then(() => { at.stale = false; }, () => { at.stale = true; });
}

/** The event in the log: each move's events as the rules describe them, and who chose it. */
function logged(at: At, event: TableEvent): void {
  const line = (said: string | Node, seat?: number): HTMLElement => {
    const node = el("li", { "data-event": event.type, "data-id": String(event.id) },
                    el("strong", {}, seat === undefined ? "" : `${seatName(at, seat)}: `), said);
    byId("log").prepend(node);
    return node;
  };
  switch (event.type) {
    case "dealt":
      at.commitments.set(event.hand_number, event.seed_commitment);
      line(words.dealt(event.hand_number));
      return;
    case "move": {
      const human = at.snapshot.seats[event.seat]?.computer === false;
      const note = event.by === "timer" ? words.byTimer : event.by === "computer" && human ? words.byComputer : "";
      const current = seated(at);
      for (const shown of event.events) {
        const node = logEvent(current, shown);
        node.dataset["id"] = String(event.id);
        node.dataset["move"] = String(event.move_number);
        node.dataset["by"] = event.by;
        if (note) node.append(el("small", { class: "by" }, `(${note})`));
      }
      return;
    }
    case "joined": case "connected": case "reconnected": case "left": case "computer_took": case "taken_back":
    case "timer_expired":
      line(words.told[event.type], event.seat);
      return;
    case "timer_started":
      return;  // the clock shows it
    case "hand_over":
      line(el("details", {}, el("summary", {}, words.handOverNumber(event.hand_number)), scoreNode(seated(at), event.hand, null)));
      void scored(at, event);
      return;
    case "match_over":
      line(words.matchOver);
      at.matchOver = true;
      if (!document.querySelector("#result .match-over")) byId("result").prepend(el("h2", { class: "match-over" }, words.matchOver));
      return;
    case "table_closed":
      line(event.reason === "idle" ? words.closedIdle : words.tableClosed);
      return;
    case "other":
      return;
  }
}

type HandOver = Extract<TableEvent, { type: "hand_over" }>;

/** A hand's score, and its checks: the seed revealed is the one committed to at the deal, the
 * cards this seat was dealt are the record's, and the record's moves, scored by the rules' open
 * `score`, score the same. */
async function scored(at: At, over: HandOver): Promise<void> {
  const hand = over.hand_number;
  if (hand < at.scored) return;
  at.scored = hand;
  const checks: [string, boolean][] = [];
  const committed = at.commitments.get(hand);
  if (committed !== undefined) checks.push([words.commitment, await sha256(over.server_seed) === committed]);
  const dealt = at.dealt.get(hand);
  const start = over.record["start"];
  const hands = isObject(start) && Array.isArray(start["hands"]) ? start["hands"] : [];
  const seat = at.snapshot.seat;
  if (dealt !== undefined && seat !== null) checks.push([words.dealtHand, sorted(cardsOf(hands[seat] ?? null)) === sorted(dealt)]);
  const again = await at.service.scoreRecord(at.game, over.record);
  checks.push([words.record, same(again["hand"] ?? null, over.hand)]);
  if (hand !== at.scored) return;  // a later hand's score came meanwhile
  const current = seated(at);
  const result = byId("result");
  result.replaceChildren(
    el("h2", {}, words.hand(hand)), scoreNode(current, over.hand, over.match),
    el("h3", {}, words.checks),
    el("ul", { class: "checks" }, ...checks.map(([said, ok]) => el("li", { class: ok ? "ok" : "failed" }, `${ok ? "✓" : "✗"} ${said}`))),
  );
  if (at.matchOver || at.snapshot.over) result.prepend(el("h2", { class: "match-over" }, words.matchOver));
  result.dataset["hand"] = String(hand);
  result.dataset["finished"] = checks.every(([, ok]) => ok) ? "verified" : "failed";
}

const sorted = (cards: string[]): string => JSON.stringify([...cards].sort());

/** Two JSON values alike, whatever the order of their objects' keys. */
function same(a: Json, b: Json): boolean {
  const canonical = (value: Json): Json => Array.isArray(value) ? value.map(canonical)
    : isObject(value) ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key] ?? null)])) : value;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
