"""Tricks of sets on the wire, declared once for every game of the Bura family: the fields a
state and a seat's view share, the state's and the view's own, the trick and its plays, and the
trick moves. A game names its vocabulary (a ``Family``: prefix, deck, largest table, hand) and
adds what is its own (its result, Bura's ``passes``, its other moves); the schemas, loaders and
dumpers are generated from the declarations (``service.wire.form``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import marshmallow as ma

from service.cards import SUITS, Card
from service.games import views
from service.games.base import EventType, Saying
from service.games.tricks import card_points
from service.games.tricks.sets import POINTS, Ending, Lead, Molodka, Phase, Played, Respond, State, Trick
from service.games.wired import STATUS
from service.wire.codegen import Source
from service.wire.form import Field, GameWire, Record, View, computed, const, derived, field
from service.wire.kinds import BOOL, CARD, SEAT, Int, Kind, ListOf, OneOf, Options, PerSeat, Pile
from service.wire.schemas import CardFields

DERIVED = "derived"
CARD_POINTS = Int(0, 120)
TRICK_CARDS = Pile(1, 3)
Seen = Callable[[State, int | None], Any]
"""What a seat sees of a state: a view's own field."""


class Nullable(Kind):
    """A value of ``kind`` or null, as an entry of a list (a field is nullable by ``nullable=``)."""

    def __init__(self, kind: Kind) -> None:
        self.kind, self.plain = kind, kind.plain

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return self.kind.field(ctx, allow_none=True, **kwargs)

    def read(self, src: str, code: Source) -> str:
        return src if self.plain else f"None if {src} is None else {self.kind.read(src, code)}"

    def write(self, src: str, code: Source) -> str:
        return src if self.plain else f"None if {src} is None else {self.kind.write(src, code)}"


@dataclass(frozen=True)
class Family(GameWire):
    """One game of the family on the wire: its card and seat fields, and what its hands hold."""

    game: str
    hand_size: int
    phases: tuple[Phase, ...]
    endings: tuple[str, ...]

    def per_seat(self, kind: Kind) -> PerSeat:
        """One value per seat, at any table of the game."""
        return PerSeat(kind, (2, self.max_seats))


TRICK_MOVES: dict[type, tuple[str, dict[str, Field]]] = {
    Lead: ("Lead to a trick: one card, or several of one suit where the game allows it.",
           {"cards": field(TRICK_CARDS)}),
    Molodka: ("Lead a molodka, three cards of one suit, out of turn, before the first card of the trick "
              "is played.", {"cards": field(TRICK_CARDS)}),
    Respond: ("Answer the trick with as many cards as were led: beat the cards that are winning it, or "
              "throw cards off.", {
        "cards": field(TRICK_CARDS),
        "mode": field(OneOf(("beat", "discard")), "omitted: beat if the cards beat, else discard",
                      nullable=True, default=None),
    }),
}
"""The moves of a trick, every game's first (``WIRE.moves_of({**TRICK_MOVES, ...})``)."""


def trick_events(*, face_down: bool) -> dict[str, EventType]:
    """The events of a trick, the first of every game's (``EVENTS = {**trick_events(...), ...}``):
    ``face_down``, whether its discards may lie face down (Bura): then they are seen by their
    seat alone, and a trick by its taker alone, without its points."""
    return {
        "lead": EventType("The player leads cards of one suit.", cards=True, hand=-1,
                          says=Saying("{seat} leads {cards}", you="You lead {cards}")),
        "molodka": EventType("The player leads a molodka, three cards of one suit, out of turn.", cards=True,
                             hand=-1, says=Saying("{seat} leads a molodka out of turn: {cards}",
                                                  you="You lead a molodka out of turn: {cards}")),
        "beat": EventType("The player answers the trick with cards that beat it.", cards=True, hand=-1,
                          says=Saying("{seat} beats with {cards}", you="You beat with {cards}")),
        **_discards_and_taking(face_down=face_down),
        "card_drawn": EventType("The player draws a card from the stock, the trick's taker first; only that "
                                "player sees it.", cards=True, private=True, hand=1,
                                says=Saying("{seat} draws {cards} from the stock",
                                            you="You draw {cards} from the stock",
                                            hidden="{seat} draws a card from the stock")),
        "trump_card_drawn": EventType("The player draws the face-up trump card, the last card of the stock.",
                                      cards=True, hand=1,
                                      says=Saying("{seat} takes the face-up trump, {cards}",
                                                  you="You take the face-up trump, {cards}")),
    }


