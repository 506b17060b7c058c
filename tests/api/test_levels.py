"""The computer player's levels over HTTP: a number or a name, alone, within the server's budget,
and what each level plays."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

from service import create_app
from service.cards import SeedStream
from service.config import Settings
from service.games.base import DealSetup
from service.games.registry import GAMES
from service.player.levels import BY_NAME, LEVELS, level, played

GAME = GAMES["sixty-six"]


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app(Settings()).test_client()


def _dealt(client: Any) -> dict[str, Any]:
    return dict(client.post("/v1/games/sixty-six/deal", json={"seed": "levels"}).json["state"])


@pytest.mark.parametrize("named", [1, 2, 3, "beginner", "medium", "expert"])
def test_a_level_is_named_by_its_number_or_its_name(client, named):
    state = _dealt(client)
    answer = client.post("/v1/games/sixty-six/suggest",
                         json={"state": state, "seat": state["to_move"], "level": named, "seed": "x"})
    assert answer.status_code == 200, answer.json
    assert answer.json["budget_ms"] == level(named).budget_ms


@pytest.mark.parametrize("named", [0, 6, True, "Expert", 2.5, "3", [1]])
def test_anything_else_is_a_problem_naming_level(client, named):
    state = _dealt(client)
    answer = client.post("/v1/games/sixty-six/suggest",
                         json={"state": state, "seat": state["to_move"], "level": named})
    assert answer.status_code == 422
    assert [e["pointer"] for e in answer.json["errors"]] == ["/level"]


@pytest.mark.parametrize("other", [{"budget_ms": 10}, {"samples": 5}])
def test_a_level_with_a_budget_is_refused(client, other):
    state = _dealt(client)
    answer = client.post("/v1/games/sixty-six/suggest",
                         json={"state": state, "seat": state["to_move"], "level": 3, **other})
    assert answer.status_code == 422
    assert answer.json["errors"][0]["pointer"] == f"/{next(iter(other))}"


def test_a_level_past_the_servers_budget_is_refused_naming_it():
    small = create_app(Settings(suggest_max_budget_ms=50)).test_client()
    state = _dealt(small)
    answer = small.post("/v1/games/sixty-six/suggest",
                        json={"state": state, "seat": state["to_move"], "level": "expert"})
    assert answer.status_code == 422
    assert answer.json["limit"] == {"name": "SUGGEST_MAX_BUDGET_MS", "value": 50}
    assert answer.json["errors"][0]["pointer"] == "/level"


def test_levels_rise_in_budget_and_fall_in_slips():
    assert [lv.number for lv in LEVELS] == [1, 2, 3, 4, 5]
    assert all(a.budget_ms <= b.budget_ms and a.samples <= b.samples and a.slips >= b.slips
               and a.infers <= b.infers
               for a, b in pairwise(LEVELS))


def test_a_beginner_slips_as_often_as_its_level_says_and_otherwise_plays_greedily():
    rng = random.Random(5)
    state = GAME.deal(DealSetup(2, None, {}, None), SeedStream("slips"))
    while GAME.to_move(state) is not None and len(GAME.legal_moves(state, GAME.to_move(state))) < 4:
        seat = GAME.to_move(state)
        state, _ = GAME.apply(state, rng.choice(GAME.legal_moves(state, seat)))
    seat = GAME.to_move(state)
    legal = GAME.legal_moves(state, seat)
    greedy = GAME.advice.greedy(state, seat, legal)
    beginner = BY_NAME["beginner"]
    moves = [played(GAME, state, seat, seed=str(n), at=beginner).move for n in range(400)]
    others = sum(move != greedy for move in moves)
    expected = beginner.slips * (len(legal) - 1) / len(legal) * 400  # a slip may draw the greedy move too
    assert abs(others - expected) < 40, (others, expected)
    again = [played(GAME, state, seat, seed=str(n), at=beginner).move for n in range(400)]
    assert again == moves
