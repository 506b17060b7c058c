// The service, through the client generated from its OpenAPI document (openapi-typescript's
// types, openapi-fetch's calls). Every game's paths are typed; a game id is any the document has.
import createClient from "openapi-fetch";
import type { Family } from "./families";
import type { Json, Wire } from "./json";
import type { components, paths } from "./schema";
import type { Lang } from "./words";

type Schemas = components["schemas"];
/** Every game the document has: the ids of its `/v1/games/{game}/sealed/view` paths. */
export type GameId = keyof paths extends infer K ? (K extends `/v1/games/${infer G}/sealed/view` ? G : never) : never;
export type GameDetail = Schemas["GameDetail"];
export type GameSummary = Schemas["GameSummary"];
type DealBody = NonNullable<paths[`/v1/games/${GameId}/sealed/deal-against-computer`]["post"]["requestBody"]>["content"]["application/json"];
/** A table size of some game: which one a game has, its description says (`players`). */
export type TableSize = NonNullable<DealBody["players"]>;

/** ``n`` as a table size the service will check against the game's own. */
export function isTableSize(n: number): n is TableSize {
  return Number.isInteger(n) && n >= 2 && n <= 6;
}
export type Problem = Schemas["Problem"];

export type { Json, Wire };

export interface Refusal {
  code: string;
  message: string;
  rule: string;
}

export class ServiceError extends Error {
  constructor(readonly what: string, readonly problem: unknown) {
    super(`${what}: ${JSON.stringify(problem)}`);
  }
}

/** ``call`` again, after its Retry-After, while the service answers that it is busy: the computer
 * player's paths are paced per address (429) and its searches bounded per instance (503). A
 * computer move asked again on the same token is the same move, so a retry is safe. */
async function patiently<T extends { response: Response }>(call: () => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const answer = await call();
    const status = answer.response.status;
    if ((status !== 429 && status !== 503) || attempt >= tries) return answer;
    const seconds = Number(answer.response.headers.get("Retry-After") ?? "1");
    await new Promise((resume) => setTimeout(resume, 1000 * (Number.isFinite(seconds) ? seconds : 1)));
  }
}

/** The calls the table makes, each in the page's language. */
export class Service {
  private readonly client;

  constructor(private readonly baseUrl: string, private readonly lang: Lang) {
    this.client = createClient<paths>({ baseUrl });
  }

  private get query(): { query: { lang: Lang } } {
    return { query: { lang: this.lang } };
  }

  async games(): Promise<GameSummary[]> {
    const { data, error } = await this.client.GET("/v1/games", { params: this.query });
    if (!data) throw new ServiceError("games", error);
    return data.games;
  }

  async game(game: GameId): Promise<GameDetail> {
    const { data, error } = await this.client.GET(`/v1/games/${game}`, { params: this.query });
    if (!data) throw new ServiceError("game", error);
    return data;
  }

  async deal(game: GameId, players: TableSize, options: Wire, matchToken: string | null): Promise<Dealt> {
    const { data, error } = await this.client.POST(`/v1/games/${game}/sealed/deal-against-computer`, {
      params: this.query, body: { players, seat: 0, options, match_token: matchToken },
    });
    if (!data) throw new ServiceError("deal", error);
    return data;
  }

  async view(game: GameId, token: string, seatKey: string): Promise<Wire> {
    const { data, error } = await this.client.POST(`/v1/games/${game}/sealed/view`, {
      params: this.query, body: { token, seat_key: seatKey },
    });
    if (!data) throw new ServiceError("view", error);
    return toWire(data.view);
  }

  /** The seat's legal moves: those listed one by one, and the families of those too many to list. */
  async legalMoves(game: GameId, token: string, seatKey: string): Promise<Listing> {
    const { data, error } = await this.client.POST(`/v1/games/${game}/sealed/legal-moves`, {
      params: this.query, body: { token, seat_key: seatKey },
    });
    if (!data) throw new ServiceError("legal-moves", error);
    return { moves: data.moves.map(toWire), families: "families" in data ? data.families : [] };
  }

