"""Canasta, docs/rules/canasta.md: the game object of the registry."""

from __future__ import annotations

from service.cards import DeckSource
from service.errors import HandNotFinished, InvalidMatch, InvalidState
from service.games.base import DealSetup, Wire, describe
from service.games.canasta import check, listing, play, rules, scoring, wire
from service.games.canasta import melds as m
from service.games.canasta.advice import ADVICE
from service.games.canasta.rules import Move, Options, State
from service.games.canasta.schemas import SCHEMAS
from service.games.canasta.scoring import Standing
from service.games.compose import MeldingGame, MeldingRules
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
MATCH_RULES = MatchRules(per="side", over_with=("winner",))
"""§7.2: a total per side; a tie at the top plays on, so only ``over`` ends the match; the dealer
passes to the left."""


def _sides(players: int, options: Options) -> int:
    if players not in rules.PLAYER_COUNTS[options.variant]:
        raise InvalidState("/players", "{variant} is played by {counts} players", variant=options.variant,
                           counts=rules.PLAYER_COUNTS[options.variant])
    return rules.table(players, options.variant).sides.count


def _match(match: Wire | None, *, totals: tuple[int, ...], dealer: int, at: str) -> Standing:
    """The standing sent, checked; a new one at ``totals`` (no hand played) if none was sent."""
    return MATCH_RULES.standing(match, wire.MATCH.load, new=lambda: Standing(totals, False, None, dealer),
                                dealer=dealer, at=at, count=len(totals))


class Canasta(MeldingGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = MeldingRules(check.check, play.apply, listing.listing)
    wire_form = wire.FORM
    advice = ADVICE

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.OPTIONS.load(setup.options)
        sides = _sides(setup.players, options)
        dealer = setup.dealing_seat()
        match = _match(setup.match, totals=(0,) * sides, dealer=dealer, at="/dealer")
        return rules.deal(seats=setup.players, dealer=dealer, options=options, side_scores=match.totals,
                          source=source)

    def score(self, state: State, match: Wire | None) -> Wire:
        if not state.finished or state.result is None:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        totals = state.side_scores
        if _match(match, totals=totals, dealer=state.dealer, at="/match/next_dealer").totals != totals:
            raise InvalidMatch("/match/totals",
                               "the match's totals must be the sides' scores before this hand")
        sides = [scoring.hand_score(state, side) for side in range(len(totals))]
        after = tuple(t + s.total for t, s in zip(totals, sides, strict=True))
        return {"hand": wire.hand_score(sides, state.result),
                "match": wire.MATCH.dump(scoring.match_after(state, after))}
