"""Hostile bodies against the live server: each of bench/hostile.py's bodies, sent to the
Dockerfile's gunicorn command, is answered without a 5xx, within 100 ms of the service's own time,
in at most 512 KB, and without costing a worker; a normal request is answered fast right after.

The server time is the ``duration_ms`` of the service's JSON log line for the request (matched by
its ``X-Request-ID``), not the client's wall time. Both workers first meet a small invalid body of
each hostile body's shape, so that what is timed is the hostile body, not a worker's first schema
error of that kind. A body the server cannot answer within the client's 10 s fails its case; its
worker, still busy, is then killed (by its pid) so that the next case starts with idle workers.
At the end no worker has booted but the first ones and those replacing the killed ones.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bench.hostile import Entry, encoded, hostile
from tests.live import gunicorn

pytestmark = pytest.mark.xdist_group("live")

ENTRIES = hostile()
WORKERS = 2
MAX_SERVER_MS = 100.0
MAX_ANSWER_BYTES = 512 * 1024
CLIENT_TIMEOUT = 10.0
REFUSALS = (413, 422, 429)
RESTARTS = re.compile(r"WORKER TIMEOUT|Booting worker")


@dataclass
class Server:
    url: str
    log: Path
    master: int
    killed: list[int] = field(default_factory=list)
    """Workers this module killed after a case that got no answer."""

    def workers(self) -> list[int]:
        found = []
        for children in Path(f"/proc/{self.master}/task").glob("*/children"):
            found += [int(pid) for pid in children.read_text().split()]
        return sorted(found)

    def log_size(self) -> int:
        return self.log.stat().st_size

    def log_since(self, offset: int) -> str:
        with self.log.open("rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")

    def access_line(self, request_id: str, since: int) -> dict[str, Any] | None:
        """The service's log line of the request, waiting a little for it."""
        deadline = time.monotonic() + 2.0
        while True:
            for line in self.log_since(since).splitlines():
                if request_id in line and line.startswith("{"):
                    entry: dict[str, Any] = json.loads(line)
                    if entry.get("request_id") == request_id:
                        return entry
            if time.monotonic() > deadline:
                return None
            time.sleep(0.02)

    def wait_for_workers(self, timeout: float = 15.0) -> list[int]:
        deadline = time.monotonic() + timeout
        while len(pids := self.workers()) != WORKERS:
            assert time.monotonic() < deadline, f"the master has workers {pids}, not {WORKERS}"
            time.sleep(0.05)
        return pids


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("hostile") / "gunicorn.log"
    with gunicorn(log_path=log, LOG_LEVEL="INFO", WORKERS=str(WORKERS)) as url:
        started = re.search(r"\[(\d+)\] \[INFO\] Starting gunicorn", log.read_text(errors="replace"))
        assert started, "gunicorn's log names its master"
        live = Server(url, log, int(started.group(1)))
        live.wait_for_workers()
        deadline = time.monotonic() + 15
        while len(re.findall("Booting worker", log.read_text(errors="replace"))) < WORKERS:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        _warm_up(live)
        yield live
        log_text = live.log_since(0)
        boots, timeouts = log_text.count("Booting worker"), log_text.count("WORKER TIMEOUT")
        assert (boots, timeouts) == (WORKERS + len(live.killed), 0), (
            f"{boots} workers booted and {timeouts} timed out in all, with {len(live.killed)} killed here")


