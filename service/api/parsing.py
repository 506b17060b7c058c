"""Request bodies checked against the very JSON Schemas that the marshmallow schemas put into the
OpenAPI document (the body is read and parsed by ``service.api.bodies``).

So the contract has one source, the schemas. A valid body costs one pass of jsonschema-rs (a few
µs, against ~100 µs for fastjsonschema and several hundred for a marshmallow load with a field per
card). Only an invalid body pays for fastjsonschema, whose first error is turned into a problem
detail with a JSON pointer to the offending field, and for a listing of the other errors whose
cost stops growing once enough are found.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import filterfalse
from string import Formatter
from typing import Any, NamedTuple

import fastjsonschema
import jsonschema_rs
import orjson
from flask import Request, request
from webargs.flaskparser import FlaskParser

from service.api.bodies import read_json
from service.api.schema_messages import MAX_MESSAGE, RULES, SchemaMessage, cut, of_keyword
from service.errors import FieldError, SchemaViolation
from service.i18n.text import Text

Components = dict[str, Any]
MAX_REPORTED = 20
"""Schema errors listed in one answer at most; the detail says how many there were."""
MAX_COUNTED = 1000
"""Schema errors counted at most: beyond, the detail says "more than" and listing stops."""
Validator = Callable[[Any], Any]
_REF = "#/components/schemas/"
_ANNOTATIONS = frozenset({"description", "discriminator", "title", "default", "example", "examples",
                          "deprecated", "readOnly", "writeOnly", "$comment"})
_OBJECT = frozenset({"properties", "required", "additionalProperties"})
_ARRAY = frozenset({"items", "minItems", "maxItems"})
_SHAPE = _OBJECT | _ARRAY | {"type"}
"""The keywords of objects and arrays that ``CompiledValidators._errors`` checks itself."""
_ELSEWHERE = {"object": _ARRAY | {"type", "enum"}, "array": _OBJECT | {"type", "enum"}}
"""A schema with no keyword but these, met with an object (or an array): of its keywords only
``type`` and ``enum`` apply."""
_CHUNK = 4096
"""Items checked in one call at most, passing over a run of valid ones (``_next_invalid``)."""
_UNKNOWN_FIELDS = re.compile(r"\+str\((\w+_keys)\)\+")
"""Where fastjsonschema's code quotes an object's unknown fields in a message."""


def _pointer(path: list[str]) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in path)


def _child(pointer: str, key: str) -> str:
    return f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"


class _Node(NamedTuple):
    """A schema of the spec as ``CompiledValidators._errors`` walks it."""

    schema: dict[str, Any]
    check: Any  # jsonschema-rs's validator for it
    keys: frozenset[str]  # its keywords that validate


class _Unread:
    """An error whose message is written only if it is shown: the errors counted past the shown
    ones need only their pointers, and a message may quote a large value or cost jsonschema-rs
    an ``iter_errors``."""

    __slots__ = ("pointer", "write")

    def __init__(self, pointer: str, write: Callable[[], SchemaMessage]) -> None:
        self.pointer, self.write = pointer, write

    @property
    def message(self) -> SchemaMessage:
        return self.write()


_Found = FieldError | _Unread
"""An error as the walk finds it."""


class CompiledValidators:
    """One compiled validator per component schema, built from the spec's components."""

    def __init__(self, components: Callable[[], Components]) -> None:
        self._spec_components = components
        self._known: Components | None = None
        self._fast: dict[str, Any] = {}
        self._compiled: dict[str, Validator] = {}
        self._nodes: dict[int, tuple[dict[str, Any], _Node]] = {}
        self._item_nodes: dict[int, tuple[dict[str, Any], _Node]] = {}

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
        count = _keep(located, self._errors(self._components()[name], data, ""))
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

    def _errors(self, schema: dict[str, Any], data: Any, at: str) -> Iterator[_Found]:
        """The errors of ``data`` (at the pointer ``at``) against ``schema``, lazily and in
        jsonschema-rs's order.

        jsonschema-rs's ``iter_errors`` builds every error before it yields the first, at ~10 µs
        each, and an error quoting a large value converts that value to Python: a body of many
        wrong items took seconds. So objects and arrays are walked here, valid parts passed over
        by jsonschema-rs's ``is_valid`` (which stops at the first error), and jsonschema-rs lists
        only the errors of a scalar, when one is shown. The walk follows the schema, which is not
        recursive, so its depth is the schema's, whatever the body's."""
        node = self._node(schema)
        if node.check.is_valid(data):
            return
        schema, keys = node.schema, node.keys
        kind = "object" if isinstance(data, dict) else "array" if isinstance(data, list) else None
        types = schema.get("type", (kind,))
        # Every error below but the walk's lies at ``at``: after the first, ``_keep`` leaves them out.
        if kind is None:
            yield _Unread(at, partial(_first_message, node.check, data))
        elif kind not in ([types] if isinstance(types, str) else types) and keys <= _ELSEWHERE[kind]:
            # only ``type`` and ``enum`` apply, so an empty stand-in fails the same way for nothing
            yield _Unread(at, partial(_first_message, node.check, {} if kind == "object" else [], data))
        elif keys in ({"oneOf"}, {"anyOf"}):  # a union says only that no branch (or several) fits
            yield _Unread(at, partial(self._union_message, schema, data))
        elif keys <= _SHAPE and isinstance(schema.get("items", {}), dict) and isinstance(
                schema.get("additionalProperties", True), bool | dict):
            yield from (self._object_errors if kind == "object" else self._array_errors)(schema, data, at)
        else:  # a keyword not walked here: jsonschema-rs's own listing
            yield from _converted(node.check.iter_errors(data), at)

    def _object_errors(self, schema: dict[str, Any], data: dict[str, Any], at: str) -> Iterator[_Found]:
        """Missing fields, then each field's errors, then the unknown fields (jsonschema-rs's order)."""
        for key in schema.get("required", ()):
            if key not in data:
                yield FieldError(_child(at, key), "is required")
        known, other = schema.get("properties", {}), schema.get("additionalProperties", True)
        if isinstance(other, dict):
            for key, value in data.items():
                yield from self._errors(known.get(key, other), value, _child(at, key))
            return
        for key in filter(known.__contains__, data):  # in C: a body may hold 100,000 unknown fields
            yield from self._errors(known[key], data[key], _child(at, key))
        if other is False:
            for key in filterfalse(known.__contains__, data):
                yield FieldError(_child(at, key), "is not a known field")

    def _array_errors(self, schema: dict[str, Any], data: list[Any], at: str) -> Iterator[_Found]:
        """Too few or too many items, then each item's errors."""
        if len(data) < (least := schema.get("minItems", 0)):
            yield _Unread(at, partial(_quoting, data, f" has less than {_items(least)}", "minItems",
                                      limit=least))
        if len(data) > (most := schema.get("maxItems", len(data))):
            yield _Unread(at, partial(_quoting, data, f" has more than {_items(most)}", "maxItems",
                                      limit=most))
        if "items" not in schema:
            return
        items = schema["items"]
        every, item = self._node(items, of_items=True).check, self._node(items).check
        n = 0
        while n < len(data):
            if item.is_valid(data[n]):  # to the next wrong item, past a run of right ones
                n = _next_invalid(every, data, n + 1)
                if n == len(data):
                    return
            value, pointer = data[n], f"{at}/{n}"
            if isinstance(value, dict | list):
                yield from self._errors(items, value, pointer)
            else:  # as ``_errors`` would, without its overhead
                yield _Unread(pointer, partial(_first_message, item, value))
            n += 1

    def _union_message(self, schema: dict[str, Any], data: Any) -> SchemaMessage:
        """jsonschema-rs's message for a union, without the errors of every branch it gathers."""
        word = "oneOf" if "oneOf" in schema else "anyOf"
        several = word == "oneOf" and sum(self._node(b).check.is_valid(data) for b in schema[word]) > 1
        verdict = "is valid under more than one" if several else "is not valid under any"
        return _quoting(data, f" {verdict} of the schemas listed in the '{word}' keyword",
                        "oneOfMultipleValid" if several else word)

    def _node(self, schema: dict[str, Any], *, of_items: bool = False) -> _Node:
        """``schema`` (a ``$ref`` stands for its target) and jsonschema-rs's validator for it, or
        (``of_items``) for an array of it; compiled on first use with only the components it
        refers to (the whole document took ~10 ms a schema to compile, this ~0.1 ms)."""
        cache = self._item_nodes if of_items else self._nodes
        known = cache.get(id(schema))
        if known is not None and known[0] is schema:  # ids of the spec's objects, which it keeps
            return known[1]
        target = schema
        while isinstance(ref := target.get("$ref"), str) and ref.startswith(_REF) and (
                target.keys() - _ANNOTATIONS == {"$ref"}):  # only annotations beside it
            target = self._components()[ref.removeprefix(_REF)]
        document = {"items": schema} if of_items else target
        check = jsonschema_rs.validator_for(
            {**document, "components": {"schemas": _referred(document, self._components())}})
        node = _Node(target, check, frozenset(target.keys() - _ANNOTATIONS))
        cache[id(schema)] = (schema, node)
        return node

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
            return FieldError(_pointer([*path, own[0][0]]),
                              Text("is required (or send one of: {fields})", {"fields": others}))
        if len(chosen) != 1:
            names = ", ".join(key for keys in own for key in keys)
            return FieldError(_pointer(path), Text("send exactly one of: {fields}", {"fields": names}))
        name = next((n for n, d in self._components().items() if d == branches[chosen[0]]), None)
        if name is None:  # an inline branch: nothing more precise to say than its own failure
            return FieldError(_pointer(path), "does not match the schema")
        return self._locate_within(path, name, value)

    def _locate_variant(self, path: list[str], value: dict[str, Any], disc: Any) -> FieldError:
        """A ``oneOf`` failure: name the unknown ``type``, or the error inside the chosen variant."""
        key, mapping = disc["propertyName"], disc["mapping"]
        chosen = value.get(key)
        if not isinstance(chosen, str) or chosen not in mapping:
            return FieldError(_pointer([*path, key]), Text(RULES["enum"], {"options": ", ".join(mapping)}))
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
            raise SchemaViolation("a {other} state was sent to {game}", (FieldError(f"{at}/game", Text(
                "is '{other}': this path is for {game}; send a {other} state to /v1/games/{other}/...",
                {"other": other, "game": game})),), other=other, game=game)


