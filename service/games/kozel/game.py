"""Kozel («Козёл»), docs/rules/kozel.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource
from service.games.base import DealSetup, Wire, describe
from service.games.compose import Matches, RuleSet, Table, TrickGame
from service.games.kozel import rules, scoring, wire
from service.games.kozel.advice import ADVICE
from service.games.kozel.rules import Move, Options, State
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


class Kozel(TrickGame[State, Move], Matches[State, Match, Options]):
    info = INFO
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)
    wire_form = wire.FORM
    advice = ADVICE
    match_rules = MatchRules(totals="pairs_opened", over_with=("winner", "loser"),
                             reached=N_("a team has opened {target} pairs: the match is over"))
    """§7.3: a match ends when a team has opened ``pairs_to_lose`` pairs."""

    def target(self, options: Options) -> int:
        return options.pairs_to_lose

    def new_match(self, table: Table[Options, State]) -> Match:
        return scoring.new_match(table.dealer)

    def deal_hand(self, setup: DealSetup, standing: Match, table: Table[Options, State],
                  source: DeckSource) -> State:
        return rules.deal(dealer=table.dealer, options=table.options, first_deal=setup.match is None,
                          source=source)

    def score_hand(self, state: State, standing: Match) -> tuple[Wire, Match]:
        outcome = scoring.result(state, standing.multiplier)
        return wire.HAND_SCORE.dump(outcome), scoring.match_after(standing, state, outcome)
