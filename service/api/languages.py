"""The language of an answer: the ``lang`` query parameter when sent, else the best of the
request's ``Accept-Language`` (with its quality values, werkzeug's negotiation), else English.
The access middleware (``service.api.observability``) chooses it once per request and says it in
``Content-Language``; what writes a message asks ``current()``."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from flask import has_request_context, request

from service.i18n import DEFAULT
from service.negotiation import negotiated

LANG_KEY = "service.lang"
ENVIRON: ContextVar[dict[str, Any] | None] = ContextVar("service.environ", default=None)
"""The WSGI environ of the request being answered, set by the access middleware: read in 0.1 µs,
where Flask's ``request.environ`` (a context-local proxy) takes about 1 µs, and a move's events
ask for their language once or twice."""

__all__ = ["ACCEPT_LANGUAGE", "ACCEPT_LANGUAGE_PARAMETER", "ENVIRON", "LANG_KEY", "current", "negotiated"]

ACCEPT_LANGUAGE = "AcceptLanguage"
"""The header's component in the OpenAPI documents (the rules' and the table host's), declared
so that a typed client can send it."""
ACCEPT_LANGUAGE_PARAMETER = {
    "name": "Accept-Language", "in": "header", "required": False, "schema": {"type": "string"},
    "description": "The languages the reader prefers, with their quality values (`ru, en;q=0.5`): "
                   "the answer is in the best of English and Russian, English when it names neither. "
                   "A `lang` query parameter, where an operation takes one, overrides it. The answer "
                   "says its language in `Content-Language`."}


def current() -> str:
    """The language of the answer being written (what the table host left in the environ, when it
    chose the table's)."""
    environ = ENVIRON.get()
    if environ is None:  # outside the middleware: Flask's request, if any
        environ = request.environ if has_request_context() else {}
    return environ.get(LANG_KEY, DEFAULT)  # type: ignore[no-any-return]