def _deal_answer_hint(error: FieldError) -> FieldError:
    """``deal``'s whole answer sent on: say what to send instead."""
    if error.pointer in ("/seed", "/shuffle") and error.message == "is not a known field":
        return FieldError(error.pointer, "is not a known field here: send the deal's state alone, "
                                         'as {"state": ...}')
    return error


def _keep(located: list[FieldError], others: Iterator[_Found]) -> int | None:
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


def _converted(errors: Iterable[Any], under: str) -> Iterator[FieldError]:
    """jsonschema-rs's errors, each at its own pointer (``under`` the value validated)."""
    for error in errors:
        at = under + _pointer([str(p) for p in error.instance_path])
        kind = error.kind
        if isinstance(kind, jsonschema_rs.ValidationErrorKind.Required):
            yield FieldError(_child(at, str(kind.property)), "is required")
        elif isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
            yield from (FieldError(_child(at, key), "is not a known field") for key in kind.unexpected)
        else:
            yield FieldError(at, _message(error))


def _referred(node: Any, components: Components) -> Components:
    """The components ``node`` refers to, directly or through others."""
    found: Components = {}
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith(_REF) and ref.removeprefix(_REF) not in found:
                found[ref.removeprefix(_REF)] = components[ref.removeprefix(_REF)]
                pending.append(components[ref.removeprefix(_REF)])
            pending += item.values()
        elif isinstance(item, list):
            pending += item
    return found


