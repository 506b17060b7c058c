"""The kinds of value a game's wire form is made of, each said once: its marshmallow field (which
makes the OpenAPI document and, compiled to JSON Schema, checks requests) and the Python code
that reads it from the wire and writes it back (``service.wire.form`` compiles that code).

A kind's ``read`` and ``write`` take ``src``, an expression for the value, and answer an
expression for the converted value. ``src`` is always cheap to evaluate (a local name, or an
index or attribute of one): a kind may repeat it. A kind must not put ``src`` inside a
comprehension's element, where it would be evaluated once per item.

What generated code a kind writes was chosen by measuring (Python 3.11, on the service's own
piles): ``tuple(map(CARDS.__getitem__, codes))`` reads a pile fastest, ``[c.code for c in pile]``
writes one fastest (faster than ``list(map(attrgetter("code"), pile))`` or ``codes()``), and a
pile of a fixed two cards (a Sixty-six trick) is read and written fastest unrolled.

A game may add a kind of its own (a subclass of ``Kind``): say its field, and its read and write
if the value is not the same on the wire as in the state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from enum import Enum
from typing import Any, Generic, TypeVar

import marshmallow as ma
from marshmallow import fields, validate

from service.cards import CARDS
from service.wire.codegen import Source
from service.wire.fields import StrictBoolean, StrictInteger
from service.wire.schemas import CardFields, one_of, options_schema

T = TypeVar("T")
UNROLLED = 4
"""A pile or per-seat list of at most this many entries, always that many, is read and written
entry by entry rather than by a loop."""


class Kind(ABC):
    """How one value is on the wire."""

    plain: bool = False
    """The value is the same on the wire and in the state (a number, a boolean, a string, null):
    read and written as it is."""

    @abstractmethod
    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        """Its marshmallow field; ``kwargs`` are the field's (``required``, ``metadata``...)."""

    def read(self, src: str, code: Source) -> str:
        """An expression for the state's value of the wire value ``src``."""
        return src

    def write(self, src: str, code: Source) -> str:
        """An expression for the wire value of the state's value ``src``."""
        return src

    def reader(self, code: Source) -> str | None:
        """A callable that reads one value, for ``map``; None if there is none."""
        return None


class Seat(Kind):
    """A seat number: 0 up to the game's largest table."""

    plain = True

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return ctx.seat(**kwargs)


SEAT = Seat()


@dataclass(frozen=True)
class Int(Kind):
    """An integer (never a float, a string or a boolean), within ``least`` and ``most``."""

    least: int | None = None
    most: int | None = None
    plain = True

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        if self.least is None and self.most is None:
            return StrictInteger(**kwargs)
        return StrictInteger(validate=validate.Range(self.least, self.most), **kwargs)


class Boolean(Kind):
    """``true`` or ``false``, nothing else."""

    plain = True

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return StrictBoolean(**kwargs)


BOOL = Boolean()


class OneOf(Kind):
    """One of a closed set of strings or integers. Given the values, the state holds the wire
    value; given an ``Enum``, the state holds its member; given a mapping, the state holds its
    keys and the wire its values (``{False: "in_progress", True: "finished"}``)."""

    def __init__(self, values: Iterable[Any] | type[Enum] | Mapping[Any, Any]) -> None:
        to_wire: dict[Any, Any] | None = None
        if isinstance(values, Mapping):
            to_wire = dict(values)
        elif isinstance(values, type) and issubclass(values, Enum):
            to_wire = {member: member.value for member in values}
        self.values = tuple(to_wire.values()) if to_wire is not None else tuple(values)  # type: ignore[arg-type]
        self._to_wire = to_wire
        self._from_wire = None if to_wire is None else {v: k for k, v in to_wire.items()}
        self.plain = to_wire is None

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return one_of(self.values, **kwargs)

    def read(self, src: str, code: Source) -> str:
        return src if self._from_wire is None else f"{code.ref(self._from_wire, 'from_wire')}[{src}]"

    def write(self, src: str, code: Source) -> str:
        return src if self._to_wire is None else f"{code.ref(self._to_wire, 'to_wire')}[{src}]"


@dataclass(frozen=True)
class Const(Kind):
    """A value every state of the game has (``game``, a fixed ``seats``): written, never read."""

    value: Any

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return one_of([self.value], **kwargs)

    def write(self, src: str, code: Source) -> str:
        return code.ref(self.value)


class OneCard(Kind):
    """One card of the game's deck (``<Game>Card`` in the document); a ``Card`` in the state."""

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return ctx.card(**kwargs)

    def read(self, src: str, code: Source) -> str:
        return f"{code.ref(CARDS, 'CARDS')}[{src}]"

    def write(self, src: str, code: Source) -> str:
        return f"{src}.code"

    def reader(self, code: Source) -> str:
        return code.ref(_CARD_OF, "card_of")


CARD = OneCard()
_CARD_OF = CARDS.__getitem__


