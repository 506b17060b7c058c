"""The kinds of value Bezique's wire form has that ``service.wire.kinds`` does not: a value that may
be missing, an exposed card's tags, a record read into a named tuple, and a declaration's card
from the hand (docs/rules/bezique.md §4.3; API.md, melding games)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields

from service.cards import CARDS
from service.wire.codegen import Source
from service.wire.form import Record
from service.wire.kinds import Kind, ListOf
from service.wire.schemas import CardFields


class Maybe(Kind):
    """A value of ``kind`` or none (None in the state): on the wire null, with ``null`` (an entry
    of a list, where a field's ``nullable`` cannot say it), or else left out (a move's optional
    field: its dumper drops it)."""

    def __init__(self, kind: Kind, *, null: bool = False) -> None:
        self.kind, self.null, self.plain = kind, null, kind.plain

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        if self.null:
            kwargs["allow_none"] = True
        return self.kind.field(ctx, **kwargs)

    def read(self, src: str, code: Source) -> str:
        if self.plain:
            return src
        value = code.temp()  # src may be a move's ``w.get(...)``: evaluated once
        return f"None if ({value} := {src}) is None else {self.kind.read(value, code)}"

    def write(self, src: str, code: Source) -> str:
        return src if self.plain else f"None if {src} is None else {self.kind.write(src, code)}"


class Tags(ListOf):
    """The declaration kinds an exposed card has scored in: a sorted list on the wire, a
    ``frozenset`` in the state."""

    def read(self, src: str, code: Source) -> str:
        return f"frozenset({src})"

    def write(self, src: str, code: Source) -> str:
        return f"sorted({src})"


class Named(Kind):
    """A tuple record read into a named tuple (``Exposed``, ``Played``), which ``service.wire.form``
    reads only into a dataclass or a plain tuple: built as the named tuple's own ``__new__``
    builds it, and written by position."""

    def __init__(self, record: Record[tuple[Any, ...]], cls: type[tuple[Any, ...]]) -> None:
        self.record, self.cls = record, cls

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return self.record.field(ctx, **kwargs)

    def read(self, src: str, code: Source) -> str:
        new, cls = code.ref(tuple.__new__, "tuple_new"), code.ref(self.cls, self.cls.__name__)
        return f"{new}({cls}, {self.record.read(src, code)})"

    def write(self, src: str, code: Source) -> str:
        return self.record.write(src, code)


class HandCard(Kind):
    """A declaration's card from the hand, ``(card, as)`` in the move: ``as``, for a wild card
    only, is left out (not null) for a natural card."""

    def __init__(self, schema: type[ma.Schema]) -> None:
        self.schema = schema

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return fields.Nested(self.schema, **kwargs)

    def read(self, src: str, code: Source) -> str:
        cards = code.ref(CARDS, "CARDS")  # CARDS.get(None) is None: no `as`, no identity
        return f"({cards}[{src}['card']], {cards}.get({src}.get('as')))"

    def write(self, src: str, code: Source) -> str:
        card = f"{src}[0].code"
        return f"({{'card': {card}}} if {src}[1] is None else {{'card': {card}, 'as': {src}[1].code}})"