def _next_invalid(every: Any, data: list[Any], start: int) -> int:
    """The first invalid item of ``data`` from ``start`` on (``len(data)`` if none), passing over
    valid items in Rust: slices twice as long each time, then halves of the one that fails, so
    the items validated are a few times the run of valid ones, and the calls its logarithm."""
    size = 16
    while start < len(data):
        end = min(start + size, len(data))
        if not every.is_valid(data[start:end]):
            while end - start > 1:
                middle = (start + end) // 2
                if every.is_valid(data[start:middle]):
                    start = middle
                else:
                    end = middle
            return start
        start, size = end, min(2 * size, _CHUNK)
    return len(data)


def _message(error: Any) -> SchemaMessage:
    """jsonschema-rs's message of ``error``, with its keyword and the values its sentence names."""
    kind = error.kind
    rule = "oneOfMultipleValid" if isinstance(kind, jsonschema_rs.ValidationErrorKind.OneOfMultipleValid) \
        else kind.name
    names = [name for _, name, _, _ in Formatter().parse(RULES.get(rule, "")) if name]
    params = {name: kind.as_dict()[name] for name in names}
    return SchemaMessage(cut(error.message), rule, params)


def _first_message(check: Any, value: Any, quoted: Any = None) -> SchemaMessage:
    """The message of jsonschema-rs's first error for ``value`` (a scalar, or an empty stand-in
    for the container ``quoted``, which the message then quotes)."""
    error = next(check.iter_errors(value))
    message = _message(error)
    if isinstance(quoted, dict | list):
        if error.message[:2] in ("{}", "[]"):
            return _quoting(quoted, error.message[2:], message.rule, **message.params)
        return message
    return SchemaMessage(message.english, message.rule, message.params, _preview(value))


