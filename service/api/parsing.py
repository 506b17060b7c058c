"""Request bodies: read, parsed with orjson, and checked against the very JSON Schemas that the
marshmallow schemas put into the OpenAPI document.

So the contract has one source, the schemas. A valid body costs one pass of jsonschema-rs (a few
µs, against ~100 µs for fastjsonschema and several hundred for a marshmallow load with a field per
card). Only an invalid body pays for fastjsonschema, whose first error is turned into a problem
detail with a JSON pointer to the offending field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fastjsonschema
import jsonschema_rs
import orjson
from flask import Request, request
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import get_content_length

from service.errors import FieldError, MalformedJson, SchemaViolation, UnsupportedMediaType

Components = dict[str, Any]
MAX_REPORTED = 20
"""Schema errors listed in one answer at most; the detail says how many there were."""
MAX_MESSAGE = 200
Validator = Callable[[Any], Any]


def _pointer(path: list[str]) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in path)


class CompiledValidators:
    """One compiled validator per component schema, built from the spec's components."""

    def __init__(self, components: Callable[[], Components]) -> None:
        self._spec_components = components
        self._known: Components | None = None
        self._fast: dict[str, Any] = {}
        self._compiled: dict[str, Validator] = {}

    def _components(self) -> Components:
        """The spec's component schemas, read once the spec is complete (at the first use)."""
        if self._known is None:
            self._known = self._spec_components()
        return self._known

    def _document(self, name: str) -> dict[str, Any]:
        return {"$ref": f"#/components/schemas/{name}", "components": {"schemas": self._components()}}

    def __getitem__(self, name: str) -> Validator:
        """The slow validator that explains failures (fastjsonschema, compiled on first use)."""
        if name not in self._compiled:
            self._compiled[name] = fastjsonschema.compile(self._document(name), use_default=False)
        return self._compiled[name]

    def compile(self, name: str) -> None:
        if name not in self._fast:
            self._fast[name] = jsonschema_rs.validator_for(self._document(name))

    def validate(self, name: str, data: Any, *, game: str | None = None) -> Any:
        """``data`` if it matches the schema ``name``; else a ``SchemaViolation`` naming every
        error (``game``, the game whose path was called, names a state of another game as such)."""
        self.compile(name)
        fast = self._fast[name]
        if fast.is_valid(data):
            return data
        if game is not None:
            _check_game(data, game)
        branch = self._branch_for(name, data)
        if branch is not None:  # a union (open or sealed): the body's own branch names every error
            self.validate(branch, data, game=game)
        others = _every_error(fast, data)
        try:
            self[name](data)
        except fastjsonschema.JsonSchemaValueException as error:
            located = [self._locate(error, data)]
        else:  # the two validators disagree: report jsonschema-rs's errors alone
            located = []
        for extra in others:  # every other error, once, leaving out summaries of those reported
            if not any(seen.pointer.startswith(extra.pointer) for seen in located):
                located.append(extra)
        if isinstance(data, dict) and "state" in data:
            located = [_deal_answer_hint(e) for e in located]
        shown = tuple(located[:MAX_REPORTED])
        detail = "the request body does not match the schema"
        if len(located) > len(shown):
            detail += f" ({len(located)} errors; the first {len(shown)} are listed)"
        raise SchemaViolation(detail, shown)

    def _branch_for(self, name: str, data: Any) -> str | None:
        """The one branch of the union ``name`` whose own required fields the body has."""
        branches = self._components()[name].get("oneOf")
        if not branches or not isinstance(data, dict) or not all("$ref" in b for b in branches):
            return None
        names = [b["$ref"].rsplit("/", 1)[-1] for b in branches]
        chosen = _chosen(_own_fields([self._components()[n] for n in names]), data)
        return names[chosen[0]] if len(chosen) == 1 else None

    def _locate(self, error: fastjsonschema.JsonSchemaValueException, body: Any) -> FieldError:
        """The most precise pointer and message for a schema failure."""
        path = list(error.path[1:])
        value, definition = error.value, error.definition or {}
        message = error.message.removeprefix(f"{error.name} ")
        if error.rule == "required" and isinstance(value, dict):
            missing = next(k for k in definition["required"] if k not in value)
            return FieldError(_pointer([*path, missing]), "is required")
        if error.rule == "additionalProperties" and isinstance(value, dict):
            known = definition.get("properties", {})
            extra = next(k for k in value if k not in known)
            return FieldError(_pointer([*path, extra]), "is not a known field")
        if error.rule == "oneOf" and "discriminator" in definition and isinstance(value, dict):
            return self._locate_variant(path, value, definition["discriminator"])
        if error.rule == "oneOf" and isinstance(value, dict):
            return self._locate_branch(path, value, definition["oneOf"])
        return FieldError(_pointer(path), message)

    def _locate_branch(self, path: list[str], value: dict[str, Any], branches: list[Any]) -> FieldError:
        """A union such as ``ScoreIn`` (a final state, or a record): the branch whose own required
        fields the body has explains the error; with none or several, say what to send."""
        own = _own_fields(branches)
        chosen = _chosen(own, value)
        if not chosen and own[0]:  # none sent: the first form's field is missing, the others are named
            others = ", ".join(key for keys in own[1:] for key in keys)
            return FieldError(_pointer([*path, own[0][0]]), f"is required (or send one of: {others})")
        if len(chosen) != 1:
            names = ", ".join(key for keys in own for key in keys)
            return FieldError(_pointer(path), f"send exactly one of: {names}")
        name = next((n for n, d in self._components().items() if d == branches[chosen[0]]), None)
        if name is None:  # an inline branch: nothing more precise to say than its own failure
            return FieldError(_pointer(path), "does not match the schema")
        return self._locate_within(path, name, value)

    def _locate_variant(self, path: list[str], value: dict[str, Any], disc: Any) -> FieldError:
        """A ``oneOf`` failure: name the unknown ``type``, or the error inside the chosen variant."""
        key, mapping = disc["propertyName"], disc["mapping"]
        chosen = value.get(key)
        if not isinstance(chosen, str) or chosen not in mapping:
            return FieldError(_pointer([*path, key]), f"must be one of: {', '.join(mapping)}")
        return self._locate_within(path, mapping[chosen].rsplit("/", 1)[-1], value)

    def _locate_within(self, path: list[str], name: str, value: dict[str, Any]) -> FieldError:
        """The error of ``value`` against the one branch ``name`` of a union it was meant for."""
        try:
            self[name](value)
        except fastjsonschema.JsonSchemaValueException as inner:
            located = self._locate(inner, value)
            return FieldError(_pointer(path) + located.pointer, located.message)
        return FieldError(_pointer(path), "matches more than one variant")


