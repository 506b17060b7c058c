"""Refusing a body for its schema errors costs time in proportion to the body, not to the square
of its errors: a 32 KB body of 16,000 wrong items took 22 s, and a 1 MB one ended in
a 500 after 30 s. The listing stops once the shown errors are found and a bounded number more
are counted, whatever the path, the game or the field."""

from __future__ import annotations

import copy
import random
import re
import time
from collections.abc import Callable
from typing import Any

import fastjsonschema
import jsonschema_rs
import orjson
import pytest

from service.api.error_listing import pointer
from service.api.parsing import MAX_COUNTED, MAX_REPORTED, CompiledValidators, _deal_answer_hint
from service.errors import FieldError, SchemaViolation
from service.games.registry import GAMES

PROBLEM = "application/problem+json"
BODY_BYTES = 1_000_000  # under the 1 MiB default of MAX_BODY_BYTES
QUICK = 1.0
"""Seconds: tens of ms on a loaded 2-core machine; the listing before took 20 s at 16,000 items."""
COUNTED = re.compile(rf"\((\d+|more than {MAX_COUNTED}) errors; the first {MAX_REPORTED} are listed\)$")

Make = Callable[[dict[str, Any], int], Any]


def _hand_of(state: dict[str, Any], items: list[Any]) -> dict[str, Any]:
    return {**state, "hands": [items, *state["hands"][1:]]}


def _nested(depth: int) -> Any:
    """``[[...[1]...]]``, ``depth`` lists deep: where a card belongs, it is quoted, not walked."""
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _few_wrong(n: int) -> list[Any]:
    """Cards with a number every 160th: errors far apart in a long array (over 20 from 4,000)."""
    return [1 if i % 160 == 0 else "AC" for i in range(n)]


# (game, endpoint, body with n wrong items, pointer of the first error, more than 20 errors?)
CASES: dict[str, tuple[str, str, Make, str, bool]] = {
    "sixty-six validate move.cards": (
        "sixty-six", "validate",
        lambda s, n: {"state": s, "move": {"type": "play", "seat": 0, "cards": [9] * n}},
        "/move/cards", False),  # the move's union sums its errors up as one
    "sixty-six validate state.hands": (
        "sixty-six", "validate",
        lambda s, n: {"state": _hand_of(s, ["x"] * n), "move": {"type": "play", "seat": 0, "cards": ["AC"]}},
        "/state/hands/0", True),
    "sixty-six legal-moves state.stock": (
        "sixty-six", "legal-moves", lambda s, n: {"state": {**s, "stock": [1] * n}}, "/state/stock", True),
    "sixty-six legal-moves state.stock, few wrong": (
        "sixty-six", "legal-moves", lambda s, n: {"state": {**s, "stock": _few_wrong(n)}}, "/state/stock", True),
    "sixty-six legal-moves state.stock, nested": (
        "sixty-six", "legal-moves", lambda s, n: {"state": {**s, "stock": [_nested(20)] * n}}, "/state/stock",
        True),
    "sixty-six score record.moves": (
        "sixty-six", "score", lambda s, n: {"record": {"start": s, "moves": [{}] * n}}, "/record/moves", True),
    "canasta legal-moves state.hands": (
        "canasta", "legal-moves", lambda s, n: {"state": _hand_of(s, [1] * n)}, "/state/hands/0", True),
    "bezique validate state.hands": (
        "bezique", "validate",
        lambda s, n: {"state": _hand_of(s, [1] * n), "move": {"type": "play", "seat": 0, "card": 0}},
        "/state/hands/0", True),
    "kozel view state.hands": (
        "kozel", "view", lambda s, n: {"state": _hand_of(s, [None] * n), "seat": 0}, "/state/hands/0", True),
    "bura deal unknown fields": (
        "bura", "deal", lambda s, n: {f"field_{i:07}": 0 for i in range(n)}, "/field_0000000", True),
}
SIZES = ("16,000 items", "1 MB")


@pytest.fixture(scope="module")
def states(app):
    client = app.test_client()
    return {game: client.post(f"/v1/games/{game}/deal", json={"seed": "cost"}).json["state"] for game in GAMES}


def _sized(make: Make, state: dict[str, Any], size: str) -> bytes:
    """The body with 16,000 items, or with as many as a megabyte holds (items of one size)."""
    if size == "16,000 items":
        return orjson.dumps(make(state, 16_000))
    one, two = (len(orjson.dumps(make(state, n))) for n in (1_000, 2_000))
    n = int((BODY_BYTES - (2 * one - two)) * 1_000 / (two - one))
    while len(raw := orjson.dumps(make(state, n))) > BODY_BYTES:
        n -= n // 100
    assert 0.98 * BODY_BYTES < len(raw) <= BODY_BYTES
    return raw


def _timed(client, path: str, raw: bytes):
    start = time.perf_counter()
    answer = client.post(path, data=raw, content_type="application/json")
    return time.perf_counter() - start, answer


def _best_of_3(client, path: str, raw: bytes) -> float:
    return min(_timed(client, path, raw)[0] for _ in range(3))


def _warm(client, path: str, make: Make, state: dict[str, Any]) -> None:
    """A small body of the same kind first: the validators a path uses compile on first use."""
    assert client.post(path, data=orjson.dumps(make(state, 100)), content_type="application/json").status_code == 422


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_body_of_many_wrong_items_is_refused_quickly(client, states, case, size):
    game, endpoint, make, pointer, many = CASES[case]
    path = f"/v1/games/{game}/{endpoint}"
    _warm(client, path, make, states[game])
    took, answer = _timed(client, path, _sized(make, states[game], size))
    assert answer.status_code == 422 and answer.mimetype == PROBLEM, answer.get_data()[:500]
    body = answer.json
    assert took < QUICK, f"{took:.2f} s"
    assert 1 <= len(body["errors"]) <= MAX_REPORTED
    assert body["errors"][0]["pointer"].startswith(pointer)
    if many:
        assert len(body["errors"]) == MAX_REPORTED and COUNTED.search(body["detail"]), body["detail"]


