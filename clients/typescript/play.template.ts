// Plays one hand of __GAME__ through the generated client; tests/test_ts_client.py renders this
// template once per registered game (__GAME__, __PREFIX__) and type-checks it with tsc.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Move = components["schemas"]["__PREFIX__Move"];

export async function play__PREFIX__(baseUrl: string): Promise<number> {
  const client = createClient<paths>({ baseUrl });
  const game = "/v1/games/__GAME__";
  // Only the seed: players, dealer, options and match have defaults, so they may be left out.
  const dealt = await client.POST(`${game}/deal`, { body: { seed: "typescript" } });
  if (!dealt.data) throw new Error(`deal: ${JSON.stringify(dealt.error)}`);
  if (!("state" in dealt.data)) throw new Error("an open deal answers a state");  // not a sealed hand
  let state = dealt.data.state;
  let moves = 0;
  for (;;) {
    const listing = await client.POST(`${game}/legal-moves`, { body: { state } });
    if (!listing.data) throw new Error(`legal-moves: ${JSON.stringify(listing.error)}`);
    if (listing.data.to_move === null) break;
    const move: Move = listing.data.moves[0];
    const answer = await client.POST(`${game}/validate`, { body: { state, move } });
    if (!answer.data) throw new Error(`validate: ${JSON.stringify(answer.error)}`);
    const verdict = answer.data;
    if (!verdict.legal) {  // the union on `legal`: only an illegal answer has a reason
      throw new Error(`a listed move was refused: ${verdict.reason.code} (${verdict.reason.rule})`);
    }
    if (!("state" in verdict)) throw new Error("an open move answers a state");
    state = verdict.state;  // only a legal answer has the next state
    moves += verdict.events.length > 0 ? 1 : 0;
  }
  const scored = await client.POST(`${game}/score`, { body: { state } });
  if (!scored.data) throw new Error(`score: ${JSON.stringify(scored.error)}`);
  console.log(`__GAME__: ${moves} moves, hand ${JSON.stringify(scored.data.hand)}`);
  return moves + await playSealed(client, game);
}

// The same hand sealed: the client holds a token it cannot read, and each seat acts with its key.
async function playSealed(client: ReturnType<typeof createClient<paths>>, game: "/v1/games/__GAME__"): Promise<number> {
  const dealt = await client.POST(`${game}/deal`, { body: { seed: "typescript", sealed: true } });
  if (!dealt.data || !("token" in dealt.data)) throw new Error(`sealed deal: ${JSON.stringify(dealt.error)}`);
  const keys: string[] = dealt.data.seat_keys;
  let token = dealt.data.token;
  let toMove = dealt.data.to_move;
  let moves = 0;
  while (toMove !== null) {
    const listing = await client.POST(`${game}/legal-moves`, { body: { token, seat_key: keys[toMove] } });
    if (!listing.data) throw new Error(`sealed legal-moves: ${JSON.stringify(listing.error)}`);
    const move: Move = listing.data.moves[0];
    const answer = await client.POST(`${game}/validate`, { body: { token, seat_key: keys[move.seat], move } });
    if (!answer.data || !answer.data.legal || !("token" in answer.data)) {
      throw new Error(`sealed validate: ${JSON.stringify(answer.error ?? answer.data)}`);
    }
    token = answer.data.token;
    toMove = answer.data.to_move;
    moves += 1;
  }
  const scored = await client.POST(`${game}/score`, { body: { token } });
  if (!scored.data || scored.data.server_seed === undefined) throw new Error(`sealed score: ${JSON.stringify(scored.error)}`);
  console.log(`__GAME__ sealed: ${moves} moves, seed ${scored.data.server_seed.slice(0, 8)}...`);
  return moves;
}