  async validate(game: GameId, token: string, seatKey: string, move: Wire): Promise<Moved | Refusal> {
    const response = await fetch(this.url(game, "validate"), this.post({ token, seat_key: seatKey, move }));
    const answer: unknown = await response.json();
    if (!response.ok || !isObject(answer)) throw new ServiceError("validate", answer);
    if (answer["legal"] === false && isObject(answer["reason"])) return toRefusal(answer["reason"]);
    return toMoved(answer);
  }

  async computerMove(game: GameId, token: string, computerKey: string, budgetMs: number): Promise<Moved> {
    const { data, error } = await patiently(() => this.client.POST(`/v1/games/${game}/sealed/computer-move`, {
      params: this.query, body: { token, computer_key: computerKey, budget_ms: budgetMs },
    }));
    if (!data) throw new ServiceError("computer-move", error);
    return { token: data.token, toMove: data.to_move, moveNumber: data.move_number, events: [] };
  }

  async events(game: GameId, token: string, seatKey: string, since: number): Promise<Wire[][]> {
    const { data, error } = await this.client.POST(`/v1/games/${game}/sealed/events`, {
      params: this.query, body: { token, seat_key: seatKey, since },
    });
    if (!data) throw new ServiceError("events", error);
    return data.moves.map((move) => move.events.map(toWire));
  }

  async suggest(game: GameId, token: string, seatKey: string): Promise<{ move: Wire; value: number | null }[]> {
    const { data, error } = await patiently(() => this.client.POST(`/v1/games/${game}/sealed/suggest`, {
      params: this.query, body: { token, seat_key: seatKey, budget_ms: 250 },
    }));
    if (!data) throw new ServiceError("suggest", error);
    return data.candidates.map((candidate) => ({ move: toWire(candidate.move), value: candidate.value }));
  }

  async score(game: GameId, token: string): Promise<Wire> {
    const { data, error } = await this.client.POST(`/v1/games/${game}/sealed/score`, {
      params: this.query, body: { token },
    });
    if (!data) throw new ServiceError("score", error);
    return toWire(data);
  }

  /** The open score of a record: anyone's check that every move was legal. */
  async scoreRecord(game: GameId, record: Json): Promise<Wire> {
    const response = await fetch(this.url(game, "score", false), this.post({ record }));
    const answer: unknown = await response.json();
    if (!response.ok || !isObject(answer)) throw new ServiceError("score of the record", answer);
    return answer;
  }

  // A move is any of the game's moves, as legal-moves listed it: sent back as it came, as JSON.
  private url(game: GameId, operation: string, sealed = true): string {
    return `${this.baseUrl}/v1/games/${game}/${sealed ? "sealed/" : ""}${operation}?lang=${this.lang}`;
  }

  private post(body: Wire): RequestInit {
    return { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  }
}

/** What a deal against the computer answers, in every game. */
export interface Dealt {
  token: string;
  seat: number;
  seat_key: string;
  computer_key: string;
  seed_commitment: string;
  to_move: number | null;
}

export interface Listing {
  moves: Wire[];
  families: Family[];
}

export interface Moved {
  token: string;
  toMove: number | null;
  moveNumber: number;
  events: Wire[];
}

export function isObject(value: unknown): value is Wire {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function toWire(value: unknown): Wire {
  return isObject(value) ? value : {};
}

function toRefusal(reason: Wire): Refusal {
  return { code: String(reason["code"]), message: String(reason["message"]), rule: String(reason["rule"]) };
}

function toMoved(answer: Wire): Moved {
  const events = Array.isArray(answer["events"]) ? answer["events"].filter(isObject) : [];
  const toMove = answer["to_move"];
  return {
    token: String(answer["token"]), toMove: typeof toMove === "number" ? toMove : null,
    moveNumber: Number(answer["move_number"]), events,
  };
}
