"""The edge, against real processes: what gunicorn (the Dockerfile's command, TIMEOUT=2) and nginx
(deploy/nginx.conf, only its placeholders filled) answer themselves. Every refusal either makes
is a problem document whose ``status`` is the HTTP status.

nginx limits each client address but not 127.0.0.1 (the health check; `make soak`'s load), so
the limited clients here connect from other loopback addresses, a test each: each address has
buckets of its own.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from tests.live import free_port, gunicorn, nginx

pytestmark = pytest.mark.xdist_group("live")

TIMEOUT = 2  # gunicorn's worker timeout here, seconds
BURST, CONNECTIONS = 40, 32  # deploy/nginx.conf's limits per address (and 20 requests a second)
CUT_OFF = 10  # deploy/nginx.conf's client_header_timeout and client_body_timeout, seconds
PROBLEM = "application/problem+json"
DEAL = "/v1/games/sixty-six/deal"
REQUEST_LINE_TOO_LONG = b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: edge\r\n\r\n"
HEADER_TOO_LARGE = b"GET /health HTTP/1.1\r\nHost: edge\r\nX-Long: " + b"y" * 9000 + b"\r\n\r\n"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes

    def problem(self) -> dict:
        """The problem document, checked: its media type, and its status the HTTP status."""
        assert self.headers.get("content-type") == PROBLEM, self
        document = json.loads(self.body)
        assert document["status"] == self.status, self
        assert document["title"] and document["detail"], self
        return document


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def raw(url: str, data: bytes, *, source: str = "127.0.0.1", timeout: float = 10) -> Answer:
    """``data`` sent as it is; the answer read whole (by its Content-Length: after a refused
    body nginx keeps the connection open a while to read what the client still sends)."""
    with socket.create_connection(_address(url), timeout=timeout, source_address=(source, 0)) as sock:
        sock.sendall(data)
        received = b""
        while b"\r\n\r\n" not in received or len(received.partition(b"\r\n\r\n")[2]) < _length(received):
            chunk = sock.recv(65536)
            assert chunk, f"closed before a whole answer: {received!r}"
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return Answer(int(status_line.split()[1]), headers, body)


def _length(received: bytes) -> int:
    for line in received.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


@contextmanager
def connection(url: str, source: str) -> Iterator[http.client.HTTPConnection]:
    """A keep-alive connection from ``source``, a loopback address."""
    host, port = _address(url)
    conn = http.client.HTTPConnection(host, port, timeout=10, source_address=(source, 0))
    try:
        yield conn
    finally:
        conn.close()


def request(conn: http.client.HTTPConnection, path: str = "/health", body: bytes | None = None) -> Answer:
    conn.request("POST" if body else "GET", path, body, {"Content-Type": "application/json"} if body else {})
    answer = conn.getresponse()
    return Answer(answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read())


def stalled_body(url: str, source: str, lang: str = "en") -> socket.socket:
    """A request whose headers are whole and whose body stops after 7 of its 100 bytes."""
    sock = socket.create_connection(_address(url), timeout=10, source_address=(source, 0))
    sock.sendall(b"POST " + DEAL.encode() + b" HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\n"
                 b"Accept-Language: " + lang.encode() + b"\r\nContent-Length: 100\r\n\r\n" + b'{"seed"')
    return sock


def _end(sock: socket.socket, wait: float) -> str:
    """How the connection stands after at most ``wait`` seconds: "reset" (nginx's way of ending a
    timed-out connection), "closed", "answered ..." or "still open"."""
    sock.settimeout(wait)
    try:
        received = sock.recv(65536)
    except (TimeoutError, BlockingIOError):
        return "still open"
    except OSError:
        return "reset"
    return f"answered {received[:60]!r}" if received else "closed"


# --- the processes ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    with gunicorn(TIMEOUT=str(TIMEOUT)) as url:
        yield url


# --- gunicorn alone ---------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "detail"), [
    ("en", f"the request took longer than the worker timeout ({TIMEOUT} s)"),
    ("ru", f"запрос шёл дольше тайм-аута обработчика ({TIMEOUT} с)"),
])
def test_a_worker_past_its_timeout_answers_a_503_problem(service, lang, detail):
    """The arbiter aborts the worker blocked on a body that never comes; the worker answers a
    problem (gunicorn's own answer was an HTML 500) in the language asked for, and a new worker
    serves on."""
    start = time.monotonic()
    with stalled_body(service, "127.0.0.1", lang) as sock:
        sock.settimeout(TIMEOUT + 8)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    waited = time.monotonic() - start
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 "), received
    assert b"\r\nContent-Type: application/problem+json\r\n" in head + b"\r\n", received
    document = json.loads(body)
    assert document["status"] == 503
    assert document["detail"] == detail and f"\r\nContent-Language: {lang}\r\n".encode() in head + b"\r\n"
    assert TIMEOUT <= waited < TIMEOUT + 4
    with connection(service, "127.0.0.1") as conn:
        assert request(conn).status == 200


@pytest.mark.parametrize(("sent", "status"), [
    (b"GARBAGE\r\n\r\n", 400),
    (REQUEST_LINE_TOO_LONG, 414),
    (HEADER_TOO_LARGE, 431),
    (b"GET /health HTTP/1.1\r\nHost: edge\r\n" + b"X-Many: 1\r\n" * 120 + b"\r\n", 431),
], ids=["bad request line", "request line too long", "header too large", "too many headers"])
def test_gunicorns_own_refusals_are_problems(service, sent, status):
    assert raw(service, sent).problem()["status"] == status


def test_the_gthread_worker_answers_problems_too():
    with gunicorn(WORKER_CLASS="gthread", THREADS="2") as url:
        assert raw(url, b"GARBAGE\r\n\r\n").problem()["status"] == 400
        with connection(url, "127.0.0.1") as conn:
            assert request(conn).status == 200


# --- nginx in front ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def edge(service) -> Iterator[str]:
    with nginx(service.removeprefix("http://")) as url:
        yield url


NGINX_REFUSALS = {
    "bad request line": (b"GARBAGE\r\n\r\n", 400),
    "no Host": (b"GET /health HTTP/1.1\r\n\r\n", 400),
    "its own error page's path": (b"GET /.problem HTTP/1.1\r\nHost: edge\r\nConnection: close\r\n\r\n", 404),
    "body over 1 MiB": (b"POST /v1/games/sixty-six/deal HTTP/1.1\r\nHost: edge\r\n"
                        b"Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n", 413),
    "request line too long": (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: edge\r\n\r\n", 414),
    "header too large": (HEADER_TOO_LARGE, 431),
    "unknown transfer coding": (b"POST /v1/games/sixty-six/deal HTTP/1.1\r\nHost: edge\r\n"
                                b"Transfer-Encoding: gzip\r\n\r\n", 501),
    "HTTP/2.0 request line": (b"GET /health HTTP/2.0\r\nHost: edge\r\n\r\n", 505),
}


@pytest.mark.parametrize(("sent", "status"), NGINX_REFUSALS.values(), ids=NGINX_REFUSALS.keys())
def test_nginxs_own_refusals_are_problems(edge, sent, status):
    """Refused before the service is asked; nginx sends no 408 at all (see the last test)."""
    assert raw(edge, sent, source="127.0.0.5").problem()["status"] == status


def test_the_services_own_problems_pass_through_unchanged(edge):
    """nginx does not put its pages over the service's errors (no proxy_intercept_errors), so
    the service's problems, a timed-out worker's 503 among them, reach the client as they are."""
    with connection(edge, "127.0.0.5") as conn:
        unknown = request(conn, "/v1/games/whist/deal", b"{}")
        assert unknown.status == 404 and "sixty-six" in unknown.problem()["detail"]
        malformed = request(conn, DEAL, b"{")
        assert malformed.status == 400 and malformed.problem()["title"] == "Malformed JSON"


def test_a_service_that_is_down_is_a_502_problem():
    with nginx(f"127.0.0.1:{free_port()}") as url:  # nothing listens there
        answer = raw(url, b"GET /health HTTP/1.1\r\nHost: edge\r\nConnection: close\r\n\r\n")
    assert answer.problem()["status"] == 502
    assert answer.headers["retry-after"] == "1"


def test_a_service_that_does_not_accept_is_a_504_problem_after_the_2_s_connect_timeout():
    """A listen queue that stays full (an overloaded service's): the connection is never made."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        upstream = f"127.0.0.1:{listener.getsockname()[1]}"
        with socket.create_connection(listener.getsockname()), nginx(upstream) as url:  # fills the queue
            start = time.monotonic()
            answer = raw(url, b"GET /health HTTP/1.1\r\nHost: edge\r\nConnection: close\r\n\r\n")
            waited = time.monotonic() - start
    assert answer.problem()["status"] == 504
    assert answer.headers["retry-after"] == "1"
    assert 2 <= waited < 4


def test_one_address_flooding_gets_429_problems_past_its_burst(edge):
    with connection(edge, "127.0.0.2") as conn:
        answers = [request(conn) for _ in range(80)]
        statuses = [a.status for a in answers]
        assert statuses[:BURST + 1] == [200] * (BURST + 1), statuses
        refused = [a for a in answers if a.status == 429]
        assert len(refused) >= 10 and set(statuses) == {200, 429}, statuses
        for answer in refused:
            assert answer.problem()["title"] == "Too Many Requests"
            assert answer.headers["retry-after"] == "1"
        time.sleep(1)  # what Retry-After says: by then the bucket has given back 20 requests
        assert [request(conn).status for _ in range(15)] == [200] * 15


def test_one_address_with_too_many_requests_in_progress_gets_a_429_problem(edge):
    """Requests whose bodies are still arriving count; the next one past the limit is refused,
    and one fewer in progress lets it through."""
    held = [stalled_body(edge, "127.0.0.3") for _ in range(CONNECTIONS)]
    try:
        time.sleep(0.3)  # nginx reads every header
        with connection(edge, "127.0.0.3") as conn:
            deadline = time.monotonic() + 3
            while (answer := request(conn)).status == 200 and time.monotonic() < deadline:
                time.sleep(0.1)  # a header nginx had not read yet
            assert answer.status == 429 and answer.headers["retry-after"] == "1"
            assert answer.problem()["title"] == "Too Many Requests"
        assert all(_end(sock, 0) == "still open" for sock in held)  # the first 32 were let in
        held.pop().close()
        time.sleep(0.3)
        with connection(edge, "127.0.0.3") as conn:
            assert request(conn).status == 200
    finally:
        for sock in held:
            sock.close()


def test_normal_play_never_meets_the_limits(edge):
    """One address (a front end, or players behind one NAT) with six busy tables: each opens with
    four requests at once (a deal and the seats' views), then makes 2.5 a second, 15 a second in
    all."""
    answers: list[int] = []

    def table(number: int) -> None:
        with connection(edge, "127.0.0.4") as conn:
            body = json.dumps({"seed": f"table {number}"}).encode()
            answers.extend(request(conn, DEAL, body).status for _ in range(4))
            for _ in range(4):
                time.sleep(0.4)
                answers.append(request(conn, DEAL, body).status)

    tables = [threading.Thread(target=table, args=(n,)) for n in range(6)]
    for thread in tables:
        thread.start()
    for thread in tables:
        thread.join()
    assert answers == [200] * 48


def test_loopback_is_not_limited(edge):
    """127.0.0.1 is the container's own health check, and `make soak`'s load."""
    with connection(edge, "127.0.0.1") as conn:
        assert {request(conn).status for _ in range(100)} == {200}


# --- slow clients -----------------------------------------------------------------------------

def _trickled_headers(url: str) -> tuple[float, str]:
    """Headers a byte every half second (they would take a minute)."""
    start = time.monotonic()
    with socket.create_connection(_address(url), source_address=("127.0.0.6", 0)) as sock:
        for byte in b"GET /health HTTP/1.1\r\nHost: edge\r\nX-Slow: " + b"s" * 100:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                return time.monotonic() - start, "reset"
            if (end := _end(sock, 0.5)) != "still open":
                return time.monotonic() - start, end
    return time.monotonic() - start, "still open"


def _stalled_body(url: str) -> tuple[float, str]:
    start = time.monotonic()
    with stalled_body(url, "127.0.0.7") as sock:
        end = _end(sock, CUT_OFF + 5)
    return time.monotonic() - start, end


def _trickled_body(url: str) -> tuple[float, str]:
    """A body a byte every half second, for longer than the cut-off."""
    start = time.monotonic()
    with stalled_body(url, "127.0.0.8") as sock:
        while time.monotonic() - start < CUT_OFF + 0.5:
            time.sleep(0.5)
            sock.sendall(b" ")
        return time.monotonic() - start, _end(sock, 0.2)


def test_slow_clients_are_reset_after_10_s_without_an_answer_but_a_trickled_body_is_not(edge):
    """Headers must be whole within 10 s and a body may pause 10 s at most; nginx then resets the
    connection and sends nothing (no 408). A body that never pauses that long is not cut off:
    nginx has no timer on a body's whole time (why that is harmless: README, "Run in production")."""
    with ThreadPoolExecutor(3) as pool:
        outcomes = [pool.submit(slow, edge) for slow in (_trickled_headers, _stalled_body, _trickled_body)]
        (headers, headers_end), (stalled, stalled_end), (trickled, trickled_end) = (
            outcome.result(timeout=30) for outcome in outcomes)
    assert headers_end == "reset" and CUT_OFF - 0.5 <= headers < CUT_OFF + 1.5, (headers, headers_end)
    assert stalled_end == "reset" and CUT_OFF - 0.5 <= stalled < CUT_OFF + 1.5, (stalled, stalled_end)
    assert trickled_end == "still open" and trickled >= CUT_OFF + 0.5, (trickled, trickled_end)
