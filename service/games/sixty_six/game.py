"""Sixty-six («Шестьдесят шесть»), docs/rules/sixty-six.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource
from service.errors import HandNotFinished
from service.games.base import DealSetup, Wire, describe
from service.games.compose import RuleSet, TrickGame
from service.games.match import Match, MatchRules
from service.games.sixty_six import play, rules, scoring, wire
from service.games.sixty_six.advice import ADVICE
from service.games.sixty_six.rules import Move, State
from service.games.sixty_six.schemas import SCHEMAS
from service.i18n import N_

INFO = describe(
    id="sixty-six", name_en="Sixty-six", name_ru="Шестьдесят шесть", players=(2,), deck=rules.DECK,
    about_deck="24 cards: the ace, ten, king, queen, jack and nine of each suit.", points=rules.POINTS,
    moves=wire.MOVES.docs, reasons=rules.Reason, options=rules.Options,
    events=wire.EVENTS,
)
PARTY = MatchRules(totals="party_score", word="party",
                   reached=N_("a seat has {target} game points: the party is over"))
"""§7.5: a party ends at its target; the winner of a hand deals the next."""


def _party(match: Wire | None, *, dealer: int, target: int, at: str) -> Match[int]:
    return PARTY.standing(match, wire.MATCH.load, new=lambda: Match((0, 0), False, None, dealer),
                          dealer=dealer, at=at, target=target)


class SixtySix(TrickGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = RuleSet(rules.check, play.apply, rules.candidate_moves)
    wire_form = wire.FORM
    advice = ADVICE

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.OPTIONS.load(setup.options)
        dealer = setup.dealing_seat()
        _party(setup.match, dealer=dealer, target=options.party_target, at="/dealer")
        return rules.deal(dealer, options, source)

    def score(self, state: State, match: Wire | None) -> Wire:
        if not state.finished:
            raise HandNotFinished("/state/status", "the hand is not finished: play it out first")
        target = state.options.party_target
        party = _party(match, dealer=state.dealer, target=target, at="/match/next_dealer")
        result = scoring.result(state)
        after = scoring.party_after(party, result, dealer=state.dealer, target=target)
        return {"hand": wire.hand_score(state, result), "match": wire.MATCH.dump(after)}
