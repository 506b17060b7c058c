"""A person's table against the computer player: the deal answers the person's seat key only and
a computer key, with which the server plays every other seat, answering what a spectator may see
of each move (what each seat may see is tests/api/test_sealed_games.py's)."""

from __future__ import annotations

from typing import Any

import pytest

from service import create_app
from service.config import Settings
from service.games.registry import GAMES
from tests.api.test_sealed_games import KEY


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app(Settings(state_keys=(KEY,))).test_client()


def _post(client: Any, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    answer = client.post(path, json=body)
    assert answer.status_code == status, answer.json
    return dict(answer.json)


def play_against_computer(client: Any, game_id: str, players: int, seat: int) -> tuple[dict[str, Any], list[Any]]:
    """A whole hand: the person at ``seat`` plays its first legal move, the computer the others.
    Returns the score and every answer the person's client received."""
    base = f"/v1/games/{game_id}/sealed"
    dealt = _post(client, f"{base}/deal-against-computer", {"players": players, "seat": seat, "seed": "table"})
    received: list[Any] = [dealt]
    token, key, computer = dealt["token"], dealt["seat_key"], dealt["computer_key"]
    to_move, seen = dealt["to_move"], 0
    while to_move is not None:
        if to_move == seat:
            listing = _post(client, f"{base}/legal-moves", {"token": token, "seat_key": key})
            answer = _post(client, f"{base}/validate", {"token": token, "seat_key": key, "move": listing["moves"][0]})
            received += [listing, answer]
        else:
            answer = _post(client, f"{base}/computer-move", {"token": token, "computer_key": computer,
                                                               "budget_ms": 1, "seed": "table"})
            assert answer["seat"] == to_move
            spectator = _post(client, f"{base}/events", {"token": answer["token"], "since": answer["move_number"] - 1})
            assert answer["public_events"] == spectator["moves"][0]["events"]
            received.append(answer)
        token, to_move = answer["token"], answer["to_move"]
        events = _post(client, f"{base}/events", {"token": token, "seat_key": key, "since": seen})
        received.append(events)
        seen = events["move_number"]
        received.append(_post(client, f"{base}/view", {"token": token, "seat_key": key}))
    return _post(client, f"{base}/score", {"token": token}), received


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_person_plays_a_whole_hand_against_the_computer(client, game_id):
    players = GAMES[game_id].info.default_players
    seat = players - 1
    scored, received = play_against_computer(client, game_id, players, seat)
    dealt = received[0]
    assert set(dealt) >= {"seat_key", "computer_key", "seat"} and "seat_keys" not in dealt
    assert dealt["seat"] == seat
    assert scored["hand"] is not None and scored["move_number"] == len(scored["record"]["moves"])
    # the person's seat keys is the only one its client ever received
    keys = {answer[field] for answer in received for field in ("seat_key", "computer_key") if field in answer}
    assert keys == {dealt["seat_key"], dealt["computer_key"]}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_table_size_is_dealt_with_one_seat_key(client, game_id):
    for players in GAMES[game_id].info.player_counts:
        dealt = _post(client, f"/v1/games/{game_id}/sealed/deal-against-computer", {"players": players})
        assert dealt["seat"] == 0 and "seat_keys" not in dealt
        view = _post(client, f"/v1/games/{game_id}/sealed/view", {"token": dealt["token"],
                                                                    "seat_key": dealt["seat_key"]})
        assert view["view"]


def test_the_computer_key_plays_only_its_seats_of_its_hand(client):
    base = "/v1/games/sixty-six/sealed"
    dealt = _post(client, f"{base}/deal-against-computer", {"seat": 1})
    other = _post(client, f"{base}/deal-against-computer", {"seat": 1})
    token, key, computer = dealt["token"], dealt["seat_key"], dealt["computer_key"]
    for wrong in (other["computer_key"], key, computer[:-2] + ("AA" if computer[-2:] != "AA" else "BB")):
        answer = client.post(f"{base}/computer-move", json={"token": token, "computer_key": wrong})
        assert answer.status_code == 403 and answer.json["errors"][0]["pointer"] == "/computer_key"
    if dealt["to_move"] == 1:  # the person leads: play so that the computer is to move
        move = _post(client, f"{base}/legal-moves", {"token": token, "seat_key": key})["moves"][0]
        token = _post(client, f"{base}/validate", {"token": token, "seat_key": key, "move": move})["token"]
    to_move = 0
    while to_move == 0:  # the computer plays until the person is to move
        moved = _post(client, f"{base}/computer-move", {"token": token, "computer_key": computer})
        assert moved["seat"] == 0
        token, to_move = moved["token"], moved["to_move"]
    assert to_move == 1
    refused = client.post(f"{base}/computer-move", json={"token": token, "computer_key": computer})
    assert refused.status_code == 422 and refused.json["type"].endswith(":no-move")
    assert refused.json["errors"][0]["pointer"] == "/computer_key"


def test_a_person_at_a_seat_the_table_has_not_is_refused(client):
    answer = client.post("/v1/games/bura/sealed/deal-against-computer", json={"players": 2, "seat": 4})
    assert answer.status_code == 422 and answer.json["errors"][0]["pointer"] == "/seat"
