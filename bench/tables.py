"""`make soak`'s table phases (bench/soak.py runs them after its others): the table host (host/)
as deployed, gunicorn's gevent workers running ``host:create_app()``, with 500 Sixty-six tables of
two people playing at once, each with 4 event streams open (each seat's and two spectators'):
2,000 streams.

- ``tables``: one host, 2 gevent workers, on the SQLite store (its default, one machine).
- ``tables-killed``: two replicas, each as deployed (2 gevent workers: one a core), on one Redis
  (Debian's redis-server, without persistence); each table has two of its streams on each
  replica (seat 0's and a spectator's on one, seat 1's and the other spectator's on the other,
  alternating by table), each move goes to either at random. Halfway through, one replica
  (master and workers) is killed with SIGKILL; the clients of its streams reopen them on the
  other with ``Last-Event-ID`` (at once, without EventSource's 1 s retry: all ~1,000 at the same
  moment, the worst case), and the moves go to the survivor. ``--replica-workers 1`` runs each
  replica with one worker instead (as many workers in all as ``tables``).

Each table is driven like two people: the seat to move reads the table (``GET``: its view and its
legal moves), thinks 1-3 s (uniform: a move every ~2 s a table, ~250 moves a second in all; each
table starts at a random moment of its first 3 s), and plays a random legal move on the same
connection. For every move, the time from writing its POST to the move event's arrival on each of
the table's other three streams (the other seat's and the two spectators') gives p50/p95/p99/max.
Each stream checks that its event ids run on by one from where it started (1), across any
reopening (a gap is an event lost, an id again a duplicate); every played move's event must reach
every stream of its table exactly once; after the play every stream must have reached its
table's last event id.

The load generator is one asyncio process speaking HTTP/1.1 itself: each stream an
``asyncio.Protocol`` that takes chunked SSE apart in ``data_received`` (the arrival time stamped
there, before any parsing), requests on asyncio's streams; no HTTP library, no threads, no
monkey-patching, so it can run inside bench/soak.py. A 10 ms ticker measures how late the
client's own loop runs (its lag would count as latency), and the client's CPU, each server
worker's CPU and RSS, Redis's and everything else on the machine are read from /proc.

`python -m bench.tables` runs both phases alone (``--tables``, ``--seconds``, ``--phases``,
``--replica-workers``) and prints their rows; bench/soak.py writes them into docs/soak.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from bench.load import children
from tests.live import free_port
from tests.live_redis import redis_process

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
PHASES = ("tables", "tables-killed")
TABLES = 500
SECONDS = 60.0
STREAMS = 4
"""Streams a table: seat 0's, seat 1's, and two spectators' (indices 0-3)."""
THINK = (1.0, 3.0)
"""Seconds a person thinks before a move: uniform, 2 s on average."""
P99_MS = 100.0
"""The target: p99 from a move's POST to its event on each other stream of its table."""
WORKERS = REPLICA_WORKERS = 2
"""gevent workers of the host, and of each replica: gunicorn.conf.py's default here (one a core)."""
SETUP_AT_ONCE = 32
"""Tables opened and joined at a time, and (twice as many) streams opened at a time."""
TIMEOUT = 15.0
LOGS = os.environ.get("SOAK_TABLE_LOGS")
"""A directory to keep the hosts' logs in (for example with GEVENT_MONITOR_THREAD_ENABLE=1 and
GEVENT_MAX_BLOCKING_TIME=0.02 in the environment: gevent's report of each greenlet that held a
worker's loop that long)."""
Row = tuple[str, str, str, bool | None]
DESCRIPTION = (
    "Then the table host (bench/tables.py): `host:create_app()` under gunicorn's gevent workers, "
    "as deployed, with 500 Sixty-six tables of two people playing at once, each with 4 event "
    "streams open (each seat's and two spectators'): 2,000 streams, held by one asyncio client "
    "process (raw HTTP/1.1, chunked SSE parsed in the protocol's `data_received`, where each "
    "arrival is stamped) on the same two cores. At each table the seat to move reads the table "
    "(its view and legal moves: the first request on a new connection), thinks 1-3 s and plays a "
    "random legal move on the same connection: a move every ~2 s a table, about 230 a second in "
    "all. Measured for every move: from writing its POST to its event's arrival on each of the "
    "table's other three streams. Each stream checks that its event ids run on by one from 1 "
    "(across any reopening), every played move must reach all four streams of its table exactly "
    "once, and after the play every stream must reach its table's last event id. First one host "
    "(2 workers) on the SQLite store: the target a p99 of at most 100 ms, nothing lost or "
    "duplicated, no request failed. Then two replicas (2 workers each, as deployed: four workers "
    "on the two cores until the kill) on one Redis, each table's streams split between them and "
    "each move sent to either, one replica killed with SIGKILL halfway through and its ~1,000 "
    "streams reopened at once (no EventSource retry delay) on the other with `Last-Event-ID`: the "
    "target, nothing lost or duplicated, every stream back, no request failed and no stream of "
    "the survivor broken; the latencies before and after the kill are measured, without a "
    "target. What bounds the figures: not the client, which uses about a quarter of a core and "
    "whose loop runs late by a few ms at p99 (both in the rows). On one host not CPU either (the "
    "machine is about a third idle; \"others\" is what else ran on it) but SQLite's one write "
    "lock, which every change of every table takes in turn, from both workers (the moves, and "
    "each stream's lease renewal, 133 a second at 2,000 streams): a move's change holds it about "
    "0.7 ms, a renewal 0.1 ms. Before `Table.wire` stopped deep-copying the table with "
    "`dataclasses.asdict` they held it 1.2 and 0.7 ms, and the p99 was 0.7-1.1 s: while one "
    "worker had writes queued it kept taking the lock, and the other's writer, trying again every "
    "1 ms, waited up to 1.3 s, its own worker's writes queued behind it. On two replicas, CPU: "
    "four workers, Redis and the client keep the two cores busy (about 180 of 200 %) until the "
    "kill. Its failures here are redis-py's: its default connection pool (100 a process) refuses "
    "a command past that (\"Too many connections\": a 503, or a stream cut) when a worker holding "
    "a thousand streams has more in flight."
)
"""docs/soak.md's paragraph on these phases (bench/soak.py writes it)."""


