"""Sixty-six («Шестьдесят шесть»), docs/rules/sixty-six.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource
from service.errors import HandNotFinished
from service.games.base import DealSetup, Wire, describe
from service.games.compose import Matches, RuleSet, Table, TrickGame
from service.games.match import Match, MatchRules
from service.games.sixty_six import play, rules, scoring, wire
from service.games.sixty_six.advice import ADVICE
from service.games.sixty_six.rules import Move, Options, State
from service.i18n import N_

INFO = describe(
    id="sixty-six", name_en="Sixty-six", name_ru="Шестьдесят шесть", players=(2,), deck=rules.DECK,
    about_deck="24 cards: the ace, ten, king, queen, jack and nine of each suit.", points=rules.POINTS,
    moves=wire.MOVES.docs, reasons=rules.Reason, options=rules.Options,
    events=wire.EVENTS,
)


class SixtySix(TrickGame[State, Move], Matches[State, Match[int], Options]):
    info = INFO
    rule_set = RuleSet(rules.check, play.apply, rules.candidate_moves)
    wire_form = wire.FORM
    advice = ADVICE
    match_rules = MatchRules(totals="party_score", word="party",
                             reached=N_("a seat has {target} game points: the party is over"))
    """§7.5: a party ends at its target; the winner of a hand deals the next."""

    def check_over(self, state: State) -> None:
        if not state.finished:
            raise HandNotFinished("/state/status", "the hand is not finished: play it out first")

    def target(self, options: Options) -> int:
        return options.party_target

    def new_match(self, table: Table[Options, State]) -> Match[int]:
        return Match((0, 0), False, None, table.dealer)

    def deal_hand(self, setup: DealSetup, standing: Match[int], table: Table[Options, State],
                  source: DeckSource) -> State:
        return rules.deal(table.dealer, table.options, source)

    def score_hand(self, state: State, standing: Match[int]) -> tuple[Wire, Match[int]]:
        result = scoring.result(state)
        after = scoring.party_after(standing, result, dealer=state.dealer, target=state.options.party_target)
        return wire.hand_score(state, result), after