def _own_fields(branches: list[dict[str, Any]]) -> list[list[str]]:
    """Each branch's required fields that not every branch requires: what tells them apart."""
    required = [set(branch.get("required", ())) for branch in branches]
    common = set.intersection(*required)
    return [sorted(keys - common) for keys in required]


def _chosen(own: list[list[str]], body: dict[str, Any]) -> list[int]:
    """The branches whose own fields the body has, every one of them."""
    return [i for i, keys in enumerate(own) if keys and set(keys) <= body.keys()]


def _check_game(body: Any, game: str) -> None:
    """A state of another game is named as such, rather than by the first field it lacks."""
    if not isinstance(body, dict):
        return
    record = body.get("record")
    for at, state in (("/state", body.get("state")),
                      ("/record/start", record.get("start") if isinstance(record, dict) else None)):
        other = state.get("game") if isinstance(state, dict) else None
        if isinstance(other, str) and other != game:
            raise SchemaViolation(f"a {other} state was sent to {game}", (FieldError(
                f"{at}/game", f"is {other!r}: this path is for {game}; send a {other} state to "
                f"/v1/games/{other}/..."),))


def _deal_answer_hint(error: FieldError) -> FieldError:
    """``deal``'s whole answer sent on: say what to send instead."""
    if error.pointer in ("/seed", "/shuffle") and error.message == "is not a known field":
        return FieldError(error.pointer, "is not a known field here: send the deal's state alone, "
                                         'as {"state": ...}')
    return error


