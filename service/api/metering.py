"""Each request counted (``service.metrics``): by the path it asked for, its status and its
time, and, for a refusal, why. The handlers leave the why in the WSGI environ (``refused``,
``illegal``); the access middleware (``service.api.observability``) calls ``Meter`` once a request
is answered. The counts reach prometheus-client (and a scrape) at most ``FLUSH_SECONDS`` late."""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from flask import Blueprint, Response, request
from prometheus_client import CONTENT_TYPE_LATEST

from service import metrics
from service.errors import ComputerBusy, LimitExceeded, ServiceError, TokenRefused

REFUSAL_KEY = "service.refusal"
ILLEGAL_KEY = "service.illegal"


class Route(NamedTuple):
    """The labels of a path: the game, the operation (``deal``, ``legal_moves``...) and the mode
    (``open``, ``sealed``; empty for paths of no game)."""

    game: str
    operation: str
    mode: str


OTHER = Route("", "other", "")
"""Any path the service does not serve (a 404): counted together, so that no client can add
label values."""


class Refusal(NamedTuple):
    type: str
    """The problem's type, its last part (``bad-token``), or ``about:blank``."""
    limit: str | None = None
    token: str | None = None
    """Why a sealed request's token or seat key was refused."""


def routes(game_ids: Iterable[str], operations: Iterable[tuple[str, str, str]]) -> dict[str, Route]:
    """Every path of the service with its labels; ``operations`` are (name, path, mode) of one
    game, the path under ``/v1/games/{game}``."""
    paths = {"/health": Route("", "health", ""), "/v1/games": Route("", "list_games", ""),
             "/metrics": Route("", "metrics", ""), "/openapi.json": Route("", "openapi", ""),
             "/docs": Route("", "docs", "")}
    listed = list(operations)
    for game in game_ids:
        paths[f"/v1/games/{game}"] = Route(game, "detail", "")
        for name, path, mode in listed:
            paths[f"/v1/games/{game}{path}"] = Route(game, name, mode)
    return paths


def refused(error: ServiceError) -> None:
    """Leave why this request is refused for its count."""
    limit = error.limit if isinstance(error, (LimitExceeded, ComputerBusy)) else None
    token = error.cause if isinstance(error, TokenRefused) else None
    request.environ[REFUSAL_KEY] = Refusal(error.slug, limit, token)


def illegal(reason: str) -> None:
    """Leave the reason code of a move the rules refused."""
    request.environ[ILLEGAL_KEY] = reason


FLUSH_SECONDS = 1.0
"""How late a count may reach prometheus-client: a worker's counts are handed over once a second
(and at a scrape, for the worker that answers it)."""


BOUNDS = (*metrics.LATENCY._upper_bounds,)
"""The latency's buckets, +Inf last, as ``Histogram.observe`` reads them."""


class Tally:
    """One (path, status)'s requests since the last flush, and their times by histogram bucket."""

    __slots__ = ("buckets", "count", "seconds")

    def __init__(self) -> None:
        self.count, self.seconds, self.buckets = 0, 0.0, [0] * len(BOUNDS)


