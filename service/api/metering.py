"""Each request counted (``service.metrics``): by the path it asked for, its status and its
time, and, for a refusal, why. The handlers leave the why in the WSGI environ (``refused``,
``illegal``); the access middleware (``service.api.observability``) calls ``Meter`` once a request
is answered."""

from __future__ import annotations

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


class Meter:
    """Counts answered requests. The labelled children of the two counts every request makes
    are kept by path and status, so a request looks up one dict entry, not two label sets."""

    def __init__(self, paths: Mapping[str, Route]) -> None:
        self.paths = paths
        self.children: dict[tuple[str, int], tuple[Any, Any]] = {}

    def started(self) -> None:
        metrics.IN_FLIGHT.inc()

    def answered(self, environ: dict[str, Any], status: int, seconds: float) -> None:
        metrics.IN_FLIGHT.dec()
        path = environ.get("PATH_INFO", "")
        route = self.paths.get(path, OTHER)
        key = (path if route is not OTHER else "", status)
        counted = self.children.get(key)
        if counted is None:
            counted = self.children[key] = (metrics.REQUESTS.labels(*route, str(status)),
                                            metrics.LATENCY.labels(*route))
        counted[0].inc()
        counted[1].observe(seconds)
        if status >= 400:
            self._refusal(route, status, environ.get(REFUSAL_KEY))
        elif ILLEGAL_KEY in environ:
            metrics.ILLEGAL_MOVES.labels(route.game, environ[ILLEGAL_KEY]).inc()

    def _refusal(self, route: Route, status: int, refusal: Refusal | None) -> None:
        if refusal is None:  # werkzeug's or Flask's own: a 404, 405, 413...
            refusal = Refusal("about:blank", "MAX_BODY_BYTES" if status == 413 else None)
        metrics.PROBLEMS.labels(*route, refusal.type).inc()
        if refusal.limit:
            metrics.LIMIT_REFUSALS.labels(refusal.limit).inc()
        if refusal.token:
            metrics.TOKEN_REFUSALS.labels(route.game, refusal.token).inc()


def blueprint() -> Blueprint:
    """``GET /metrics``: every count, in Prometheus's text format. Not part of the API: the proxy
    in front does not pass it (deploy/nginx.conf); Prometheus scrapes each instance itself."""
    bp = Blueprint("metrics", __name__)

    @bp.get("/metrics")
    def exposition() -> Response:
        return Response(metrics.exposition(), mimetype="text/plain", content_type=CONTENT_TYPE_LATEST)

    return bp
