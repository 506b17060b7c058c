"""A match's standing between hands, and the checks every game makes of the standing a client
sends with ``deal`` and ``score`` (a game keeps no match of its own: the client passes it back).

Every standing has its totals (game points, games won, pairs opened, penalties: per seat, or per
side), whether the match is over and who won it, and the seat that deals next; a game adds what
it needs (Kozel's multiplier, Bura's next leader). Before a deal or a score it must be a match
still under way, and its next dealer must be the dealer of this hand: ``MatchRules.check``. The
refusals are ``InvalidMatch``, pointing into the match (``/match/over``), or at ``/dealer`` when
a deal names a dealer the match does not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from service.errors import InvalidMatch, InvalidState
from service.i18n import N_

W = TypeVar("W")
SM = TypeVar("SM", bound="Standing")


class Standing(Protocol):
    """What every game's standing has (a frozen dataclass of the game's, or ``Match``)."""

    @property
    def totals(self) -> Sequence[int]: ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> Any: ...

    @property
    def next_dealer(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Match(Generic[W]):
    """The standing of a game that adds nothing to it; ``W`` is how a winner is named (a seat, a
    team, a list of seats)."""

    totals: tuple[int, ...]
    over: bool
    winner: W | None
    next_dealer: int


_ONE_TOTAL = {"seat": N_("one total per seat: {count}"), "side": N_("one total per side: {count}")}
_OVER = {"match": N_("the match is over: deal a new one without a match"),
         "party": N_("the party is over: deal a new one without a match")}
_NO_WINNER = {"match": N_("a match that is not over has no winner"),
              "party": N_("a party that is not over has no winner")}


@dataclass(frozen=True)
class MatchRules:
    """How one game's standing is checked, and how its refusals read."""

    totals: str = "totals"
    """The totals' name on the wire (``party_score`` in Sixty-six): the refusals point at it."""
    per: str = "seat"
    """What a total is kept for: ``seat``, or ``side``."""
    word: str = "match"
    """What the game calls a match (``party`` in Sixty-six)."""
    reached: str | None = None
    """The refusal of a total at the target (a message id; ``{target}`` is filled in), for a game where
    reaching it ends the match; None where a tie at the top plays on (Bezique, Canasta)."""
    over_with: tuple[str, ...] = ()
    """Fields that, set, say the match is over and are refused as ``/match/over`` (Kozel's
    ``winner`` and ``loser``); ``winner`` if not among them is refused at ``/match/winner``."""
    seats: tuple[str, ...] = ()
    """Seat fields checked against the table, where the schema allows a larger one."""
    sized: bool = False
    """Whether the totals sent are counted against the table before they are read (one per seat of
    this table, where the schema allows one per seat of any)."""

    def check(self, match: Standing, *, dealer: int, at: str, count: int | None = None,
              seats: int | None = None, target: int | None = None,
              also: Callable[[], None] | None = None) -> None:
        """Refuse a standing that cannot go on to this hand: ``count`` totals (if given), not
        over and without a winner, the top total under ``target`` (if given), the game's own
        checks (``also``), the seats within ``seats`` (if given), and ``dealer`` (of this hand;
        ``at`` points at where it was asked for) its next dealer."""
        if count is not None and len(match.totals) != count:
            raise InvalidMatch(f"/match/{self.totals}", _ONE_TOTAL[self.per], count=count)
        if match.over or any(getattr(match, name) is not None for name in self.over_with):
            raise InvalidMatch("/match/over", _OVER[self.word])
        if target is not None and self.reached is not None and max(match.totals) >= target:
            raise InvalidMatch(f"/match/{self.totals}", self.reached, target=target)
        if match.winner is not None:
            raise InvalidMatch("/match/winner", _NO_WINNER[self.word])
        if also is not None:
            also()
        if seats is not None:
            for name in self.seats:
                if getattr(match, name) >= seats:
                    raise InvalidMatch(f"/match/{name}", "seats are 0..{last}", last=seats - 1)
        if match.next_dealer != dealer:
            raise InvalidMatch(at, "the match says seat {dealer} deals this hand", dealer=match.next_dealer)

    def standing(self, wire: dict[str, Any] | None, load: Callable[[dict[str, Any]], SM], *,
                 new: Callable[[], SM], dealer: int, at: str, count: int | None = None,
                 seats: int | None = None, target: int | None = None) -> SM:
        """The standing sent (``load`` reads it), checked; ``new()`` for a first hand (none sent)."""
        if wire is None:
            return new()
        if self.sized and seats is not None and len(wire[self.totals]) != seats:
            raise InvalidState(f"/match/{self.totals}", "one entry per seat ({seats})", seats=seats)
        match = load(wire)
        self.check(match, dealer=dealer, at=at, count=count, seats=seats, target=target)
        return match
