"""How the contract's custom fields and schema keywords appear in the OpenAPI document (apispec)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import marshmallow as ma
from apispec import BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.utils import build_reference

from service.wire.fields import Card, CardList, MoveUnion


def install(plugin: MarshmallowPlugin) -> None:
    """Teach apispec how the custom fields above appear in the OpenAPI document."""
    converter = plugin.converter
    assert converter is not None  # set by APISpec when the plugin is registered

    def card_ref(name: str, codes: Sequence[str]) -> dict[str, Any]:
        spec = converter.spec
        if name not in spec.components.schemas:
            spec.components.schema(
                name, {"type": "string", "enum": list(codes), "description": "A card code."}
            )
        return build_reference("schema", converter.openapi_version.major, name)

    def attributes(self: Any, field: ma.fields.Field, **kwargs: Any) -> dict[str, Any]:
        if isinstance(field, CardList):
            ret: dict[str, Any] = {
                "type": ["array", "null"] if field.allow_none else "array",
                "items": card_ref(field.card_schema, field.codes),
            }
            if field.min_items:
                ret["minItems"] = field.min_items
            if field.max_items is not None:
                ret["maxItems"] = field.max_items
            return ret
        if isinstance(field, Card):
            ref = card_ref(field.card_schema, field.codes)
            return {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref
        if isinstance(field, MoveUnion):
            refs = {t: converter.resolve_nested_schema(s) for t, s in field.moves.items()}
            return {
                "oneOf": list(refs.values()),
                "discriminator": {
                    "propertyName": "type",
                    "mapping": {t: r["$ref"] for t, r in refs.items()},
                },
            }
        return {}

    converter.add_attribute_function(attributes)


class SchemaKeywords(BasePlugin):
    """Schema-level JSON Schema keywords that marshmallow fields cannot say, taken from a schema
    class's ``json_schema_extra`` (``named(exactly_one_of=...)`` sets it)."""

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        schema = kwargs.get("schema")
        if schema is None:
            return None
        cls = schema if isinstance(schema, type) else type(schema)
        extra: dict[str, Any] | None = getattr(cls, "json_schema_extra", None)
        return extra
