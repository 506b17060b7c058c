"""The computer player's own limits at the edge, against real processes: deploy/nginx.conf (only
its placeholders filled) in front of the Dockerfile's gunicorn command. Every path that runs the
computer player (suggest, sealed/suggest, sealed/computer-move) gets 2 requests a second per
client address, up to 4 more waiting their turn (paced, not refused), and one in progress at a
time, on top of the general limits; past them, 429 problems with ``Retry-After: 1``. The rules'
other paths from the same address are not slowed.

The limited clients connect from loopback addresses other than 127.0.0.1 (which nginx exempts),
an address per test: each has buckets of its own. The searches are cheap (one sample, or a body
the service refuses at once): what is measured is nginx's pacing and refusals, not the search.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.live import gunicorn, nginx
from tests.test_edge import Answer, connection, request

pytestmark = pytest.mark.xdist_group("live")

RATE = 2  # deploy/nginx.conf's computer_requests_per_address: requests a second
BURST = 4  # requests past the rate that wait their turn rather than being refused
GAP = 1 / RATE  # seconds between two computer requests let through from one address
SLACK = 0.1  # seconds of margin on every time measured: timers, threads, a busy machine
SUGGEST = "/v1/games/sixty-six/suggest"
COMPUTER_PATHS = [f"/v1/games/{game}/{path}" for game, path in [
    ("sixty-six", "suggest"), ("bura", "sealed/suggest"), ("canasta", "sealed/computer-move")]]


@pytest.fixture(scope="module")
def edge() -> Iterator[str]:
    # Two search slots, so that the instance's own cap on searches at once (SEARCH_SLOTS) never
    # answers for nginx's limits here.
    with gunicorn(SEARCH_SLOTS="2") as service, nginx(service.removeprefix("http://")) as url:
        yield url


@pytest.fixture(scope="module")
def suggestion(edge) -> bytes:
    """A valid suggest body for the seat to move, one sample: a few ms of a worker."""
    with connection(edge, "127.0.0.1") as conn:
        dealt = request(conn, "/v1/games/sixty-six/deal", b'{"seed": "computer edge"}')
    assert dealt.status == 200, dealt
    state = json.loads(dealt.body)["state"]
    body = json.dumps({"state": state, "seat": state["to_move"], "samples": 1}).encode()
    with connection(edge, "127.0.0.1") as conn:  # both workers' first suggest, out of the way
        for _ in range(4):
            assert request(conn, SUGGEST, body).status == 200
    return body


def timed(url: str, source: str, path: str, body: bytes, start: float) -> tuple[Answer, float]:
    """One request on a connection of its own; the answer, and when it came (since ``start``)."""
    with connection(url, source) as conn:
        answer = request(conn, path, body)
    return answer, time.monotonic() - start


def refused(answer: Answer) -> bool:
    if answer.status != 429:
        return False
    assert answer.problem()["title"] == "Too Many Requests"
    assert answer.headers["retry-after"] == "1"
    return True


def test_a_burst_is_paced_one_at_a_time_and_its_excess_refused(edge, suggestion):
    """Ten computer requests at once from one address: one answered at once, four let through one
    every 0.5 s, never two at a time, and five refused at once; meanwhile the same address's other
    requests are answered as usual."""
    source, sent = "127.0.0.2", 10
    start = time.monotonic()
    with ThreadPoolExecutor(sent) as pool:
        burst = [pool.submit(timed, edge, source, SUGGEST, suggestion, start) for _ in range(sent)]
        time.sleep(0.2)  # the burst is in: the first answered, the next four waiting in nginx
        with connection(edge, source) as conn:
            others = []
            for path, body in [("/health", None)] * 10 + [("/v1/games/sixty-six/deal", b"{}")] * 5:
                began = time.monotonic()
                others.append((request(conn, path, body).status, time.monotonic() - began))
        answers = [outcome.result(timeout=10) for outcome in burst]
    assert [status for status, _ in others] == [200] * 15, others
    assert max(took for _, took in others) < GAP - 2 * SLACK, others  # not kept waiting

    let_through = sorted(when for answer, when in answers if answer.status == 200)
    turned_away = [when for answer, when in answers if refused(answer)]
    assert (len(let_through), len(turned_away)) == (1 + BURST, sent - 1 - BURST), answers
    assert max(turned_away) < 0.2, turned_away  # refused at once, not after waiting
    # One let through every 0.5 s, each answered (in a few ms) before the next is let through.
    for turn, when in enumerate(let_through):
        assert turn * GAP - SLACK <= when < (turn + 1) * GAP, let_through
    for answer, _ in answers:
        if answer.status == 200:
            assert "move" in json.loads(answer.body), answer


def stalled_suggest(url: str, source: str) -> socket.socket:
    """A suggest whose headers are whole and whose body stops after 7 of its 100 bytes: a
    request in progress for as long as the test holds it."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0))
    sock.sendall(f"POST {SUGGEST} HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\n"
                 f"Content-Length: 100\r\n\r\n".encode() + b'{"seed"')
    return sock


