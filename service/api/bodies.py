"""A request's body: read from the WSGI input within the size limit, and parsed as JSON, every
number an integer where it is one (the validators of ``service.api.parsing`` check it next)."""

from __future__ import annotations

import gc
from typing import Any

import orjson
from flask import Request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import get_content_length

from service.errors import MalformedJson, UnsupportedMediaType


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
        data = _parsed(body)
    except orjson.JSONDecodeError as error:
        raise MalformedJson("the body is not valid JSON: {problem} (line {line}, column {column})",
                            problem=error.msg, line=error.lineno, column=error.colno) from None
    return _integral_floats_as_ints(data) if _may_hold_floats(body) else data


def _parsed(body: bytes) -> Any:
    """orjson's parse with Python's cycle collector paused: each array parsed is an object it
    tracks, and the collections that many set off cost more the more there were (16,000 items of
    20 nested arrays: 99 ms, against 28 ms paused; 24,000: 182 ms against 44). Parsed JSON holds
    no cycles, so the pause leaves nothing for the collector to find."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return orjson.loads(body)
    finally:
        if collecting:
            gc.enable()


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
