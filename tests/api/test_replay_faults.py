"""The replay guard when its store fails: a store that lost what it kept (a Redis restarted
without its data, an evicted or expired entry, a SQLite file made anew, a hand dealt with no
guard) refuses the tokens it can no longer judge, and a store that hangs (SIGSTOP) costs no
request more than its timeout, while the other operations keep their latency."""

from __future__ import annotations

import base64
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis

from service.replay.redis_store import EPOCH_KEY, KEY_PREFIX
from tests.api.test_replay_guard import _post, branching, client_of, dealt, move, moves
from tests.api.test_sealed_games import KEY
from tests.live import free_port, gunicorn
from tests.live_redis import redis_process

UNKNOWN = "urn:card-rules:problem:hand-unknown"
TIMEOUT_MS = 50


def assert_unknown(answer: Any) -> None:
    assert answer.status_code == 409, answer.json
    assert answer.json["type"] == UNKNOWN
    assert answer.json["errors"][0]["pointer"] == "/token"


def test_a_redis_restarted_without_its_data_refuses_the_hands_it_forgot() -> None:
    """Before the restart an older token is refused as replayed; after it, Redis knows nothing of
    the hand, and neither that token nor the latest plays (each would be accepted by a guard that
    trusted an empty store). A hand dealt after the restart plays."""
    port = free_port()
    with redis_process(port) as (url, _):
        client = client_of(url)
        hand = dealt(client, "sixty-six", "restart")
        keys, token = hand["seat_keys"], hand["token"]
        first, second, *_ = moves(client, "sixty-six", token, keys[hand["to_move"]])
        latest = move(client, "sixty-six", token, keys[hand["to_move"]], first).json
        assert move(client, "sixty-six", token, keys[hand["to_move"]], second).status_code == 409
    with redis_process(port):
        assert_unknown(move(client, "sixty-six", token, keys[hand["to_move"]], second))
        mover = keys[latest["to_move"]]
        reply = moves(client, "sixty-six", latest["token"], mover)[0]
        assert_unknown(move(client, "sixty-six", latest["token"], mover, reply))
        fresh = dealt(client, "sixty-six", "after the restart")
        mover = fresh["seat_keys"][fresh["to_move"]]
        assert move(client, "sixty-six", fresh["token"], mover,
                    moves(client, "sixty-six", fresh["token"], mover)[0]).json["legal"]


@pytest.mark.parametrize("lost", ["entry evicted", "epoch evicted", "entry expired"])
def test_a_redis_that_dropped_what_it_kept_refuses_the_hand(lost: str) -> None:
    with redis_process(free_port()) as (url, _):
        client, store = client_of(url), redis.Redis.from_url(url)
        token, key, (first, second, *_) = branching(client, "sixty-six", lost)
        hand_id = client.post("/v1/games/sixty-six/sealed/view", json={"token": token, "seat_key": key}).json["hand_id"]
        assert store.ttl(KEY_PREFIX + hand_id) > 86_000  # kept REPLAY_KEEP_SECONDS
        if lost == "entry evicted":
            store.delete(KEY_PREFIX + hand_id)
        elif lost == "epoch evicted":
            store.delete(EPOCH_KEY)
        else:
            store.expire(KEY_PREFIX + hand_id, 1)
            time.sleep(1.2)
        assert_unknown(move(client, "sixty-six", token, key, first))
        assert_unknown(move(client, "sixty-six", token, key, second))


