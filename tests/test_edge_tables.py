"""The table host at the edge, against real processes: deploy/nginx.conf (only its placeholders
filled) in front of the rules (the Dockerfile's gunicorn command) and of the table host (the same
command with `host:create_app()`, gevent workers, as compose.yaml and deploy/kubernetes run it:
tests/host/live.py's server).
/v1/tables reaches the host; a table's event stream passes through nginx unbuffered, each event
and each heartbeat comment as the host writes it; opening tables and holding streams have limits
per client address of their own; the rules' paths still reach the rules.

The limited clients connect from loopback addresses other than 127.0.0.1 (which nginx exempts),
an address per test, as in tests/test_edge.py.
"""

from __future__ import annotations

import http.client
import itertools
import json
import queue
import socket
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.host.live import host_server
from tests.live import free_port, gunicorn, nginx
from tests.test_edge import Answer

pytestmark = pytest.mark.xdist_group("live")

HEARTBEAT = 1.0  # the host's HEARTBEAT_SECONDS here: a comment line on an idle stream this often
AT_ONCE = 1.0  # seconds within which an event written by the host reaches the client through nginx
OPENINGS_BURST, OPENING_WAIT = 10, 7  # deploy/nginx.conf: 10 a minute, bursts of 10; Retry-After 7
STREAMS = 32  # deploy/nginx.conf's streams_per_address


@pytest.fixture(scope="module")
def edge() -> Iterator[str]:
    """nginx in front of the rules and of the host (the command compose.yaml and deploy/kubernetes
    run, which tests/test_kubernetes.py checks against the Dockerfile's), the host's tables in a
    SQLite file of their own. The host sees every client at nginx's address (127.0.0.1), so its
    own count of openings per address is every client's together: raised, as compose.yaml and
    deploy/kubernetes raise it, so that what is measured here is nginx's limit per client."""
    with tempfile.TemporaryDirectory() as directory, gunicorn() as rules, \
            host_server(f"sqlite:///{directory}/tables.sqlite3", HEARTBEAT_SECONDS=str(HEARTBEAT),
                        TABLES_PER_MINUTE="1000") as host, \
            nginx(rules.removeprefix("http://"), tables=host.removeprefix("http://")) as url:
        yield url


# --- clients ------------------------------------------------------------------------------------

def call(url: str, method: str, path: str, body: Any = None, key: str | None = None,
         source: str = "127.0.0.1") -> Answer:
    """One request on a connection of its own from ``source``; ``key``: the seat's (Bearer)."""
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10, source_address=(source, 0))
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    try:
        conn.request(method, path, None if body is None else json.dumps(body).encode(), headers)
        answer = conn.getresponse()
        return Answer(answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read())
    finally:
        conn.close()


def opened(url: str, source: str = "127.0.0.1") -> tuple[str, list[str], str]:
    """A Sixty-six table of two people opened through nginx and both seats joined: its id, the
    seat keys and the spectators' key."""
    answer = call(url, "POST", "/v1/tables", {"game": "sixty-six"}, source=source)
    assert answer.status == 201, answer
    table = json.loads(answer.body)
    keys = [""] * table["players"]
    for invite in table["invites"]:
        joined = call(url, "POST", f"/v1/tables/{table['table_id']}/join", {"invite": invite["invite"]}, source=source)
        assert joined.status == 200, joined
        keys[invite["seat"]] = json.loads(joined.body)["seat_key"]
    return table["table_id"], keys, table["spectator_key"]


