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
    inner = _answered_inner(field)
    if inner is None and (field.required or not member or field.metadata.get("sometimes")):
        return field
    changed = copy.copy(field)
    if member and not field.metadata.get("sometimes"):
        changed.required, changed.load_default = True, ma.missing
    if isinstance(field, ma.fields.Nested) and inner is not None:
        changed.nested, changed._schema = inner, None  # not the request form's, if it was made
    elif isinstance(field, ma.fields.List) and inner is not None:
        changed.inner = inner
    elif isinstance(field, TypeUnion) and inner is not None:
        changed.members, changed.schema_name = inner, field.schema_name.removesuffix("In")
        field.schema_name = f"{changed.schema_name}In"
    return changed


def _answered_inner(field: ma.fields.Field) -> object | None:
    """What inside ``field`` changes in an answer (None: nothing)."""
    if isinstance(field, ma.fields.Nested) and isinstance(field.nested, type):
        form = answered(field.nested)
        return None if form is field.nested else form
    if isinstance(field, ma.fields.List):
        element = _answered_field(field.inner, member=False)
        return None if element is field.inner else element
    if isinstance(field, TypeUnion):
        forms = {kind: answered(schema) for kind, schema in field.members.items()}
        return None if all(forms[k] is s for k, s in field.members.items()) else forms
    return None
