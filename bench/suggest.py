"""The computer player's budget, held over HTTP: ``SUGGEST_COUNT`` (default 1,000) suggestions per
game at ``budget_ms`` 50, one after another on one connection to the gunicorn server `make run`
starts, in positions of random hands. Each request's time is taken at the client, so it is the
server's time plus the loopback's: an upper bound on the server time. Prints a table row per
game (median, p99, worst, samples used) and returns the rows for docs/strength.md.

SUGGEST_GAMES narrows the games (a comma list).
"""

from __future__ import annotations

import http.client
import os
import random
import statistics
import time
from collections.abc import Iterator
from typing import Any

import orjson

from bench.load import gunicorn
from service.cards import SeedStream
from service.games.base import DealSetup
from service.games.registry import GAMES

PORT = 18741
BUDGET_MS = 50


def positions(game_id: str, count: int) -> Iterator[dict[str, Any]]:
    """``count`` positions of random hands at every table size in turn, as open suggest bodies."""
    game, rng = GAMES[game_id], random.Random(game_id)
    made = 0
    while True:
        players = game.info.player_counts[made % len(game.info.player_counts)]
        state = game.deal(DealSetup(players, None, {}, None), SeedStream(f"budget-{made}"))
        while (seat := game.to_move(state)) is not None:
            if rng.random() < 0.2:
                yield {"state": game.dump_state(state), "seat": seat, "budget_ms": BUDGET_MS}
                made += 1
                if made == count:
                    return
            state, _ = game.apply(state, rng.choice(game.legal_moves(state, seat)))


def timed(connection: http.client.HTTPConnection, path: str, body: dict[str, Any]) -> tuple[float, int]:
    """Milliseconds for one request, and the samples its answer used."""
    start = time.perf_counter()
    connection.request("POST", path, orjson.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = orjson.loads(response.read())
    elapsed = (time.perf_counter() - start) * 1000
    if response.status != 200:
        raise RuntimeError(f"{path}: {response.status} {answer}")
    return elapsed, answer["samples"]


def measure(games: list[str], count: int) -> list[str]:
    rows = []
    with gunicorn("service:create_app()", PORT, {"WORKERS": "1", "LOG_LEVEL": "WARNING"}):
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
        for game_id in games:
            times, samples = [], []
            for body in positions(game_id, count):
                elapsed, used = timed(connection, f"/v1/games/{game_id}/suggest", body)
                times.append(elapsed)
                samples.append(used)
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            rows.append(f"| {game_id} | {len(times)} | {statistics.median(times):.1f} | {p99:.1f} | "
                        f"{times[-1]:.1f} | {statistics.median(samples):.0f} |")
            print(rows[-1], flush=True)
    return rows


HEAD = ("| game | suggestions | median ms | p99 ms | worst ms | median samples |\n"
        "|---|---:|---:|---:|---:|---:|\n")


def main() -> list[str]:
    games = [g for g in os.environ.get("SUGGEST_GAMES", ",".join(GAMES)).split(",") if g]
    return measure(games, int(os.environ.get("SUGGEST_COUNT", "1000")))


if __name__ == "__main__":
    main()