class Stream:
    """An event stream read as `curl -N` reads it: line by line as they come (http.client, which
    urllib reads with), on a thread that notes when each line arrived."""

    def __init__(self, url: str, path: str, key: str | None = None, after: int | None = None) -> None:
        headers = {"Accept": "text/event-stream", "Accept-Encoding": "gzip"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        if after is not None:
            headers["Last-Event-ID"] = str(after)
        host, port = url.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)
        self.connection.request("GET", path, headers=headers)
        self.answer = self.connection.getresponse()
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while line := self.answer.readline():
                self.lines.put((time.monotonic(), line.decode().rstrip("\n")))
        except (OSError, ValueError, AttributeError):
            pass  # closed (by the test: http.client drops its file under the reading thread)

    def wait_for(self, wanted: Any, within: float) -> tuple[float, str]:
        """The next line for which ``wanted`` holds (the lines before it passed over), and when it
        came; fails if none comes within ``within`` seconds."""
        deadline = time.monotonic() + within
        while (left := deadline - time.monotonic()) > 0:
            try:
                when, line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if wanted(line):
                return when, line
        raise AssertionError(f"no such line within {within} s")

    def close(self) -> None:
        """The connection shut first: the reading thread, waiting for the next line, returns at
        once (closing the answer alone would wait for it)."""
        if self.connection.sock is not None:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.answer.close()
        self.connection.close()


@contextmanager
def stream(url: str, path: str, key: str | None = None, after: int | None = None) -> Iterator[Stream]:
    opened = Stream(url, path, key, after)
    try:
        yield opened
    finally:
        opened.close()


def raw_stream(url: str, path: str, key: str, source: str) -> tuple[socket.socket, int]:
    """A stream opened from ``source`` and held: the socket, and the answer's status."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: edge\r\nAuthorization: Bearer {key}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        assert chunk, received
        received += chunk
    return sock, int(received.split(b" ", 2)[1])


# --- the stream through nginx -------------------------------------------------------------------

def test_a_move_reaches_the_other_seats_stream_through_nginx_at_once(edge):
    """A table opened, joined and played through nginx: the move's event is on the other seat's
    stream within a second of the move being sent, not held in a buffer until more follow."""
    table_id, keys, _ = opened(edge)
    seen = json.loads(call(edge, "GET", f"/v1/tables/{table_id}", key=keys[0]).body)
    mover = seen["to_move"]
    other = 1 - mover
    with stream(edge, f"/v1/tables/{table_id}/events", keys[other], after=seen["last_event_id"]) as events:
        assert events.answer.status == 200
        assert events.answer.getheader("Content-Type").startswith("text/event-stream")
        assert events.answer.getheader("Content-Encoding") is None  # not compressed, though gzip was offered
        # The stream's first event: this seat connected.
        events.wait_for(lambda line: line.startswith("data: ") and '"connected"' in line, AT_ONCE)
        table = json.loads(call(edge, "GET", f"/v1/tables/{table_id}", key=keys[mover]).body)
        sent = time.monotonic()
        played = call(edge, "POST", f"/v1/tables/{table_id}/moves",
                      {"move": table["moves"][0], "move_number": table["move_number"]}, key=keys[mover])
        assert played.status == 200 and json.loads(played.body)["legal"], played
        first = json.loads(played.body)["events"][0]["id"]
        came, _ = events.wait_for(lambda line: line == f"id: {first}", AT_ONCE)
        _, data = events.wait_for(lambda line: line.startswith("data: "), AT_ONCE)
    assert came - sent < AT_ONCE
    event = json.loads(data.removeprefix("data: "))
    assert (event["id"], event["type"], event["seat"]) == (first, "move", mover)


def test_heartbeats_pass_through_nginx_one_by_one(edge):
    """An idle stream gets the host's heartbeat comment every HEARTBEAT_SECONDS (1 s here), each
    as it is written: the comments keep every proxy on the way from closing the stream."""
    table_id, keys, spectators = opened(edge)
    last = json.loads(call(edge, "GET", f"/v1/tables/{table_id}", key=keys[0]).body)["last_event_id"]
    with stream(edge, f"/v1/tables/{table_id}/events", spectators, after=last) as events:
        beats = [events.wait_for(lambda line: line == ": heartbeat", 2 * HEARTBEAT)[0] for _ in range(3)]
    gaps = [later - earlier for earlier, later in itertools.pairwise(beats)]
    assert all(HEARTBEAT / 2 < gap < 1.5 * HEARTBEAT for gap in gaps), gaps


class Paced(BaseHTTPRequestHandler):
    """An upstream writing an event stream, four events 0.4 s apart, without the host's
    X-Accel-Buffering header: to see what nginx.conf itself does with an event stream."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for number in range(4):
            chunk = f"data: {number}\n\n".encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.flush()
            time.sleep(0.4)
        self.wfile.write(b"0\r\n\r\n")

    def log_message(self, *args: Any) -> None:
        pass