# --- the host's processes -----------------------------------------------------------------------

class Host:
    """One host replica: gunicorn with gevent workers running ``host:create_app()`` on its own
    port, in its own session (so that SIGKILL to its group kills master and workers at once)."""

    def __init__(self, name: str, store: str, workers: int, log_dir: Path) -> None:
        self.name, self.port = name, free_port()
        self.log = log_dir / f"host-{name}.log"
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), "WORKERS": str(workers),
               "WORKER_CLASS": "gevent", "LOG_LEVEL": "WARNING", "TABLE_STORE": store,
               "TABLES_PER_MINUTE": "1000000", "MAX_TABLES": "100000",
               "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="metrics-", dir=log_dir)}
        with self.log.open("ab") as stderr:
            self.process = subprocess.Popen([GUNICORN, "--config", "gunicorn.conf.py", "host:create_app()"],
                                            cwd=ROOT, env=env, start_new_session=True,
                                            stdout=subprocess.DEVNULL, stderr=stderr)

    def wait(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"host {self.name} did not start:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.1)

    def workers(self) -> list[int]:
        return children(self.process.pid)

    def kill(self) -> None:
        """SIGKILL to the master and its workers at once (reaped by ``stop``)."""
        os.killpg(self.process.pid, signal.SIGKILL)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
                return
            except subprocess.TimeoutExpired:
                pass
        with suppress(ProcessLookupError):  # the workers of a master that died
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=15)


@contextmanager
def hosts(store: str | None, count: int, workers: int) -> Iterator[tuple[list[Host], subprocess.Popen[bytes] | None]]:
    """``count`` replicas on ``store`` (None: a redis-server of their own), started together."""
    with tempfile.TemporaryDirectory(prefix="soak-tables-") as tmp, ExitStack() as stack:
        redis = None
        store_kind = "sqlite" if store else "redis"
        if store is None:
            store, redis = stack.enter_context(redis_process(free_port()))
        started = [Host(str(n), store.replace("{tmp}", tmp), workers, Path(tmp)) for n in range(count)]
        for host in started:
            stack.callback(host.stop)
        if LOGS:  # after the hosts stop: their whole logs

            def keep() -> None:
                for host in started:
                    shutil.copy(host.log, Path(LOGS, f"{store_kind}-{host.log.name}"))

            stack.callback(keep)
        for host in started:
            host.wait()
        yield started, redis


def _ticks(pid: int) -> int:
    """User and system CPU of a process, in clock ticks (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _sockets(pid: int) -> int:
    try:
        return sum(1 for fd in Path(f"/proc/{pid}/fd").iterdir() if os.readlink(fd).startswith("socket:"))
    except OSError:
        return 0


def _machine_ticks() -> tuple[int, int]:
    """All cores' busy ticks and all ticks, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


