"""Bura («Бура»), docs/rules/bura.md: the game object of the registry."""

from __future__ import annotations

from service.games.base import describe
from service.games.bura import rules, wire
from service.games.bura.advice import ADVICE
from service.games.bura.rules import Match, Move, Options
from service.games.compose import KeptBy, KeptMatches, RuleSet, TrickGame
from service.games.match import MatchRules
from service.games.tricks.sets import POINTS, State
from service.i18n import N_

INFO = describe(
    id="bura", name_en="Bura", name_ru="Бура", players=(2, 3, 4, 5, 6), deck=rules.DECK,
    about_deck="36 cards: the ace, ten, king, queen, jack, nine, eight, seven and six of each suit.",
    points=POINTS,
    moves=wire.MOVES.docs, reasons=rules.Reason, options=rules.Options, events=wire.EVENTS,
)


class Bura(TrickGame[State, Move], KeptMatches[State, Match, Options]):
    info = INFO
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)
    wire_form = wire.FORM
    advice = ADVICE
    match_rules = MatchRules(totals="match_scores", seats=("next_dealer", "next_leader"), sized=True,
                             reached=N_("a seat has {target} games: the match is over"))
    """§7.3: a match ends at its target; a single winner deals the next hand."""
    kept = KeptBy(rules.new_match, rules.deal, wire.hand_score, rules.match_after)

    def target(self, options: Options) -> int:
        return options.target_games
