"""`make bench`: every endpoint of every game under load against a bare Flask ceiling served the
same way, as ratios taken side by side (A B A B, medians of 3 rounds), plus in-process timings.

BENCH_SECONDS (default 10) bounds each load run; BENCH_GAMES and BENCH_ENDPOINTS (comma lists)
narrow the games and endpoints; BENCH_CONNS (default "16,64") sets the connection counts. The
servers read gunicorn.conf.py, so WORKERS, WORKER_CLASS and THREADS try other configurations;
BENCH_IN_PROCESS=0 skips the in-process timings. Writes bench/results/latest.json.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from flask import Flask

from bench import limits, report
from bench.bodies import STATE_KEY, STATE_KEYS, bodies
from bench.load import Run, dumps, gunicorn, run
from service.api.events import EVERY_SEAT, told
from service.api.limits import SearchLimits
from service.api.paths import SealedPaths
from service.cards import SeedStream
from service.config import Settings
from service.games.base import DealSetup
from service.games.registry import GAMES
from service.sealing import Keyring

RESULTS = report.RESULTS
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
    """Microseconds per operation on the same bodies as the load runs (early, middle and late
    states), without HTTP: what the rules and the wire form cost by themselves."""
    game = GAMES[game_id]
    samples = bodies(game_id)
    validate_bodies, listing_bodies = samples["validate-legal"], samples["legal-moves"]
    seeds = iter(range(10**9))

    def validate() -> None:
        for body in validate_bodies:
            state, move = game.load_state(body["state"]), game.load_move(body["move"])
            game.check(state, move)
            after, events = game.apply(state, move)
            game.dump_state(after), told(game.info.event_types, events, EVERY_SEAT)

    def listing() -> None:
        for body in listing_bodies:
            state = game.load_state(body["state"])
            [game.dump_move(m) for m in game.legal_moves(state, game.to_move(state))]

    def hand() -> None:
        rng = random.Random(next(seeds))
        s = game.deal(DealSetup(game.info.default_players, None, {}, None), SeedStream(str(rng.random())))
        while game.to_move(s) is not None:
            s, _ = game.apply(s, rng.choice(game.legal_moves(s, game.to_move(s))))

    def validate_largest() -> None:
        body = validate_bodies[0]  # the bodies come largest state first
        state, move = game.load_state(body["state"]), game.load_move(body["move"])
        game.check(state, move)
        after, events = game.apply(state, move)
        game.dump_state(after), told(game.info.event_types, events, EVERY_SEAT)

    settings = Settings()
    paths = SealedPaths(game, Keyring((STATE_KEY,)), max_listing=settings.max_listing,
                        search=SearchLimits(settings))
    sealed_bodies = samples["validate-sealed"]

    asking = Flask(__name__)  # the events' words are in the language of a request

    def validate_sealed() -> None:
        with asking.test_request_context():
            for body in sealed_bodies:
                paths.validate(body)

    rows = [
        ("validate (load state and move, check, apply, dump state and events)", validate,
         len(validate_bodies)),
        ("validate, sealed (open, check, apply, events, seal)", validate_sealed, len(sealed_bodies)),
        ("validate, largest state", validate_largest, 1),
        ("legal-moves (load state, list and dump the moves)", listing, len(listing_bodies)),
        ("random hand played out (rules only)", hand, 1),
    ]
    return [{"game": game_id, "what": what, "us": round(micros(call, number=20 if size > 1 else 200) / size, 1)}
            for what, call, size in rows]


def compare(game_id: str, endpoint: str, payloads: list[str], conns: int, seconds: float,
            service_pids: list[int], ceiling_pids: list[int]) -> dict[str, Any]:
    path = next(p for p in ("validate", "legal-moves", "view", "deal", "score", "events") if endpoint.startswith(p))
    path = f"sealed/{path}" if endpoint.endswith("-sealed") else path
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
    endpoints = [e for e in os.environ.get("BENCH_ENDPOINTS", "").split(",") if e]
    conns_list = [int(c) for c in os.environ.get("BENCH_CONNS", "16,64").split(",")]
    measure_in_process = os.environ.get("BENCH_IN_PROCESS", "1") != "0"
    processes = [r for g in games for r in in_process(g)] if measure_in_process else []
    listings = limits.in_process() if measure_in_process else []
    rows: list[dict[str, Any]] = []
    # The sealed rows send each token many times: the replay guard would refuse all but the first.
    with gunicorn("service:create_app()", SERVICE_PORT, {"STATE_KEYS": STATE_KEYS, "REPLAY_STORE": "off"}) \
            as service_pids, \
            gunicorn("bench.ceiling:create_app()", CEILING_PORT) as ceiling_pids:
        served = limits.over_http(f"http://127.0.0.1:{SERVICE_PORT}")
        for game_id in games:
            for endpoint, payloads in bodies(game_id).items():
                if endpoints and endpoint not in endpoints:
                    continue
                for conns in conns_list:
                    row = compare(game_id, endpoint, [dumps(b) for b in payloads], conns, seconds,
                                  service_pids, ceiling_pids)
                    rows.append(row)
                    print(_line(row), flush=True)
    for item in processes:
        print(f"{item['game']:<11} {item['what']:<46} {item['us']:>10} µs")
    for item in listings:
        print(f"{item['game']:<11} {item['what']}: {item['entries']} entries, {item['us']} µs in process")
    for item in served:
        print(f"{item['game']:<11} {item['what']}: HTTP {item['status']}, {item['entries']} entries, "
              f"{item['bytes']} bytes, {item['ms']} ms")
    RESULTS.parent.mkdir(exist_ok=True)
    result = {"seconds": seconds, "rows": rows, "in_process": processes, "limits": listings,
              "limits_http": served}
    RESULTS.write_text(json.dumps(result, indent=1))
    print()
    print(report.summary(result))


def _line(row: dict[str, Any]) -> str:
    return (f"{row['game']:<11}{row['endpoint']:<17}{row['conns']:>4}{row['rps']:>9}{row['ceiling_rps']:>9}"
            f"{row['ratio']:>7}{row['p50_ms']:>8}{row['p99_ms']:>8}{row['ceiling_p99_ms']:>8}"
            f"{row['cpu_us']:>8}{row['ceiling_cpu_us']:>8}{row['errors']:>5}")


if __name__ == "__main__":
    print(f"{'game':<11}{'endpoint':<17}{'conn':>4}{'rps':>9}{'ceil':>9}{'ratio':>7}{'p50':>8}{'p99':>8}"
          f"{'c.p99':>8}{'cpu_us':>8}{'c.cpu':>8}{'err':>5}")
    main()
