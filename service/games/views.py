"""What a seat's view derives alike in every game that has these zones: the seat itself, its own
hand, the sizes of the piles it may not see, and the face-up trump under the stock. Each is a
view's own field, a function of the state and the seat (``derived(kind, hand_sizes)``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, Protocol

from service.cards import Card


class Dealt(Protocol):
    """A state with a hand per seat, a stock, and the trump card turned up under it."""

    @property
    def hands(self) -> Sequence[tuple[Card, ...]]: ...

    @property
    def stock(self) -> Sequence[Card]: ...


def seat(state: Any, seat: int | None) -> int | None:
    """The seat the view is for; None for a spectator."""
    return seat


def hand(state: Dealt, seat: int | None) -> tuple[Card, ...] | None:
    """The seat's own hand; None for a spectator."""
    return None if seat is None else state.hands[seat]


def sizes(zone: str) -> Callable[[Any, int | None], list[int]]:
    """The size of each seat's pile in ``zone`` (``hands``, ``won``), not its cards."""
    piles = attrgetter(zone)

    def sized(state: Any, seat: int | None) -> list[int]:
        return [len(pile) for pile in piles(state)]

    return sized


hand_sizes = sizes("hands")


def stock_size(state: Dealt, seat: int | None) -> int:
    return len(state.stock)


def face_up_trump(state: Any, seat: int | None) -> Card | None:
    """The trump card while it lies face up under the stock; None once drawn."""
    return state.trump_card if state.stock else None
