"""How the contract's custom fields and schema keywords appear in the OpenAPI document (apispec)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import marshmallow as ma
from apispec import APISpec, BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.utils import build_reference

from service.api.languages import ACCEPT_LANGUAGE
from service.wire.fields import Card, CardList, Null, TypeUnion


def install(plugin: MarshmallowPlugin) -> None:
    """Teach apispec how the contract's own fields (``service.wire.fields``) appear in the
    OpenAPI document."""
    converter = plugin.converter
    assert converter is not None  # set by APISpec when the plugin is registered
    documented = _Documented(converter)

    def attributes(self: Any, field: ma.fields.Field, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        _default_as_words(ret)
        return documented.field(field)

    converter.add_attribute_function(attributes)


class _Documented:
    """Card lists, cards and move unions as the document shows them: a named ``<Game>Card`` enum
    of the deck's codes, and a named ``oneOf`` of a game's moves or events with its discriminator."""

    def __init__(self, converter: Any) -> None:
        self.converter = converter

    def field(self, field: ma.fields.Field) -> dict[str, Any]:
        if isinstance(field, CardList):
            array: dict[str, Any] = {
                "type": ["array", "null"] if field.allow_none else "array",
                "items": self.card_ref(field.card_schema, field.codes),
            }
            if field.min_items:
                array["minItems"] = field.min_items
            if field.max_items is not None:
                array["maxItems"] = field.max_items
            return array
        if isinstance(field, Card):
            ref = self.card_ref(field.card_schema, field.codes)
            return {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref
        if isinstance(field, TypeUnion):
            return self.union_ref(field)
        if isinstance(field, Null):
            return {"type": "null"}
        return {}

    def component(self, name: str, definition: dict[str, Any]) -> dict[str, Any]:
        spec = self.converter.spec
        if name not in spec.components.schemas:
            spec.components.schema(name, definition)
        return build_reference("schema", self.converter.openapi_version.major, name)

    def card_ref(self, name: str, codes: Sequence[str]) -> dict[str, Any]:
        return self.component(name, {"type": "string", "enum": list(codes), "description": "A card code."})

    def union_ref(self, field: TypeUnion) -> dict[str, Any]:
        refs = {t: self.converter.resolve_nested_schema(s) for t, s in field.members.items()}
        return self.component(field.schema_name, {
            "description": field.about,
            "oneOf": list(refs.values()),
            "discriminator": {"propertyName": "type", "mapping": {t: r["$ref"] for t, r in refs.items()}},
        })


def _default_as_words(ret: dict[str, Any]) -> None:
    """A field's default is said in its description, not as ``default``: generated clients
    (openapi-typescript, by default) make every field with a ``default`` required, and a request
    may leave these out."""
    if "default" not in ret:
        return
    default = json.dumps(ret.pop("default"))
    said = f"Default: `{default}`."
    ret["description"] = f"{ret['description'].rstrip()} {said}" if ret.get("description") else said


FORMER_NAMES = {"Dealt": "DealOut", "SealedDealt": "SealedDealOut",
                "SealedDealtAgainstComputer": "SealedDealAgainstComputerOut",
                "SealedComputerMoved": "SealedComputerMoveOut"}
"""Answers named before every operation's answer was ``<Game><Operation>Out`` (2.6.0): the old
name of each game's schema stays in the document, a deprecated alias, so a client typed by it
still builds."""


def former_names(spec: APISpec, prefixes: Sequence[str]) -> None:
    for prefix in prefixes:
        for former, name in FORMER_NAMES.items():
            spec.components.schema(f"{prefix}{former}", {
                "$ref": f"#/components/schemas/{prefix}{name}", "deprecated": True,
                "description": f"The former name of `{prefix}{name}`."})


class AcceptLanguage(BasePlugin):
    """Every operation that takes ``lang`` honours ``Accept-Language`` as well (both are read for
    every request, ``service.api.languages``): the header is declared beside the parameter,
    ``lang``'s component ``beside``."""

    def __init__(self, beside: str) -> None:
        self.beside = beside

    def operation_helper(self, path: str | None = None, operations: dict | None = None,
                         **kwargs: Any) -> None:
        for operation in (operations or {}).values():
            parameters = operation.get("parameters", [])
            if any(_names(parameter, self.beside) for parameter in parameters):
                parameters.append(ACCEPT_LANGUAGE)


def _names(parameter: object, component: str) -> bool:
    """Whether ``parameter`` is the component ``component``, by name or by reference."""
    if isinstance(parameter, dict):
        return str(parameter.get("$ref", "")).endswith(f"/{component}")
    return parameter == component


class SchemaKeywords(BasePlugin):
    """What marshmallow fields cannot say: a schema class with ``json_schema_union`` (``union()``
    in ``service.api.parts`` sets it) is a ``oneOf`` of its branches."""

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        self.spec = spec

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        schema = kwargs.get("schema")
        if schema is None:
            return None
        cls = schema if isinstance(schema, type) else type(schema)
        branches: tuple[type[ma.Schema], ...] | None = getattr(cls, "json_schema_union", None)
        if not branches:
            return None
        converter = next(p for p in self.spec.plugins if isinstance(p, MarshmallowPlugin)).converter
        assert converter is not None
        definition.clear()  # a union has no properties of its own
        definition.update(description=cls.__doc__ or "",
                          oneOf=[converter.resolve_nested_schema(b) for b in branches])
        return None