@pytest.mark.parametrize("case", ["sixty-six legal-moves state.stock", "sixty-six legal-moves state.stock, few wrong",
                                  "sixty-six score record.moves", "canasta legal-moves state.hands",
                                  "bura deal unknown fields"])
def test_the_cost_grows_linearly(client, states, case):
    """Four times the items cost less than eight times the time (a quadratic listing, sixteen)."""
    game, endpoint, make, _, _ = CASES[case]
    path = f"/v1/games/{game}/{endpoint}"
    _warm(client, path, make, states[game])
    small, large = (_best_of_3(client, path, orjson.dumps(make(states[game], n))) for n in (4_000, 16_000))
    assert large / small < 8, f"{small * 1000:.1f} ms, then {large * 1000:.1f} ms"


def test_the_count_is_exact_up_to_a_bound(client, states):
    """Stock's own error (too many cards), then one per wrong card."""
    path = "/v1/games/sixty-six/legal-moves"
    for wrong, said in ((500, "(501 errors;"), (2 * MAX_COUNTED, f"(more than {MAX_COUNTED} errors;")):
        answer = client.post(path, json={"state": {**states["sixty-six"], "stock": [1] * wrong}})
        assert answer.status_code == 422 and said in answer.json["detail"]


# The listing against the one it replaces: jsonschema-rs's every error, after fastjsonschema's
# first, each once, leaving out the summaries (at a parent pointer) of those kept.


def _every_error(validator: Any, data: Any) -> list[FieldError]:
    found: list[FieldError] = []
    for error in validator.iter_errors(data):
        path = [str(p) for p in error.instance_path]
        kind = error.kind
        if isinstance(kind, jsonschema_rs.ValidationErrorKind.Required):
            found.append(FieldError(pointer([*path, str(kind.property)]), "is required"))
        elif isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
            found += [FieldError(pointer([*path, key]), "is not a known field") for key in kind.unexpected]
        else:
            message = error.message
            found.append(FieldError(pointer(path), message if len(message) <= 200 else message[:200] + "… (cut)"))
    return found


def _reference(validators: CompiledValidators, name: str, data: Any) -> tuple[str, tuple[FieldError, ...]] | None:
    validators.compile(name)
    if validators._fast[name].is_valid(data):
        return None
    branch = validators._branch_for(name, data)
    if branch is not None and (failed := _reference(validators, branch, data)) is not None:
        return failed
    try:
        validators[name](data)
        located: list[FieldError] = []
    except fastjsonschema.JsonSchemaValueException as error:
        first = validators._locate(error, data)
        located = [FieldError(first.pointer, str(first.message))]
    for extra in _every_error(validators._fast[name], data):
        if not any(seen.pointer == extra.pointer or seen.pointer.startswith(extra.pointer + "/") for seen in located):
            located.append(extra)
    if isinstance(data, dict) and "state" in data:
        located = [_deal_answer_hint(e) for e in located]
    detail = "the request body does not match the schema"
    if len(located) > MAX_REPORTED:
        detail += f" ({len(located)} errors; the first {MAX_REPORTED} are listed)"
    return detail, tuple(located[:MAX_REPORTED])


JUNK: list[Any] = [None, True, 0, -1, 7, 10**30, 1.5, "", "x", "AC", "1Z", [], [1], ["AC", 3], {}, {"a": 1},
                   {"type": "play"}, [[1]], "k" * 300, {"z": [1, {"b": "c"}], "a/b~": None}]


def _mutated(body: Any, rng: random.Random) -> Any:
    """``body`` with a few values replaced, fields dropped or added, items added."""
    body = copy.deepcopy(body)
    for _ in range(rng.choice([1, 2, 3, 5, 30])):
        places, pending = [], [body]
        while pending:
            value = pending.pop()
            items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
            for key, item in items:
                places.append((value, key))
                pending.append(item)
        if not places:
            break
        container, key = rng.choice(places)
        roll = rng.random()
        if roll < 0.6:
            container[key] = copy.deepcopy(rng.choice(JUNK))
        elif isinstance(container, dict):
            if roll < 0.8:
                del container[key]
            else:
                container[rng.choice(["zz", "a/b", "t~x", "stock_"])] = 1
        else:
            container.append(copy.deepcopy(rng.choice(JUNK)))
    return body


@pytest.fixture(scope="module")
def validators(app):
    api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    return CompiledValidators(lambda: api.spec.to_dict()["components"]["schemas"])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_listing_is_the_one_it_replaces(app, states, validators, game):
    client = app.test_client()
    state = states[game]
    move = client.post(f"/v1/games/{game}/legal-moves", json={"state": state}).json["moves"][0]
    prefix = "".join(word.capitalize() for word in game.split("-"))
    bodies = [("ValidateIn", {"state": state, "move": move}), ("LegalMovesIn", {"state": state}),
              ("ViewIn", {"state": state, "seat": 0}), ("ScoreIn", {"record": {"start": state, "moves": [move]}}),
              ("DealIn", {"seed": "s", "players": min(GAMES[game].info.player_counts)})]
    rng = random.Random(game)
    for _ in range(60):
        kind, body = rng.choice(bodies)
        name, data = prefix + kind, _mutated(body, rng)
        expected = _reference(validators, name, data)
        try:
            validators.validate(name, copy.deepcopy(data))
            got = None
        except SchemaViolation as error:
            got = (str(error.detail), tuple(FieldError(e.pointer, str(e.message)) for e in error.errors))
        assert got == expected, (name, data)
