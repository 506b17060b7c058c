// Plays __GAME__ through the generated client, written the way a front end would write it: no
// `in` guards, no non-null assertions, no casts. tests/test_ts_client.py renders this template
// once per registered game (its id, its schemas' prefix, its table sizes, its private draw, a card
// event everyone sees and what each event type does to hands), type-checks
// it with `tsc --strict` and runs it against the live server.
//
// 1. An open hand: the client keeps the state, plays the first legal move until the hand is over,
//    and scores it.
// 2. A sealed hand at every table size: every seat is its own object, with its own client, its own
//    key and its own copy of the latest token, which the table hands on after each move, as a relay
//    would. The seat to move lists its moves and plays the first; then every seat fetches the
//    events since the last move it has, follows its hand and the others' sizes with them, and
//    checks them against its view.
// 3. The sealed score: its record, scored in the open, gives the same hand, and the server's seed
//    is the one the deal committed to.
import createClient from "openapi-fetch";
import type { Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Card = Schemas["__PREFIX__Card"];
type Move = Schemas["__PREFIX__Move"];
type GameEvent = Schemas["__PREFIX__Event"];
type Played = Schemas["__PREFIX__SealedValidateLegal"];
type SealedScore = Schemas["__PREFIX__SealedScoreOut"];
type Players = NonNullable<Schemas["__PREFIX__SealedDealIn"]["players"]>;

const game = "/v1/games/__GAME__";
const tableSizes: Players[] = [__PLAYERS__];

/** What an event does to hands: its cards enter (1) or leave (-1) `seat`'s hand, go from `seat`'s
 * to `to`'s ("to"), or neither (0). One entry per event type of the game, no more: tsc checks. */
const handEffects: Record<GameEvent["type"], -1 | 0 | 1 | "to"> = __EFFECTS__;

/** What every event of every game has in common. Any event of the game is one (tsc checks that
 * too), so code that only moves cards between hands needs no switch on the type. */
type AnyEvent = { type: GameEvent["type"]; seat: number | null; cards?: Card[]; count?: number; to?: number };

function fail(what: string, detail: unknown): never {
  throw new Error(`__GAME__ ${what}: ${JSON.stringify(detail)}`);
}

const sorted = (cards: Card[]): string => JSON.stringify([...cards].sort());

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function play__PREFIX__(baseUrl: string): Promise<void> {
  const client = createClient<paths>({ baseUrl });
  await playOpen(client);
  const detail = await client.GET(game);
  if (!detail.data) fail("game", detail.error);
  if (JSON.stringify(detail.data.players) !== JSON.stringify(tableSizes)) fail("table sizes", detail.data.players);
  await inRussian(client);
  for (const players of tableSizes) await playSealed(baseUrl, players);
}

const cyrillic = /[а-яё]/i;

/** The `lang` parameter: the game's card names and move descriptions, and a refusal, in Russian;
 * then the `Accept-Language` header. */
async function inRussian(client: Client<paths>): Promise<void> {
  const ru: { query: { lang: "ru" } } = { query: { lang: "ru" } };
  const detail = await client.GET(game, { params: ru });
  if (!detail.data) fail("game in Russian", detail.error);
  if (detail.response.headers.get("Content-Language") !== "ru") fail("Content-Language", detail.response.headers.get("Content-Language"));
  const deck: Card[] = detail.data.deck_cards; // the game's own cards, not any string
  const first = deck[0] ?? fail("an empty deck", deck);
  const named = [detail.data.card_names[first], ...Object.values(detail.data.descriptions.moves)];
  if (!named.every((text) => text !== undefined && cyrillic.test(text))) fail("Russian names", named);
  const dealt = await client.POST(`${game}/deal`, { body: { seed: "russian" }, params: ru });
  if (!dealt.data) fail("deal", dealt.error);
  const state = dealt.data.state;
  const listing = await client.POST(`${game}/legal-moves`, { body: { state }, params: ru });
  const move: Move | undefined = listing.data?.moves[0];
  if (move === undefined) fail("nothing to play", listing.data);
  const answer = await client.POST(`${game}/validate`, { body: { state, move: { ...move, seat: move.seat === 0 ? 1 : 0 } }, params: ru });
  if (!answer.data) fail("validate", answer.error);
  if (answer.data.legal || !cyrillic.test(answer.data.reason.message)) fail("a refusal in Russian", answer.data);
  // The header, declared in the document, typed like any parameter.
  const asked = await client.GET(game, { params: { header: { "Accept-Language": "ru, en;q=0.5" } } });
  if (asked.response.headers.get("Content-Language") !== "ru") fail("Accept-Language", asked.response.headers.get("Content-Language"));
}

async function playOpen(client: Client<paths>): Promise<void> {
  // Only the seed: players, dealer, options and match have defaults, so they may be left out.
  const dealt = await client.POST(`${game}/deal`, { body: { seed: "typescript" } });
  if (!dealt.data) fail("deal", dealt.error);
  let state = dealt.data.state;  // sent back with every request as it came
  let moves = 0;
  for (;;) {
    const listing = await client.POST(`${game}/legal-moves`, { body: { state } });
    if (!listing.data) fail("legal-moves", listing.error);
    if (listing.data.to_move === null) break;
    const move: Move | undefined = listing.data.moves[0];
    if (move === undefined) fail("nothing to play", listing.data);
    const answer = await client.POST(`${game}/validate`, { body: { state, move } });
    if (!answer.data) fail("validate", answer.error);
    const verdict = answer.data;
    if (!verdict.legal) fail("a listed move was refused", verdict.reason);  // only a refusal has a reason
    state = verdict.state;  // only a legal move has the next state
    moves += 1;
  }
  const scored = await client.POST(`${game}/score`, { body: { state } });
  if (!scored.data) fail("score", scored.error);
  console.log(`__GAME__: ${moves} moves, hand ${JSON.stringify(scored.data.hand)}`);
}

/** One player: a client of its own, its seat's key, and the latest token the table gave it. */
class Seat {
  private readonly client: Client<paths>;
  private token: string;
  /** The last move whose events this seat has. */
  private moveNumber = 0;
  /** Every event this seat was sent, move by move. */
  readonly events: GameEvent[][] = [];
  /** The hand as its events say, and every seat's hand size. */
  private hand: Card[] = [];
  private sizes: number[] = [];
  /** The hand this seat was dealt, as its first view showed it. */
  dealt: Card[] = [];

  constructor(baseUrl: string, readonly seat: number, private readonly key: string, token: string,
              private readonly handId: string) {
    this.client = createClient<paths>({ baseUrl });
    this.token = token;
  }

  /** The table passes on the latest token after every move. */
  receive(token: string): void {
    this.token = token;
  }

  private same(answer: { hand_id: string }, what: string): void {
    if (answer.hand_id !== this.handId) fail(`seat ${this.seat} ${what}: another hand`, answer);
  }

  /** Its turn: the computer player's move for its seat, which must be one of its legal moves. */
  async play(): Promise<Played> {
    await this.look();
    const listing = await this.client.POST(`${game}/sealed/legal-moves`, {
      body: { token: this.token, seat_key: this.key } });
    if (!listing.data) fail(`seat ${this.seat} legal-moves`, listing.error);
    this.same(listing.data, "legal-moves");
    if (listing.data.to_move !== this.seat) fail(`seat ${this.seat} is not to move`, listing.data.to_move);
    const advice = await this.client.POST(`${game}/sealed/suggest`, {
      body: { token: this.token, seat_key: this.key, budget_ms: 1, seed: "typescript" } });
    if (!advice.data) fail(`seat ${this.seat} suggest`, advice.error);
    this.same(advice.data, "suggest");
    const move: Move = advice.data.move;
    const weighed = advice.data.candidates.map((candidate) => candidate.value ?? 0);
    if (weighed.length === 0) fail(`seat ${this.seat}: a suggestion weighs its move`, advice.data);
    const text = JSON.stringify(move);
    if (!listing.data.moves.some((listed) => JSON.stringify(listed) === text)) fail(`seat ${this.seat}: not a legal move`, move);
    const answer = await this.client.POST(`${game}/sealed/validate`, {
      body: { token: this.token, seat_key: this.key, move } });
    if (!answer.data) fail(`seat ${this.seat} validate`, answer.error);
    const verdict = answer.data;
    this.same(verdict, "validate");
    if (!verdict.legal) fail(`seat ${this.seat}: a listed move was refused`, verdict.reason);
    return verdict;
  }

  /** What it may see: its hand, which must be the one its events made. */
  async look(): Promise<void> {
    const answer = await this.client.POST(`${game}/sealed/view`, { body: { token: this.token, seat_key: this.key } });
    if (!answer.data) fail(`seat ${this.seat} view`, answer.error);
    this.same(answer.data, "view");
    if (answer.data.move_number !== this.moveNumber) fail(`seat ${this.seat} looked at another move`, answer.data.move_number);
    const view = answer.data.view;
    const hand: Card[] = view.hand;  // a seat's own hand, always there
    if (this.moveNumber === 0) {
      this.hand = [...hand];
      this.sizes = [...view.hand_sizes];
      this.dealt = [...hand];
    }
    if (sorted(hand) !== sorted(this.hand)) fail(`seat ${this.seat}'s events made another hand`, [hand, this.hand]);
    if (JSON.stringify(view.hand_sizes) !== JSON.stringify(this.sizes)) fail(`seat ${this.seat}'s events made other sizes`, [view.hand_sizes, this.sizes]);
  }

  /** The events of every move since the last it has, in order. */
  async catchUp(): Promise<void> {
    const answer = await this.client.POST(`${game}/sealed/events`, {
      body: { token: this.token, seat_key: this.key, since: this.moveNumber } });
    if (!answer.data) fail(`seat ${this.seat} events`, answer.error);
    this.same(answer.data, "events");
    for (const { move_number, events } of answer.data.moves) {
      if (move_number !== this.moveNumber + 1) fail(`seat ${this.seat}: move ${move_number} after ${this.moveNumber}`, events);
      this.moveNumber = move_number;
      this.events.push(events);
      for (const event of events) {
        this.check(event);
        this.follow(event);
      }
    }
    if (this.moveNumber !== answer.data.move_number) fail(`seat ${this.seat} is behind`, answer.data.move_number);
  }

  /** A draw from the hidden stock: everyone is told how many cards, only the drawer which. A
   * card played is shown to everyone. */
  private check(event: GameEvent): void {
    switch (event.type) {
      case "__SHOWN__":
        if (event.cards.length === 0) fail("no card shown", event);
        break;
      case "__DRAW__":
        if ((event.cards !== undefined) !== (event.seat === this.seat)) fail(`seat ${this.seat} saw a draw`, event);
        if (event.cards !== undefined && event.cards.length !== event.count) fail("a draw miscounted", event);
        break;
      case "hand_over":
        if (event.seat !== null && (event.seat < 0 || event.seat >= this.sizes.length)) fail("no such winner", event);
        break;
      default:
        break;
    }
  }

  /** Cards into and out of hands: this seat's by card, the others' by number. */
  private follow(event: AnyEvent): void {
    const effect = handEffects[event.type];
    if (effect === 0) return;
    const seat = event.seat;
    if (seat === null) return fail("cards moved without a seat", event);
    const count = event.cards?.length ?? event.count ?? 0;
    if (count === 0) fail("no cards moved", event);
    const into = effect === "to" ? event.to ?? fail("cards given to nobody", event) : effect === 1 ? seat : undefined;
    const from = effect === "to" || effect === -1 ? seat : undefined;
    if (from !== undefined) {
      this.sizes[from] -= count;
      if (from === this.seat) this.take(event, event.cards ?? fail(`seat ${this.seat} was not told its cards`, event));
    }
    if (into !== undefined) {
      this.sizes[into] += count;
      if (into === this.seat) this.hand.push(...(event.cards ?? fail(`seat ${this.seat} was not told its cards`, event)));
    }
  }

  private take(event: AnyEvent, cards: Card[]): void {
    for (const card of cards) {
      const at = this.hand.indexOf(card);
      if (at < 0) fail(`seat ${this.seat} gave a card it does not hold`, event);
      this.hand.splice(at, 1);
    }
  }
}

async function playSealed(baseUrl: string, players: Players): Promise<void> {
  const table = createClient<paths>({ baseUrl });
  const dealt = await table.POST(`${game}/sealed/deal`, { body: { seed: "typescript", players } });
  if (!dealt.data) fail("sealed deal", dealt.error);
  const handId = dealt.data.hand_id;
  const token = dealt.data.token;
  const seats = dealt.data.seat_keys.map((key, seat) => new Seat(baseUrl, seat, key, token, handId));
  if (seats.length !== players) fail("a key per seat", dealt.data.seat_keys.length);
  await Promise.all(seats.map((seat) => seat.look()));
  let toMove = dealt.data.to_move;
  let moveNumber = dealt.data.move_number;
  let latest = token;
  while (toMove !== null) {
    const mover = seats[toMove];
    if (mover === undefined) fail("no such seat to move", toMove);
    const played = await mover.play();
    // The relay's rule: an answer counts when its number is one more than the last it saw.
    if (played.move_number !== moveNumber + 1) fail(`move ${played.move_number} after ${moveNumber}`, played.events);
    moveNumber = played.move_number;
    toMove = played.to_move;
    latest = played.token;
    for (const seat of seats) seat.receive(latest);
    await Promise.all(seats.map((seat) => seat.catchUp()));
    // Every seat sees the same events, its own draws with their cards; the relay's public copy
    // has the same types, and the mover was answered what it fetched.
    const types = JSON.stringify(played.public_events.map((event) => event.type));
    for (const seat of seats) {
      const events = seat.events[moveNumber - 1] ?? fail(`seat ${seat.seat} lacks move ${moveNumber}`, seat.events.length);
      if (JSON.stringify(events.map((event) => event.type)) !== types) fail(`seat ${seat.seat} saw other events`, events);
    }
    if (JSON.stringify(mover.events[moveNumber - 1]) !== JSON.stringify(played.events)) fail("the mover's events", played.events);
  }
  await Promise.all(seats.map((seat) => seat.look()));
  const scored = await table.POST(`${game}/sealed/score`, { body: { token: latest } });
  if (!scored.data) fail("sealed score", scored.error);
  await checkRecord(table, scored.data, dealt.data.seed_commitment, seats);
  const events = seats.reduce((total, seat) => total + seat.events.flat().length, 0);
  console.log(`__GAME__ sealed, ${players} players: ${moveNumber} moves, ${events} events to ${players} seats, `
    + `hand ${JSON.stringify(scored.data.hand)}`);
}

/** Anyone can check a sealed hand once it is scored: the deal against the commitment, and every
 * move by scoring the record in the open. */
async function checkRecord(client: Client<paths>, scored: SealedScore, commitment: string, seats: Seat[]): Promise<void> {
  if (await sha256(scored.server_seed) !== commitment || scored.seed_commitment !== commitment) {
    fail("the server's seed is not the one committed to", [scored.server_seed, commitment]);
  }
  if (scored.record.moves.length !== scored.move_number) fail("a record of every move", scored.record.moves.length);
  for (const seat of seats) {
    const dealt = scored.record.start.hands[seat.seat] ?? fail(`no hand for seat ${seat.seat}`, scored.record.start);
    if (sorted(dealt) !== sorted(seat.dealt)) fail(`seat ${seat.seat} was dealt another hand`, [dealt, seat.dealt]);
  }
  const replayed = await client.POST(`${game}/score`, { body: { record: scored.record } });
  if (!replayed.data) fail("score of the record", replayed.error);
  if (JSON.stringify(replayed.data.hand) !== JSON.stringify(scored.hand)) fail("the record scores another hand", [replayed.data.hand, scored.hand]);
  if (JSON.stringify(replayed.data.state) !== JSON.stringify(scored.state)) fail("the record ends in another state", replayed.data.state);
}
