"""Kozel-bura («Козёл-бура»), docs/rules/kozel-bura.md: the game object of the registry."""

from __future__ import annotations

from service.games.base import describe
from service.games.compose import KeptBy, KeptMatches, RuleSet, TrickGame
from service.games.kozel_bura import rules, wire
from service.games.kozel_bura.advice import ADVICE
from service.games.match import MatchRules
from service.games.tricks.sets import POINTS, State

INFO = describe(
    id="kozel-bura", name_en="Kozel-bura", name_ru="Козёл-бура", players=(2, 3, 4, 5),
    deck=rules.DECKS[rules.Options().deck], largest_deck=rules.DECKS[36],
    about_deck="36 cards: the ace, ten, king, queen, jack, nine, eight, seven and six of each suit; or 32, "
               "without the sixes.", points=POINTS,
    moves=wire.MOVES.docs, reasons=rules.Reason, options=rules.Options, events=wire.EVENTS,
)


class KozelBura(TrickGame[State, rules.Move], KeptMatches[State, rules.Match, rules.Options]):
    info = INFO
    rule_set = RuleSet(rules.check, rules.apply, rules.candidate_moves)
    wire_form = wire.FORM
    advice = ADVICE
    match_rules = MatchRules(totals="penalties", over_with=("losers", "winner"), sized=True)
    """§7.2: a match ends once a seat reaches the penalty limit; the deal passes to the left."""
    kept = KeptBy(rules.new_match, rules.deal, wire.hand_score, rules.match_after)
