"""What the exact endgame solvers share (``tricks.sets_endgame`` for the Bura family,
``kozel.endgame``): a fail-soft alpha-beta's table of each position's bounds, and its clock, read
every ``TIME_CHECK`` + 1 nodes. Each solver keeps its own loop over the moves: a position's moves
and what each leads to are its own, and a shared loop calling back for each move made Kozel's
solver about 30 % slower (40 worlds of three cards a hand: 79-87 ms, 106-113 through the shared
loop); the shared table and clock cost it about 3 %."""

from __future__ import annotations

import time
from collections.abc import Hashable

TIME_CHECK = 255
INFINITY = float("inf")


class OutOfTime(Exception):
    """The deadline passed in the middle of a solve."""


class Bounds:
    """One solve's nodes, clock and table of bounds: ``window`` before a position is searched,
    ``keep`` after."""

    def __init__(self, deadline: float = INFINITY) -> None:
        self.deadline = deadline
        self.nodes = 0
        """The positions searched."""
        self.table: dict[Hashable, tuple[float, float]] = {}

    def window(self, key: Hashable, alpha: float, beta: float) -> tuple[float, float, float | None]:
        """The window (``alpha``, ``beta``) narrowed by the bounds known of the position ``key``,
        and its value when they decide it (then it need not be searched); raises ``OutOfTime``."""
        self.nodes += 1
        if not self.nodes & TIME_CHECK and time.perf_counter() > self.deadline:
            raise OutOfTime
        low, high = self.table.get(key, (-INFINITY, INFINITY))
        if low >= beta or low == high:
            return alpha, beta, low
        if high <= alpha:
            return alpha, beta, high
        return max(alpha, low), min(beta, high), None

    def keep(self, key: Hashable, best: float, alpha: float, beta: float) -> None:
        """What a search of ``key`` within the window (``alpha``, ``beta``) found: a bound, or the
        value when inside the window."""
        low, high = self.table.get(key, (-INFINITY, INFINITY))
        if best <= alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        self.table[key] = (low, high)
