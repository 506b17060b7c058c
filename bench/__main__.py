"""In-process benchmarks: µs per request through the whole service against the bare Flask ceiling
with the same body, and µs per rules call. Writes bench/results/latest.json.

The load test under gunicorn (wrk, 16/64 connections, A B A B rounds) is still to come (issue 5).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.ceiling import create_app as create_ceiling
from service import create_app
from service.config import Settings
from service.games.base import legal_moves
from tests.test_conformance import play_hand

RESULTS = Path(__file__).with_name("results") / "latest.json"


def micros(call: Callable[[], Any], *, repeat: int = 5, number: int = 300) -> float:
    """Median over ``repeat`` rounds of the mean µs per call."""
    rounds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            call()
        rounds.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(rounds)


def main() -> None:
    service = create_app(Settings(log_level="WARNING")).test_client()
    ceiling = create_ceiling().test_client()
    game_path = "/v1/games/sixty-six"
    state = service.post(f"{game_path}/deal", json={"seed": "bench"}).json["state"]
    move = service.post(f"{game_path}/legal-moves", json={"state": state}).json["moves"][0]
    bodies = {
        "validate": {"state": state, "move": move},
        "legal-moves": {"state": state},
        "view": {"state": state, "seat": 0},
        "deal": {"seed": "bench"},
    }
    rows = []
    for endpoint, body in bodies.items():
        data = json.dumps(body)
        ceiling_us = micros(lambda d=data: ceiling.post("/echo", data=d, content_type="application/json"))
        service_us = micros(lambda e=endpoint, d=data: service.post(
            f"{game_path}/{e}", data=d, content_type="application/json"))
        rows.append({"game": "sixty-six", "endpoint": endpoint, "us": round(service_us, 1),
                     "ceiling_us": round(ceiling_us, 1), "ratio": round(ceiling_us / service_us, 3)})

    from service.games import GAMES

    game = GAMES["sixty-six"]
    loaded = game.load_state(state)
    parsed = game.load_move(move)
    rng = random.Random(1)
    seeds = iter(range(10**9))
    in_process = [
        {"game": "sixty-six", "what": "validate (check + apply)",
         "us": round(micros(lambda: (game.check(loaded, parsed), game.apply(loaded, parsed))), 2)},
        {"game": "sixty-six", "what": "legal moves",
         "us": round(micros(lambda: legal_moves(game, loaded, 1)), 2)},
        {"game": "sixty-six", "what": "load_state (consistency check)",
         "us": round(micros(lambda: game.load_state(state)), 2)},
        {"game": "sixty-six", "what": "random hand played out (with wire round trips)",
         "us": round(micros(lambda: play_hand(game, f"b{next(seeds)}{rng.random()}"), number=30), 1)},
    ]
    print(f"{'endpoint':<14}{'service µs':>12}{'ceiling µs':>12}{'ratio':>8}")
    for row in rows:
        print(f"{row['endpoint']:<14}{row['us']:>12}{row['ceiling_us']:>12}{row['ratio']:>8}")
    for item in in_process:
        print(f"{item['what']:<50}{item['us']:>10} µs")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"in_process_requests": rows, "in_process": in_process}, indent=2))


if __name__ == "__main__":
    main()
