// What a front end writes by hand must compile against the generated types: in a request, fields
// that have a default may be left out; an answer may be sent back as it came; unions narrow on
// their tag. Copied next to the generated schema by tests/test_ts_client.py.
import type { components } from "./schema.js";

type Schemas = components["schemas"];

export const play: Schemas["SixtySixPlayIn"] = { seat: 0, type: "play", cards: ["AS"] };  // no `marriage`
export const deal: Schemas["SixtySixDealIn"] = { seed: "s" };  // no players, dealer, options, match
export const sealedDeal: Schemas["BuraSealedDealIn"] = {};  // no seed, players, dealer, options, match_token
export const spectator = (state: Schemas["SixtySixState"]): Schemas["SixtySixSpectatorViewIn"] => ({ state });
export const move: Schemas["BuraMoveIn"] = { seat: 1, type: "molodka", cards: ["AH", "KH", "QH"] };
export const again = (listed: Schemas["KozelMove"], state: Schemas["KozelState"]): Schemas["KozelValidateIn"] =>
  ({ state, move: listed });  // a listed move and a state answered, sent back
export const verdict = (answer: Schemas["KozelValidateOut"]): string =>
  answer.legal ? `${answer.events.length} events` : answer.reason.code;
export const sealedVerdict = (answer: Schemas["CanastaSealedValidateOut"]): string =>
  answer.legal ? answer.token : answer.reason.code;
export const sealedSpectator: Schemas["SixtySixSealedSpectatorViewIn"] = { token: "AAAA" };  // no seat_key
export const seatHand = (answer: Schemas["SixtySixSealedViewOut"]): string[] => answer.view.hand;  // never null
export const everything: Schemas["BeziqueSealedEventsIn"] = { token: "AAAA" };  // no seat_key, since
export const rescore = (scored: Schemas["SixtySixSealedScoreOut"]): Schemas["SixtySixScoreIn"] =>
  ({ record: scored.record });  // a sealed score's record, checked in the open
export const cardsSeen = (event: Schemas["SixtySixEvent"]): number => {
  switch (event.type) {
    case "card_drawn": return event.cards?.length ?? 0;  // private: the drawer alone sees the cards
    case "card_played": return event.cards.length;  // public: always there
    default: return 0;
  }
};
export const winner = (event: Schemas["KozelEvent"]): number | null =>
  event.type === "hand_over" ? event.seat : null;  // null: a drawn hand
