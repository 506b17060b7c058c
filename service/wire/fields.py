"""marshmallow fields of the contract: strict integers and booleans, card codes, moves.

The request hot path does not run marshmallow: it runs a validator compiled from the JSON Schema
these fields produce (``service.api.openapi`` says how each appears in the document, and
``service.api.parsing`` compiles it). So each field's ``_deserialize`` and its JSON Schema must say
the same thing; ``tests/api/test_fields.py`` holds them to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import marshmallow as ma


class StrictInteger(ma.fields.Integer):
    """An integer that refuses floats and strings ("1", 1.0)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBoolean(ma.fields.Boolean):
    """``true`` or ``false`` only; marshmallow's Boolean would take 0, 1, "yes"... (and a set
    ``{True}`` still lets 1 in, since 1 == True)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid", input=value)


class CardList(ma.fields.Field):
    """A list of card codes of one game's deck, checked in a single pass.

    In the OpenAPI document it is an array of ``<Game>Card`` (a string enum of the deck's codes),
    so clients see the exact codes while the card table is written once per game.
    """

    default_error_messages = {
        "invalid": "Not a list of card codes.",
        "unknown": "Unknown card code {code!r} at index {index}.",
        "length": "Length must be between {min} and {max}.",
    }

    def __init__(
        self, *, card_schema: str, codes: Sequence[str], min_items: int = 0, max_items: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.card_schema = card_schema
        self.codes = tuple(codes)
        self._allowed = frozenset(codes)
        self.min_items = min_items
        self.max_items = max_items

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.make_error("invalid")
        for index, code in enumerate(value):
            if code not in self._allowed:
                raise self.make_error("unknown", code=code, index=index)
        if len(value) < self.min_items or (self.max_items is not None and len(value) > self.max_items):
            raise self.make_error("length", min=self.min_items, max=self.max_items)
        return value

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        return value


class Card(ma.fields.Field):
    """One card code of a game's deck; ``<Game>Card`` in the OpenAPI document."""

    default_error_messages = {"unknown": "Unknown card code {code!r}."}

    def __init__(self, *, card_schema: str, codes: Sequence[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.card_schema = card_schema
        self.codes = tuple(codes)
        self._allowed = frozenset(codes)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str) or value not in self._allowed:
            raise self.make_error("unknown", code=value)
        return value

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        return value


class TypeUnion(ma.fields.Field):
    """One of several schemas, chosen by the object's ``type``: a game's moves, or its events (a
    named ``oneOf`` with a discriminator in the OpenAPI document)."""

    default_error_messages = {
        "invalid": "A {noun} is an object with a 'type'.",
        "unknown_type": "Unknown {noun} type {type!r}; expected one of {types}.",
    }

    def __init__(self, members: Mapping[str, type[ma.Schema]], *, schema_name: str, noun: str = "move",
                 about: str = "A move: one of the game's move types, chosen by `type`.",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.members = dict(members)
        self.schema_name = schema_name
        """The union's name in the OpenAPI document (``SixtySixMove``), so clients get a named type."""
        self.noun, self.about = noun, about

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise self.make_error("invalid", noun=self.noun)
        schema = self.members.get(value.get("type"))  # type: ignore[arg-type]
        if schema is None:
            raise self.make_error("unknown_type", noun=self.noun, type=value.get("type"),
                                  types=sorted(self.members))
        return schema().load(value)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        return value


class Null(ma.fields.Field):
    """A field that is always null (``type: null`` in the OpenAPI document): a spectator's
    ``seat`` and ``hand``, so that a client tells a seat's view from a spectator's by ``seat``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_none=True, validate=lambda value: value is None, **kwargs)