def test_nginx_itself_passes_an_event_stream_as_it_comes():
    """The events location holds no event back even when the upstream does not ask for that (no
    X-Accel-Buffering: no, which the host sends): nginx.conf's own settings suffice."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Paced)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with nginx(f"127.0.0.1:{free_port()}", tables=f"127.0.0.1:{server.server_address[1]}") as url:
            start = time.monotonic()
            with urllib.request.urlopen(url + "/v1/tables/t1/events", timeout=10) as answer:
                arrivals = [time.monotonic() - start for line in iter(answer.readline, b"")
                            if line.startswith(b"data: ")]
    finally:
        server.shutdown()
        server.server_close()
    assert len(arrivals) == 4
    assert arrivals[0] < 0.3 and all(0.2 < b - a < 0.6 for a, b in itertools.pairwise(arrivals)), arrivals


# --- the limits per address ---------------------------------------------------------------------

def test_one_address_holds_32_streams_and_still_plays(edge):
    """32 streams from one address are let through; the 33rd is refused (429, nginx's problem)
    while the others are open, and one closed lets it through. The address's other requests are
    not limited by its streams."""
    source = "127.0.0.21"
    table_id, keys, spectators = opened(edge)
    path = f"/v1/tables/{table_id}/events"
    held = []
    try:
        for _ in range(STREAMS):
            sock, status = raw_stream(edge, path, spectators, source)
            held.append(sock)
            assert status == 200
        refused = call(edge, "GET", path, key=spectators, source=source)
        assert refused.status == 429 and refused.headers["retry-after"] == "1", refused
        assert refused.problem()["title"] == "Too Many Requests"
        read = call(edge, "GET", f"/v1/tables/{table_id}", key=keys[0], source=source)
        assert read.status == 200, read
        held.pop().close()
        deadline = time.monotonic() + 3
        while True:  # nginx ends the closed stream's request when it sees the connection closed
            sock, status = raw_stream(edge, path, spectators, source)
            held.append(sock)
            if status == 200 or time.monotonic() > deadline:
                break
            held.pop().close()
            time.sleep(0.1)
        assert status == 200
    finally:
        for sock in held:
            sock.close()


def test_one_address_opens_11_tables_at_once_then_one_every_6_s(edge):
    """Eleven openings from one address (the burst of 10 and the one the rate allows) are let
    through; the next is refused, 429 with Retry-After: 7, the bucket's time for one more (6.024
    s) in whole seconds; the address's other requests are not; after those 7 s it opens one more."""
    source = "127.0.0.22"
    answers = [call(edge, "POST", "/v1/tables", {"game": "bura"}, source=source) for _ in range(OPENINGS_BURST + 2)]
    assert [a.status for a in answers] == [201] * (OPENINGS_BURST + 1) + [429], answers
    refused = answers[-1]
    assert refused.problem()["title"] == "Too Many Requests"
    assert refused.headers["retry-after"] == str(OPENING_WAIT)
    table = json.loads(answers[0].body)
    joined = call(edge, "POST", f"/v1/tables/{table['table_id']}/join", {"invite": table["invites"][0]["invite"]},
                  source=source)
    assert joined.status == 200, joined
    time.sleep(OPENING_WAIT)
    assert call(edge, "POST", "/v1/tables", {"game": "bura"}, source=source).status == 201


# --- the routes ---------------------------------------------------------------------------------

def test_the_rules_and_the_host_each_answer_their_own_paths(edge):
    """/v1/tables and below reach the host (its own problems pass through), every other path the
    rules, a near miss of the host's prefix included."""
    missing = call(edge, "GET", "/v1/tables/no-such-table", key="k")
    assert missing.status == 404 and "no table with this id" in missing.problem()["detail"]
    assert call(edge, "GET", "/v1/games").status == 200
    near = call(edge, "GET", "/v1/tablesx")
    assert near.status == 404 and "no table" not in near.problem()["detail"]
    assert call(edge, "GET", "/metrics").status == 404
