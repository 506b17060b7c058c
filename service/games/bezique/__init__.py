"""Russian multi-pack Bezique («Безик»), docs/rules/bezique.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource, codes
from service.errors import HandNotFinished, InvalidMatch
from service.games.base import (
    DealSetup,
    GameInfo,
    MeldingGame,
    MeldingRules,
    Wire,
    WireForm,
    card_values,
    options_wire,
)
from service.games.bezique import rules, wire
from service.games.bezique.rules import Move, Options, Phase, State
from service.games.bezique.schemas import SCHEMAS

INFO = GameInfo(
    id="bezique", name_en="Bezique", name_ru="Безик", player_counts=(2, 3, 4), default_players=2,
    deck="8 or 10 packs of A 10 K Q J in each suit, three nines of each suit and two wild cards "
         "(JK): 174 or 214 cards (172 or 212 without the wild cards)",
    card_values=card_values(rules.full_deck(Options(packs=10)), {}),
    deck_cards=tuple(codes(rules.full_deck(Options()))), move_types=tuple(SCHEMAS.moves),
    reasons=rules.Reason, options=options_wire(Options()),
    event_types=("card_played", "trick_won", "declared", "passed", "trump_exchanged", "hand_over"),
)


def _check_match(match: Wire, *, seats: int, dealer: int, target: int, at: str) -> None:
    if len(match["totals"]) != seats:
        raise InvalidMatch("/match/totals", f"one total per seat: {seats}")
    if match["over"] or match["winner"] is not None:
        raise InvalidMatch("/match/over", "the match is over: deal a new one without a match")
    if match.get("target", target) != target:
        raise InvalidMatch("/match/target", f"the options play this match to {target}")
    if match["next_dealer"] != dealer:
        raise InvalidMatch(at, f"the match says seat {match['next_dealer']} deals this hand")


def match_after(totals: list[int], state: State) -> Wire:
    """§7.3: the totals go on; over once a seat reaches the target with a total nobody ties."""
    target = state.options.target_score
    top = max(totals)
    leaders = [s for s, t in enumerate(totals) if t == top]
    over = top >= target and len(leaders) == 1
    next_dealer = (state.dealer + 1) % state.seats
    next_active = rules.active_order(state.seats, next_dealer, state.options)
    return {"totals": totals, "target": target, "over": over, "winner": leaders if over else None,
            "next_dealer": next_dealer, "sitting_out": None if next_dealer in next_active else next_dealer}


class Bezique(MeldingGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = MeldingRules(rules.check, rules.apply, rules.listing)
    wire_form = WireForm(wire.load_state, wire.dump_state, wire.load_move, wire.dump_move, wire.view,
                         wire.dump_family)

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.load_options(setup.options)
        dealer = setup.dealing_seat()
        if setup.match is not None:
            _check_match(setup.match, seats=setup.players, dealer=dealer, target=options.target_score,
                         at="/dealer")
        return rules.deal(seats=setup.players, dealer=dealer, options=options, source=source)

    def score(self, state: State, match: Wire | None) -> Wire:
        if state.phase != Phase.FINISHED:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        totals = [0] * state.seats
        if match is not None:
            _check_match(match, seats=state.seats, dealer=state.dealer, target=state.options.target_score,
                         at="/match/next_dealer")
            totals = list(match["totals"])
        hand = wire.result(state)
        return {"hand": hand, "match": match_after([t + s for t, s in zip(totals, state.scores, strict=True)],
                                                    state)}
