"""Kozel-bura («Козёл-бура»), docs/rules/kozel-bura.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource
from service.errors import HandNotFinished
from service.games.base import DealSetup, Wire, describe
from service.games.compose import RuleSet, TrickGame
from service.games.kozel_bura import rules, wire
from service.games.kozel_bura.advice import ADVICE
from service.games.kozel_bura.rules import Match, Move
from service.games.kozel_bura.schemas import SCHEMAS
from service.games.match import MatchRules
from service.games.tricks import sets_wire
from service.games.tricks.sets import POINTS, State

INFO = describe(
    id="kozel-bura", name_en="Kozel-bura", name_ru="Козёл-бура", players=(2, 3, 4, 5),
    deck=rules.DECKS[rules.Options().deck], largest_deck=rules.DECKS[36],
    about_deck="36 cards: the ace, ten, king, queen, jack, nine, eight, seven and six of each suit; or 32, "
               "without the sixes.", points=POINTS,
    moves=wire.MOVES.docs, reasons=rules.Reason, options=rules.Options,
    events=wire.EVENTS,
)
MATCH = MatchRules(totals="penalties", over_with=("losers", "winner"))
"""§7.2: a match ends once a seat reaches the penalty limit; the deal passes to the left."""


def _match(match: Wire | None, *, seats: int, dealer: int, at: str) -> Match:
    if match is not None:
        sets_wire.check_match_seats(match, "penalties", seats)
    return MATCH.standing(match, wire.MATCH.load, new=lambda: rules.new_match(seats=seats, dealer=dealer),
                          dealer=dealer, at=at)


class KozelBura(TrickGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)
    wire_form = wire.FORM
    advice = ADVICE

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.OPTIONS.load({**setup.options, "players": setup.players})
        dealer = setup.dealing_seat()
        _match(setup.match, seats=setup.players, dealer=dealer, at="/dealer")
        return rules.deal(players=setup.players, dealer=dealer, options=options, source=source)

    def score(self, state: State, match: Wire | None) -> Wire:
        if state.ending is None:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        before = _match(match, seats=state.seats, dealer=state.dealer, at="/match/next_dealer")
        after = rules.match_after(before, state)
        return {"hand": wire.hand_score(state, before), "match": wire.MATCH.dump(after)}
