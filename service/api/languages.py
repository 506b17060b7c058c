"""The language of an answer: the ``lang`` query parameter when sent, else the best of the
request's ``Accept-Language`` (with its quality values, werkzeug's negotiation), else English.
The access middleware (``service.api.observability``) chooses it once per request and says it in
``Content-Language``; what writes a message asks ``current()``."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from flask import request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from service.i18n import DEFAULT, LANGUAGES

LANG_KEY = "service.lang"


def negotiated(environ: dict[str, Any]) -> str | None:
    """The answer's language; None for a ``lang`` parameter that is not one of ours."""
    query = environ.get("QUERY_STRING")
    if query and "lang=" in query:
        asked = parse_qs(query, keep_blank_values=True).get("lang")
        if asked:
            return asked[-1] if asked[-1] in LANGUAGES else None
    header = environ.get("HTTP_ACCEPT_LANGUAGE")
    if not header:
        return DEFAULT
    return parse_accept_header(header, LanguageAccept).best_match(LANGUAGES, default=DEFAULT)


def current() -> str:
    """The language of the answer being written."""
    return request.environ.get(LANG_KEY, DEFAULT)  # type: ignore[no-any-return]
