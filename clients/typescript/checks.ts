// What a front end writes by hand must compile against the generated types: fields that have a
// default may be left out. Copied next to the generated schema by tests/test_ts_client.py.
import type { components } from "./schema.js";

type Schemas = components["schemas"];

export const play: Schemas["SixtySixPlay"] = { seat: 0, type: "play", cards: ["AS"] };  // no `marriage`
export const deal: Schemas["SixtySixDealIn"] = { seed: "s" };  // no players, dealer, options, match
export const spectator = (state: Schemas["SixtySixState"]): Schemas["SixtySixViewIn"] => ({ state });  // no seat
export const move: Schemas["BuraMove"] = { seat: 1, type: "molodka", cards: ["AH", "KH", "QH"] };
export const verdict = (answer: Schemas["KozelValidateOut"]): string =>
  answer.legal ? `${answer.events.length} events` : answer.reason.code;
export const sealedView: Schemas["SixtySixViewIn"] = { token: "AAAA" };  // a spectator: no seat_key
