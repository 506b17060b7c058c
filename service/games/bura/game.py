"""Bura («Бура»), docs/rules/bura.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource
from service.errors import HandNotFinished
from service.games.base import DealSetup, Wire, describe
from service.games.bura import rules, wire
from service.games.bura.advice import ADVICE
from service.games.bura.rules import Match, Move
from service.games.bura.schemas import SCHEMAS
from service.games.compose import RuleSet, TrickGame
from service.games.match import MatchRules
from service.games.tricks import sets_wire
from service.games.tricks.sets import POINTS, State
from service.i18n import N_

INFO = describe(
    id="bura", name_en="Bura", name_ru="Бура", players=(2, 3, 4, 5, 6), deck=rules.DECK,
    about_deck="36 cards: the ace, ten, king, queen, jack, nine, eight, seven and six of each suit.",
    points=POINTS,
    moves=wire.MOVES.docs, reasons=rules.Reason, options=rules.Options,
    events=wire.EVENTS,
)
MATCH = MatchRules(totals="match_scores", reached=N_("a seat has {target} games: the match is over"),
                   seats=("next_dealer", "next_leader"))
"""§7.3: a match ends at its target; a single winner deals the next hand."""


def _match(match: Wire | None, *, seats: int, dealer: int, target: int, at: str) -> Match:
    if match is not None:
        sets_wire.check_match_seats(match, "match_scores", seats)
    return MATCH.standing(match, wire.MATCH.load, new=lambda: rules.new_match(seats=seats, dealer=dealer),
                          dealer=dealer, at=at, seats=seats, target=target)


class Bura(TrickGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)
    wire_form = wire.FORM
    advice = ADVICE

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.OPTIONS.load({**setup.options, "players": setup.players})
        dealer = setup.dealing_seat()
        match = _match(setup.match, seats=setup.players, dealer=dealer, target=options.target_games,
                       at="/dealer")
        return rules.deal(players=setup.players, dealer=dealer, leader=match.next_leader, options=options,
                          source=source)

    def score(self, state: State, match: Wire | None) -> Wire:
        if state.ending is None:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        before = _match(match, seats=state.seats, dealer=state.dealer,
                        target=state.options.target_games, at="/match/next_dealer")
        after = rules.match_after(before, state)
        return {"hand": wire.hand_score(state, before), "match": wire.MATCH.dump(after)}
