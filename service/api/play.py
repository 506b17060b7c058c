"""``/play``: the reference table in the browser (clients/web, built by ``make web`` into
``service/play``), served as static files under a strict Content-Security-Policy: its own script
and style only, no inline code, and requests to this service only. Not in the OpenAPI document:
it is a page, not an operation."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory
from werkzeug.exceptions import NotFound

BUILT = Path(__file__).resolve().parent.parent / "play"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache"}


def blueprint() -> Blueprint:
    bp = Blueprint("play", __name__)

    @bp.get("/play")
    def page() -> Response:
        return _served("index.html")

    @bp.get("/play/<path:name>")
    def asset(name: str) -> Response:
        return _served(name)

    return bp


def _served(name: str) -> Response:
    if not (BUILT / "index.html").is_file():
        raise NotFound("The table is not built here: `make web` builds it (`make run` does).")
    response = send_from_directory(BUILT, name)
    response.headers.update(HEADERS)
    return response
