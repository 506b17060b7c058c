"""Canasta, docs/rules/canasta.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource
from service.errors import HandNotFinished, InvalidMatch, InvalidState
from service.games.base import DealSetup, Wire, describe
from service.games.canasta import check, listing, play, rules, scoring, wire
from service.games.canasta import melds as m
from service.games.canasta import moves as mv
from service.games.canasta.advice import ADVICE
from service.games.canasta.rules import Options, State
from service.games.canasta.scoring import Standing
from service.games.compose import Matches, MeldingGame, MeldingRules, Table
from service.games.match import MatchRules

INFO = describe(
    id="canasta", name_en="Canasta", name_ru="Канаста", players=(2, 3, 4, 6), default_players=4,
    deck=rules.full_deck(4), largest_deck=rules.full_deck(6),
    about_deck="Two packs of 52 cards and four jokers, 108 cards; at six players, three packs and six "
               "jokers, 162 cards. The card values are the classic game's; the book's second variant counts "
               "the ace 11 and the nines down to the threes at their face value.",
    points=m.VALUES[m.CLASSIC], moves=wire.MOVES.docs, reasons=rules.Reason, options=Options,
    events=wire.EVENTS,
    variants=m.VARIANTS,
)


class Canasta(MeldingGame[State, mv.Move], Matches[State, Standing, Options]):
    info = INFO
    rule_set = MeldingRules(check.check, play.apply, listing.listing)
    wire_form = wire.FORM
    advice = ADVICE
    match_rules = MatchRules(per="side", over_with=("winner",))
    """§7.2: a total per side; a tie at the top plays on, so only ``over`` ends the match; the
    dealer passes to the left."""

    def load_options(self, setup: DealSetup) -> Options:
        """The options, and a table the variant is played at."""
        options = wire.OPTIONS.load(setup.options)
        if setup.players not in rules.PLAYER_COUNTS[options.variant]:
            raise InvalidState("/players", "{variant} is played by {counts} players", variant=options.variant,
                               counts=rules.PLAYER_COUNTS[options.variant])
        return options

    def check_over(self, state: State) -> None:
        if not state.finished or state.result is None:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")

    def standing(self, match: Wire | None, table: Table[Options, State], *, at: str) -> Standing:
        """The standing sent, checked: one total per side."""
        new = self.new_match(table)
        return self.match_rules.standing(match, wire.MATCH.load, new=lambda: new, dealer=table.dealer, at=at,
                                         count=len(new.totals))

    def new_match(self, table: Table[Options, State]) -> Standing:
        """A standing with no hand played in it: at a score, the sides' scores the hand was dealt
        with; at a deal, none."""
        if table.hand is not None:
            return Standing(table.hand.side_scores, False, None, table.dealer)
        sides = rules.table(table.seats, table.options.variant).sides.count
        return Standing((0,) * sides, False, None, table.dealer)

    def deal_hand(self, setup: DealSetup, standing: Standing, table: Table[Options, State],
                  source: DeckSource) -> State:
        return rules.deal(seats=table.seats, dealer=table.dealer, options=table.options,
                          side_scores=standing.totals, source=source)

    def score_hand(self, state: State, standing: Standing) -> tuple[Wire, Standing]:
        assert state.result is not None  # check_over refused a hand without one
        totals = state.side_scores
        if standing.totals != totals:
            raise InvalidMatch("/match/totals",
                               "the match's totals must be the sides' scores before this hand")
        sides = [scoring.hand_score(state, side) for side in range(len(totals))]
        after = tuple(t + s.total for t, s in zip(totals, sides, strict=True))
        return wire.hand_score(sides, state.result), scoring.match_after(state, after)
