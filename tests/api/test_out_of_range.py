"""No schema-valid number in a state reaches a 500: every integer of real states (dealt, midway,
finished) is set to each seat number the schemas allow, and every answer is 200 or 422."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.games import GAMES


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


def _states(client, game_id: str) -> list[dict[str, Any]]:
    path, rng = f"/v1/games/{game_id}", random.Random(game_id)
    players = min(GAMES[game_id].info.player_counts)  # so most seat numbers are out of range
    state = client.post(f"{path}/deal", json={"seed": "range", "players": players}).json["state"]
    seen = [state]
    while state["status"] == "in_progress":
        moves = client.post(f"{path}/legal-moves", json={"state": state}).json["moves"]
        state = client.post(f"{path}/validate", json={"state": state, "move": rng.choice(moves)}).json["state"]
        seen.append(state)
    return [seen[0], seen[len(seen) // 2], seen[-1]]


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
