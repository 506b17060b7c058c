"""The form a schema has in an answer: every field required, since the server always sends it
(a generated client then types it as present; null stays allowed where the field is nullable).

A game declares each of its states, views, moves and standings once, in its request form, where
fields may be left out and take their defaults. ``answered`` derives the answer form from it:
where it differs (some field, here or nested, is not required) the answer form takes the
schema's name, so a client's ``SixtySixState`` is the state it receives, and the request form is
renamed ``SixtySixStateIn``; a state received is always one that may be sent back. Tests check
every answer against its documented form, so a field that is not always sent is caught.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping

import marshmallow as ma

from service.wire.fields import TypeUnion

_ANSWERED: dict[type[ma.Schema], type[ma.Schema]] = {}


def answered(schema: type[ma.Schema]) -> type[ma.Schema]:
    """The answer form of ``schema`` (itself, if every field is required all the way down)."""
    found = _ANSWERED.get(schema)
    if found is not None:
        return found
    members = {name: _answered_field(f) for name, f in schema._declared_fields.items()}
    same = all(members[name] is f for name, f in schema._declared_fields.items())
    if same:
        _ANSWERED[schema] = schema
        return schema
    name = schema.__name__
    form: type[ma.Schema] = type(name, schema.__bases__, {
        **members, "__doc__": schema.__doc__, "__module__": schema.__module__, "Meta": schema.Meta})
    schema.__name__ = schema.__qualname__ = f"{name}In"
    _ANSWERED[schema] = _ANSWERED[form] = form
    return form


def _answered_field(field: ma.fields.Field, *, member: bool = True) -> ma.fields.Field:
    """The field as an answer has it: required (a schema's ``member``; not a list's element),
    nested schemas in their answer forms; the same object when nothing changes."""
    changed = copy.copy(field)
    if isinstance(changed, ma.fields.Nested) and isinstance(changed.nested, type):
        changed.nested, changed._schema = answered(changed.nested), None  # not the request form's, if made
    elif isinstance(changed, ma.fields.List):
        changed.inner = _answered_field(changed.inner, member=False)
    elif isinstance(changed, TypeUnion):
        changed.members = {kind: answered(schema) for kind, schema in changed.members.items()}
    inner_same = _same_inside(field, changed)
    if inner_same and (field.required or not member or field.metadata.get("sometimes")):
        return field
    if member and not field.metadata.get("sometimes"):
        changed.required, changed.load_default = True, ma.missing
    if isinstance(field, TypeUnion) and isinstance(changed, TypeUnion) and not inner_same:
        changed.schema_name = field.schema_name.removesuffix("In")
        field.schema_name = f"{changed.schema_name}In"
    return changed


def _same_inside(field: ma.fields.Field, changed: ma.fields.Field) -> bool:
    """Whether the answer form of what ``field`` nests is what it nests."""
    if isinstance(field, ma.fields.Nested) and isinstance(changed, ma.fields.Nested):
        return changed.nested is field.nested
    if isinstance(field, ma.fields.List) and isinstance(changed, ma.fields.List):
        return changed.inner is field.inner
    if isinstance(field, TypeUnion) and isinstance(changed, TypeUnion):
        return all(changed.members[kind] is schema for kind, schema in field.members.items())
    return True


def narrowed(schema: type[ma.Schema], name: str, doc: str,
             changes: Mapping[str, Callable[[ma.fields.Field], ma.fields.Field]]) -> type[ma.Schema]:
    """``schema``'s answer form under another name, some of its fields changed (a seat's view,
    whose hand is never null, from the view of any seat or a spectator); ``schema`` keeps its
    name."""
    members = {field_name: _answered_field(f) for field_name, f in schema._declared_fields.items()}
    for field_name, change in changes.items():
        members[field_name] = change(members[field_name])
    return type(name, schema.__bases__, {**members, "__doc__": doc, "__module__": schema.__module__,
                                         "Meta": schema.Meta})


def not_null(field: ma.fields.Field) -> ma.fields.Field:
    changed = copy.copy(field)
    changed.allow_none = False
    return changed
