"""Deeply nested bodies are 4xx, never 500: nothing on the request path recurses on request data.

A float 600 levels down once overflowed the recursive float-to-int walk (a 500 and a ~180 KB
traceback in the log, for a 1 KB body). Every depth up to orjson's limit is sent, and one past it.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
import pytest
from flask import Request
from werkzeug.test import EnvironBuilder

from service.api.bodies import _integral_floats_as_ints, read_json

ORJSON_MAX_DEPTH = 1024  # arrays and objects together; orjson refuses one level more
UNDER_STATE = ORJSON_MAX_DEPTH - 1  # the body's own object is a level: {"state": <this deep>}
ENDPOINTS = ("deal", "validate", "legal-moves", "view", "score")
LEAVES = {"float": b"1.5", "int": b"1", "str": b'"x"'}
PROBLEM = "application/problem+json"


def nested(depth: int, leaf: bytes, kind: str) -> bytes:
    """``leaf`` under ``depth`` arrays (``[[1.5]]``) or objects (``{"a": {"a": 1.5}}``), as JSON
    text: the stdlib encoder the test client uses would itself recurse."""
    if kind == "list":
        return b"[" * depth + leaf + b"]" * depth
    return b'{"a":' * depth + leaf + b"}" * depth


def post(client, path: str, field: str, value: bytes, extra: bytes = b""):
    body = b'{"' + field.encode() + b'":' + value + extra + b"}"
    return client.post(path, data=body, content_type="application/json")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture()
def logged_errors():
    """ERROR records of the service's logger (it does not propagate, so caplog sees nothing)."""
    handler, logger = _Collect(), logging.getLogger("service")
    logger.addHandler(handler)
    yield handler.records
    logger.removeHandler(handler)


def test_the_parser_limit_is_where_the_sweep_stops():
    orjson.loads(nested(ORJSON_MAX_DEPTH, b"1.5", "list"))
    orjson.loads(nested(ORJSON_MAX_DEPTH, b"1.5", "dict"))
    for kind in ("list", "dict"):
        with pytest.raises(orjson.JSONDecodeError, match="depth"):
            orjson.loads(nested(ORJSON_MAX_DEPTH + 1, b"1.5", kind))


@pytest.mark.parametrize("leaf", sorted(LEAVES))
@pytest.mark.parametrize("kind", ["list", "dict"])
def test_every_depth_under_state_is_4xx(client, logged_errors, kind, leaf):
    """Depths 1 to the parser's limit are 422 (state is not a list, or has no field "a"), one past
    it is 400 (orjson refuses it); every answer is a problem document."""
    wrong = []
    for depth in range(1, UNDER_STATE + 2):
        answer = post(client, "/v1/games/sixty-six/validate", "state",
                      nested(depth, LEAVES[leaf], kind), b',"move":{}')
        expected = 422 if depth <= UNDER_STATE else 400
        if answer.status_code != expected or answer.mimetype != PROBLEM:
            wrong.append((depth, answer.status_code, answer.mimetype))
    assert not wrong, f"{len(wrong)} depths answered wrongly, first {wrong[:3]}"
    assert not logged_errors


def test_sampled_depths_on_every_post_of_every_game(client, logged_errors):
    games = [game["id"] for game in client.get("/v1/games").json["games"]]
    assert len(games) >= 4
    wrong = []
    for game in games:
        for endpoint in ENDPOINTS:
            path = f"/v1/games/{game}/{endpoint}"
            fields = ("state", "options") if endpoint == "deal" else ("state",)
            for field in fields:
                for kind in ("list", "dict"):
                    for depth in (1, 486, 487, 600, UNDER_STATE, UNDER_STATE + 1):
                        answer = post(client, path, field, nested(depth, b"1.5", kind))
                        if not 400 <= answer.status_code < 500 or answer.mimetype != PROBLEM:
                            wrong.append((path, field, kind, depth, answer.status_code))
    assert not wrong, f"{len(wrong)} answers were not 4xx problems, first {wrong[:3]}"
    assert not logged_errors


def test_integral_floats_become_ints_at_any_depth():
    data = orjson.loads(b'{"a": [1.0, 1e0, 10e-1, 1.5, -2.0, 0.0, "1.0", true, null, 3, {"b": [[2.0]]}],'
                        b' "c": 7.0, "d": {"e": 2.5}}')
    # orjson writes 1 for an int and 1.0 for a float, so this checks the types as well
    assert orjson.dumps(_integral_floats_as_ints(data)) == (
        b'{"a":[1,1,1,1.5,-2,0,"1.0",true,null,3,{"b":[[2]]}],"c":7,"d":{"e":2.5}}')
    assert type(_integral_floats_as_ints(2.0)) is int
    assert _integral_floats_as_ints(1.5) == 1.5
    assert _integral_floats_as_ints("x") == "x"
    assert _integral_floats_as_ints(None) is None


@pytest.mark.parametrize("kind", ["list", "dict", "both"])
def test_a_structure_5000_deep_is_walked_without_recursion(kind):
    depth, bottom = 5_000, [2.0, 1.5, {"k": 3.0}]
    data: Any = bottom
    for level in range(depth):
        as_list = kind == "list" or (kind == "both" and level % 2 == 0)
        data = [data] if as_list else {"a": data}
    node = _integral_floats_as_ints(data)
    for _ in range(depth):  # down by a loop: == on it would recurse too
        node = node[0] if isinstance(node, list) else node["a"]
    assert orjson.dumps(node) == b'[2,1.5,{"k":3}]'


def test_read_json_at_the_parser_limit():
    body = b'{"s":' + nested(UNDER_STATE - 1, b"[4.0,4.5]", "list") + b"}"  # 1,024 levels in all
    environ = EnvironBuilder(method="POST", data=body, content_type="application/json").get_environ()
    node = read_json(Request(environ), max_bytes=1 << 20)["s"]
    for _ in range(UNDER_STATE - 1):
        node = node[0]
    assert orjson.dumps(node) == b"[4,4.5]"
