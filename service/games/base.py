"""The one small interface every game implements, and the value types the games share.

A game is a stateless object: every method takes a state (an immutable value of the game's own
type) and answers without side effects. The HTTP layer only ever talks to this interface.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any, Protocol, TypeVar

from service.cards import Card, SeedStream
from service.errors import IllegalMove, InvalidState

S = TypeVar("S")
Wire = dict[str, Any]
"""A JSON object as it travels (already checked against the game's JSON schema)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something a move caused: a trick won, a marriage scored, the stock closed, the hand over."""

    type: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    points: int | None = None
    suit: str | None = None

    def to_wire(self) -> Wire:
        wire: Wire = {"type": self.type, "seat": self.seat}
        if self.cards:
            wire["cards"] = [c.code for c in self.cards]
        if self.points is not None:
            wire["points"] = self.points
        if self.suit is not None:
            wire["suit"] = self.suit
        return wire


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What ``GET /v1/games`` tells about a game."""

    id: str
    name_en: str
    name_ru: str
    player_counts: tuple[int, ...]
    default_players: int
    deck: str
    card_values: Mapping[str, int]
    move_types: tuple[str, ...]
    reasons: Mapping[str, str]
    """Reason code -> the rule of shared/rules/<game>.md that it enforces."""
    event_types: tuple[str, ...]
    options: Mapping[str, Any]
    """Every option with its default value."""
    variants: tuple[str, ...] = field(default=())
    out_of_turn_moves: tuple[str, ...] = field(default=())
    """Move types a seat other than ``to_move`` may make (Bura's molodka)."""


@dataclass(frozen=True, slots=True)
class DealSetup:
    """What a deal request asks for, after the HTTP layer checked it against the schema."""

    players: int
    dealer: int | None
    """None: the match's next dealer, or seat 0."""
    options: Wire
    match: Wire | None

    def dealing_seat(self) -> int:
        """The dealer asked for, else the match's next dealer, else seat 0; 422 unless a seat."""
        asked = self.dealer is not None
        dealer = self.dealer if self.dealer is not None else (self.match or {}).get("next_dealer", 0)
        if dealer >= self.players:
            where = "/dealer" if asked else "/match/next_dealer"
            raise InvalidState(where, f"seats are 0..{self.players - 1}")
        return int(dealer)


class Game(Protocol):
    """The interface of a registered game. ``State`` and ``Move`` are the game's own types."""

    info: GameInfo
    schemas: Any
    """The game's marshmallow schemas (``service.api.schemas.GameSchemas``)."""

    def deal(self, setup: DealSetup, stream: SeedStream) -> Any: ...

    def load_state(self, wire: Wire) -> Any:
        """Wire state -> game state; raises ``InvalidState`` with pointers relative to the state."""

    def dump_state(self, state: Any) -> Wire: ...

    def load_move(self, wire: Wire) -> Any: ...

    def dump_move(self, move: Any) -> Wire: ...

    def to_move(self, state: Any) -> int | None: ...

    def check(self, state: Any, move: Any) -> None:
        """Raises ``IllegalMove`` for a move the rules refuse; the one place legality is decided."""

    def apply(self, state: Any, move: Any) -> tuple[Any, list[Event]]:
        """The next state and the events; only called with a move that ``check`` accepted."""

    def candidate_moves(self, state: Any, seat: int) -> Iterable[Any]:
        """A finite superset of what ``seat`` could try now; legal moves are those ``check`` keeps."""

    def view(self, state: Any, seat: int | None) -> Wire: ...

    def score(self, state: Any, match: Wire | None) -> Wire:
        """``{"hand": ..., "match": ...}``; raises ``HandNotFinished`` or ``InvalidMatch``."""


class RulesDelegate:
    """The rules half of the Game interface, handed to the game's pure rules module: every game
    package has a ``rules`` module with ``check``, ``apply`` and ``candidate_moves``."""

    rules: ModuleType

    def to_move(self, state: Any) -> int | None:
        return state.to_move  # type: ignore[no-any-return]

    def check(self, state: Any, move: Any) -> None:
        self.rules.check(state, move)

    def apply(self, state: Any, move: Any) -> tuple[Any, list[Event]]:
        return self.rules.apply(state, move)  # type: ignore[no-any-return]

    def candidate_moves(self, state: Any, seat: int) -> Iterable[Any]:
        return self.rules.candidate_moves(state, seat)  # type: ignore[no-any-return]


def options_wire(options: Any) -> Wire:
    """A game's options (a dataclass) as their wire object, every option named."""
    return {name: getattr(options, name) for name in options.__dataclass_fields__}


_new = object.__new__
_set = object.__setattr__


def evolve(state: S, **changes: Any) -> S:
    """A copy of a frozen, slotted dataclass with some fields changed: ``dataclasses.replace``
    without its per-call introspection, which showed at the top of the profiles. Every state and
    move class of the rules is such a dataclass, without ``__post_init__``."""
    cls: Any = type(state)
    new: S = _new(cls)
    for name in cls.__slots__:
        _set(new, name, getattr(state, name))
    for name, value in changes.items():
        _set(new, name, value)
    return new


Zones = Iterable[tuple[str, Sequence[Card]]]


def check_deck(full_deck: Sequence[Card], found: Sequence[Card], zones: Callable[[], Zones]) -> None:
    """Every card of the deck lies in exactly one place, as often as the deck holds it.

    ``found`` is every card of the state; ``zones`` lists the same cards by place, each pile with
    its JSON pointer (relative to the state), and is only asked for when the check fails: the first
    card seen more often than the deck holds it is reported at its own position.
    """
    if _same_multiset(full_deck, found):
        return  # the usual case, decided in C
    allowed = Counter(full_deck)
    seen: Counter[Card] = Counter()
    for pointer, pile in zones():
        for index, card in enumerate(pile):
            seen[card] += 1
            if seen[card] > allowed[card]:
                raise InvalidState(f"{pointer}/{index}", _overcount(card, allowed[card]))
    missing = allowed - seen
    listed = " ".join(sorted(c.code for c in missing.elements()))
    raise InvalidState("", f"cards missing from the state: {listed}")


def _overcount(card: Card, allowed: int) -> str:
    if allowed == 0:
        return f"{card.code} is not in this deck"
    times = "once" if allowed == 1 else f"{allowed} times"
    return f"{card.code} appears more often than the deck holds it ({times})"


@cache
def _deck_profile(full_deck: tuple[Card, ...]) -> frozenset[Card] | Counter[Card]:
    """A one-pack deck as a set; a deck with repeated cards as a multiset."""
    unique = frozenset(full_deck)
    return unique if len(unique) == len(full_deck) else Counter(full_deck)


def _same_multiset(full_deck: Sequence[Card], found: Sequence[Card]) -> bool:
    if len(found) != len(full_deck):
        return False
    profile = _deck_profile(tuple(full_deck))
    if isinstance(profile, frozenset):
        return len(set(found)) == len(found) and profile.issuperset(found)
    return Counter(found) == profile


def is_legal(game: Game, state: Any, move: Any) -> bool:
    try:
        game.check(state, move)
    except IllegalMove:
        return False
    return True


def legal_moves(game: Game, state: Any, seat: int) -> list[Any]:
    """What ``seat`` may do now: the candidates that ``check`` accepts (legality decided once)."""
    return [move for move in game.candidate_moves(state, seat) if is_legal(game, state, move)]