def _quoting(value: Any, text: str, rule: str, **params: Any) -> SchemaMessage:
    """The message of ``rule`` quoting ``value`` (at most its first characters) then ``text``."""
    preview = _preview(value)
    return SchemaMessage(cut(preview + text), rule, params, preview)


def _items(n: int) -> str:
    return f"{n} item" if n == 1 else f"{n} items"


class _Text(str):
    """JSON text already written, among the values ``_preview`` has still to write."""


def _preview(value: Any, limit: int = MAX_MESSAGE) -> str:
    """``value`` as jsonschema-rs quotes it in a message (compact JSON, keys sorted), but only
    its first ``limit`` characters or so: the message is cut there anyway, and the value may be
    a megabyte, or nested a thousand deep (so no recursion)."""
    out: list[str] = []
    size = 0
    pending: list[Any] = [value]  # what is still to write, the next last
    while pending and size <= limit:
        item = pending.pop()
        if type(item) is _Text:
            text = str(item)
        elif isinstance(item, dict):  # only the first keys can show, each a few characters
            keys = heapq.nsmallest(limit - size + 1, item)
            pending.append(_Text("}"))
            for n in range(len(keys) - 1, -1, -1):
                pending += [item[keys[n]], _Text(("," if n else "") + _scalar(keys[n]) + ":")]
            text = "{"
        elif isinstance(item, list):
            shown = item[:limit - size + 1]
            pending.append(_Text("]"))
            for n in range(len(shown) - 1, -1, -1):
                pending += [shown[n], _Text(",")] if n else [shown[n]]
            text = "["
        else:
            text = _scalar(item)
        out.append(text)
        size += len(text)
    return "".join(out)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return orjson.dumps(value[:MAX_MESSAGE + 1]).decode()
    if isinstance(value, bool) or value is None:
        return orjson.dumps(value).decode()
    if isinstance(value, int):  # orjson writes 64 bits at most; JSON has no such bound
        return str(value)
    return orjson.dumps(value).decode() if isinstance(value, float) else repr(value)


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
