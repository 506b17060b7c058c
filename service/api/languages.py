"""The language of an answer: the ``lang`` query parameter when sent, else the best of the
request's ``Accept-Language`` (with its quality values, werkzeug's negotiation), else English.
The access middleware (``service.api.observability``) chooses it once per request and says it in
``Content-Language``; what writes a message asks ``current()``."""

from __future__ import annotations

from flask import request

from service.i18n import DEFAULT
from service.negotiation import negotiated

LANG_KEY = "service.lang"
__all__ = ["LANG_KEY", "current", "negotiated"]


def current() -> str:
    """The language of the answer being written."""
    return request.environ.get(LANG_KEY, DEFAULT)  # type: ignore[no-any-return]
