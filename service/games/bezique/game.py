"""Russian multi-pack Bezique («Безик»), docs/rules/bezique.md: the game object of the registry."""

from __future__ import annotations

from service.cards import JOKER_CODE, DeckSource
from service.errors import InvalidMatch
from service.games.base import DealSetup, Wire, describe
from service.games.bezique import listing, play, rules, scoring, wire
from service.games.bezique.advice import ADVICE
from service.games.bezique.rules import Move, Options, State
from service.games.bezique.scoring import MatchStanding
from service.games.compose import Matches, MeldingGame, MeldingRules, Table
from service.games.match import MatchRules
from service.i18n.cards import Vocabulary

VOCABULARY = Vocabulary(ranks_ru={
    JOKER_CODE: ("инфузорка", "инфузорки", "инфузорке", "инфузорку", "инфузоркой", "инфузорке"),
})
"""The joker is «инфузорка» in this game (the seed text's word); in English it stays the joker."""

INFO = describe(
    id="bezique", name_en="Bezique", name_ru="Безик", players=(2, 3, 4), deck=rules.full_deck(Options()),
    about_deck="Eight or ten packs, each of the ace, ten, king, queen and jack of every suit, with three "
               "nines of each suit and two jokers: 174 or 214 cards, or 172 or 212 without the jokers.",
    points={}, largest_deck=wire.LARGEST, moves=wire.MOVES.docs, reasons=rules.Reason, options=Options,
    events=wire.EVENTS, vocabulary=VOCABULARY,
)


class Bezique(MeldingGame[State, Move], Matches[State, MatchStanding, Options]):
    info = INFO
    rule_set = MeldingRules(rules.check, play.apply, listing.listing)
    wire_form = wire.FORM
    advice = ADVICE
    match_rules = MatchRules(over_with=("winner",))
    """§7.3: a match goes on while no seat has the top total at the target alone."""

    def standing(self, match: Wire | None, table: Table[Options, State], *, at: str) -> MatchStanding:
        """The standing sent, checked, and played to the options' target; a new one if none."""
        if match is None:
            return self.new_match(table)
        standing = wire.MATCH.load(match)
        target = table.options.target_score

        def played_to_target() -> None:
            if standing.target is not None and standing.target != target:
                raise InvalidMatch("/match/target", "the options play this match to {target}", target=target)

        self.match_rules.check(standing, dealer=table.dealer, at=at, count=table.seats, also=played_to_target)
        return standing

    def new_match(self, table: Table[Options, State]) -> MatchStanding:
        return scoring.new_match(table.seats, table.dealer)

    def deal_hand(self, setup: DealSetup, standing: MatchStanding, table: Table[Options, State],
                  source: DeckSource) -> State:
        return rules.deal(seats=table.seats, dealer=table.dealer, options=table.options, source=source)

    def score_hand(self, state: State, standing: MatchStanding) -> tuple[Wire, MatchStanding]:
        return wire.RESULT.dump(scoring.result(state)), scoring.match_after(standing, state)
