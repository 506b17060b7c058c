// The table host's calls (`/v1/tables`, README "Tables for several people"): its paths are not
// in openapi.yaml, so their shapes are declared here, and every answer is checked against them
// at run time before the page reads it (the guards below), never cast.
import { type Json, type Refusal, type Wire, isObject } from "./api";
import type { BeziqueFamily, CanastaFamily, Family } from "./families";
import type { Lang } from "./words";

// --- the shapes ---------------------------------------------------------------------------------

export interface NewTable {
  game: string;
  players: number;
  options: Wire;
  computer_seats: number[];
  computer_level: number;
  turn_seconds: number | null;
  lang: Lang;
}

export interface Opened {
  table_id: string;
  game: string;
  players: number;
  /** One per person's seat. */
  invites: { seat: number; invite: string }[];
  spectator_key: string;
}

export interface Joined {
  table_id: string;
  seat: number;
  seat_key: string;
}

export interface SeatState {
  seat: number;
  computer: boolean;
  joined: boolean;
  away: boolean;
  connected: boolean;
}

/** The table as one seat (or a spectator: `seat` null) reads it. */
export interface Snapshot {
  table_id: string;
  game: string;
  players: number;
  options: Wire;
  seat: number | null;
  hand_number: number;
  move_number: number;
  to_move: number | null;
  /** The rules' view of the table for this seat. */
  view: Wire;
  /** The seat's legal moves when it is to move, else none. */
  moves: Wire[];
  /** Bezique's and Canasta's: moves too many to list, as families. */
  families?: Family[];
  seats: SeatState[];
  /** When the seat to move runs out of time (epoch seconds); null: no timer runs. */
  deadline: number | null;
  turn_seconds: number | null;
  computer_level: number;
  lang: Lang;
  match: Json;
  over: boolean;
  closed: boolean;
  last_event_id: number;
}

export type Played =
  | { legal: true; hand_number: number; move_number: number; to_move: number | null }
  | { legal: false; reason: Refusal; move_number: number };

export interface Ticket {
  ticket: string;
  expires_in: number;
}

/** One of the table's events, as its stream tells this reader. */
export type TableEvent = { id: number } & (
  | { type: "dealt"; hand_number: number; seed_commitment: string; to_move: number | null }
  | { type: "move"; seat: number; by: "seat" | "computer" | "timer"; hand_number: number; move_number: number; events: Wire[] }
  | { type: "joined" | "connected" | "reconnected" | "left" | "computer_took" | "taken_back" | "timer_expired"; seat: number }
  | { type: "timer_started"; seat: number; deadline: number; seconds: number }
  | { type: "hand_over"; hand_number: number; hand: Json; match: Json; record: Wire; server_seed: string; seed_commitment: string }
  | { type: "match_over"; match: Json }
  | { type: "table_closed"; reason: string }
  /** A type this page does not know (a newer host's): counted, not shown. */
  | { type: "other" });

// --- the guards ---------------------------------------------------------------------------------

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && Number(value) >= 0;
const isText = (value: unknown): value is string => typeof value === "string";
const isFlag = (value: unknown): value is boolean => typeof value === "boolean";
const isSeatOrNull = (value: unknown): value is number | null => value === null || isCount(value);
const isNumberOrNull = (value: unknown): value is number | null => value === null || isNumber(value);
const isTexts = (value: unknown): value is string[] => Array.isArray(value) && value.every(isText);
const isJson = (value: unknown): value is Json => value !== undefined;
const isLang = (value: unknown): value is Lang => value === "en" || value === "ru";
function isListOf<T>(value: unknown, each: (item: unknown) => item is T): value is T[] {
  return Array.isArray(value) && value.every(each);
}

function isInvite(value: unknown): value is Opened["invites"][number] {
  return isObject(value) && isCount(value["seat"]) && isText(value["invite"]);
}

function isOpened(value: unknown): value is Opened {
  return isObject(value) && isText(value["table_id"]) && isText(value["game"]) && isCount(value["players"])
    && isText(value["spectator_key"]) && isListOf(value["invites"], isInvite);
}

function isJoined(value: unknown): value is Joined {
  return isObject(value) && isText(value["table_id"]) && isCount(value["seat"]) && isText(value["seat_key"]);
}

function isSeatState(value: unknown): value is SeatState {
  return isObject(value) && isCount(value["seat"]) && isFlag(value["computer"]) && isFlag(value["joined"])
    && isFlag(value["away"]) && isFlag(value["connected"]);
}