def _every_error(validator: Any, data: Any) -> list[FieldError]:
    """Every error jsonschema-rs finds, each at its own pointer. fastjsonschema, which explains
    the first error best, stops at it; a client should hear of every mistake at once."""
    try:
        errors = list(validator.iter_errors(data))
    except ValueError:  # jsonschema-rs's recursion limit (a failing value 255 or more levels deep)
        return []
    found: list[FieldError] = []
    for error in errors:
        path = [str(p) for p in error.instance_path]
        kind = error.kind
        if isinstance(kind, jsonschema_rs.ValidationErrorKind.Required):
            found.append(FieldError(_pointer([*path, str(kind.property)]), "is required"))
        elif isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
            found += [FieldError(_pointer([*path, key]), "is not a known field") for key in kind.unexpected]
        else:
            found.append(FieldError(_pointer(path), _cut(error.message)))
    return found


def _cut(message: str) -> str:
    """jsonschema-rs's messages quote the offending value, which the client may have made large."""
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + "… (cut)"


def read_body(environ: dict[str, Any], *, max_bytes: int) -> bytes:
    """The raw body, at most ``max_bytes`` (413 beyond). Read from the WSGI input in one call:
    werkzeug's ``get_data`` wraps the input in a Python-level limited stream that cost more than
    parsing and validating the body together. A body without Content-Length (chunked) is read
    only where the server terminates the input, as werkzeug does."""
    declared = get_content_length(environ)
    if declared is not None and declared > max_bytes:
        raise RequestEntityTooLarge()
    if declared is None and not environ.get("wsgi.input_terminated"):
        return b""
    body: bytes = environ["wsgi.input"].read(max_bytes + 1 if declared is None else declared)
    if len(body) > max_bytes:
        raise RequestEntityTooLarge()
    return body


def read_json(req: Request, *, max_bytes: int) -> Any:
    """The body as JSON: 415 unless ``application/json``, 400 unless it parses."""
    if req.environ.get("CONTENT_TYPE") != "application/json" and req.mimetype != "application/json":
        raise UnsupportedMediaType("send the body as application/json")
    body = read_body(req.environ, max_bytes=max_bytes)
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as error:
        raise MalformedJson(f"the body is not valid JSON: {error}") from None
    return _integral_floats_as_ints(data) if _may_hold_floats(body) else data


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789E", b"000000000e")


def _may_hold_floats(body: bytes) -> bool:
    """A float literal has a point or an exponent after a digit. This superset test is done in
    C; a regular expression for the same took longer than parsing the body."""
    return b"." in body or b"0e" in body.translate(_DIGITS_AS_ZERO)


def _integral_floats_as_ints(data: Any) -> Any:
    """JSON Schema counts 1.0 as an integer, so the validator lets it through; every number of
    this API is an integer, so such floats become ints before any rule sees them.

    Iterative, with a work list of containers, and in place (the parsed body is ours): nesting
    comes from the client, up to orjson's 1,024 levels, and a recursive walk overflowed the
    Python stack (a 500) on a 1 KB body."""
    if type(data) is float:
        return int(data) if data.is_integer() else data
    if type(data) is not dict and type(data) is not list:
        return data
    pending: list[Any] = [data]
    while pending:
        node = pending.pop()
        for key, value in node.items() if type(node) is dict else enumerate(node):
            kind = type(value)  # orjson builds exact dicts, lists and floats
            if kind is float:
                if value.is_integer():
                    node[key] = int(value)
            elif kind is dict or kind is list:
                pending.append(value)
    return data


class CompiledParser(FlaskParser):
    """The webargs parser flask-smorest calls for ``@bp.arguments``; it validates with the
    compiled validators instead of ``schema.load``."""

    def __init__(self, validators: CompiledValidators, *, max_bytes: int) -> None:
        super().__init__()
        self.validators = validators
        self.max_bytes = max_bytes
        self.expected: list[str] = []
        self.games: dict[str, str] = {}

    def expect(self, game: str, *schemas: type) -> None:
        """A game's request schemas, to compile once every path is in the spec
        (``compile_expected``)."""
        self.expected += [schema.__name__ for schema in schemas]
        self.games.update((schema.__name__, game) for schema in schemas)

    def compile_expected(self) -> None:
        for name in self.expected:
            self.validators.compile(name)

    def parse(self, argmap: Any, req: Request | None = None, **kwargs: Any) -> Any:
        name = (argmap if isinstance(argmap, type) else type(argmap)).__name__
        body = read_json(request, max_bytes=self.max_bytes)
        return self.validators.validate(name, body, game=self.games.get(name))
