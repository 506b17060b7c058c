"""Seats around a table: clockwise order, sides (partnerships or each for himself), and the seats
that take part in a hand when the dealer may sit out.

Seats are numbered from 0 clockwise (shared/API.md), so "the next seat" is always ``seat + 1``
modulo the table. Kozel plays in two fixed pairs; Canasta's sides depend on the player count (two
pairs at four, two sides of three at six, each for himself at two or three); Bezique's dealer sits
out at a table of three or four.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


def left_of(seat: int, seats: int, steps: int = 1) -> int:
    """The seat ``steps`` places clockwise (to the left) of ``seat``."""
    return (seat + steps) % seats


@lru_cache(maxsize=256)  # a few dozen (start, seats) pairs exist; asked on every trick move
def clockwise(start: int, seats: int) -> tuple[int, ...]:
    """Every seat once, clockwise from ``start`` (``start`` first)."""
    return tuple((start + step) % seats for step in range(seats))


def active_seats(seats: int, dealer: int, *, dealer_sits_out: bool) -> tuple[int, ...]:
    """The seats dealt in, clockwise from the dealer's left (the dealer last, when playing)."""
    order = clockwise(left_of(dealer, seats), seats)
    return order[:-1] if dealer_sits_out else order


@dataclass(frozen=True, slots=True)
class Sides:
    """A table's sides: seat ``s`` plays for side ``s % count``, so partners alternate around
    the table (opposite each other at four). ``count == seats`` is every seat for itself."""

    seats: int
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or self.seats % self.count:
            raise ValueError(f"{self.seats} seats do not split into {self.count} equal sides")

    def side_of(self, seat: int) -> int:
        return seat % self.count

    def members(self, side: int) -> tuple[int, ...]:
        return tuple(range(side, self.seats, self.count))

    def partner(self, seat: int) -> int:
        """The partner of a two-member side: the seat opposite at four (``seats // 2`` away)."""
        if self.seats != 2 * self.count:
            raise ValueError("partner() is for sides of two")
        return (seat + self.count) % self.seats

    def all(self) -> tuple[tuple[int, ...], ...]:
        """Every side's members, side 0 first."""
        return tuple(self.members(side) for side in range(self.count))


def partnerships(seats: int) -> Sides:
    """Two sides of alternating seats (Kozel at four; Canasta at four and six)."""
    return Sides(seats, 2)


def each_for_himself(seats: int) -> Sides:
    return Sides(seats, seats)
