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
    state = verdict.state;  // only a legal answer has the next state
    moves += verdict.events.length > 0 ? 1 : 0;
  }
  const scored = await client.POST(`${game}/score`, { body: { state } });
  if (!scored.data) throw new Error(`score: ${JSON.stringify(scored.error)}`);
  console.log(`__GAME__: ${moves} moves, hand ${JSON.stringify(scored.data.hand)}`);
  return moves;
}
