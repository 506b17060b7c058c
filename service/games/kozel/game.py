"""Kozel («Козёл»), docs/rules/kozel.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource
from service.errors import HandNotFinished
from service.games.base import DealSetup, Wire, describe
from service.games.compose import RuleSet, TrickGame
from service.games.kozel import rules, scoring, wire
from service.games.kozel.advice import ADVICE
from service.games.kozel.rules import Move, State
from service.games.kozel.schemas import SCHEMAS
from service.games.kozel.scoring import Match
from service.games.match import MatchRules
from service.i18n import N_

INFO = describe(
    id="kozel", name_en="Kozel", name_ru="Козёл", players=(4,), deck=rules.DECK,
    about_deck="32 cards: the ace, king, queen, jack, ten, nine, eight and seven of each suit.",
    points=rules.POINTS,
    moves=wire.MOVES.docs, reasons=rules.Reason, options=rules.Options,
    events=wire.EVENTS,
    variants=("turn_to_left", "three_cards", "first_card", "jack_of_clubs_first_deal"),
)
MATCH = MatchRules(totals="pairs_opened", over_with=("winner", "loser"),
                   reached=N_("a team has opened {target} pairs: the match is over"))
"""§7.3: a match ends when a team has opened ``pairs_to_lose`` pairs."""


def _match(match: Wire | None, *, dealer: int, target: int, at: str) -> Match:
    return MATCH.standing(match, wire.MATCH.load, new=lambda: scoring.new_match(dealer), dealer=dealer, at=at,
                          target=target)


class Kozel(TrickGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)
    wire_form = wire.FORM
    advice = ADVICE

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.OPTIONS.load(setup.options)
        dealer = setup.dealing_seat()
        _match(setup.match, dealer=dealer, target=options.pairs_to_lose, at="/dealer")
        return rules.deal(dealer=dealer, options=options, first_deal=setup.match is None, source=source)

    def score(self, state: State, match: Wire | None) -> Wire:
        if not state.finished:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        target = state.options.pairs_to_lose
        before = _match(match, dealer=state.dealer, target=target, at="/match/next_dealer")
        outcome = scoring.result(state, before.multiplier)
        after = scoring.match_after(before, state, outcome)
        return {"hand": wire.HAND_SCORE.dump(outcome), "match": wire.MATCH.dump(after)}
