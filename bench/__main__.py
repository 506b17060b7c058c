"""`make bench`: every endpoint of every game under load against a bare Flask ceiling served the
same way, as ratios taken side by side (A B A B, medians of 3 rounds), plus in-process timings.

BENCH_SECONDS (default 10) bounds each load run; BENCH_GAMES (comma list) narrows the games;
BENCH_CONNS (default "16,64") the connection counts. Writes bench/results/latest.json.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.bodies import bodies
from bench.load import Run, dumps, gunicorn, run
from service.cards import SeedStream
from service.games import GAMES
from service.games.base import DealSetup, legal_moves

RESULTS = Path(__file__).with_name("results") / "latest.json"
SERVICE_PORT, CEILING_PORT = 18731, 18732
ROUNDS = 3


def micros(call: Callable[[], Any], *, number: int) -> float:
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(number):
            call()
        rounds.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(rounds)


def in_process(game_id: str) -> list[dict[str, Any]]:
    game = GAMES[game_id]
    state = game.deal(DealSetup(game.info.default_players, None, {}, None), SeedStream("bench"))
    moves = legal_moves(game, state, game.to_move(state))
    wire = game.dump_state(state)
    seeds = iter(range(10**9))

    def hand() -> None:
        rng = random.Random(next(seeds))
        s = game.deal(DealSetup(game.info.default_players, None, {}, None), SeedStream(str(rng.random())))
        while game.to_move(s) is not None:
            s, _ = game.apply(s, rng.choice(legal_moves(game, s, game.to_move(s))))

    rows = {
        "validate (load state + check + apply + dump)": lambda: game.dump_state(
            game.apply(game.load_state(wire), moves[0])[0]),
        "legal-moves (load state + list)": lambda: legal_moves(game, game.load_state(wire),
                                                               game.to_move(state)),
        "random hand played out": hand,
    }
    return [{"game": game_id, "what": what, "us": round(micros(call, number=50 if "hand" in what else 500), 1)}
            for what, call in rows.items()]


def compare(game_id: str, endpoint: str, payloads: list[str], conns: int, seconds: float,
            service_pids: list[int], ceiling_pids: list[int]) -> dict[str, Any]:
    path = endpoint.split("-")[0] if endpoint.startswith("validate") else endpoint
    service_url = f"http://127.0.0.1:{SERVICE_PORT}/v1/games/{game_id}/{path}"
    ceiling_url = f"http://127.0.0.1:{CEILING_PORT}/echo"
    service: list[Run] = []
    ceiling: list[Run] = []
    for _ in range(ROUNDS):  # A B A B: drift hits both sides alike
        ceiling.append(run(ceiling_url, payloads, conns=conns, seconds=seconds, pids=ceiling_pids))
        service.append(run(service_url, payloads, conns=conns, seconds=seconds, pids=service_pids))

    def median(runs: list[Run], field: str) -> float:
        return statistics.median(getattr(r, field) for r in runs)

    rps, ceiling_rps = median(service, "rps"), median(ceiling, "rps")
    return {
        "game": game_id, "endpoint": endpoint, "conns": conns, "rps": round(rps, 1),
        "ceiling_rps": round(ceiling_rps, 1), "ratio": round(rps / ceiling_rps, 3),
        "p50_ms": round(median(service, "p50_ms"), 2), "p99_ms": round(median(service, "p99_ms"), 2),
        "ceiling_p99_ms": round(median(ceiling, "p99_ms"), 2),
        "cpu_us": round(median(service, "cpu_us"), 1), "ceiling_cpu_us": round(median(ceiling, "cpu_us"), 1),
        "errors": sum(r.errors for r in service),
    }


def main() -> None:
    seconds = float(os.environ.get("BENCH_SECONDS", "10"))
    games = [g for g in os.environ.get("BENCH_GAMES", ",".join(sorted(GAMES))).split(",") if g]
    conns_list = [int(c) for c in os.environ.get("BENCH_CONNS", "16,64").split(",")]
    processes = [r for g in games for r in in_process(g)]
    rows: list[dict[str, Any]] = []
    with gunicorn("service:create_app()", SERVICE_PORT) as service_pids, \
            gunicorn("bench.ceiling:create_app()", CEILING_PORT) as ceiling_pids:
        for game_id in games:
            for endpoint, payloads in bodies(game_id).items():
                for conns in conns_list:
                    row = compare(game_id, endpoint, [dumps(b) for b in payloads], conns, seconds,
                                  service_pids, ceiling_pids)
                    rows.append(row)
                    print(_line(row), flush=True)
    for item in processes:
        print(f"{item['game']:<11} {item['what']:<46} {item['us']:>10} µs")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"seconds": seconds, "rows": rows, "in_process": processes}, indent=1))


def _line(row: dict[str, Any]) -> str:
    return (f"{row['game']:<11}{row['endpoint']:<17}{row['conns']:>4}{row['rps']:>9}{row['ceiling_rps']:>9}"
            f"{row['ratio']:>7}{row['p50_ms']:>8}{row['p99_ms']:>8}{row['ceiling_p99_ms']:>8}"
            f"{row['cpu_us']:>8}{row['ceiling_cpu_us']:>8}{row['errors']:>5}")


if __name__ == "__main__":
    print(f"{'game':<11}{'endpoint':<17}{'conn':>4}{'rps':>9}{'ceil':>9}{'ratio':>7}{'p50':>8}{'p99':>8}"
          f"{'c.p99':>8}{'cpu_us':>8}{'c.cpu':>8}{'err':>5}")
    main()