def _discards_and_taking(*, face_down: bool) -> dict[str, EventType]:
    """The discards and the trick taken: what lying face down changes (``trick_events``)."""
    discards = {"discard": EventType(
        "The player answers the trick with cards that do not beat it, face up.", cards=True, hand=-1,
        says=Saying("{seat} throws off {cards}", you="You throw off {cards}"))}
    if not face_down:
        return {**discards, "trick_won": EventType(
            "The player takes the trick, with its cards and the points they are worth.", cards=True,
            points=True, says=Saying("{seat} takes the trick: {points}", you="You take the trick: {points}"))}
    discards["discard_face_down"] = EventType(
        "The player answers the trick with cards that do not beat it, face down: only that player sees "
        "them.", cards=True, private=True, hand=-1,
        says=Saying("{seat} throws off {cards} face down", you="You throw off {cards} face down",
                    hidden="{seat} throws off {count} face down"))
    return {**discards, "trick_won": EventType(
        "The player takes the trick; only that player sees its cards.", cards=True, private=True,
        says=Saying("{seat} takes the trick: {cards}", you="You take the trick: {cards}",
                    hidden="{seat} takes the trick"))}


def state_and_view(family: Family, *, options: Options[Any], result: Record[Any],
                   outcome: Callable[[State], Any], face_down: Callable[[State], bool] | None,
                   extra: Mapping[str, Field] | None = None) -> tuple[Record[State], View[State]]:
    """A game's state and a seat's view: the family's fields, with the game's ``result`` (written
    from ``outcome`` once the hand is over) and its ``extra`` fields. ``face_down``: whether a
    hand's discards lie face down, hiding the others' won piles from a seat (None: never)."""
    shared = _table(family, options=options, result=result, outcome=outcome, extra=extra or {})
    return _state(family, shared), _view(family, shared, face_down=face_down)


# --- the state ---------------------------------------------------------------------------------


def _table(family: Family, *, options: Options[Any], result: Record[Any], outcome: Callable[[State], Any],
           extra: Mapping[str, Field]) -> dict[str, Field]:
    """The fields the state and a seat's view share, the game's own last."""
    ending = family.record("Ending", Ending, {
        "kind": field(OneOf(family.endings)),
        "seat": field(SEAT, nullable=True),
    }, "How the hand ended.")
    return {
        "game": const(family.game),
        "seats": field(Int(2, family.max_seats)),
        "dealer": field(SEAT),
        "to_move": field(SEAT, nullable=True),
        "status": derived(STATUS, "finished", DERIVED),
        "options": field(options, default={}),
        "trump": derived(OneOf(SUITS), "trump", "derived from trump_card"),
        "leader": field(SEAT),
        "phase": field(OneOf({phase: phase.value for phase in family.phases})),
        "ending": field(ending, nullable=True, default=None),
        "last_taker": field(SEAT, "The seat that took the last completed trick.", nullable=True,
                            default=None),
        "result": derived(result, _once_over(outcome),
                          "Set once the hand is over; derived, checked when sent.", nullable=True),
        **extra,
    }


def _once_over(outcome: Callable[[State], Any]) -> Callable[[State], Any]:
    def result(state: State) -> Any:
        return None if state.ending is None else outcome(state)
    return result


def _state(family: Family, shared: Mapping[str, Field]) -> Record[State]:
    deck = len(family.codes)
    declared = {
        **shared,
        "trump_card": field(CARD),
        "stock": field(Pile(0, deck)),
        "hands": field(family.per_seat(Pile(0, family.hand_size))),
        "won": field(family.per_seat(Pile(0, deck))),
        "points": derived(family.per_seat(CARD_POINTS), "card_points", DERIVED,
                          load=computed(_card_points, "won")),
        "trick": field(_trick(family, view=False), nullable=True),
    }
    doc = "A hand in progress or finished; derived fields may be left out."
    return family.record("State", State, declared, doc)


