"""Request bodies checked against the very JSON Schemas that the marshmallow schemas put into the
OpenAPI document (the body is read and parsed by ``service.api.bodies``).

So the contract has one source, the schemas. A valid body costs one pass of jsonschema-rs (a few
µs, against ~100 µs for fastjsonschema and several hundred for a marshmallow load with a field per
card). Only an invalid body pays for fastjsonschema, whose first error is turned into a problem
detail with a JSON pointer to the offending field, and for a listing of the other errors whose
cost stops growing once enough are found.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import fastjsonschema
import jsonschema_rs
from flask import Request, request
from webargs.flaskparser import FlaskParser

from service.api.bodies import read_json
from service.api.error_listing import Components, ErrorListing, Found, pointer
from service.api.schema_messages import RULES, SchemaMessage, of_keyword
from service.errors import FieldError, SchemaViolation
from service.i18n.text import Text

MAX_REPORTED = 20
"""Schema errors listed in one answer at most; the detail says how many there were."""
MAX_COUNTED = 1000
"""Schema errors counted at most: beyond, the detail says "more than" and listing stops."""
Validator = Callable[[Any], Any]
_UNKNOWN_FIELDS = re.compile(r"\+str\((\w+_keys)\)\+")
"""Where fastjsonschema's code quotes an object's unknown fields in a message."""


class CompiledValidators:
    """One compiled validator per component schema, built from the spec's components."""

    def __init__(self, components: Callable[[], Components]) -> None:
        self._spec_components = components
        self._known: Components | None = None
        self._fast: dict[str, Any] = {}
        self._compiled: dict[str, Validator] = {}
        self._listing = ErrorListing(self._components)

    def _components(self) -> Components:
        """The spec's component schemas, read once the spec is complete (at the first use)."""
        if self._known is None:
            self._known = self._spec_components()
        return self._known

    def _document(self, name: str) -> dict[str, Any]:
        return {"$ref": f"#/components/schemas/{name}", "components": {"schemas": self._components()}}

    def __getitem__(self, name: str) -> Validator:
        """The slow validator that explains failures (fastjsonschema, compiled on first use).

        Its message for unknown fields quotes them all, ~1 µs a field for each union branch it
        tries: 90,000 in a 1 MB body took 0.1 s. ``_locate`` names the first alone, so the code
        fastjsonschema writes is made to say their number instead."""
        if name not in self._compiled:
            code = fastjsonschema.compile_to_code(self._document(name), use_default=False)
            namespace: dict[str, Any] = {}
            exec(_UNKNOWN_FIELDS.sub(r"+str(len(\1))+", code), namespace)
            self._compiled[name] = namespace["validate"]
        return self._compiled[name]

    def compile(self, name: str) -> None:
        if name not in self._fast:
            self._fast[name] = jsonschema_rs.validator_for(self._document(name))

    def validate(self, name: str, data: Any, *, game: str | None = None) -> Any:
        """``data`` if it matches the schema ``name``; else a ``SchemaViolation`` naming its errors,
        up to ``MAX_REPORTED`` (``game``, the game whose path was called, names a state of another
        game as such)."""
        self.compile(name)
        fast = self._fast[name]
        if fast.is_valid(data):
            return data
        if game is not None:
            _check_game(data, game)
        branch = self._branch_for(name, data)
        if branch is not None:  # a union (open or sealed): the body's own branch names every error
            self.validate(branch, data, game=game)
        try:
            self[name](data)
        except fastjsonschema.JsonSchemaValueException as error:
            located = [self._locate(error, data)]
        else:  # the two validators disagree: report jsonschema-rs's errors alone
            located = []
        count = _keep(located, self._listing.errors(self._components()[name], data, ""))
        if not located:  # never an empty list, whatever the validators make of the body
            located, count = [FieldError("", "does not match the schema")], 1
        if isinstance(data, dict) and "state" in data:
            located = [_deal_answer_hint(e) for e in located]
        shown = tuple(located)
        if count is None:
            raise SchemaViolation("the request body does not match the schema (more than {count} errors; "
                                  "the first {shown} are listed)", shown, count=MAX_COUNTED, shown=len(shown))
        if count > len(shown):
            raise SchemaViolation("the request body does not match the schema ({count} errors; the first "
                                  "{shown} are listed)", shown, count=count, shown=len(shown))
        raise SchemaViolation("the request body does not match the schema", shown)

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
        message = SchemaMessage(error.message.removeprefix(f"{error.name} "), error.rule or "",
                                of_keyword(error.rule or "", definition))
        if error.rule == "required" and isinstance(value, dict):
            missing = next(k for k in definition["required"] if k not in value)
            return FieldError(pointer([*path, missing]), "is required")
        if error.rule == "additionalProperties" and isinstance(value, dict):
            known = definition.get("properties", {})
            extra = next(k for k in value if k not in known)
            return FieldError(pointer([*path, extra]), "is not a known field")
        if error.rule == "oneOf" and "discriminator" in definition and isinstance(value, dict):
            return self._locate_variant(path, value, definition["discriminator"])
        if error.rule == "oneOf" and isinstance(value, dict):
            return self._locate_branch(path, value, definition["oneOf"])
        return FieldError(pointer(path), message)

    def _locate_branch(self, path: list[str], value: dict[str, Any], branches: list[Any]) -> FieldError:
        """A union such as ``ScoreIn`` (a final state, or a record): the branch whose own required
        fields the body has explains the error; with none or several, say what to send."""
        own = _own_fields(branches)
        chosen = _chosen(own, value)
        if not chosen and own[0]:  # none sent: the first form's field is missing, the others are named
            others = ", ".join(key for keys in own[1:] for key in keys)
            return FieldError(pointer([*path, own[0][0]]),
                              Text("is required (or send one of: {fields})", {"fields": others}))
        if len(chosen) != 1:
            names = ", ".join(key for keys in own for key in keys)
            return FieldError(pointer(path), Text("send exactly one of: {fields}", {"fields": names}))
        name = next((n for n, d in self._components().items() if d == branches[chosen[0]]), None)
        if name is None:  # an inline branch: nothing more precise to say than its own failure
            return FieldError(pointer(path), "does not match the schema")
        return self._locate_within(path, name, value)

    def _locate_variant(self, path: list[str], value: dict[str, Any], disc: Any) -> FieldError:
        """A ``oneOf`` failure: name the unknown ``type``, or the error inside the chosen variant."""
        key, mapping = disc["propertyName"], disc["mapping"]
        chosen = value.get(key)
        if not isinstance(chosen, str) or chosen not in mapping:
            return FieldError(pointer([*path, key]), Text(RULES["enum"], {"options": ", ".join(mapping)}))
        return self._locate_within(path, mapping[chosen].rsplit("/", 1)[-1], value)

    def _locate_within(self, path: list[str], name: str, value: dict[str, Any]) -> FieldError:
        """The error of ``value`` against the one branch ``name`` of a union it was meant for."""
        try:
            self[name](value)
        except fastjsonschema.JsonSchemaValueException as inner:
            located = self._locate(inner, value)
            return FieldError(pointer(path) + located.pointer, located.message)
        return FieldError(pointer(path), "matches more than one variant")



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
            raise SchemaViolation("a {other} state was sent to {game}", (FieldError(f"{at}/game", Text(
                "is '{other}': this path is for {game}; send a {other} state to /v1/games/{other}/...",
                {"other": other, "game": game})),), other=other, game=game)