@dataclass(frozen=True)
class Pile(Kind):
    """A list of card codes, ``least`` to ``most`` of them; a tuple of cards in the state."""

    least: int = 0
    most: int | None = None

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return ctx.cards(min_items=self.least, max_items=self.most, **kwargs)

    @property
    def _fixed(self) -> range | None:
        return range(self.least) if self.least == self.most and 0 < self.least <= UNROLLED else None

    def read(self, src: str, code: Source) -> str:
        if self._fixed:
            cards = code.ref(CARDS, "CARDS")
            return "(" + "".join(f"{cards}[{src}[{i}]], " for i in self._fixed) + ")"
        return f"tuple(map({CARD.reader(code)}, {src}))"

    def write(self, src: str, code: Source) -> str:
        if self._fixed:
            return "[" + ", ".join(f"{src}[{i}].code" for i in self._fixed) + "]"
        card = code.temp()
        return f"[{card}.code for {card} in {src}]"


class CardInList(Kind):
    """One card sent as a list of one code (a move's ``cards``); a ``Card`` in the move."""

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return ctx.cards(min_items=1, max_items=1, **kwargs)

    def read(self, src: str, code: Source) -> str:
        return f"{code.ref(CARDS, 'CARDS')}[{src}[0]]"

    def write(self, src: str, code: Source) -> str:
        return f"[{src}.code]"


CARD_IN_LIST = CardInList()


def _read_each(item: Kind, src: str, code: Source) -> str:
    if item.plain:
        return f"tuple({src})"
    reader = item.reader(code)
    if reader is not None:
        return f"tuple(map({reader}, {src}))"
    each = code.temp()
    return f"tuple([{item.read(each, code)} for {each} in {src}])"


def _write_each(item: Kind, src: str, code: Source) -> str:
    if item.plain:
        return f"list({src})"
    each = code.temp()
    return f"[{item.write(each, code)} for {each} in {src}]"


def _length(least: int | None, most: int | None) -> dict[str, Any]:
    return {} if least is None and most is None else {"validate": validate.Length(least, most)}


@dataclass(frozen=True)
class ListOf(Kind):
    """A list of values of one kind, ``least`` to ``most`` of them; a tuple in the state."""

    item: Kind
    least: int | None = None
    most: int | None = None

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return fields.List(self.item.field(ctx), **_length(self.least, self.most), **kwargs)

    def read(self, src: str, code: Source) -> str:
        return _read_each(self.item, src, code)

    def write(self, src: str, code: Source) -> str:
        return _write_each(self.item, src, code)


@dataclass(frozen=True)
class PerSeat(Kind):
    """One value of a kind per seat (or per side, per team): a list of exactly ``count``
    entries, or of ``count[0]`` to ``count[1]`` at a game of several table sizes; a tuple in the
    state."""

    item: Kind
    count: int | tuple[int, int]

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        least, most = (self.count, self.count) if isinstance(self.count, int) else self.count
        return fields.List(self.item.field(ctx), validate=validate.Length(least, most), **kwargs)

    @property
    def _unrolled(self) -> range | None:
        """Entries converted one by one (``tuple(src)`` is faster for values kept as they are)."""
        fixed = isinstance(self.count, int) and self.count <= UNROLLED and not self.item.plain
        return range(self.count) if fixed else None  # type: ignore[arg-type]

    def read(self, src: str, code: Source) -> str:
        if self._unrolled:
            return "(" + "".join(f"{self.item.read(f'{src}[{i}]', code)}, " for i in self._unrolled) + ")"
        return _read_each(self.item, src, code)

    def write(self, src: str, code: Source) -> str:
        if self._unrolled:
            return "[" + ", ".join(self.item.write(f"{src}[{i}]", code) for i in self._unrolled) + "]"
        return _write_each(self.item, src, code)


class Options(Kind, Generic[T]):
    """A game's options: its ``Options`` dataclass, every field declared with ``option()``; the
    schema is ``options_schema``'s."""

    def __init__(self, name: str, options: type[T]) -> None:
        self.cls = options
        self.schema = options_schema(name, options)
        self.names = tuple(f.name for f in dataclass_fields(options))  # type: ignore[arg-type]

    def load(self, wire: dict[str, Any]) -> T:
        """The options of a wire object the schema accepts (an option left out takes its default)."""
        return self.cls(**wire)

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return fields.Nested(self.schema, **kwargs)

    def read(self, src: str, code: Source) -> str:
        return f"{code.ref(self.cls, self.cls.__name__)}(**{src})"

    def write(self, src: str, code: Source) -> str:
        return "{" + ", ".join(f"{name!r}: {src}.{name}" for name in self.names) + "}"


@dataclass(frozen=True)
class Raw(Kind):
    """A value the game reads and writes by hand (say why beside the declaration): the
    generated code passes the wire value through as it is; ``make(ctx, **kwargs)`` is its field."""

    make: Callable[..., ma.fields.Field]
    plain = True

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return self.make(ctx, **kwargs)