def _card_points(won: tuple[tuple[Card, ...], ...]) -> tuple[int, ...]:
    return tuple([card_points(pile, POINTS) for pile in won])


def _trick(family: Family, *, view: bool) -> Record[Trick]:
    """The trick under way; in a view, others' face-down discards have no cards."""
    cards = field(Pile(0, 3), "null in a view for someone else's face-down discard", nullable=True) \
        if view else field(TRICK_CARDS, "the cards, as played")
    suffix = "View" if view else ""
    played = family.record("Played" + suffix, Played, {
        "seat": field(SEAT),
        "cards": cards,
        "beat": field(BOOL, "true for the lead and for every answer that beat the winning set"),
        "face_down": field(BOOL),
    }, "Cards one seat put on the trick.")
    return family.record("Trick" + suffix, Trick, {
        "leader": field(SEAT),
        "plays": field(ListOf(played, 1, family.max_seats)),
        "size": derived(Int(1, 3), "size", DERIVED),
        "winning_seat": derived(SEAT, _winning_seat, DERIVED),
        "winning_set": derived(Pile(0, 3), _winning_set, DERIVED),
    }, "The trick under way.")


def _winning_seat(trick: Trick) -> int:
    return trick.winning.seat


def _winning_set(trick: Trick) -> tuple[Card, ...]:
    return trick.winning.cards


# --- what a seat sees ----------------------------------------------------------------------------


def _view(family: Family, shared: Mapping[str, Field], *,
          face_down: Callable[[State], bool] | None) -> View[State]:
    """A seat sees its own hand, hand and pile sizes, the stock's size and the trump card under
    it, and the trick; cards played face down only by the seat that played them, and the others'
    won piles only where the hand's discards lie face up."""
    size, deck = family.hand_size, len(family.codes)
    won, points = ("won", "card_points") if face_down is None else _won_seen(face_down)
    return family.view(State, shared, {
        "seat": derived(SEAT, views.seat, required=True, nullable=True),
        "hand": derived(Pile(0, size), views.hand, required=True, nullable=True),
        "hand_sizes": derived(family.per_seat(Int(0, size)), views.hand_sizes, required=True),
        "stock_size": derived(Int(0, deck), views.stock_size, required=True),
        "trump_card": derived(CARD, views.face_up_trump, "shown while it lies under the stock", required=True,
                              nullable=True),
        "won": derived(family.per_seat(Nullable(Pile())), won,
                       "a pile is null where its face-down cards are hidden from this seat", required=True),
        "won_sizes": derived(family.per_seat(Int(0, deck)), views.sizes("won"), required=True),
        "points": derived(family.per_seat(Nullable(CARD_POINTS)), points, required=True),
        "trick": derived(_trick(family, view=True), _trick_seen, required=True, nullable=True),
    }, "What one seat (or a spectator) may see.")


def _won_seen(face_down: Callable[[State], bool]) -> tuple[Seen, Seen]:
    """The won piles and their points as a seat sees them: the others' only when the hand's
    discards lie face up."""
    def won(state: State, seat: int | None) -> tuple[tuple[Card, ...] | None, ...]:
        if not face_down(state):
            return state.won
        return tuple(pile if s == seat else None for s, pile in enumerate(state.won))

    def points(state: State, seat: int | None) -> tuple[int | None, ...]:
        if not face_down(state):
            return state.card_points
        return tuple(p if s == seat else None for s, p in enumerate(state.card_points))

    return won, points


def _trick_seen(state: State, seat: int | None) -> Trick | None:
    """The trick as ``seat`` sees it: the others' face-down discards without their cards."""
    trick = state.trick
    if trick is None:
        return None
    # a hidden play's cards are None, written as null
    plays = tuple(Played(p.seat, None, p.beat, p.face_down)  # type: ignore[arg-type]
                  if p.face_down and p.seat != seat else p for p in trick.plays)
    return Trick(trick.leader, plays)
