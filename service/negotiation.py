"""The language of an answer, from a request's WSGI environ: the ``lang`` query parameter when
sent, else the best of its ``Accept-Language`` (with its quality values, werkzeug's negotiation),
else English. HTTP, but no Flask: gunicorn's workers ask it too, for the answers they write
themselves (so it is not in ``service.i18n``, which stands below the HTTP layer)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from service.i18n import DEFAULT, LANGUAGES


def negotiated(environ: Mapping[str, Any]) -> str | None:
    """The answer's language; None for a ``lang`` parameter that is not one of ours. A request
    that asks for none (no query, no header: every client of the rules' paths) costs two lookups."""
    query = environ.get("QUERY_STRING")
    if query and "lang=" in query:
        asked = parse_qs(query, keep_blank_values=True).get("lang")
        if asked:
            return asked[-1] if asked[-1] in LANGUAGES else None
    header = environ.get("HTTP_ACCEPT_LANGUAGE")
    return _best(header) if header else DEFAULT


@lru_cache(maxsize=256)
def _best(header: str) -> str:
    """A browser sends the same header with every request: each distinct one is parsed once
    (werkzeug's parse and match: 10-20 µs), a bounded number of them kept."""
    return parse_accept_header(header, LanguageAccept).best_match(LANGUAGES, default=DEFAULT)