class Meter:
    """Counts answered requests in the worker's memory, and hands them to prometheus-client at most
    once a second (``flush``). prometheus-client's multiprocess mode writes a memory-mapped file
    under a lock for every count: five writes a request (the in-flight gauge up and down, the
    count, the latency's sum and bucket) cost more than the rest of the metering; a flush writes
    each series once for all the requests since the last one. In process, the meter went from
    5.3-8.7 µs a request to 0.9-1.8; live, its A/B is within the noise of a shared machine
    (docs/performance.md, "The layers around the rules")."""

    def __init__(self, paths: Mapping[str, Route]) -> None:
        self.paths = paths
        self._lock, self._flushing = threading.Lock(), threading.Lock()
        self._tallies: dict[tuple[str, int], Tally] = {}
        self._counts: dict[tuple[Any, tuple[str, ...]], int] = {}
        self._in_flight = 0
        self._shown_in_flight: int | None = None
        _METERS.add(self)

    def started(self, environ: dict[str, Any]) -> None:
        if not _flusher.running:
            _flusher.start()
        with self._lock:
            self._in_flight += 1
        if environ.get("PATH_INFO") == "/metrics":  # a scrape shows this worker's counts as of now
            self.flush()

    def answered(self, environ: dict[str, Any], status: int, seconds: float) -> None:
        path = environ.get("PATH_INFO", "")
        key = (path if path in self.paths else "", status)
        with self._lock:
            self._in_flight -= 1
            tally = self._tallies.get(key)
            if tally is None:
                tally = self._tallies[key] = Tally()
            tally.count += 1
            tally.seconds += seconds
            tally.buckets[bisect_left(BOUNDS, seconds)] += 1
            if status >= 400:
                self._refusal(self.paths.get(path, OTHER), status, environ.get(REFUSAL_KEY))
            elif ILLEGAL_KEY in environ:
                self._count(metrics.ILLEGAL_MOVES, self.paths.get(path, OTHER).game, environ[ILLEGAL_KEY])
        if path == "/metrics":  # and leaves the scrape's own request in flight no longer
            self.flush()

    def _count(self, metric: Any, *labels: str) -> None:
        key = (metric, labels)
        self._counts[key] = self._counts.get(key, 0) + 1

    def _refusal(self, route: Route, status: int, refusal: Refusal | None) -> None:
        if refusal is None:  # werkzeug's or Flask's own: a 404, 405, 413...
            refusal = Refusal("about:blank", "MAX_BODY_BYTES" if status == 413 else None)
        self._count(metrics.PROBLEMS, *route, refusal.type)
        if refusal.limit:
            self._count(metrics.LIMIT_REFUSALS, refusal.limit)
        if refusal.token:
            self._count(metrics.TOKEN_REFUSALS, route.game, refusal.token)

    def flush(self) -> None:
        """Hand every count since the last flush to prometheus-client (one flush at a time: the
        flushing thread's and a scrape's, so that the in-flight gauge ends at the later count)."""
        with self._flushing:
            with self._lock:
                tallies, self._tallies = self._tallies, {}
                counts, self._counts = self._counts, {}
                in_flight = self._in_flight
            for (path, status), tally in tallies.items():
                route = self.paths.get(path, OTHER)
                metrics.REQUESTS.labels(*route, str(status)).inc(tally.count)
                observed(metrics.LATENCY.labels(*route), tally)
            for (metric, labels), count in counts.items():
                metric.labels(*labels).inc(count)
            if in_flight != self._shown_in_flight:
                metrics.IN_FLIGHT.set(in_flight)
                self._shown_in_flight = in_flight


def observed(histogram: Any, tally: Tally) -> None:
    """What ``histogram.observe`` would have written for each of the tally's times, written once."""
    histogram._sum.inc(tally.seconds)  # observe() has no form for many values: its own fields
    for bucket, count in zip(histogram._buckets, tally.buckets, strict=True):
        if count:
            bucket.inc(count)


_METERS: weakref.WeakSet[Meter] = weakref.WeakSet()


class _Flusher:
    """One thread a process that flushes every meter once a second, and once more at exit; started
    by the first request a process meters (a gunicorn worker forks from a master that has none)."""

    running = False

    def start(self) -> None:
        self.running = True
        threading.Thread(target=self._run, name="metrics-flush", daemon=True).start()

    def _run(self) -> None:
        while True:
            time.sleep(FLUSH_SECONDS)
            flush_all()


def flush_all() -> None:
    for meter in list(_METERS):
        meter.flush()


_flusher = _Flusher()
atexit.register(flush_all)
os.register_at_fork(after_in_child=lambda: setattr(_flusher, "running", False))


def blueprint() -> Blueprint:
    """``GET /metrics``: every count, in Prometheus's text format. Not part of the API: the proxy
    in front does not pass it (deploy/nginx.conf); Prometheus scrapes each instance itself."""
    bp = Blueprint("metrics", __name__)

    @bp.get("/metrics")
    def exposition() -> Response:
        return Response(metrics.exposition(), mimetype="text/plain", content_type=CONTENT_TYPE_LATEST)

    return bp
