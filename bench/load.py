"""Load runs against a gunicorn process: wrk when it is there (a small Python load generator
otherwise), to 127.0.0.1 only, with the server's CPU time read from /proc."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = os.environ.get("BENCH_PIN") == "1"
LUA = """
local bodies = {}
for line in io.lines("%s") do bodies[#bodies + 1] = line end
local i = 0
request = function()
  i = (i %% #bodies) + 1
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, bodies[i])
end
"""


@dataclass(frozen=True)
class Run:
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    cpu_us: float
    """Server CPU (all gunicorn processes) per request."""


def find_wrk() -> str | None:
    found = shutil.which("wrk")
    if found is None and shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], capture_output=True, check=False)
        found = shutil.which("wrk")
    return found


@contextmanager
def gunicorn(app: str, port: int, env: dict[str, str] | None = None, *, root: Path = ROOT) -> Iterator[list[int]]:
    """The configuration `make run` and the Dockerfile use (``env`` may override its settings),
    serving the code of the checkout at ``root`` (another commit's, for ``bench.ab``); yields the
    process ids to meter."""
    env = {**os.environ, **(env or {}), "HOST": "127.0.0.1", "PORT": str(port), "PYTHONPATH": str(root)}
    gunicorn_bin = str(Path(sys.executable).with_name("gunicorn"))
    command = [gunicorn_bin, "--config", "gunicorn.conf.py", app]
    if PIN:  # servers on core 0, the load generator on core 1
        command = ["taskset", "-c", "0", *command]
    process = subprocess.Popen(command, cwd=root, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except OSError as error:
                if "404" in str(error):
                    break  # the ceiling app has no /health
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield [process.pid]
    finally:
        process.terminate()
        process.wait(timeout=15)


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _cpu_seconds(masters: list[int]) -> float:
    """User and system time of the gunicorn masters and their workers, read now."""
    ticks = 0
    for pid in [p for master in masters for p in (master, *children(master))]:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def run(url: str, bodies: list[str], *, conns: int, seconds: float, pids: list[int]) -> Run:
    cpu_before = _cpu_seconds(pids)
    wrk = find_wrk()
    if wrk:
        rps, p50, p99, errors, total = _wrk(wrk, url, bodies, conns, seconds)
    else:
        rps, p50, p99, errors, total = _python_load(url, bodies, conns, seconds)
    cpu = _cpu_seconds(pids) - cpu_before
    return Run(rps, p50, p99, errors, cpu / max(total, 1) * 1e6)


def _wrk(wrk: str, url: str, bodies: list[str], conns: int, seconds: float) -> tuple[float, float, float, int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        lines, script = Path(tmp, "bodies.jsonl"), Path(tmp, "post.lua")
        lines.write_text("\n".join(bodies) + "\n")
        script.write_text(LUA % lines)
        pin = ["taskset", "-c", "1"] if PIN else []
        out = subprocess.run([*pin, wrk, "-t2", f"-c{conns}", f"-d{max(1, round(seconds))}s", "--latency", "-s", str(script), url],
                             capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    p50, p99 = (_ms(re.search(rf"\s{q}%\s+([\d.]+\w+)", out).group(1)) for q in ("50", "99"))  # type: ignore[union-attr]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    errors = (int(bad.group(1)) if bad else 0) + (sum(map(int, socket.groups())) if socket else 0)
    return rps, p50, p99, errors, total


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def _python_load(url: str, bodies: list[str], conns: int, seconds: float) -> tuple[float, float, float, int, int]:
    """The fallback: ``conns`` keep-alive connections in threads (slower than wrk, same shape)."""
    host, port = url.split("//")[1].split("/")[0].split(":")
    path = "/" + url.split("//")[1].split("/", 1)[1]
    latencies: list[float] = []
    errors = [0]
    stop = time.monotonic() + seconds

    def worker(offset: int) -> None:
        connection = http.client.HTTPConnection(host, int(port))
        i = offset
        while time.monotonic() < stop:
            body = bodies[i % len(bodies)]
            i += 1
            start = time.perf_counter()
            connection.request("POST", path, body, {"Content-Type": "application/json"})
            answer = connection.getresponse()
            answer.read()
            latencies.append((time.perf_counter() - start) * 1000)
            errors[0] += answer.status >= 300

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(conns)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ordered = sorted(latencies)
    p99 = ordered[int(len(ordered) * 0.99) - 1] if ordered else 0.0
    return len(ordered) / seconds, statistics.median(ordered or [0.0]), p99, errors[0], len(ordered)


def dumps(body: object) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)