@dataclass
class Meter:
    """CPU of the server's processes, the client, Redis and the machine over the play."""

    pids: dict[str, int]
    started: float = field(default_factory=time.monotonic)
    ticks: dict[str, int] = field(default_factory=dict)
    client: float = field(default_factory=time.process_time)
    machine: tuple[int, int] = field(default_factory=_machine_ticks)
    killed: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Processes about to be killed: their ticks and the time, read just before."""

    def __post_init__(self) -> None:
        self.ticks = {name: _ticks(pid) for name, pid in self.pids.items()}

    def before_kill(self, names: list[str]) -> None:
        for name in names:
            self.killed[name] = (_ticks(self.pids[name]), time.monotonic())

    def read(self) -> dict[str, float]:
        """CPU in % of one core, by process name (a process gone meanwhile left out), and
        ``client``, ``machine`` (all cores: up to 100 % a core), ``others`` (what the machine
        spent besides the processes metered: other processes, and the kernel's interrupts)."""
        seconds = time.monotonic() - self.started
        hz = os.sysconf("SC_CLK_TCK")
        used = {name: 100 * (_ticks(pid) - self.ticks[name]) / hz / seconds for name, pid in self.pids.items()
                if name not in self.killed}
        for name, (ticks, at) in self.killed.items():  # over the time it lived
            used[name] = 100 * (ticks - self.ticks[name]) / hz / max(0.001, at - self.started)
        used["client"] = 100 * (time.process_time() - self.client) / seconds
        busy, total = _machine_ticks()
        cores = os.cpu_count() or 1
        used["machine"] = 100 * cores * (busy - self.machine[0]) / max(1, total - self.machine[1])
        spent = sum(v for k, v in used.items() if k not in ("machine", *self.killed))
        spent += sum(100 * (ticks - self.ticks[name]) / hz / seconds for name, (ticks, _) in self.killed.items())
        used["others"] = max(0.0, used["machine"] - spent)
        return used


# --- the client -----------------------------------------------------------------------------------

class Http:
    """One keep-alive HTTP/1.1 connection; ``sent``: when the last request was written."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int) -> None:
        self.reader, self.writer, self.port = reader, writer, port
        self.sent = 0.0

    @classmethod
    async def open(cls, port: int) -> Http:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), TIMEOUT)
        return cls(reader, writer, port)

    async def call(self, method: str, path: str, body: Any = None, key: str | None = None) -> tuple[int, Any]:
        return await asyncio.wait_for(self._call(method, path, body, key), TIMEOUT)

    async def _call(self, method: str, path: str, body: Any, key: str | None) -> tuple[int, Any]:
        data = b"" if body is None else orjson.dumps(body)
        head = (f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\n")
        if key:
            head += f"Authorization: Bearer {key}\r\n"
        self.sent = time.monotonic()
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("closed before an answer")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return status, orjson.loads(payload) if payload else None

    def close(self) -> None:
        self.writer.close()


@dataclass
class Move:
    seat: int
    sent: float | None = None
    """When its POST was written (None: a move this client did not send)."""
    answered: float | None = None
    played: bool | None = None
    """True: answered 200 and legal; False: refused; None: no answer (its replica died)."""
    arrivals: list[float | None] = field(default_factory=lambda: [None] * STREAMS)
    again: int = 0
    """Arrivals on a stream that had it already: duplicates."""


@dataclass
class Table:
    id: str
    keys: list[str]
    """Seat 0's and seat 1's keys, then the spectators' key (for streams 2 and 3)."""
    to_move: int = 0
    over: bool = False
    last_event: int = 0
    streams: list[Stream] = field(default_factory=list)
    moves: dict[tuple[int, int], Move] = field(default_factory=dict)


class Stream(asyncio.Protocol):
    """A table's event stream as an EventSource holds it: reopened after the server ends it (or
    its connection breaks) with ``Last-Event-ID``; each event's id checked against the last."""

    def __init__(self, bench: Bench, table: Table, index: int, port: int) -> None:
        self.bench, self.table, self.index, self.port = bench, table, index, port
        self.key = table.keys[min(index, 2)]
        self.transport: asyncio.Transport | None = None
        self.ready: asyncio.Future[float] | None = None
        self.raw, self.text = bytearray(), bytearray()
        self.head = False
        self.live = False
        """The stream is open (its 200 arrived) and not yet closed."""
        self.ended_now = False
        """The server ended this connection's stream (its last chunk arrived)."""
        self.last = 0
        """The last event id seen."""
        self.events = self.lost = self.duplicated = self.ended = 0
        self.closing = False
        self.broken: list[tuple[float, int]] = []
        """When the connection broke (not by the server ending the stream), and on which port."""
        self.reopened: list[tuple[float, float, int]] = []
        """Each reopening after a break: broken at, answered 200 at, on which port."""

    # The connection ---------------------------------------------------------------------------

    async def open(self, ports: list[int]) -> float:
        """Open (or reopen) on ``self.port``, else on the next of ``ports`` that answers: the
        time its 200 arrived."""
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + 30
        candidates = [self.port, *[p for p in ports if p != self.port]]
        attempt = 0
        while True:
            port = candidates[attempt % len(candidates)]
            attempt += 1
            self.ready = loop.create_future()
            self.raw.clear()
            self.text.clear()
            self.head = False
            try:
                await asyncio.wait_for(loop.create_connection(lambda: self, "127.0.0.1", port), TIMEOUT)
                answered = await asyncio.wait_for(self.ready, TIMEOUT)
                self.port = port
                return answered
            except (TimeoutError, OSError, StreamRefused) as error:
                self.bench.failed(port, f"stream open: {type(error).__name__} {error}"[:120])
                if self.transport is not None:
                    self.transport.close()
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.05 if attempt < len(candidates) else 0.5)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        head = (f"GET /v1/tables/{self.table.id}/events HTTP/1.1\r\nHost: bench\r\n"
                f"Accept: text/event-stream\r\nAuthorization: Bearer {self.key}\r\n")
        if self.last:
            head += f"Last-Event-ID: {self.last}\r\n"
        transport.write(head.encode() + b"\r\n")

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if not self.live:  # while opening: open() sees it
            if self.ready is not None and not self.ready.done():
                self.ready.set_exception(ConnectionResetError("closed before the stream's header"))
            return
        self.live = False
        if not self.closing:
            self.bench.reopen(self, ended=self.ended_now)

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()

    # What arrives ----------------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        raw = self.raw
        raw += data
        if not self.head:
            end = raw.find(b"\r\n\r\n")
            if end < 0:
                return
            status = int(raw[:end].split(b" ", 2)[1])
            del raw[:end + 4]
            self.head = True
            assert self.ready is not None
            if status != 200:
                self.ready.set_exception(StreamRefused(status))
                assert self.transport is not None
                self.transport.close()
                return
            self.ended_now = False
            self.live = True
            self.ready.set_result(now)
        while True:  # chunked transfer: "<hex size>\r\n<data>\r\n", and "0\r\n\r\n" at the end
            eol = raw.find(b"\r\n")
            if eol < 0:
                break
            size = int(raw[:eol], 16)
            if size == 0:  # the server ended the stream (STREAM_SECONDS): reopened from the last id
                self.ended += 1
                self.ended_now = True
                raw.clear()
                assert self.transport is not None
                self.transport.close()
                return
            if len(raw) < eol + 4 + size:
                break
            self.text += raw[eol + 2:eol + 2 + size]
            del raw[:eol + 4 + size]
        text = self.text
        while True:
            end = text.find(b"\n\n")
            if end < 0:
                break
            frame = bytes(text[:end])
            del text[:end + 2]
            for line in frame.split(b"\n"):
                if line.startswith(b"data: "):
                    self._event(orjson.loads(line[6:]), now)

    def _event(self, event: dict[str, Any], now: float) -> None:
        number = event["id"]
        if number <= self.last:
            self.duplicated += 1
            return
        self.lost += number - self.last - 1
        self.last = number
        self.events += 1
        if event["type"] == "move":
            self.bench.moved(self.table, self.index, event, now)


