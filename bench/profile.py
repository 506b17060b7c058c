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

WIRE_CODE = "<wire "
"""How the wire forms' generated code names its file (``service.wire.codegen``)."""
LAYERS = (  # first match from the innermost frame outwards
    (WIRE_CODE, "wire load and dump"),
    ("service/negotiation.py", "language negotiation"),
    ("service/api/languages.py", "language negotiation"),
    ("service/api/metering.py", "metering (counts, prometheus-client)"),
    ("service/metrics.py", "metering (counts, prometheus-client)"),
    ("prometheus_client/", "metering (counts, prometheus-client)"),
    ("service/api/observability.py", "WSGI middleware (request id, CORS, access line)"),
    ("service/api/bodies.py", "body read and parse (orjson)"),
    ("service/api/parsing.py", "schema check (jsonschema-rs)"),
    ("service/api/error_listing.py", "schema check (jsonschema-rs)"),
    ("service/wire/", "wire load and dump"),
    ("service/games/", "rules (state check, rule)"),
    ("service/cards.py", "rules (state check, rule)"),
    ("service/sealing.py", "sealing (LZ4, AES-GCM, base64, seat keys)"),
    ("service/api/sealed.py", "sealing (LZ4, AES-GCM, base64, seat keys)"),
    ("lz4/", "sealing (LZ4, AES-GCM, base64, seat keys)"),
    ("cryptography/", "sealing (LZ4, AES-GCM, base64, seat keys)"),
    ("service/replay/", "replay guard (sealed moves)"),
    ("service/api/", "route and answer (events, envelope, orjson)"),
    ("bench/ceiling.py", "ceiling view and its JSON (stdlib)"),
    ("json/", "ceiling view and its JSON (stdlib)"),
    ("flask/", "Flask and werkzeug"),
    ("werkzeug/", "Flask and werkzeug"),
    ("gunicorn/", "gunicorn (sockets, HTTP parsing)"),
)
"""Every layer a request crosses, by the module its code lives in. Each marker names a module or
package of today's tree (tests/test_bench_profile.py checks that they all exist)."""
PORT = 18741


FLUSHER_WAITING = ("_run (", "service/api/metering.py")
"""The innermost frame of the metering's flushing thread asleep (py-spy counts it as running)."""


def _layer(stack: str) -> str | None:
    """The layer of a sample's innermost known frame; None for the flushing thread asleep."""
    frames = stack.split(";")
    if all(part in frames[-1] for part in FLUSHER_WAITING):
        return None
    for frame in reversed(frames):
        for marker, layer in LAYERS:
            if marker in frame:
                return layer
    return "other"


def profile(app: str, url_path: str, payloads: list[str], seconds: float) -> tuple[Counter[str], Run]:
    env = {"WORKERS": "1", "STATE_KEYS": STATE_KEYS, "REPLAY_STORE": "off"}  # sealed bodies are sent again
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
            layer = _layer(stack)
            if layer is not None:
                samples[layer] += int(count)
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
