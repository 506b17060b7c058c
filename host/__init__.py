"""The table host: tables of several people, kept between their moves, each seat told its events
as they happen (README, "Tables for several people"). It plays the rules in process, through the
games' Python interface (``service.games``); the rules service itself keeps nothing.

``create_app`` is the host alone (its own deployment); ``create_site`` serves it and the rules
service from one origin, as ``make run`` does."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from host.app import create_app
from service import create_app as create_rules

StartResponse = Callable[..., Any]
Wsgi = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
PREFIX = "/v1/tables"

__all__ = ["create_app", "create_site"]


def create_site() -> Wsgi:
    """The rules service with the host at ``/v1/tables``, on one origin."""
    rules, tables = create_rules(), create_app()

    def site(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        if path == PREFIX or path.startswith(PREFIX + "/"):
            return tables(environ, start_response)
        return rules(environ, start_response)

    return site
