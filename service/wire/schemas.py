"""What a game needs to declare its wire schemas: strict schemas, card and seat fields, closed
sets of values, per-seat lists, and the bundle of a game's schemas. Below the games and above
marshmallow only: nothing here knows of Flask or of the OpenAPI document."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass
from dataclasses import fields as dataclass_fields
from enum import Enum
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from service.wire.fields import Card, CardList, StrictBoolean, StrictInteger

MAX_SEATS = 6


class Strict(ma.Schema):
    """Base of every schema: unknown fields are refused (``additionalProperties: false``)."""

    class Meta:
        unknown = ma.RAISE


def seat(*, maximum: int = MAX_SEATS - 1, **kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=validate.Range(0, maximum), **kwargs)


def per_seat(field: fields.Field, *, seats: int, **kwargs: Any) -> fields.List:
    return fields.List(field, validate=validate.Length(seats, seats), **kwargs)


def one_of(values: Iterable[Any], **kwargs: Any) -> fields.Field:
    """A closed set of strings or integers (enum members stand for their values)."""
    values = [v.value if isinstance(v, Enum) else v for v in values]
    if all(isinstance(v, str) for v in values):
        return fields.String(validate=validate.OneOf(values), **kwargs)
    return StrictInteger(validate=validate.OneOf(values), **kwargs)


def named(name: str, doc: str, members: dict[str, Any]) -> type[ma.Schema]:
    """A schema class built from fields; ``name`` is its name in the OpenAPI document."""
    attrs: dict[str, Any] = {**members, "__doc__": doc,
                             "Meta": type("Meta", (Strict.Meta,), {"register": False})}
    return type(name, (Strict,), attrs)


@dataclass(frozen=True)
class CardFields:
    """Card and seat fields of one game: its deck's codes (``<prefix>Card`` in the document) and
    its seat numbers."""

    prefix: str
    codes: tuple[str, ...]
    max_seats: int

    def cards(self, **kwargs: Any) -> CardList:
        return CardList(card_schema=f"{self.prefix}Card", codes=self.codes, **kwargs)

    def card(self, **kwargs: Any) -> Card:
        return Card(card_schema=f"{self.prefix}Card", codes=self.codes, **kwargs)

    def seat(self, **kwargs: Any) -> StrictInteger:
        return seat(maximum=self.max_seats - 1, **kwargs)

    def moves(self, moves: Mapping[str, tuple[str, dict[str, Any]]]) -> dict[str, type[ma.Schema]]:
        """The game's move schemas from ``{type: (doc, fields)}``: each has ``seat`` and ``type``
        and is named after the game and its type (``play`` -> ``SixtySixPlay``)."""
        return {kind: named(self.prefix + kind.title().replace("_", ""), doc, {
            "seat": self.seat(required=True), "type": one_of([kind], required=True), **members,
        }) for kind, (doc, members) in moves.items()}


@dataclass(frozen=True)
class GameSchemas:
    """A game's own schemas; the HTTP layer wraps them in the shared request/response envelopes."""

    fields: CardFields
    state: type[ma.Schema]
    moves: Mapping[str, type[ma.Schema]]
    """Move type -> its schema: the one list of the game's move types."""
    options: type[ma.Schema]
    match: type[ma.Schema]
    view: type[ma.Schema]
    hand_score: type[ma.Schema]
    family: type[ma.Schema] | None = None
    """One family of moves in ``legal-moves``' ``families``; None for a game without them."""

    @property
    def prefix(self) -> str:
        return self.fields.prefix


def options_schema(name: str, options: type) -> type[ma.Schema]:
    """The wire schema of a game's ``Options`` dataclass, from its fields as ``option()`` declared
    them: every option may be omitted and takes its default."""
    members: dict[str, Any] = {}
    for option in dataclass_fields(options):
        default, meta = option.default, option.metadata
        if default is MISSING:
            raise TypeError(f"{name}.{option.name} needs a default")
        kwargs: dict[str, Any] = {"load_default": default}
        if meta.get("description"):
            kwargs["metadata"] = {"description": meta["description"]}
        if meta.get("choices"):
            members[option.name] = one_of(meta["choices"], **kwargs)
        elif isinstance(default, bool):
            members[option.name] = StrictBoolean(**kwargs)
        elif isinstance(default, int) and meta.get("within"):
            members[option.name] = StrictInteger(validate=validate.Range(*meta["within"]), **kwargs)
        else:
            raise TypeError(f"{name}.{option.name}: say its range (within) or its choices")
    return named(name, options.__doc__ or "", members)