def test_a_sqlite_file_made_anew_or_an_expired_entry_refuses_the_hand(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/replay.sqlite3"
    client = client_of(url)
    token, key, (first, _, *__) = branching(client, "kozel", "sqlite")
    expired = dealt(client, "kozel", "expired")
    with sqlite3.connect(tmp_path / "replay.sqlite3") as db:
        db.execute("UPDATE hands SET expires = 0 WHERE hand_id = ?", (expired["hand_id"],))
    mover = expired["seat_keys"][expired["to_move"]]
    assert_unknown(move(client, "kozel", expired["token"], mover, moves(client, "kozel", expired["token"], mover)[0]))
    for name in ("replay.sqlite3", "replay.sqlite3-wal", "replay.sqlite3-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    assert_unknown(move(client_of(url), "kozel", token, key, first))  # a new file: another epoch


def test_a_hand_dealt_with_no_guard_cannot_be_judged_by_one() -> None:
    unguarded = client_of("off")
    token, key, (first, *_) = branching(unguarded, "sixty-six", "no guard")
    with redis_process(free_port()) as (url, _):
        assert_unknown(move(client_of(url), "sixty-six", token, key, first))


@contextmanager
def hung_sqlite(path: Path) -> Iterator[None]:
    """A process that takes the file's write lock and stops (SIGSTOP) while it holds it."""
    holder = subprocess.Popen([sys.executable, "-c", f"""
import os, signal, sqlite3
db = sqlite3.connect({str(path)!r}, isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
os.kill(os.getpid(), signal.SIGSTOP)
"""], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"locked"
        yield
    finally:
        holder.kill()
        holder.wait()


@contextmanager
def stopped(process: subprocess.Popen[bytes]) -> Iterator[None]:
    os.kill(process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(process.pid, signal.SIGCONT)


def _timed(url: str, body: dict[str, Any]) -> tuple[float, int]:
    started = time.perf_counter()
    status, _ = _post(url, body)
    return time.perf_counter() - started, status


def _load(base: str, hands: list[dict[str, Any]], seconds: float) -> tuple[list[float], list[tuple[float, int]]]:
    """Four clients for ``seconds``: three ask views and listings of the hands (no store), one
    plays their first moves (the store's); the times of each kind."""
    others: list[float] = []
    sealed: list[tuple[float, int]] = []
    stop = time.monotonic() + seconds

    def looking(index: int) -> None:
        while time.monotonic() < stop:
            hand = hands[index % len(hands)]
            key = hand["seat_keys"][hand["to_move"]]
            others.append(_timed(f"{base}/legal-moves", {"token": hand["token"], "seat_key": key})[0])
            index += 1

    def playing() -> None:
        index = 0
        while time.monotonic() < stop:
            hand = hands[index % len(hands)]
            sealed.append(_timed(f"{base}/validate", {"token": hand["token"], "move": hand["first"],
                                                       "seat_key": hand["seat_keys"][hand["to_move"]]}))
            index += 1

    clients = [threading.Thread(target=looking, args=(n,)) for n in range(3)] + [threading.Thread(target=playing)]
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    return others, sealed


def _p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98]


@pytest.mark.xdist_group("live")
@pytest.mark.parametrize("kind", ["redis", "sqlite"])
def test_a_hung_store_holds_no_request_past_its_timeout(kind: str, tmp_path: Path) -> None:
    """Two gunicorn workers, REPLAY_STORE_TIMEOUT_MS=50. With the store stopped, every sealed move
    is a 503 within the timeout (and the next second's at once, the breaker resting), and the
    other operations' p99 stays near what it was (it went from 5 to 497 ms with a 0.25 s timeout
    retried and no breaker)."""
    secret = base64.urlsafe_b64encode(KEY.secret).decode()
    with _store(kind, tmp_path) as (url, hang), gunicorn(REPLAY_STORE=url, STATE_KEYS=f"{KEY.id}:{secret}",
                                                         REPLAY_STORE_TIMEOUT_MS=str(TIMEOUT_MS)) as server:
        base = f"{server}/v1/games/sixty-six/sealed"
        hands = []
        for number in range(8):
            status, hand = _post(f"{base}/deal", {"seed": f"hang {number}"})
            assert status == 200
            key = hand["seat_keys"][hand["to_move"]]
            hand["first"] = _post(f"{base}/legal-moves", {"token": hand["token"], "seat_key": key})[1]["moves"][0]
            hands.append(hand)
        before, played = _load(base, hands, 2.0)
        assert {status for _, status in played} <= {200}
        with hang():
            during, refused = _load(base, hands, 3.0)
    assert {status for _, status in refused} == {503}
    slowest = max(took for took, _ in refused)
    assert slowest < TIMEOUT_MS / 1000 + 0.1, f"a sealed move waited {slowest * 1000:.0f} ms"
    assert _p99(during) < max(3 * _p99(before), 0.06), (_p99(before), _p99(during))


@contextmanager
def _store(kind: str, tmp_path: Path) -> Iterator[tuple[str, Any]]:
    if kind == "sqlite":
        path = tmp_path / "replay.sqlite3"
        yield f"sqlite:///{path}", lambda: hung_sqlite(path)
        return
    with redis_process(free_port()) as (url, process):
        yield url, lambda: stopped(process)
