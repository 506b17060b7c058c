"""Canasta, docs/rules/canasta.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource, codes
from service.errors import HandNotFinished, InvalidMatch, InvalidState
from service.games.base import DealSetup, GameInfo, MeldingGame, MeldingRules, Wire, WireForm, options_wire
from service.games.canasta import check, listing, play, rules, scoring, wire
from service.games.canasta import melds as m
from service.games.canasta.rules import Move, Options, Phase, State
from service.games.canasta.schemas import SCHEMAS

INFO = GameInfo(
    id="canasta", name_en="Canasta", name_ru="Канаста", player_counts=(2, 3, 4, 6), default_players=4,
    deck="two packs of 52 and four jokers (108 cards); three packs and six jokers (162) at six players. "
         "card_values are the classic game's; seed_13 counts A 11 and 9 to 3 at face value (§2.3)",
    card_values={code: m.value(card, m.CLASSIC) for code, card in
                 ((c.code, c) for c in rules.full_deck(6))},
    deck_cards=tuple(codes(rules.full_deck(4))), move_types=tuple(SCHEMAS.moves), reasons=rules.Reason,
    options=options_wire(Options()),
    event_types=("drew", "red_three_laid", "took_pile", "took_upcard", "melded", "joker_exchanged",
                 "discarded", "asked_to_go_out", "answered", "declined_pile", "went_out", "hand_over"),
    variants=m.VARIANTS,
)


def _sides(players: int, options: Options) -> int:
    if players not in rules.PLAYER_COUNTS[options.variant]:
        counts = rules.PLAYER_COUNTS[options.variant]
        raise InvalidState("/players", f"{options.variant} is played by {counts} players")
    return rules.table(players, options.variant).sides.count


def _check_match(match: Wire, *, sides: int, dealer: int, at: str) -> None:
    if len(match["totals"]) != sides:
        raise InvalidMatch("/match/totals", f"one total per side: {sides}")
    if match["over"] or match["winner"] is not None:
        raise InvalidMatch("/match/over", "the match is over: deal a new one without a match")
    if match["next_dealer"] != dealer:
        raise InvalidMatch(at, f"the match says seat {match['next_dealer']} deals this hand")


class Canasta(MeldingGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = MeldingRules(check.check, play.apply, listing.listing)
    wire_form = WireForm(wire.load_state, wire.dump_state, wire.load_move, wire.dump_move, wire.view,
                         wire.dump_family)

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.load_options(setup.options)
        sides = _sides(setup.players, options)
        dealer = setup.dealing_seat()
        scores = (0,) * sides
        if setup.match is not None:
            _check_match(setup.match, sides=sides, dealer=dealer, at="/dealer")
            scores = tuple(setup.match["totals"])
        return rules.deal(seats=setup.players, dealer=dealer, options=options, side_scores=scores,
                          source=source)

    def score(self, state: State, match: Wire | None) -> Wire:
        if state.phase != Phase.HAND_OVER or state.result is None:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        totals = list(state.side_scores)
        if match is not None:
            _check_match(match, sides=len(totals), dealer=state.dealer, at="/match/next_dealer")
            if list(match["totals"]) != totals:
                raise InvalidMatch("/match/totals", "the match's totals are the state's side_scores")
        sides = [scoring.hand_score(state, side) for side in range(len(totals))]
        hand = {"sides": [{"meld_points": s.meld_points, "canasta_bonus": s.canasta_bonus,
                           "red_three_points": s.red_three_points, "going_out_bonus": s.going_out_bonus,
                           "hand_penalty": s.hand_penalty, "total": s.total} for s in sides],
                "reason": state.result.reason, "went_out": state.result.went_out,
                "concealed": state.result.concealed}
        after = [t + s.total for t, s in zip(totals, sides, strict=True)]
        return {"hand": hand, "match": scoring.match_after(state, after)}
