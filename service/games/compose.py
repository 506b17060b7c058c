"""How a game object is composed from what its modules define: its rule set (a trick game's
``RuleSet``, a melding game's ``MeldingRules``) gives the protocol's ``check``, ``apply`` and
legal moves, its ``wire_form`` the wire methods (``service.games.wired``); the game class adds
its info, its schemas, ``deal`` and ``score``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from service.cards import Card
from service.games.base import Event, Listing, accepts
from service.games.wired import Wired

S = TypeVar("S")
M = TypeVar("M")
MC = TypeVar("MC", contravariant=True)


class CandidateListing(ABC, Generic[S, M]):
    """The trick games' legal moves: a finite superset of what a seat could try now (its
    candidates), kept where ``check`` accepts them, so legality is still decided once."""

    @abstractmethod
    def check(self, state: S, move: M) -> None: ...

    @abstractmethod
    def candidate_moves(self, state: S, seat: int) -> Iterable[M]: ...

    def legal_moves(self, state: S, seat: int) -> list[M]:
        return [move for move in self.candidate_moves(state, seat) if accepts(self.check, state, move)]

    def listing(self, state: S, seat: int) -> Listing[M]:
        return Listing(self.legal_moves(state, seat))


class Moving(Protocol):
    """A state that says whose move it is (``None`` once the hand is over), with a hand per seat."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def hands(self) -> Sequence[Sequence[Card]]: ...


SM = TypeVar("SM", bound=Moving)


@dataclass(frozen=True, slots=True)
class RuleSet(Generic[S, M]):
    """A trick game's pure rules, as its rules module defines them."""

    check: Callable[[S, M], None]
    apply: Callable[[S, M], tuple[S, list[Event]]]
    candidate_moves: Callable[[S, int], Iterable[M]]


class Decides(Protocol[S, MC]):
    """What every game's rule set has: the one check, and the effects."""

    @property
    def check(self) -> Callable[[S, MC], None]: ...

    @property
    def apply(self) -> Callable[[S, MC], tuple[S, list[Event]]]: ...


class RulesOf(Generic[SM, M]):
    """The protocol's ``to_move``, ``check`` and ``apply`` for a game that declares its
    ``rule_set`` (a ``RuleSet`` or ``MeldingRules``)."""

    rule_set: Decides[SM, M]

    def to_move(self, state: SM) -> int | None:
        return state.to_move

    def seats(self, state: SM) -> int:
        return len(state.hands)  # a hand per seat, in every game (empty for a dealer sitting out)

    def check(self, state: SM, move: M) -> None:
        self.rule_set.check(state, move)

    def apply(self, state: SM, move: M) -> tuple[SM, list[Event]]:
        return self.rule_set.apply(state, move)


class TrickGame(RulesOf[SM, M], CandidateListing[SM, M], Wired[SM, M]):
    """The rules half of a trick game: its rule set decides and applies moves and proposes the
    candidates, and its ``wire_form`` gives the wire methods; the game class adds its info, its
    schemas, deal and score."""

    rule_set: RuleSet[SM, M]

    def candidate_moves(self, state: SM, seat: int) -> Iterable[M]:
        return self.rule_set.candidate_moves(state, seat)


@dataclass(frozen=True, slots=True)
class MeldingRules(Generic[S, M]):
    """A game's pure rules when they list the legal moves themselves (Bezique, Canasta)."""

    check: Callable[[S, M], None]
    apply: Callable[[S, M], tuple[S, list[Event]]]
    listing: Callable[[S, int], tuple[list[M], Sequence[Any]]]
    """The moves listed one by one, and the families of moves that are not (§4.13 of Canasta's
    rules, §4.6 of Bezique's)."""


class MeldingGame(RulesOf[SM, M], Wired[SM, M]):
    """The protocol's rules and wire methods for a game that declares its ``rule_set`` and
    ``wire_form`` (with its ``dump_family``); the game class adds its info, schemas, deal and
    score."""

    rule_set: MeldingRules[SM, M]

    def legal_moves(self, state: SM, seat: int) -> list[M]:
        return self.listing(state, seat).moves

    def listing(self, state: SM, seat: int) -> Listing[M]:
        moves, families = self.rule_set.listing(state, seat)
        if not families:
            return Listing(moves)
        dump = self.wire_form.dump_family
        if dump is None:
            raise TypeError(f"{type(self).__name__} lists families but its wire form has no dump_family")
        return Listing(moves, [dump(f) for f in families])