def _warm_up(live: Server) -> None:
    """Each worker compiles the validator that explains a schema's errors on the first invalid
    body of that schema it meets (100-300 ms, once per worker and schema; service/api/parsing.py).
    So every path first gets a small invalid body with the hostile bodies' fields (``{"state": 1}``),
    from two clients at once and a few times over, until both workers have met each."""
    warm = sorted({(path, json.dumps(dict.fromkeys(body, 1)).encode())
                   for _, path, body in ENTRIES if isinstance(body, dict)})
    for _ in range(3):
        for path, body in warm:
            threads = [threading.Thread(target=post, args=(live.url, path, body, f"warm-{n}-{time.monotonic_ns()}"))
                       for n in range(WORKERS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()


def post(url: str, path: str, body: bytes, request_id: str) -> tuple[int, dict[str, str], bytes]:
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=CLIENT_TIMEOUT)
    try:
        connection.request("POST", path, body, {"Content-Type": "application/json", "X-Request-ID": request_id})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def _kill_busy(live: Server) -> list[int]:
    """The workers still running a request the client gave up on: killed, and replaced by the
    master before the next case."""
    busy = set()
    for _ in range(5):
        for pid in live.workers():
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state == "R":
                busy.add(pid)
        time.sleep(0.02)
    boots = live.log_since(0).count("Booting worker")
    busy = {pid for pid in busy if pid in live.workers()}
    for pid in busy:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        live.killed.append(pid)
    deadline = time.monotonic() + 15
    while busy and time.monotonic() < deadline and (
            set(live.workers()) & busy or len(live.workers()) != WORKERS
            or live.log_since(0).count("Booting worker") < boots + len(busy)):
        time.sleep(0.05)
    return sorted(busy)


def _names_the_limit(problem: dict[str, Any]) -> bool:
    limit = problem.get("limit")
    named = isinstance(limit, dict) and str(limit.get("name", "")).startswith("MAX_")
    return named or "MAX_" in str(problem.get("detail", ""))


def _names_fields(problem: dict[str, Any]) -> bool:
    errors = problem.get("errors")
    return isinstance(errors, list) and bool(errors) and all(
        str(e.get("pointer", "")).startswith("/") for e in errors)


def _refusal_named(path: str, problem: dict[str, Any]) -> bool:
    """A legal-moves body holds a legal state, so only a limit may refuse it; a schema-error
    body's problem names the fields, or the limit the body passed."""
    return _names_the_limit(problem) or (not path.endswith("/legal-moves") and _names_fields(problem))


NORMAL = json.dumps({"seed": "after-a-hostile-body"}).encode()


@pytest.mark.parametrize("entry", ENTRIES, ids=[name for name, _, _ in ENTRIES])
def test_hostile_body_is_answered_cheaply(server: Server, entry: Entry) -> None:
    name, path, _ = entry
    body = encoded(entry)
    before, since = server.wait_for_workers(), server.log_size()
    request_id = f"hostile-{time.monotonic_ns()}"
    problems: list[str] = []
    started = time.perf_counter()
    try:
        status, headers, answer = post(server.url, path, body, request_id)
    except (OSError, http.client.HTTPException) as error:  # TimeoutError is an OSError
        killed = _kill_busy(server)
        pytest.fail(f"{name} ({len(body):,} B body): no answer ({error!r}) after "
                    f"{time.perf_counter() - started:.1f} s; busy worker(s) {killed} killed so the next case "
                    f"starts clean; log: {RESTARTS.findall(server.log_since(since))}")
    wall_ms = (time.perf_counter() - started) * 1000

    if status >= 500:
        problems.append(f"status {status}: {answer[:300]!r}")
    elif status != 200:
        kind = headers.get("content-type", "")
        if status not in REFUSALS or not kind.startswith("application/problem+json"):
            problems.append(f"status {status} ({kind}), not 200 or a 413/422/429 problem")
        elif not _refusal_named(path, json.loads(answer)):
            problems.append(f"the {status} problem names no limit (or, for a schema error, no field): "
                            f"{answer[:300]!r}")
    if len(answer) > MAX_ANSWER_BYTES:
        problems.append(f"answer of {len(answer):,} B, more than {MAX_ANSWER_BYTES:,}")
    line = server.access_line(request_id, since)
    if line is None:
        problems.append("no log line for the request")
    elif line["duration_ms"] >= MAX_SERVER_MS:
        problems.append(f"server time {line['duration_ms']:.1f} ms (client {wall_ms:.0f} ms), "
                        f"not under {MAX_SERVER_MS:.0f}")

    normal_id = f"normal-{request_id}"
    normal_start = time.perf_counter()
    status, _, _ = post(server.url, "/v1/games/sixty-six/deal", NORMAL, normal_id)
    normal_wall = (time.perf_counter() - normal_start) * 1000
    normal = server.access_line(normal_id, since)
    if status != 200 or normal is None or normal["duration_ms"] >= MAX_SERVER_MS or normal_wall > 1000:
        problems.append(f"the normal request after it: status {status}, server "
                        f"{normal and normal['duration_ms']} ms, client {normal_wall:.0f} ms")

    after = server.workers()
    restarts = RESTARTS.findall(server.log_since(since))
    if after != before or restarts:
        problems.append(f"workers {before} became {after}; log: {restarts}")
    assert not problems, f"{name} ({len(body):,} B body): " + "; ".join(problems)