class StreamRefused(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(f"status {status}")


@dataclass
class Bench:
    """The client: tables, their streams, their players."""

    ports: list[int]
    """The replicas' ports; a port is dropped from ``alive`` once it refuses a connection."""
    alive: list[int] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)
    dead: set[int] = field(default_factory=set)
    """Ports of replicas the bench killed: what fails there is expected, counted in ``cut``."""
    cut: Counter[str] = field(default_factory=Counter)
    stop_at: float = 0.0
    lag: list[float] = field(default_factory=list)
    connects: list[float] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    """Each player's connection made, and its GET of the table answered, ms."""
    reopening: set[asyncio.Task[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.alive = list(self.ports)

    def port(self) -> int:
        return random.choice(self.alive)

    def failed(self, port: int, what: str) -> None:
        (self.cut if port in self.dead else self.failures)[what] += 1

    async def connect(self) -> Http:
        """A connection to a replica the client has not seen refuse one."""
        while True:
            port = self.port()
            try:
                return await Http.open(port)
            except ConnectionRefusedError:
                if port in self.alive and len(self.alive) == 1:
                    raise
                if port in self.alive:
                    self.alive.remove(port)

    # Opening -------------------------------------------------------------------------------

    async def open_tables(self, count: int) -> None:
        at_once = asyncio.Semaphore(SETUP_AT_ONCE)

        async def one(n: int) -> None:
            async with at_once:
                http = await Http.open(self.ports[n % len(self.ports)])
                try:
                    status, created = await http.call("POST", "/v1/tables", {"game": "sixty-six"})
                    assert status == 201, created
                    keys = [""] * 2
                    for invite in created["invites"]:
                        status, joined = await http.call("POST", f"/v1/tables/{created['table_id']}/join",
                                                         {"invite": invite["invite"]})
                        assert status == 200, joined
                        keys[invite["seat"]] = joined["seat_key"]
                    table = Table(created["table_id"], [*keys, created["spectator_key"]])
                    status, view = await http.call("GET", f"/v1/tables/{table.id}", key=keys[0])
                    assert status == 200, view
                    table.to_move = view["to_move"]
                    self.tables.append(table)
                finally:
                    http.close()

        await asyncio.gather(*(one(n) for n in range(count)))

    async def open_streams(self) -> None:
        """Each table's 4 streams; with two replicas, streams 0 and 2 on one, 1 and 3 on the other
        (which one first alternates by table)."""
        at_once = asyncio.Semaphore(SETUP_AT_ONCE * 2)

        async def one(stream: Stream) -> None:
            async with at_once:
                await stream.open([stream.port])

        for number, table in enumerate(self.tables):
            table.streams = [Stream(self, table, index, self.ports[(number + index) % len(self.ports)])
                             for index in range(STREAMS)]
        await asyncio.gather(*(one(s) for t in self.tables for s in t.streams))

    # Playing -------------------------------------------------------------------------------

    async def play(self, seconds: float) -> None:
        self.stop_at = time.monotonic() + seconds
        await asyncio.gather(*(self._player(table) for table in self.tables))

    async def _player(self, table: Table) -> None:
        await asyncio.sleep(random.uniform(0, THINK[1]))
        while time.monotonic() < self.stop_at and not table.over:
            began = time.monotonic()
            try:
                http = await self.connect()
            except (TimeoutError, OSError) as error:
                self.failures[f"connect: {type(error).__name__}"] += 1
                await asyncio.sleep(0.1)
                continue
            self.connects.append((time.monotonic() - began) * 1000)
            try:
                await self._turn(table, http)
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
                self.failed(http.port, f"move: {type(error).__name__}")
                await asyncio.sleep(0.1)
                continue
            finally:
                http.close()
            await asyncio.sleep(random.uniform(*THINK))

    async def _turn(self, table: Table, http: Http) -> None:
        """The seat to move reads the table and plays a random legal move, on one connection."""
        for _ in range(3):
            status, view = await http.call("GET", f"/v1/tables/{table.id}", key=table.keys[table.to_move])
            self.reads.append((time.monotonic() - http.sent) * 1000)
            if status != 200:
                self.failures[f"GET {status} {view.get('type', '') if view else ''}"] += 1
                return
            if view["over"]:
                table.over = True
                return
            if view["to_move"] == table.to_move:
                break
            table.to_move = view["to_move"]
        else:
            self.failures["the seat to move changed three times"] += 1
            return
        seat = table.to_move
        number = (view["hand_number"], view["move_number"] + 1)
        move = table.moves.setdefault(number, Move(seat))
        body = {"move": random.choice(view["moves"]), "move_number": view["move_number"]}
        try:
            status, answer = await http.call("POST", f"/v1/tables/{table.id}/moves", body, key=table.keys[seat])
        finally:
            move.sent = http.sent
        move.answered = time.monotonic()
        move.played = status == 200 and answer["legal"]
        if not move.played:
            self.failures[f"POST {status} {answer.get('type', answer.get('reason'))}"] += 1
            return
        if answer["to_move"] is None:
            table.over = True
        else:
            table.to_move = answer["to_move"]

    def moved(self, table: Table, index: int, event: dict[str, Any], now: float) -> None:
        move = table.moves.setdefault((event["hand_number"], event["move_number"]), Move(event["seat"]))
        if move.arrivals[index] is None:
            move.arrivals[index] = now
        else:
            move.again += 1

    def reopen(self, stream: Stream, *, ended: bool) -> None:
        if not ended:
            stream.broken.append((time.monotonic(), stream.port))
        task = asyncio.ensure_future(self._reopen(stream, ended))
        self.reopening.add(task)
        task.add_done_callback(self.reopening.discard)

    async def _reopen(self, stream: Stream, ended: bool) -> None:
        broken_at, port = (time.monotonic(), stream.port) if ended else stream.broken[-1]
        try:
            answered = await stream.open(self.alive)
        except Exception as error:
            self.failures[f"stream not reopened: {type(error).__name__}"] += 1
            return
        if not ended:
            stream.reopened.append((broken_at, answered, port))

    async def ticker(self) -> None:
        """How late the loop runs a 10 ms sleep: the client's own delay in every arrival it stamps."""
        while True:
            began = time.monotonic()
            await asyncio.sleep(0.01)
            self.lag.append((time.monotonic() - began - 0.01) * 1000)

    # After the play ------------------------------------------------------------------------

    async def settle(self, seconds: float = 20.0) -> int:
        """Each table's last event id read, then each stream waited for until it has it: the
        streams still short of it after ``seconds``."""
        at_once = asyncio.Semaphore(SETUP_AT_ONCE)

        async def last(table: Table) -> None:
            async with at_once:
                http = await self.connect()
                try:
                    status, view = await http.call("GET", f"/v1/tables/{table.id}", key=table.keys[0])
                    assert status == 200, view
                    table.last_event = view["last_event_id"]
                finally:
                    http.close()

        await asyncio.gather(*(last(t) for t in self.tables))
        deadline = time.monotonic() + seconds
        while True:
            short = sum(1 for t in self.tables for s in t.streams if s.last < t.last_event)
            if short == 0 or time.monotonic() > deadline:
                return short
            await asyncio.sleep(0.1)

    def close(self) -> None:
        for table in self.tables:
            for stream in table.streams:
                stream.close()


# --- the figures ----------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """Nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * q + 0.5) - 1))]


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"p50 {percentile(values, 0.5):.1f} ms, p95 {percentile(values, 0.95):.1f} ms, "
            f"p99 {percentile(values, 0.99):.1f} ms, max {max(values):.1f} ms")


@dataclass
class Tally:
    """Every move's deliveries: latencies (ms) by when the move was sent, and what went wrong."""

    deliveries: list[tuple[float, float]] = field(default_factory=list)
    """(sent, ms) for each played move and each other stream of its table."""
    everyone: list[tuple[float, float]] = field(default_factory=list)
    """(sent, ms) for each played move: until the last of its table's other streams had it."""
    answered: list[float] = field(default_factory=list)
    moves: int = 0
    unanswered: int = 0
    """Moves whose POST got no answer (its replica died); of them, told on some stream:"""
    unanswered_told: int = 0
    missing: int = 0
    """(move, stream) pairs where a move told on its table (or answered 200) never arrived."""
    again: int = 0
    refused_told: int = 0
    lost: int = 0
    duplicated: int = 0
    events: int = 0

    @classmethod
    def of(cls, bench: Bench) -> Tally:
        tally = cls()
        for table in bench.tables:
            for stream in table.streams:
                tally.lost += stream.lost
                tally.duplicated += stream.duplicated
                tally.events += stream.events
            for move in table.moves.values():
                told = any(a is not None for a in move.arrivals)
                tally.again += move.again
                if move.played is False:
                    tally.refused_told += told
                    continue
                if move.played is None and move.sent is not None:
                    tally.unanswered += 1
                    tally.unanswered_told += told
                if not (move.played or told):
                    continue
                tally.moves += 1
                tally.missing += sum(1 for a in move.arrivals if a is None)
                if not move.played or move.sent is None or move.answered is None:
                    continue
                tally.answered.append((move.answered - move.sent) * 1000)
                others = [a for index, a in enumerate(move.arrivals) if index != move.seat]
                ms = [(a - move.sent) * 1000 for a in others if a is not None]
                tally.deliveries += [(move.sent, m) for m in ms]
                if len(ms) == len(others):
                    tally.everyone.append((move.sent, max(ms)))
        return tally

    def ms(self, before: float = float("inf"), after: float = float("-inf")) -> list[float]:
        return [m for sent, m in self.deliveries if after <= sent < before]

    def everyone_ms(self, before: float = float("inf"), after: float = float("-inf")) -> list[float]:
        return [m for sent, m in self.everyone if after <= sent < before]

    @property
    def clean(self) -> bool:
        return self.lost == self.duplicated == self.missing == self.again == self.refused_told == 0

    def integrity(self) -> str:
        return (f"{self.lost} lost, {self.duplicated + self.again} duplicated, {self.missing} "
                f"move deliveries missing")


def _usage(meter: Meter) -> str:
    """Each worker's CPU over the play (% of a core), its RSS and open sockets at its end; Redis's
    CPU, the client's, the machine's and what else ran on it."""
    used = meter.read()
    parts = [f"{name} {used[name]:.0f} % CPU until killed" if name in meter.killed
             else f"{name} {used[name]:.0f} % CPU, {_rss_mb(pid):.0f} MB, {_sockets(pid)} sockets"
             for name, pid in meter.pids.items() if name != "redis"]
    extra = f", redis {used['redis']:.0f} %" if "redis" in used else ""
    return (f"{'; '.join(parts)}{extra}; client {used['client']:.0f} %; machine {used['machine']:.0f} % of "
            f"{(os.cpu_count() or 1) * 100} % (others {used['others']:.0f} %)")




@dataclass
class Played:
    bench: Bench
    setup_s: float
    played_s: float
    usage: str
    short: int
    """Streams short of their table's last event id once the play was over and 20 s had passed."""
    killed_at: float | None


async def _phase(ports: list[int], tables: int, seconds: float, pids: dict[str, int],
                 kill: Callable[[Bench, Meter], float] | None = None) -> Played:
    """Tables and their streams opened, the play (``kill`` called halfway: the moment it
    killed), the streams settled and closed."""
    bench = Bench(ports)
    began = time.monotonic()
    await bench.open_tables(tables)
    await bench.open_streams()
    await asyncio.sleep(1.0)  # the streams' first events (dealt, joined, connected) arrive
    setup = time.monotonic() - began
    ticker = asyncio.ensure_future(bench.ticker())
    meter = Meter(pids)
    play = asyncio.ensure_future(bench.play(seconds))
    killed_at = None
    if kill is not None:
        await asyncio.sleep(seconds / 2)
        killed_at = kill(bench, meter)
    await play
    played_s = time.monotonic() - meter.started
    usage = _usage(meter)
    short = await bench.settle()
    ticker.cancel()
    await asyncio.gather(*bench.reopening, return_exceptions=True)
    bench.close()
    await asyncio.sleep(0.5)
    return Played(bench, setup, played_s, usage, short, killed_at)


def _failures(counter: Counter[str]) -> str:
    return "; ".join(f"{n} × {what}" for what, n in counter.most_common()) or "none"


def sqlite_phase(tables: int, seconds: float) -> list[Row]:
    with hosts("sqlite:///{tmp}/tables.sqlite3", 1, WORKERS) as (started, _):
        host = started[0]
        pids = {f"worker {n}": pid for n, pid in enumerate(host.workers())}
        run = asyncio.run(_phase([host.port], tables, seconds, pids))
    bench, tally = run.bench, Tally.of(run.bench)
    ms, everyone = tally.ms(), tally.everyone_ms()
    p99 = percentile(ms, 0.99)
    ok = p99 <= P99_MS and tally.clean and run.short == 0 and not bench.failures
    streams = len(bench.tables) * STREAMS
    name = (f"{len(bench.tables)} Sixty-six tables of two people, {streams:,} event streams (each seat's, "
            f"2 spectators'), one host ({WORKERS} gevent workers, SQLite), a move every ~2 s a table")
    result = f"p99 {p99:.1f} ms from a move to its event on each other stream; {tally.integrity()}"
    detail = (f"{tally.moves} moves in {run.played_s:.0f} s ({tally.moves / run.played_s:.0f}/s), "
              f"{len(ms)} deliveries to the other streams: {spread(ms)}; until the last of the 3 had it: "
              f"{spread(everyone)}; the POST answered: {spread(tally.answered)}; the GET before it: "
              f"{spread(bench.reads)}; connecting: {spread(bench.connects)}; {tally.events:,} events "
              f"received, {sum(s.ended for t in bench.tables for s in t.streams)} streams ended by the host "
              f"(STREAM_SECONDS) and reopened, {run.short} short of their table's last event at the end; failures: "
              f"{_failures(bench.failures)}; {run.usage}; client loop lag p99 {percentile(bench.lag, 0.99):.1f} "
              f"ms, max {max(bench.lag, default=0):.1f} ms; setup (tables opened and joined, streams "
              f"opened) {run.setup_s:.0f} s")
    return [(name, result, detail, ok)]


def redis_phase(tables: int, seconds: float, workers: int = REPLICA_WORKERS) -> list[Row]:
    with hosts(None, 2, workers) as (started, redis):
        assert redis is not None
        pids = {f"replica {h.name} worker {n}": pid for h in started for n, pid in enumerate(h.workers())}
        pids["redis"] = redis.pid
        victim = started[1]

        def kill(bench: Bench, meter: Meter) -> float:
            bench.dead.add(victim.port)
            meter.before_kill([name for name in pids if name.startswith(f"replica {victim.name} ")])
            killed_at = time.monotonic()
            victim.kill()
            return killed_at

        run = asyncio.run(_phase([h.port for h in started], tables, seconds, pids, kill))
    bench, tally = run.bench, Tally.of(run.bench)
    killed_at = run.killed_at or 0.0
    streams = [s for t in bench.tables for s in t.streams]
    broken = [s for s in streams if any(port == victim.port and at >= killed_at for at, port in s.broken)]
    reopened = [(back - at, back - killed_at) for s in broken for at, back, port in s.reopened
                if port == victim.port and at >= killed_at]
    took = [r[0] * 1000 for r in reopened]
    after_kill = [r[1] * 1000 for r in reopened]
    other_breaks = sum(1 for s in streams for at, port in s.broken if port != victim.port or at < killed_at)
    ok = (tally.clean and run.short == 0 and len(reopened) == len(broken) > 0 and not bench.failures
          and other_breaks == 0)
    before, after = tally.ms(before=killed_at), tally.ms(after=killed_at)
    settled = [m for sent, m in tally.deliveries if sent >= killed_at + 5]
    name = (f"{len(bench.tables)} tables, {len(streams):,} streams split between two replicas ({workers} "
            f"gevent worker{'s' if workers > 1 else ''} each, one Redis), moves to either; one replica killed with SIGKILL at "
            f"{run.played_s / 2:.0f} s of {run.played_s:.0f} s, its streams reopened on the other with Last-Event-ID")
    result = (f"{len(reopened)} of {len(broken)} broken streams reopened, all within "
              f"{max(after_kill, default=float('nan')):.0f} ms of the kill; {tally.integrity()}")
    detail = (f"each reopened (its break seen → 200 from the survivor): {spread(took)}; "
              f"{other_breaks} other streams broken; moves whose POST the kill cut short: {tally.unanswered} "
              f"({tally.unanswered_told} of them played, told on every stream); {tally.moves} moves; "
              f"{tally.events:,} events received, {run.short} streams short at the end; failures: "
              f"{_failures(bench.failures)}; cut by the kill (expected): {_failures(bench.cut)}; {run.usage}; "
              f"client loop lag p99 {percentile(bench.lag, 0.99):.1f} ms; setup {run.setup_s:.0f} s")
    latency = ("the same: a move to its event on each other stream, before and after the kill",
               f"p99 {percentile(before, 0.99):.1f} ms before, {percentile(after, 0.99):.1f} ms after",
               f"before ({len(before)} deliveries): {spread(before)}; after ({len(after)}): {spread(after)}; "
               f"from 5 s after the kill ({len(settled)}): {spread(settled)}; the POST answered: "
               f"{spread(tally.answered)}", None)
    return [(name, result, detail, ok), latency]


def run_phases(chosen: list[str], seconds: float = SECONDS, tables: int = TABLES,
               replica_workers: int = REPLICA_WORKERS) -> list[Row]:
    _enough_files()
    rows: list[Row] = []
    if "tables" in chosen:
        print(f"soak: {tables} tables on one host (SQLite), {seconds:.0f} s", flush=True)
        rows += sqlite_phase(tables, seconds)
    if "tables-killed" in chosen:
        print(f"soak: {tables} tables on two replicas (Redis), one killed, {seconds:.0f} s", flush=True)
        rows += redis_phase(tables, seconds, replica_workers)
    return rows


def _enough_files() -> None:
    """2,000 streams and the players' connections, and the servers' (which inherit the limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 16_384 if hard == resource.RLIM_INFINITY else min(16_384, hard)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def main() -> None:
    parser = argparse.ArgumentParser(description="make soak's table phases, alone")
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--seconds", type=float, default=SECONDS, help="the play's length")
    parser.add_argument("--phases", default=",".join(PHASES), help="a comma list of " + ", ".join(PHASES))
    parser.add_argument("--replica-workers", type=int, default=REPLICA_WORKERS,
                        help="gevent workers of each replica in tables-killed")
    options = parser.parse_args()
    chosen = [p.strip() for p in options.phases.split(",") if p.strip()]
    rows = run_phases(chosen, options.seconds, options.tables, options.replica_workers)
    met = {True: "yes", False: "NO", None: "(no target)"}
    print("| phase | result | detail | target met |\n| --- | --- | --- | --- |")
    for name, result, detail, ok in rows:
        print(f"| {name} | {result} | {detail} | {met[ok]} |")
    if any(ok is False for *_, ok in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