def _deal_answer_hint(error: FieldError) -> FieldError:
    """``deal``'s whole answer sent on: say what to send instead."""
    if error.pointer in ("/seed", "/shuffle") and error.message == "is not a known field":
        return FieldError(error.pointer, "is not a known field here: send the deal's state alone, "
                                         'as {"state": ...}')
    return error


def _keep(located: list[FieldError], others: Iterator[Found]) -> int | None:
    """Add to ``located`` the errors of ``others`` up to ``MAX_REPORTED`` in all, each once and
    leaving out summaries of errors already kept (an error at a kept error's pointer or at one
    of its parents); the number of errors kept and left over, or None beyond ``MAX_COUNTED``.

    The pointers of kept errors and of their parents are a set, so each check costs the same
    however many errors came before (a scan of them all made the listing quadratic)."""
    covered: set[str] = set()
    for kept in located:
        _cover(covered, kept.pointer)
    count = len(located)
    try:
        for error in others:
            if error.pointer in covered:
                continue
            if count == MAX_COUNTED:
                return None
            count += 1
            _cover(covered, error.pointer)
            if len(located) < MAX_REPORTED:
                located.append(FieldError(error.pointer, error.message))
    except ValueError:  # jsonschema-rs's recursion limit (a failing value 255 or more levels deep)
        pass
    return count


def _cover(covered: set[str], pointer: str) -> None:
    """Add ``pointer`` and the pointers above it (``/a/b``, ``/a``, ``""``) to ``covered``,
    stopping at the first one already there (its parents are too)."""
    while pointer not in covered:
        covered.add(pointer)
        if not pointer:
            return
        pointer = pointer[:pointer.rfind("/")]


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
