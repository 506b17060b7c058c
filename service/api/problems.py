"""Every error answer is an RFC 9457 problem document (``application/problem+json``)."""

from __future__ import annotations

import logging

import orjson
from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException, InternalServerError

from service.api import metering
from service.api.languages import current as current_language
from service.api.observability import request_id as current_request_id
from service.errors import FieldError, LimitExceeded, ServiceError, UnknownGame
from service.i18n import DEFAULT, N_, Message, translate, written

PROBLEM_TYPE = "application/problem+json"
MAX_TEXT = 300
"""Characters of a detail, pointer or message at most: they may quote what the client sent (an
unknown field's name, a value), and an answer must not grow with the attack."""
log = logging.getLogger("service")


CUT = N_("… (cut: {count} characters in all)")


def bounded(text: str, lang: str = DEFAULT) -> str:
    """``text``, cut short (and saying so, in ``lang``) past ``MAX_TEXT`` characters."""
    if len(text) <= MAX_TEXT:
        return text
    return text[:MAX_TEXT] + translate(CUT, lang).format(count=len(text))


def problem(
    status: int,
    title: str,
    detail: Message,
    says: str,
    *,
    slug: str | None = None,
    errors: tuple[FieldError, ...] = (),
    limit: dict[str, object] | None = None,
) -> Response:
    """The problem document, its title, detail and messages in the answer's language."""
    lang = current_language()
    body: dict[str, object] = {
        "type": f"urn:card-rules:problem:{slug}" if slug else "about:blank",
        "title": translate(title, lang),
        "status": status,
        "detail": bounded(written(detail, lang), lang),
        "message": translate(says, lang),
    }
    if errors:
        body["errors"] = [{"pointer": bounded(e.pointer, lang),
                           "message": bounded(written(e.message, lang), lang)} for e in errors]
    if limit is not None:
        body["limit"] = limit
    request_id = current_request_id()
    if request_id:
        body["request_id"] = request_id
    return Response(orjson.dumps(body), status=status, mimetype=PROBLEM_TYPE)


def service_problem(error: ServiceError) -> Response:
    """The problem document of one of the service's errors (a 503 with ``Retry-After``: it is
    the store's, and passes)."""
    metering.refused(error)
    limit = {"name": error.limit, "value": error.value} if isinstance(error, LimitExceeded) else None
    response = problem(error.status, error.title, error.detail, error.says, slug=error.slug,
                       errors=error.errors, limit=limit)
    if error.status == 503:
        response.headers["Retry-After"] = "1"
    return response


HTTP_TEXTS = {
    400: (N_("Bad Request"), N_("The request cannot be read."), N_("The request could not be read.")),
    404: (N_("Not Found"), N_("There is nothing at this path: the paths are listed in /openapi.json."),
          N_("There is nothing here.")),
    405: (N_("Method Not Allowed"),
          N_("This path does not take this method: the methods it takes are in Allow."),
          N_("The request could not be read.")),
    413: (N_("Request Entity Too Large"), N_("The body is larger than this server takes."),
          N_("The request is too long.")),
    500: (N_("Internal Server Error"), N_("The service failed to answer the request."),
          N_("Something went wrong on the server: try again.")),
}
"""The title, detail and player's sentence of each HTTP error the service answers by itself
(werkzeug's English stands for any other's title and detail)."""


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    if status == 404 and (unknown := _unknown_game()) is not None:
        return service_problem(unknown)
    fallback = HTTP_TEXTS[400 if status < 500 else 500][2]
    title, detail, says = HTTP_TEXTS.get(status, (error.name, error.description or error.name, fallback))
    response = problem(status, title, detail, says)
    for name, value in error.get_headers():  # keeps Allow on 405
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def _unknown_game() -> UnknownGame | None:
    """A 404 under /v1/games/ for a game id the service does not know lists the ones it does."""
    parts = request.path.split("/")
    known: tuple[str, ...] = current_app.config.get("GAME_IDS", ())
    if len(parts) < 4 or parts[1:3] != ["v1", "games"] or parts[3] in known:
        return None
    return UnknownGame("there is no game '{game}'; the games are: {games}", game=parts[3],
                       games=", ".join(known))


def _unexpected(error: Exception) -> Response:
    log.exception("unhandled error", exc_info=error)
    return _http_error(InternalServerError())


def register(app: Flask) -> None:
    app.register_error_handler(ServiceError, service_problem)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
