"""Russian multi-pack Bezique («Безик»), docs/rules/bezique.md: the game object of the registry."""

from __future__ import annotations

from service.cards import JOKER_CODE, DeckSource
from service.errors import HandNotFinished, InvalidMatch
from service.games.base import DealSetup, Wire, describe
from service.games.bezique import listing, play, rules, scoring, wire
from service.games.bezique.advice import ADVICE
from service.games.bezique.rules import Move, Options, State
from service.games.bezique.schemas import SCHEMAS
from service.games.bezique.scoring import MatchStanding
from service.games.compose import MeldingGame, MeldingRules
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
MATCH_RULES = MatchRules(over_with=("winner",))
"""§7.3: a match goes on while no seat has the top total at the target alone."""


def _match(match: Wire | None, *, seats: int, dealer: int, target: int, at: str) -> MatchStanding:
    """The standing sent, checked (``at`` locates the dealer being checked); a new one if none."""
    if match is None:
        return scoring.new_match(seats, dealer)
    standing = wire.MATCH.load(match)

    def played_to_target() -> None:
        if standing.target is not None and standing.target != target:
            raise InvalidMatch("/match/target", "the options play this match to {target}", target=target)

    MATCH_RULES.check(standing, dealer=dealer, at=at, count=seats, also=played_to_target)
    return standing


class Bezique(MeldingGame[State, Move]):
    info = INFO
    schemas = SCHEMAS
    rule_set = MeldingRules(rules.check, play.apply, listing.listing)
    wire_form = wire.FORM
    advice = ADVICE

    def deal(self, setup: DealSetup, source: DeckSource) -> State:
        options = wire.OPTIONS.load(setup.options)
        dealer = setup.dealing_seat()
        _match(setup.match, seats=setup.players, dealer=dealer, target=options.target_score, at="/dealer")
        return rules.deal(seats=setup.players, dealer=dealer, options=options, source=source)

    def score(self, state: State, match: Wire | None) -> Wire:
        if not state.finished:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")
        standing = _match(match, seats=state.seats, dealer=state.dealer, target=state.options.target_score,
                          at="/match/next_dealer")
        return {"hand": wire.RESULT.dump(scoring.result(state)),
                "match": wire.MATCH.dump(scoring.match_after(standing, state))}
