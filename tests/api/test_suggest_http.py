"""The computer player over HTTP: open and sealed, its budget and its limits, reproducibility,
and the problems it answers."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bench.hostile import canasta_every_card
from service import create_app
from service.config import Settings
from service.games.registry import GAMES
from service.games.sixty_six.advice import infer, worlds
from tests.api.test_sealed_games import KEY
from tests.api.test_sealed_http import deal, problem
from tests.games.test_inference import GAME as SIXTY_SIX
from tests.games.test_inference import found_positions


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app(Settings(state_keys=(KEY,), suggest_max_budget_ms=400, suggest_max_samples=50)).test_client()


def open_deal(client: Any, game: str = "sixty-six", **body: Any) -> dict[str, Any]:
    answer = client.post(f"/v1/games/{game}/deal", json={"seed": "suggest", **body})
    assert answer.status_code == 200, answer.json
    return dict(answer.json["state"])


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_open_suggestion_is_a_move_validate_accepts(client: Any, game_id: str) -> None:
    state = open_deal(client, game_id)
    seat = state["to_move"]
    found = client.post(f"/v1/games/{game_id}/suggest", json={"state": state, "seat": seat, "budget_ms": 30})
    assert found.status_code == 200, found.json
    assert found.json["budget_ms"] == 30 and found.json["seed"]
    assert found.json["candidates"][0]["move"] == found.json["move"]
    checked = client.post(f"/v1/games/{game_id}/validate", json={"state": state, "move": found.json["move"]})
    assert checked.json["legal"] is True, checked.json


def test_the_same_seed_and_samples_give_the_same_answer(client: Any) -> None:
    state = open_deal(client)
    body = {"state": state, "seat": state["to_move"], "samples": 6, "seed": "again"}
    first = client.post("/v1/games/sixty-six/suggest", json=body).json
    assert first["samples"] == 6 and len(first["candidates"]) > 1
    assert all(c["value"] is not None for c in first["candidates"])
    assert client.post("/v1/games/sixty-six/suggest", json=body).json == first
    # The chosen move first (the greedy choice unless another leads it with confidence), then
    # the others from the best.
    assert first["candidates"][0]["move"] == first["move"]
    values = [c["value"] for c in first["candidates"][1:]]
    assert values == sorted(values, reverse=True), "the others from the best"


def test_the_answer_comes_within_its_budget(client: Any) -> None:
    state = open_deal(client, "bura")
    start = time.perf_counter()
    found = client.post("/v1/games/bura/suggest", json={"state": state, "seat": state["to_move"],
                                                        "budget_ms": 60}).json
    assert time.perf_counter() - start < 0.3
    assert found["samples"] >= 1


def test_a_budget_past_the_servers_limit_is_refused_by_name(client: Any) -> None:
    state = open_deal(client)
    body = {"state": state, "seat": state["to_move"]}
    message = problem(client.post("/v1/games/sixty-six/suggest", json={**body, "budget_ms": 401}), 422, "/budget_ms")
    assert "SUGGEST_MAX_BUDGET_MS (400)" in message
    problem(client.post("/v1/games/sixty-six/suggest", json={**body, "samples": 51}), 422, "/samples")
    problem(client.post("/v1/games/sixty-six/suggest", json={**body, "budget_ms": 0}), 422, "/budget_ms")
    problem(client.post("/v1/games/sixty-six/suggest", json={**body, "budget_ms": "9"}), 422, "/budget_ms")


def test_a_seat_with_no_move_is_refused_by_name(client: Any) -> None:
    state = open_deal(client)
    answer = client.post("/v1/games/sixty-six/suggest", json={"state": state, "seat": 1 - state["to_move"]})
    problem(answer, 422, "/seat")
    assert answer.json["type"].endswith(":no-move")


def test_a_seat_past_the_table_is_refused(client: Any) -> None:
    state = open_deal(client)
    problem(client.post("/v1/games/sixty-six/suggest", json={"state": state, "seat": 2}), 422, "/seat")


def test_a_sealed_suggestion_is_for_the_key_holders_seat_only(client: Any) -> None:
    dealt = deal(client)
    seat = dealt["to_move"]
    body = {"token": dealt["token"], "samples": 4, "seed": "sealed"}
    found = client.post("/v1/games/sixty-six/sealed/suggest", json={**body, "seat_key": dealt["seat_keys"][seat]})
    assert found.status_code == 200, found.json
    assert found.json["move"]["seat"] == seat and found.json["move_number"] == 0
    problem(client.post("/v1/games/sixty-six/sealed/suggest", json=body), 422, "/seat_key")
    other = client.post("/v1/games/sixty-six/sealed/suggest", json={**body, "seat_key": dealt["seat_keys"][1 - seat]})
    problem(other, 422, "/seat_key")
    problem(client.post("/v1/games/sixty-six/sealed/suggest", json={**body, "seat_key": "x" * 20}), 403, "/seat_key")


def test_the_largest_hand_is_searched_within_its_budget(client: Any) -> None:
    """A 150-card Canasta hand (bench/hostile.py): each playout move lists and weighs some 10 ms,
    and the clock is read before every one, so the budget is overrun by a move at most."""
    state = canasta_every_card()
    start = time.perf_counter()
    found = client.post("/v1/games/canasta/suggest", json={"state": state, "seat": state["to_move"],
                                                           "budget_ms": 50})
    assert found.status_code == 200, found.json
    assert time.perf_counter() - start < 0.15  # a whole playout past the deadline took 0.2 more


def test_an_open_suggestion_infers_from_the_record_sent_with_the_state(client: Any) -> None:
    """A closed Sixty-six hand in which the other seat failed to follow: with the record, the
    exact endgame solves only the worlds where it lacks that suit; without it, every world."""
    history, state = min(found_positions(20), key=lambda p: len(worlds(p[1], 0, 200) or range(999)))
    known = infer(history, 0)
    kept, every = worlds(state, 0, 200, known), worlds(state, 0, 200)
    assert kept is not None and every is not None and len(kept) < len(every)
    body = {"state": SIXTY_SIX.dump_state(state), "seat": 0, "budget_ms": 400, "seed": "record",
            "record": {"start": SIXTY_SIX.dump_state(history[0][0]),
                       "moves": [SIXTY_SIX.dump_move(move) for _, move in history]}}
    told = client.post("/v1/games/sixty-six/suggest", json=body)
    assert told.status_code == 200, told.json
    assert told.json["samples"] == len(kept)
    blind = client.post("/v1/games/sixty-six/suggest", json={k: v for k, v in body.items() if k != "record"})
    assert blind.json["samples"] == len(every)


def test_a_record_that_leads_elsewhere_or_breaks_the_rules_is_refused_by_name(client: Any) -> None:
    history, state = found_positions(1)[0]
    record = {"start": SIXTY_SIX.dump_state(history[0][0]),
              "moves": [SIXTY_SIX.dump_move(move) for _, move in history]}
    body = {"state": SIXTY_SIX.dump_state(state), "seat": 0, "samples": 1}
    short = {**record, "moves": record["moves"][:-1]}
    answer = client.post("/v1/games/sixty-six/suggest", json={**body, "record": short})
    problem(answer, 422, "/record")
    assert answer.json["type"].endswith("record-mismatch")
    twice = {**record, "moves": [record["moves"][0], record["moves"][0]]}
    problem(client.post("/v1/games/sixty-six/suggest", json={**body, "record": twice}), 422, "/record/moves/1")