function isSnapshot(value: unknown): value is Snapshot {
  return isObject(value) && isText(value["table_id"]) && isText(value["game"]) && isCount(value["players"])
    && isObject(value["options"]) && isSeatOrNull(value["seat"]) && isCount(value["hand_number"])
    && isCount(value["move_number"]) && isSeatOrNull(value["to_move"]) && isObject(value["view"])
    && isListOf(value["moves"], isObject) && (value["families"] === undefined || isListOf(value["families"], isFamily))
    && isListOf(value["seats"], isSeatState) && isNumberOrNull(value["deadline"])
    && isNumberOrNull(value["turn_seconds"]) && isCount(value["computer_level"]) && isLang(value["lang"])
    && isJson(value["match"]) && isFlag(value["over"]) && isFlag(value["closed"]) && isCount(value["last_event_id"]);
}

/** A family of moves (Canasta's, Bezique's) as the rules' schema has it. Its enumerated strings
 * (ranks, cards, kinds) are checked as strings: the page only sends them back in a move, which
 * the rules check. */
export function isFamily(value: unknown): value is Family {
  return isCanastaFamily(value) || isBeziqueFamily(value);
}

function isCanastaGroup(value: unknown): value is CanastaFamily["groups"][number] {
  return isObject(value) && isText(value["rank"]) && isTexts(value["naturals"]) && isCount(value["least"])
    && isCount(value["most_wild"]) && isNumber(value["points"]);
}

function isCanastaFamily(value: unknown): value is CanastaFamily {
  if (!isObject(value) || (value["type"] !== "meld" && value["type"] !== "take_pile")) return false;
  const left = value["cards_left"];
  return isCount(value["seat"]) && (value["top"] === null || isCanastaGroup(value["top"]))
    && isListOf(value["groups"], isCanastaGroup) && isTexts(value["twos"]) && isCount(value["jokers"])
    && isNumber(value["two_points"]) && isNumber(value["joker_points"]) && isNumber(value["top_card_points"])
    && isNumberOrNull(value["least_points"]) && isCount(value["cards"]) && isCount(value["least_canastas"])
    && isObject(left) && isCount(left["least"]) && isNumberOrNull(left["most"]);
}

function isBeziqueSource(value: unknown): value is BeziqueFamily["slots"][number]["from"][number] {
  return isObject(value) && isCount(value["most"]) && (value["card"] === undefined || isText(value["card"]))
    && (value["as"] === undefined || isText(value["as"]))
    && (value["table"] === undefined || isListOf(value["table"], isCount));
}

function isBeziqueSlot(value: unknown): value is BeziqueFamily["slots"][number] {
  return isObject(value) && isCount(value["count"]) && isListOf(value["from"], isBeziqueSource);
}

function isBeziqueFamily(value: unknown): value is BeziqueFamily {
  return isObject(value) && value["type"] === "declare" && isCount(value["seat"]) && isText(value["kind"])
    && isCount(value["multiplicity"]) && isCount(value["jokers"]) && isCount(value["count"])
    && isListOf(value["slots"], isBeziqueSlot);
}

function isPlayed(value: unknown): value is Played {
  if (!isObject(value) || !isCount(value["move_number"])) return false;
  if (value["legal"] === true) return isCount(value["hand_number"]) && isSeatOrNull(value["to_move"]);
  const reason = value["reason"];
  return value["legal"] === false && isObject(reason) && isText(reason["code"]) && isText(reason["message"])
    && isText(reason["rule"]);
}

function isTicket(value: unknown): value is Ticket {
  return isObject(value) && isText(value["ticket"]) && isCount(value["expires_in"]);
}

const SEAT_EVENTS = new Set(["joined", "connected", "reconnected", "left", "computer_took", "taken_back", "timer_expired"]);

/** An event of the stream (its `data`, parsed), or null for one that is not an event at all. */
export function tableEvent(value: unknown): TableEvent | null {
  if (!isObject(value) || !isCount(value["id"]) || !isText(value["type"])) return null;
  const id = value["id"], type = value["type"], seat = value["seat"];
  switch (type) {
    case "dealt": {
      const { hand_number, seed_commitment } = value, to_move = value["to_move"] ?? null;
      return isCount(hand_number) && isText(seed_commitment) && isSeatOrNull(to_move)
        ? { id, type, hand_number, seed_commitment, to_move } : null;
    }
    case "move": {
      const { by, hand_number, move_number, events } = value;
      return isCount(seat) && (by === "seat" || by === "computer" || by === "timer") && isCount(hand_number)
        && isCount(move_number) && isListOf(events, isObject)
        ? { id, type, seat, by, hand_number, move_number, events } : null;
    }
    case "timer_started": {
      const { deadline, seconds } = value;
      return isCount(seat) && isNumber(deadline) && isNumber(seconds) ? { id, type, seat, deadline, seconds } : null;
    }
    case "hand_over": {
      const { hand_number, hand, match, record, server_seed, seed_commitment } = value;
      return isCount(hand_number) && isJson(hand) && isJson(match) && isObject(record) && isText(server_seed)
        && isText(seed_commitment) ? { id, type, hand_number, hand, match, record, server_seed, seed_commitment } : null;
    }
    case "match_over":
      return isJson(value["match"]) ? { id, type, match: value["match"] } : null;
    case "table_closed":
      return { id, type, reason: String(value["reason"] ?? "") };
    case "joined": case "connected": case "reconnected": case "left": case "computer_took": case "taken_back":
    case "timer_expired":
      return isCount(seat) && SEAT_EVENTS.has(type) ? { id, type, seat } : null;
    default:
      return { id, type: "other" };
  }
}

