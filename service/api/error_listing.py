"""Every error of a request body against one schema of the spec, listed lazily and in
jsonschema-rs's order, each message written only if it is shown (``service.api.parsing`` shows
the first ``MAX_REPORTED`` and counts the rest).

jsonschema-rs's ``iter_errors`` builds every error before it yields the first, at ~10 µs each,
and an error quoting a large value converts that value to Python: a body of many wrong items took
seconds. So objects and arrays are walked here, valid parts passed over by jsonschema-rs's
``is_valid`` (which stops at the first error), and jsonschema-rs lists only the errors of a
scalar, when one is shown.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import filterfalse
from string import Formatter
from typing import Any, NamedTuple

import jsonschema_rs
import orjson

from service.api.schema_messages import MAX_MESSAGE, RULES, SchemaMessage, cut
from service.errors import FieldError

Components = dict[str, Any]
_REF = "#/components/schemas/"
_ANNOTATIONS = frozenset({"description", "discriminator", "title", "default", "example", "examples",
                          "deprecated", "readOnly", "writeOnly", "$comment"})
_OBJECT = frozenset({"properties", "required", "additionalProperties"})
_ARRAY = frozenset({"items", "minItems", "maxItems"})
_SHAPE = _OBJECT | _ARRAY | {"type"}
"""The keywords of objects and arrays that ``ErrorListing.errors`` checks itself."""
_ELSEWHERE = {"object": _ARRAY | {"type", "enum"}, "array": _OBJECT | {"type", "enum"}}
"""A schema with no keyword but these, met with an object (or an array): of its keywords only
``type`` and ``enum`` apply."""
_CHUNK = 4096
"""Items checked in one call at most, passing over a run of valid ones (``_next_invalid``)."""


def pointer(path: list[str]) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in path)


def child(at: str, key: str) -> str:
    return f"{at}/{key.replace('~', '~0').replace('/', '~1')}"


class Node(NamedTuple):
    """A schema of the spec as ``ErrorListing.errors`` walks it."""

    schema: dict[str, Any]
    check: Any  # jsonschema-rs's validator for it
    keys: frozenset[str]  # its keywords that validate


class Unread:
    """An error whose message is written only if it is shown: the errors counted past the shown
    ones need only their pointers, and a message may quote a large value or cost jsonschema-rs
    an ``iter_errors``."""

    __slots__ = ("pointer", "write")

    def __init__(self, pointer: str, write: Callable[[], SchemaMessage]) -> None:
        self.pointer, self.write = pointer, write

    @property
    def message(self) -> SchemaMessage:
        return self.write()


Found = FieldError | Unread
"""An error as the walk finds it."""


class ErrorListing:
    """The errors of bodies against the spec's component schemas, with jsonschema-rs's validator
    of each schema met compiled once."""

    def __init__(self, components: Callable[[], Components]) -> None:
        self._components = components
        self._nodes: dict[int, tuple[dict[str, Any], Node]] = {}
        self._item_nodes: dict[int, tuple[dict[str, Any], Node]] = {}

    def errors(self, schema: dict[str, Any], data: Any, at: str) -> Iterator[Found]:
        """The errors of ``data`` (at the pointer ``at``) against ``schema``, lazily and in
        jsonschema-rs's order.

        jsonschema-rs's ``iter_errors`` builds every error before it yields the first, at ~10 µs
        each, and an error quoting a large value converts that value to Python: a body of many
        wrong items took seconds. So objects and arrays are walked here, valid parts passed over
        by jsonschema-rs's ``is_valid`` (which stops at the first error), and jsonschema-rs lists
        only the errors of a scalar, when one is shown. The walk follows the schema, which is not
        recursive, so its depth is the schema's, whatever the body's."""
        node = self.node(schema)
        if node.check.is_valid(data):
            return
        schema, keys = node.schema, node.keys
        kind = "object" if isinstance(data, dict) else "array" if isinstance(data, list) else None
        types = schema.get("type", (kind,))
        # Every error below but the walk's lies at ``at``: after the first, ``_keep`` leaves them out.
        if kind is None:
            yield Unread(at, partial(_first_message, node.check, data))
        elif kind not in ([types] if isinstance(types, str) else types) and keys <= _ELSEWHERE[kind]:
            # only ``type`` and ``enum`` apply, so an empty stand-in fails the same way for nothing
            yield Unread(at, partial(_first_message, node.check, {} if kind == "object" else [], data))
        elif keys in ({"oneOf"}, {"anyOf"}):  # a union says only that no branch (or several) fits
            yield Unread(at, partial(self._union_message, schema, data))
        elif keys <= _SHAPE and isinstance(schema.get("items", {}), dict) and isinstance(
                schema.get("additionalProperties", True), bool | dict):
            yield from (self._object_errors if kind == "object" else self._array_errors)(schema, data, at)
        else:  # a keyword not walked here: jsonschema-rs's own listing
            yield from _converted(node.check.iter_errors(data), at)

    def _object_errors(self, schema: dict[str, Any], data: dict[str, Any], at: str) -> Iterator[Found]:
        """Missing fields, then each field's errors, then the unknown fields (jsonschema-rs's order)."""
        for key in schema.get("required", ()):
            if key not in data:
                yield FieldError(child(at, key), "is required")
        known, other = schema.get("properties", {}), schema.get("additionalProperties", True)
        if isinstance(other, dict):
            for key, value in data.items():
                yield from self.errors(known.get(key, other), value, child(at, key))
            return
        for key in filter(known.__contains__, data):  # in C: a body may hold 100,000 unknown fields
            yield from self.errors(known[key], data[key], child(at, key))
        if other is False:
            for key in filterfalse(known.__contains__, data):
                yield FieldError(child(at, key), "is not a known field")

    def _array_errors(self, schema: dict[str, Any], data: list[Any], at: str) -> Iterator[Found]:
        """Too few or too many items, then each item's errors."""
        if len(data) < (least := schema.get("minItems", 0)):
            yield Unread(at, partial(_quoting, data, f" has less than {_items(least)}", "minItems",
                                      limit=least))
        if len(data) > (most := schema.get("maxItems", len(data))):
            yield Unread(at, partial(_quoting, data, f" has more than {_items(most)}", "maxItems",
                                      limit=most))
        if "items" not in schema:
            return
        items = schema["items"]
        every, item = self.node(items, of_items=True).check, self.node(items).check
        n = 0
        while n < len(data):
            if item.is_valid(data[n]):  # to the next wrong item, past a run of right ones
                n = _next_invalid(every, data, n + 1)
                if n == len(data):
                    return
            value, pointer = data[n], f"{at}/{n}"
            if isinstance(value, dict | list):
                yield from self.errors(items, value, pointer)
            else:  # as ``errors`` would, without its overhead
                yield Unread(pointer, partial(_first_message, item, value))
            n += 1

    def _union_message(self, schema: dict[str, Any], data: Any) -> SchemaMessage:
        """jsonschema-rs's message for a union, without the errors of every branch it gathers."""
        word = "oneOf" if "oneOf" in schema else "anyOf"
        several = word == "oneOf" and sum(self.node(b).check.is_valid(data) for b in schema[word]) > 1
        verdict = "is valid under more than one" if several else "is not valid under any"
        return _quoting(data, f" {verdict} of the schemas listed in the '{word}' keyword",
                        "oneOfMultipleValid" if several else word)

    def node(self, schema: dict[str, Any], *, of_items: bool = False) -> Node:
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
        node = Node(target, check, frozenset(target.keys() - _ANNOTATIONS))
        cache[id(schema)] = (schema, node)
        return node


def _converted(errors: Iterable[Any], under: str) -> Iterator[FieldError]:
    """jsonschema-rs's errors, each at its own pointer (``under`` the value validated)."""
    for error in errors:
        at = under + pointer([str(p) for p in error.instance_path])
        kind = error.kind
        if isinstance(kind, jsonschema_rs.ValidationErrorKind.Required):
            yield FieldError(child(at, str(kind.property)), "is required")
        elif isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
            yield from (FieldError(child(at, key), "is not a known field") for key in kind.unexpected)
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


