"""`make profile`: where a request's time goes, live, in the service and in the ceiling.

One gunicorn worker (same configuration otherwise) is loaded by wrk with one endpoint's bodies
while py-spy samples it; each sample is charged to the innermost frame of a known layer. Shares
of wall time in the worker times its time per request give microseconds per request by layer.
py-spy counts a running or runnable worker, so syscalls that yield the core weigh a little more
than their CPU time: compare the two sides, not the absolute figures.

PROFILE_GAME (default sixty-six), PROFILE_ENDPOINT (default validate-legal), PROFILE_SECONDS (8).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from bench.bodies import STATE_KEYS, bodies
from bench.load import Run, children, dumps, find_wrk, gunicorn, run

LAYERS = (  # first match from the innermost frame outwards
    ("service/games/", "rules and wire form (state check, rule, dump)"),
    ("service/cards.py", "rules and wire form (state check, rule, dump)"),
    ("service/api/parsing.py", "body read, orjson, schema check"),
    ("service/api/error_listing.py", "body read, orjson, schema check"),
    ("service/api/observability.py", "request id, access log line"),
    ("service/sealing.py", "sealing (LZ4, AES-GCM, base64, seat keys)"),
    ("service/api/", "route and answer (orjson)"),
    ("bench/ceiling.py", "ceiling view and its JSON (stdlib)"),
    ("json/", "ceiling view and its JSON (stdlib)"),
    ("flask/", "Flask and werkzeug"),
    ("werkzeug/", "Flask and werkzeug"),
    ("gunicorn/", "gunicorn (sockets, HTTP parsing)"),
)
PORT = 18741


def _layer(stack: str) -> str:
    frames = stack.split(";")
    for frame in reversed(frames):
        for marker, layer in LAYERS:
            if marker in frame:
                return layer
    return "other"


def profile(app: str, url_path: str, payloads: list[str], seconds: float) -> tuple[Counter[str], Run]:
    env = {"WORKERS": "1", "STATE_KEYS": STATE_KEYS}
    with gunicorn(app, PORT, env=env) as masters, tempfile.TemporaryDirectory() as tmp:
        worker = children(masters[0])[0]
        raw = Path(tmp, "samples.txt")
        result: list[Run] = []
        load = threading.Thread(target=lambda: result.append(
            run(f"http://127.0.0.1:{PORT}{url_path}", payloads, conns=2, seconds=seconds + 2, pids=masters)))
        load.start()
        time.sleep(1)
        subprocess.run([str(Path(sys.executable).with_name("py-spy")), "record", "-p", str(worker), "-d",
                        str(round(seconds)), "-r", "400", "--format", "raw", "-o", str(raw)],
                       check=True, capture_output=True)
        load.join()
        samples: Counter[str] = Counter()
        for line in raw.read_text().splitlines():
            stack, count = line.rsplit(" ", 1)
            samples[_layer(stack)] += int(count)
    return samples, result[0]


def main() -> None:
    if find_wrk() is None:
        sys.exit("make profile needs wrk")
    game = os.environ.get("PROFILE_GAME", "sixty-six")
    endpoint = os.environ.get("PROFILE_ENDPOINT", "validate-legal")
    seconds = float(os.environ.get("PROFILE_SECONDS", "8"))
    payloads = [dumps(b) for b in bodies(game)[endpoint]]
    path = next(p for p in ("validate", "legal-moves", "view", "deal", "score", "events") if endpoint.startswith(p))
    path = f"sealed/{path}" if endpoint.endswith("-sealed") else path
    sides = {
        "service": profile("service:create_app()", f"/v1/games/{game}/{path}", payloads, seconds),
        "ceiling": profile("bench.ceiling:create_app()", "/echo", payloads, seconds),
    }
    layers = sorted({layer for samples, _ in sides.values() for layer in samples})
    print(f"{game} {endpoint}: µs per request by layer (one worker, 2 connections)")
    print(f"{'layer':<48}{'service':>10}{'ceiling':>10}")
    totals = {side: sum(samples.values()) for side, (samples, _) in sides.items()}
    for layer in layers:
        row = [sides[s][0][layer] / totals[s] * 1e6 / sides[s][1].rps for s in sides]
        print(f"{layer:<48}{row[0]:>10.0f}{row[1]:>10.0f}")
    print(f"{'total (1 / requests per second)':<48}"
          + "".join(f"{1e6 / sides[s][1].rps:>10.0f}" for s in sides))


if __name__ == "__main__":
    main()
