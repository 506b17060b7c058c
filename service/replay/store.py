"""What a replay store keeps of a hand, and the rule by which it takes a move (README, "Run at
scale", the replay guard). The stores: ``sqlite_store`` (one machine) and ``redis_store``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

TAKEN, LOST = -1, -2
"""What a store's ``advance`` answers besides the hand's latest move number (moved on)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """What a store keeps of a hand."""

    latest: int
    """The number of the hand's latest move (0: dealt, no move yet)."""
    digest: str
    """The latest move's digest ("" at the deal)."""
    computer_move: str
    """The latest move's wire form as JSON when the computer player made it, else ""."""


def verdict(entry: Entry | None, number: int, digest: str) -> int:
    """May a move of digest ``digest`` on a token at move ``number`` be taken? ``TAKEN``,
    ``LOST`` (no entry), or the hand's latest move number (moved on). RedisStore's script is the
    same rule in Lua."""
    if entry is None:
        return LOST
    if entry.latest > number + 1 or (entry.latest == number + 1 and entry.digest != digest):
        return entry.latest
    return TAKEN


class StoreUnavailable(Exception):
    """The store did not answer in time, or failed."""


class Store(Protocol):
    def dealt(self, hand_id: str) -> str:
        """Record a hand just dealt, at move 0; the store's epoch, for its tokens."""

    def advance(self, hand_id: str, epoch: str, number: int, digest: str, computer_move: str) -> int:
        """Take the move on the hand's token at ``number`` (``verdict``'s rule, in one atomic
        step), in the store of ``epoch``: ``TAKEN``, ``LOST`` or the latest move number."""

    def entry(self, hand_id: str, epoch: str) -> Entry | None:
        """The hand's entry in the store of ``epoch``; None when lost (another epoch, none)."""
