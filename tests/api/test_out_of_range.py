"""No schema-valid number in a state reaches a 500: every integer of real states (dealt, midway,
finished) is set to each seat number the schemas allow, and every answer is 200 or 422."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.games.registry import GAMES


def _int_paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "options":
                yield from _int_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _int_paths(item, (*path, index))


def _playout(client, game_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Three states (dealt, midway, finished) and one legal move of each type seen on the way."""
    path, rng = f"/v1/games/{game_id}", random.Random(game_id)
    players = min(GAMES[game_id].info.player_counts)  # so most seat numbers are out of range
    state = client.post(f"{path}/deal", json={"seed": "range", "players": players}).json["state"]
    seen, moves_by_type = [state], {}
    while state["status"] == "in_progress":
        for seat in range(state["seats"]):  # out-of-turn moves too
            for move in client.post(f"{path}/legal-moves", json={"state": state, "seat": seat}).json["moves"]:
                moves_by_type.setdefault(move["type"], move)
        moves = client.post(f"{path}/legal-moves", json={"state": state}).json["moves"]
        state = client.post(f"{path}/validate", json={"state": state, "move": rng.choice(moves)}).json["state"]
        seen.append(state)
    return [seen[0], seen[len(seen) // 2], seen[-1]], list(moves_by_type.values())


def _states(client, game_id: str) -> list[dict[str, Any]]:
    return _playout(client, game_id)[0]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_out_of_range_numbers_are_4xx(client, game_id):
    path = f"/v1/games/{game_id}"
    for state in _states(client, game_id):
        for where in _int_paths(state):
            for value in range(6):
                changed = copy.deepcopy(state)
                target = changed
                for key in where[:-1]:
                    target = target[key]
                target[where[-1]] = value
                for endpoint in ("legal-moves", "score"):
                    answer = client.post(f"{path}/{endpoint}", json={"state": changed})
                    assert answer.status_code in (200, 422), (endpoint, where, value, answer.json)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_moves_from_seats_past_the_table_are_4xx(client, game_id):
    """A move's seat is checked against the state's table, for every move type the game has."""
    path = f"/v1/games/{game_id}"
    states, moves = _playout(client, game_id)
    assert moves
    for state in states:
        for move in moves:
            for seat in range(6):
                answer = client.post(f"{path}/validate", json={"state": state, "move": {**move, "seat": seat}})
                assert answer.status_code in (200, 422), (move, seat, answer.json)
                if seat >= state["seats"]:
                    assert answer.status_code == 422 and answer.json["errors"][0]["pointer"] == "/move/seat"
