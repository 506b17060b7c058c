"""`make soak`: the deployment of compose.yaml started locally without Docker. Debian's nginx runs
with deploy/nginx.conf, rendered for loopback ports, in front of the Dockerfile's gunicorn
command. The suite loads it with slow clients, overload, a killed worker and bad inputs, prints a
table, writes it to docs/soak.md, and ends with a pass/fail line against the targets. It is not
part of `make test`.

SOAK_SECONDS (default 20, the issue's figure) bounds each load phase.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.bodies import bodies
from bench.load import Run, children, dumps, gunicorn, run

ROOT = Path(__file__).resolve().parent.parent
APP_PORT, PROXY_PORT = 18741, 18742
SECONDS = float(os.environ.get("SOAK_SECONDS", "20"))
REPORT = ROOT / "docs" / "soak.md"


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found is None and shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "nginx-light"], capture_output=True, check=False)
        found = shutil.which("nginx") or "/usr/sbin/nginx"
    if not found or not Path(found).exists():
        sys.exit("make soak needs Debian's nginx (apt-get install nginx-light)")
    return found


@contextmanager
def nginx(upstream: str, listen: str) -> Iterator[None]:
    """deploy/nginx.conf, the placeholders filled as compose.yaml fills them, here for loopback."""
    with tempfile.TemporaryDirectory() as prefix:
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        Path(prefix, "nginx.conf").write_text(conf.replace("@UPSTREAM@", upstream).replace("@LISTEN@", listen))
        user = "user root;" if os.geteuid() == 0 else ""
        process = subprocess.Popen(
            [nginx_binary(), "-p", prefix, "-c", "nginx.conf",
             "-g", f"daemon off; {user} pid {prefix}/nginx.pid; error_log {prefix}/error.log;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_for(listen)
            yield
        finally:
            process.send_signal(signal.SIGQUIT)
            process.wait(timeout=15)


def _wait_for(address: str) -> None:
    host, port = address.rsplit(":", 1)
    deadline = time.monotonic() + 15
    while True:
        try:
            with socket.create_connection((host, int(port)), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _post(port: int, path: str, body: bytes, timeout: float = 5.0) -> tuple[int, bytes, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", path, body, {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, answer.read(), dict(answer.getheaders())
    finally:
        connection.close()


@dataclass
class Normal:
    """A normal client: one request after another for the whole phase."""

    latencies: list[float] = field(default_factory=list)
    failed: int = 0

    def run(self, port: int, body: bytes, seconds: float) -> None:
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            start = time.perf_counter()
            try:
                status, _, _ = _post(port, "/v1/games/sixty-six/validate", body)
                ok = status == 200
            except OSError:
                ok = False
            if ok:
                self.latencies.append((time.perf_counter() - start) * 1000)
            else:
                self.failed += 1
                time.sleep(0.2)

    @property
    def answered(self) -> float:
        total = len(self.latencies) + self.failed
        return 100.0 * len(self.latencies) / total if total else 0.0

    @property
    def p99(self) -> float:
        ordered = sorted(self.latencies)
        return ordered[max(0, int(len(ordered) * 0.99) - 1)] if ordered else float("nan")


def _trickle(port: int, stop: float, *, body: bool) -> None:
    """A slow client: headers (or, after whole headers, the body) one byte a second, again and
    again as the server closes the connection."""
    head = b"POST /v1/games/sixty-six/validate HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
    while time.monotonic() < stop:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                if body:
                    sock.sendall(head + b"Content-Length: 100000\r\n\r\n")
                trickle = b'{"state": ' * 10_000 if body else head
                for byte in trickle:
                    if time.monotonic() >= stop:
                        return
                    sock.sendall(bytes([byte]))
                    time.sleep(1.0)
        except OSError:
            time.sleep(0.2)


def slow_clients(port: int, count: int, body: bytes) -> Normal:
    stop = time.monotonic() + SECONDS
    threads = [threading.Thread(target=_trickle, args=(port, stop), kwargs={"body": n % 2 == 1}, daemon=True)
               for n in range(count)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # the slow clients connect first
    normal = Normal()
    normal.run(port, body, SECONDS - 1.0)
    return normal


def rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in [p for master in pids for p in (master, *children(master))]:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def killed_worker(master: int, url: str, payloads: list[str], pids: list[int]) -> tuple[int, float]:
    """wrk for the phase; a worker killed with SIGKILL a third of the way in: failed requests
    and the time until the master has as many workers again."""
    results: list[Run] = []

    def load() -> None:
        results.append(run(url, payloads, conns=64, seconds=SECONDS, pids=pids))

    loader = threading.Thread(target=load)
    loader.start()
    time.sleep(SECONDS / 3)
    workers = children(master)
    os.kill(workers[0], signal.SIGKILL)
    killed_at = time.monotonic()
    while len([p for p in children(master) if p != workers[0]]) < len(workers):
        time.sleep(0.005)
    replaced = (time.monotonic() - killed_at) * 1000
    loader.join()
    return results[0].errors, replaced


def bad_inputs(port: int) -> list[tuple[str, str, bool]]:
    """Through the proxy, each answer a problem document of the right status and bounded size."""
    checks = []
    deep = b"[" * 1023 + b"1.5" + b"]" * 1023
    status, data, headers = _post(port, "/v1/games/sixty-six/validate", b'{"state": ' + deep + b', "move": {}}')
    checks.append(("float nested 1,023 deep", f"{status}, {len(data)} B", status == 422 and len(data) < 2000))
    status, data, _ = _post(port, "/v1/games/sixty-six/deal", dumps({"k" * 500_000: 1}).encode())
    checks.append(("500 KB unknown field", f"{status}, {len(data)} B", status == 422 and len(data) < 2000))
    status, data, headers = _post(port, "/v1/games/sixty-six/deal", b'{"seed": "' + b"x" * 2_000_000 + b'"}')
    problem = headers.get("Content-Type", "").startswith("application/problem+json")
    checks.append(("2 MB body", f"{status}, {headers.get('Content-Type')}", status == 413 and problem))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/health", headers={"X-Long": "y" * 20_000})
    answer = connection.getresponse()
    kind = answer.getheader("Content-Type", "")
    answer.read()
    checks.append(("20 KB header", f"{answer.status}, {kind}",
                   answer.status in (400, 414, 431, 494) and kind.startswith("application/problem+json")))
    status, data, _ = _post(port, "/v1/games/sixty-six/deal", b'{"seed": "a", "seed": "b"}')
    checks.append(("duplicate key (documented: last wins)", str(status), status == 200 and b'"seed":"b"' in data))
    return checks


def main() -> None:
    payloads = [dumps(b) for b in bodies("sixty-six")["validate-legal"]]
    body = payloads[0].encode()
    rows: list[tuple[str, str, str, bool | None]] = []  # None: measured for contrast, no target
    proxy = f"http://127.0.0.1:{PROXY_PORT}/v1/games/sixty-six/validate"
    with gunicorn("service:create_app()", APP_PORT) as pids, \
            nginx(f"127.0.0.1:{APP_PORT}", f"127.0.0.1:{PROXY_PORT}"):
        for count in (2, 8, 32):
            normal = slow_clients(PROXY_PORT, count, body)
            rows.append((f"{count} slow clients (through nginx)", f"{normal.answered:.1f} % answered",
                         f"p99 {normal.p99:.1f} ms", normal.answered == 100.0))
        direct = slow_clients(APP_PORT, 8, body)
        rows.append(("8 slow clients, gunicorn alone (for contrast)", f"{direct.answered:.1f} % answered",
                     f"p99 {direct.p99:.1f} ms", None))
        for conns in (256, 1024):
            before = rss_kb(pids)
            load = run(proxy, payloads, conns=conns, seconds=SECONDS, pids=pids)
            after = rss_kb(pids)
            flat = after <= before * 1.10 + 10_240
            rows.append((f"overload, {conns} connections", f"{load.errors} errors, p99 {load.p99_ms:.1f} ms",
                         f"RSS {before // 1024} → {after // 1024} MB", load.errors == 0 and flat))
        failed, replaced = killed_worker(pids[0], proxy, payloads, pids)
        rows.append(("a worker killed under load (64 connections)", f"{failed} failed requests",
                     f"replaced in {replaced:.0f} ms", failed <= 1))
        for name, seen, ok in bad_inputs(PROXY_PORT):
            rows.append((f"bad input: {name}", seen, "", ok))
    report(rows)


def report(rows: list[tuple[str, str, str, bool | None]]) -> None:
    met = {True: "yes", False: "NO", None: "(no target)"}
    lines = ["| phase | result | detail | target met |", "| --- | --- | --- | --- |"]
    lines += [f"| {name} | {result} | {detail} | {met[ok]} |" for name, result, detail, ok in rows]
    passed = all(ok is not False for *_, ok in rows)
    verdict = "PASS: every target met" if passed else "FAIL: " + "; ".join(r[0] for r in rows if r[3] is False)
    table = "\n".join(lines)
    print(table)
    print()
    print(verdict)
    REPORT.write_text(
        "# Soak: the deployment under slow clients, overload, a killed worker and bad inputs\n\n"
        "`make soak` (bench/soak.py) on this 2-core machine: Debian's nginx with deploy/nginx.conf in "
        "front of the Dockerfile's gunicorn command (2 sync workers), on loopback, "
        f"{SECONDS:.0f} s a phase. The targets: 100 % of normal requests answered under slow "
        "clients, 0 errors under overload with memory flat (at most +10 % + 10 MB), at most the one "
        "request a killed worker was serving lost, every bad input a bounded problem document.\n\n"
        f"{table}\n\n{verdict}.\n")
    if not passed:
        sys.exit(1)


if __name__ == "__main__":
    print(f"soak: {SECONDS:.0f} s a phase", flush=True)
    main()