// --- the calls ----------------------------------------------------------------------------------

/** A refusal of the host's: an RFC 9457 problem (its status, its type's last word, and the fields
 * it names). */
export class HostProblem extends Error {
  constructor(readonly status: number, readonly slug: string, readonly detail: string, readonly pointers: string[]) {
    super(detail || `HTTP ${status}`);
  }
}

async function problem(response: Response): Promise<HostProblem> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not a problem document: the status says enough
  }
  const known = isObject(body) ? body : {};
  const type = isText(known["type"]) ? known["type"] : "";
  const errors = Array.isArray(known["errors"]) ? known["errors"] : [];
  const pointers = errors.flatMap((item) => isObject(item) && isText(item["pointer"]) ? [item["pointer"]] : []);
  // the sentence for a person (`message`), else the developer's (`detail`)
  const said = isText(known["message"]) ? known["message"] : isText(known["detail"]) ? known["detail"] : "";
  return new HostProblem(response.status, type.split(":").pop() ?? "", said, pointers);
}

export class Tables {
  constructor(private readonly baseUrl: string, private readonly lang: Lang) {}

  async open(body: NewTable): Promise<Opened> {
    const { game, players, options, computer_seats, computer_level, turn_seconds, lang } = body;
    return this.call("", { method: "POST", body: { game, players, options, computer_seats, computer_level, turn_seconds, lang } },
                     null, isOpened);
  }

  async join(tableId: string, invite: string): Promise<Joined> {
    return this.call(`/${encodeURIComponent(tableId)}/join`, { method: "POST", body: { invite } }, null, isJoined);
  }

  /** The table as ``key``'s seat reads it, and how far the host's clock is ahead of this one's (ms). */
  async read(tableId: string, key: string): Promise<{ snapshot: Snapshot; skew: number }> {
    const asked = Date.now();
    const { answer, response } = await this.answer(`/${encodeURIComponent(tableId)}`, { method: "GET" }, key, isSnapshot);
    const date = Date.parse(response.headers.get("Date") ?? "");
    const skew = Number.isFinite(date) ? date + 500 - (asked + Date.now()) / 2 : 0;  // the header has whole seconds
    return { snapshot: answer, skew: Math.abs(skew) < 2000 ? 0 : skew };
  }

  async move(tableId: string, key: string, move: Wire, moveNumber: number): Promise<Played> {
    return this.call(`/${encodeURIComponent(tableId)}/moves`, { method: "POST", body: { move, move_number: moveNumber } },
                     key, isPlayed);
  }

  /** The computer plays ``key``'s seat (``computer``), or gives it back. */
  async seat(tableId: string, key: string, computer: boolean): Promise<void> {
    await this.call(`/${encodeURIComponent(tableId)}/seat`, { method: "POST", body: { computer } }, key, isObject);
  }

  async ticket(tableId: string, key: string): Promise<Ticket> {
    return this.call(`/${encodeURIComponent(tableId)}/tickets`, { method: "POST", body: {} }, key, isTicket);
  }

  /** The table's event stream after ``lastEventId``, opened with a ticket (an EventSource sends no
   * header, so the ticket proves the seat). */
  eventsUrl(tableId: string, ticket: string, lastEventId: number): string {
    const query = new URLSearchParams({ ticket, last_event_id: String(lastEventId), lang: this.lang });
    return `${this.baseUrl}/v1/tables/${encodeURIComponent(tableId)}/events?${query}`;
  }

  private async call<T>(path: string, request: { method: string; body?: Wire }, key: string | null,
                        guard: (value: unknown) => value is T): Promise<T> {
    return (await this.answer(path, request, key, guard)).answer;
  }

  private async answer<T>(path: string, request: { method: string; body?: Wire }, key: string | null,
                          guard: (value: unknown) => value is T): Promise<{ answer: T; response: Response }> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    if (key !== null) headers["Authorization"] = `Bearer ${key}`;
    const response = await fetch(`${this.baseUrl}/v1/tables${path}?lang=${this.lang}`, {
      method: request.method, headers, cache: "no-store",
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    if (!response.ok) throw await problem(response);
    const answer: unknown = await response.json();
    if (!guard(answer)) throw new HostProblem(response.status, "unexpected", `${request.method} /v1/tables${path}: ${JSON.stringify(answer)}`, []);
    return { answer, response };
  }
}
