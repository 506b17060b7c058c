"""The replay guard (``REPLAY_STORE``) over both its stores, the SQLite file of one machine and a
real redis-server: a sealed hand plays forward from its latest token only, a retry of the same
move is answered again, two requests racing on one token have exactly one winner, and a store
that is down refuses or serves as configured. What a store that lost its data or hangs does:
tests/api/test_replay_faults.py."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from service import create_app
from service.config import Settings
from service.games.registry import GAMES
from tests.api.test_sealed_games import KEY
from tests.live import free_port, gunicorn
from tests.live_redis import redis_server

REPLAYED = "urn:card-rules:problem:replayed"


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "sqlite":
        yield "sqlite:///" + str(tmp_path_factory.mktemp("replay") / "replay.sqlite3")
        return
    with redis_server() as url:
        yield url


def client_of(url: str, **settings: Any) -> Any:
    return create_app(Settings(state_keys=(KEY,), replay_store=url, **settings)).test_client()


@pytest.fixture(scope="module")
def client(store: str) -> Any:
    return client_of(store)


def dealt(client: Any, game: str, seed: str = "replay") -> dict[str, Any]:
    answer = client.post(f"/v1/games/{game}/sealed/deal", json={"seed": seed})
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def in_play(client: Any, game: str, seed: str = "again") -> dict[str, Any]:
    """A fresh hand with a seat to move: a sealed deal joins the server's seed to ``seed``, so a
    hand may be over as it is dealt (Kozel-bura's, now and then); then another is dealt."""
    for attempt in range(20):
        hand = dealt(client, game, f"{seed}-{attempt}")
        if hand["to_move"] is not None:
            return hand
    raise AssertionError(f"20 {game} hands dealt over")


def moves(client: Any, game: str, token: str, seat_key: str) -> list[dict[str, Any]]:
    answer = client.post(f"/v1/games/{game}/sealed/legal-moves", json={"token": token, "seat_key": seat_key})
    assert answer.status_code == 200, answer.json
    return list(answer.json["moves"])


def move(client: Any, game: str, token: str, seat_key: str, chosen: dict[str, Any]) -> Any:
    return client.post(f"/v1/games/{game}/sealed/validate",
                       json={"token": token, "seat_key": seat_key, "move": chosen})


def branching(client: Any, game: str, seed: str = "replay") -> tuple[str, str, list[dict[str, Any]]]:
    """A token of a fresh hand whose mover has two moves or more (a Canasta hand opens with its
    one draw), its mover's key, and the moves. A sealed deal joins the server's seed to ``seed``,
    so a hand may end before its mover has a choice (a Kozel-bura hand can end at its first
    forced move): then another is dealt."""
    for attempt in range(20):
        hand = dealt(client, game, f"{seed}-{attempt}")
        token, seat, listed = hand["token"], hand["to_move"], []
        while seat is not None and len(listed := moves(client, game, token, hand["seat_keys"][seat])) < 2:
            answer = move(client, game, token, hand["seat_keys"][seat], listed[0])
            token, seat = answer.json["token"], answer.json["to_move"]
        if seat is not None:
            return token, hand["seat_keys"][seat], listed
    raise AssertionError(f"no hand of {game} gave its mover a choice")


def assert_replayed(answer: Any) -> None:
    assert answer.status_code == 409, answer.json
    assert answer.mimetype == "application/problem+json"
    assert answer.json["type"] == REPLAYED
    assert answer.json["errors"][0]["pointer"] == "/token"
    assert "moved on" in answer.json["detail"]


@pytest.mark.parametrize("game", list(GAMES))
def test_an_older_token_cannot_play_another_move(client: Any, game: str) -> None:
    token, key, (first, second, *_) = branching(client, game)
    assert move(client, game, token, key, first).json["legal"] is True
    assert_replayed(move(client, game, token, key, second))


@pytest.mark.parametrize("game", list(GAMES))
def test_the_same_move_again_is_answered_again(client: Any, game: str) -> None:
    """A retry (the first answer lost between the service and the client) gets the same hand."""
    hand = in_play(client, game)
    key = hand["seat_keys"][hand["to_move"]]
    chosen = moves(client, game, hand["token"], key)[0]
    once, again = (move(client, game, hand["token"], key, chosen) for _ in range(2))
    assert once.status_code == again.status_code == 200, again.json
    assert once.json["public_events"] == again.json["public_events"]
    assert once.json["move_number"] == again.json["move_number"] == 1
    views = [client.post(f"/v1/games/{game}/sealed/view", json={"token": a.json["token"], "seat_key": key}).json
             for a in (once, again)]
    assert views[0] == views[1]


def test_a_hand_plays_to_its_end_and_only_its_latest_token_plays(client: Any) -> None:
    game = "sixty-six"
    hand = dealt(client, game, "to the end")
    token, keys, tokens = hand["token"], hand["seat_keys"], []
    seat = hand["to_move"]
    while seat is not None:
        tokens.append(token)
        answer = move(client, game, token, keys[seat], moves(client, game, token, keys[seat])[0])
        assert answer.status_code == 200 and answer.json["legal"], answer.json
        token, seat = answer.json["token"], answer.json["to_move"]
    assert client.post(f"/v1/games/{game}/sealed/score", json={"token": token}).status_code == 200
    for number, old in enumerate(tokens[:-1]):  # every earlier token, each with another move than its own
        view = client.post(f"/v1/games/{game}/sealed/view", json={"token": old, "seat_key": keys[0]}).json
        mover = view["view"]["to_move"]
        listed = moves(client, game, old, keys[mover])
        if len(listed) > 1:
            assert_replayed(move(client, game, old, keys[mover], listed[-1]))
        assert number < len(tokens)


def test_an_illegal_move_on_an_older_token_is_refused_as_replayed_not_judged(client: Any) -> None:
    game = "sixty-six"
    hand = dealt(client, game, "illegal")
    key = hand["seat_keys"][hand["to_move"]]
    other = hand["seat_keys"][1 - hand["to_move"]]
    legal = moves(client, game, hand["token"], key)
    view = client.post(f"/v1/games/{game}/sealed/view", json={"token": hand["token"], "seat_key": other}).json
    foreign = {**legal[0], "cards": [view["view"]["hand"][0]]}  # a card of the other seat's hand
    refused = move(client, game, hand["token"], key, foreign)
    assert refused.status_code == 200 and refused.json["legal"] is False  # the latest token: judged
    assert move(client, game, hand["token"], key, legal[0]).json["legal"] is True
    assert_replayed(move(client, game, hand["token"], key, foreign))


@pytest.fixture()
def redis_store(store: str) -> str:
    if not store.startswith("redis://"):
        pytest.skip("Redis's own")
    return store


def test_a_store_that_stops_answering_refuses_moves_within_its_timeout(redis_store: str) -> None:
    """REPLAY_STORE_DOWN=refuse, the default. A Redis that hangs (DEBUG SLEEP holds it for 2 s)
    costs a move the store's timeout (50 ms), not the hang: a 503 problem with Retry-After; after
    two failures in a row the worker does not ask the store for a second (the circuit breaker),
    and once the store answers again the move plays."""
    store, client = redis_store, client_of(redis_store)
    hand = dealt(client, "sixty-six", "hang")
    key = hand["seat_keys"][hand["to_move"]]
    chosen = moves(client, "sixty-six", hand["token"], key)[0]
    sleeper = threading.Thread(target=lambda: redis.Redis.from_url(store).execute_command("DEBUG", "SLEEP", "2"))
    sleeper.start()
    time.sleep(0.2)
    started = time.perf_counter()
    answer = move(client, "sixty-six", hand["token"], key, chosen)
    took = time.perf_counter() - started
    again = move(client, "sixty-six", hand["token"], key, chosen)  # the second failure in a row
    started = time.perf_counter()
    resting = move(client, "sixty-six", hand["token"], key, chosen)
    took_resting = time.perf_counter() - started
    sleeper.join()
    assert answer.status_code == again.status_code == resting.status_code == 503, answer.json
    assert answer.mimetype == "application/problem+json"
    assert answer.json["type"] == "urn:card-rules:problem:replay-store-down"
    assert answer.headers["Retry-After"] == "1"
    assert took < 0.2 and took_resting < 0.02, (took, took_resting)
    assert 'card_rules_replay_store_errors_total{action="refused"}' in client.get("/metrics").data.decode()
    time.sleep(1.0)  # the breaker's rest
    assert move(client, "sixty-six", hand["token"], key, chosen).status_code == 200


def test_a_store_that_is_down_can_be_served_through() -> None:
    """REPLAY_STORE_DOWN=serve, with nothing listening at the store's address: deals and moves
    play unguarded (the hands dealt then carry no epoch: once the store is back, they cannot be
    judged, test_replay_faults.py)."""
    client = client_of(f"redis://127.0.0.1:{free_port()}/0", replay_store_down="serve")
    token, key, (first, second, *_) = branching(client, "sixty-six")
    assert move(client, "sixty-six", token, key, first).status_code == 200
    assert move(client, "sixty-six", token, key, second).status_code == 200  # unguarded
    assert 'card_rules_replay_store_errors_total{action="served"}' in client.get("/metrics").data.decode()


def test_a_store_that_is_down_refuses_sealed_deals_too() -> None:
    """A deal records its hand (and learns the store's epoch): with the store down and the
    default REPLAY_STORE_DOWN=refuse, a sealed deal is a 503 too, and an open deal is not."""
    client = client_of(f"redis://127.0.0.1:{free_port()}/0")
    refused = client.post("/v1/games/bura/sealed/deal", json={})
    assert refused.status_code == 503 and refused.json["type"] == "urn:card-rules:problem:replay-store-down"
    assert client.post("/v1/games/bura/deal", json={}).status_code == 200


def _post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@pytest.mark.xdist_group("live")
def test_two_requests_racing_on_one_token_have_exactly_one_winner(store: str) -> None:
    """Against the gunicorn server (two workers, so the two requests run at once): 40 races, each
    two different moves on the same token, started together."""
    with gunicorn(REPLAY_STORE=store, STATE_KEYS=f"{KEY.id}:{_secret()}") as url:
        base = f"{url}/v1/games/bura/sealed"
        outcomes = []
        for race in range(40):
            status, hand = _post(f"{base}/deal", {"seed": f"race {race}"})
            assert status == 200, hand
            key = hand["seat_keys"][hand["to_move"]]
            _, listed = _post(f"{base}/legal-moves", {"token": hand["token"], "seat_key": key})
            start, results = threading.Barrier(2), []

            def play(chosen: dict[str, Any], token: str = hand["token"], key: str = key,
                     start: threading.Barrier = start, results: list[int] = results) -> None:
                start.wait()
                results.append(_post(f"{base}/validate", {"token": token, "seat_key": key, "move": chosen})[0])

            racers = [threading.Thread(target=play, args=(m,)) for m in listed["moves"][:2]]
            for racer in racers:
                racer.start()
            for racer in racers:
                racer.join()
            outcomes.append(sorted(results))
        assert outcomes == [[200, 409]] * 40


def _secret() -> str:
    import base64
    return base64.urlsafe_b64encode(KEY.secret).decode()