def test_one_computer_request_in_progress_per_address(edge, suggestion):
    """While one computer request from an address is in progress, its next one is refused at once,
    though the rate would let it through; the address's other requests, and another address's
    computer requests, are not."""
    held = stalled_suggest(edge, "127.0.0.3")
    try:
        time.sleep(GAP + SLACK)  # the rate's bucket is empty again: only the one in progress counts
        with connection(edge, "127.0.0.3") as conn:
            assert refused(request(conn, SUGGEST, suggestion))
            assert request(conn, "/v1/games/sixty-six/deal", b"{}").status == 200
        with connection(edge, "127.0.0.4") as conn:
            assert request(conn, SUGGEST, suggestion).status == 200
    finally:
        held.close()
    time.sleep(0.3)  # nginx sees the connection closed, and the request over
    with connection(edge, "127.0.0.3") as conn:
        assert request(conn, SUGGEST, suggestion).status == 200


def paced(url: str, source: str, path: str) -> list[float]:
    """Two requests for ``path`` sent at once from ``source``, with bodies the service refuses at
    once (no search runs): when each was answered, the sooner first."""
    start = time.monotonic()
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: timed(url, source, path, b"{}", start), range(2)))
    assert answers[0][0].status == answers[1][0].status != 429, (path, answers)
    return sorted(when for _, when in answers)


PACED = [
    *[(path, True) for path in COMPUTER_PATHS],
    # nginx matches the path once percent-decoded and with its slashes merged: no way around.
    ("/v1/games/sixty-six/sugg%65st", True),
    ("/v1/games/kozel//sealed/computer-move", True),
    # The rules' other paths, and near misses, keep the general limits only.
    ("/v1/games/sixty-six/legal-moves", False),
    ("/v1/games/sixty-six/sealed/validate", False),
    ("/v1/games/sixty-six/suggest/", False),
    ("/v1/games/sixty-six/suggestions", False),
    ("/v1/games/sixty-six/sealed/computer-moves", False),
    ("/v1/games/suggest", False),
]


@pytest.mark.parametrize(("index", "path", "computer"), [(i, *case) for i, case in enumerate(PACED)],
                         ids=[path for path, _ in PACED])
def test_only_the_computer_players_paths_are_paced(edge, index, path, computer):
    first, second = paced(edge, f"127.0.1.{index + 2}", path)  # an address of its own per path
    assert first < GAP - 2 * SLACK, (first, second)
    if computer:  # the second waits in nginx: 2 a second
        assert GAP - SLACK <= second < 2 * GAP - SLACK, (first, second)
    else:
        assert second < GAP - 2 * SLACK, (first, second)


def test_loopback_is_not_limited_on_the_computer_paths_either(edge, suggestion):
    """127.0.0.1 (the health check; `make soak`'s load) has no computer limits: neither paced nor
    refused, even several at once."""
    start = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: timed(edge, "127.0.0.1", SUGGEST, suggestion, start), range(8)))
    assert [answer.status for answer, _ in answers] == [200] * 8
    assert max(when for _, when in answers) < GAP - SLACK, answers
