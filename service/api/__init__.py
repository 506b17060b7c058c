"""The HTTP layer: the flask-smorest ``Api`` with problem-details errors, and the registration
of every game's paths."""

from __future__ import annotations

import http
import logging
from collections.abc import Mapping
from typing import Any

import flask_smorest
from flask import Flask
from flask_smorest.utils import prepare_response

from service.api import docs, limits, metering, observability, openapi, play, problems
from service.api.languages import ACCEPT_LANGUAGE, ACCEPT_LANGUAGE_PARAMETER
from service.api.limits import SearchLimits
from service.api.parsing import CompiledParser, CompiledValidators
from service.api.routes import LANG, LANG_PARAMETER, game_blueprint, meta_blueprint, metered_routes
from service.api.schemas import GameDetail, Problem
from service.config import Settings
from service.games.base import Game
from service.replay import guard
from service.sealing import Keyring, StateKey
from service.version import VERSION

DESCRIPTION = """\
Exact rules of Russian and German card games, as a stateless service: deal a hand, validate a
move and get the next state, list the legal moves, show a seat's view, score a finished hand and
the match. The client keeps the state and sends it with every request; the server checks it for
consistency before any rule runs.

Conventions: card codes are rank then suit (`AS`, `10H`, `QC`; `JK` a joker). Seats are numbered
from 0 clockwise. A move names its cards in `cards`, always a list. An illegal move is an answer
(200, `legal: false`, with a reason code), not an error. Unknown move types are schema errors
(422 naming `/move/type`), since each game lists its move types as a closed `oneOf`. Every error
is `application/problem+json` with JSON pointers into the request body. Derived state fields
(status, card points, tricks played, result...) may be left out of a state; when sent they must
agree with the cards.

Duplicate keys in a JSON body: the last one wins, as in most JSON parsers. Refusing them would
take a second, Python-level parse (about 9 µs a request, measured on Bura states), so they are not
refused; a proxy or firewall that reads the first of two keys sees another request than the
service. Texts that quote the request (a detail, a pointer, a message) are cut at 300 characters,
and the cut is marked. Answers that gunicorn gives itself (a request line or headers it cannot
parse: 400, 414, 431, 501; a request past the worker timeout: 503) are problem documents too.

Every answer is bounded: a listing holds at most `MAX_LISTING` entries and a body at most
`MAX_ANSWER_BYTES` bytes (README, "Configuration"); past them the answer is a 422 problem of type
`urn:card-rules:problem:limit-exceeded` whose `limit` names the setting and its value. The rules keep
every listing of a legal position far below both.

What changed in each version (`info.version`): CHANGELOG.md, beside the service's README.
"""


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint; its parser is replaced per game with the compiled one."""


class Api(flask_smorest.Api):
    DEFAULT_ERROR_RESPONSE_NAME = None
    ERROR_SCHEMA = Problem

    def _register_error_handlers(self) -> None:
        problems.register(self._app)

    def _register_responses(self) -> None:
        """Error responses documented as problem details, not flask-smorest's own error body."""
        for status in http.HTTPStatus:
            if status < 400:
                continue
            response: dict[str, Any] = {"description": status.phrase, "schema": Problem}
            prepare_response(response, self.spec, problems.PROBLEM_TYPE)
            self.spec.components.response(status.name, response, lazy=True)


def init_api(app: Flask, settings: Settings, games: Mapping[str, Game[Any, Any]]) -> Api:
    keys = settings.state_keys
    if not keys:
        keys = (StateKey.generate("dev"),)
        logging.getLogger("service").warning(
            "STATE_KEYS is not set: sealed tokens use a key made for this start, which no other "
            "deployment holds and no restart keeps (README, \"Sealed mode\")")
    keyring = Keyring(keys)
    app.config.update(
        API_TITLE="Card rules service",
        API_VERSION=VERSION,
        OPENAPI_VERSION="3.1.0",
        API_SPEC_OPTIONS={"info": {"description": DESCRIPTION}},
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        GAME_IDS=tuple(games),
    )
    plugins = [openapi.SchemaKeywords(), openapi.AcceptLanguage(beside=LANG)]
    api = Api(app, spec_kwargs={"extra_plugins": plugins})
    api.spec.components.parameter(LANG, "query", {"name": "lang", **LANG_PARAMETER})
    api.spec.components.parameter(ACCEPT_LANGUAGE, "header", ACCEPT_LANGUAGE_PARAMETER)
    api.spec.components.schema("GameDetail", schema=GameDetail)  # any game's; each path has its own
    openapi.install(api.ma_plugin)
    observability.install(app, settings, metering.Meter(metered_routes(tuple(games))))
    limits.install(app, settings)
    validators = CompiledValidators(lambda: api.spec.to_dict()["components"]["schemas"])
    parser = CompiledParser(validators, max_bytes=settings.max_body_bytes)
    api.register_blueprint(meta_blueprint(Blueprint, games))
    replay = guard(settings.replay_store, keep_s=settings.replay_keep_seconds,
                   timeout_s=settings.replay_store_timeout_ms / 1000,
                   refuse_when_down=settings.replay_store_down == "refuse")
    search = SearchLimits(settings)  # one set of slots for every game's searches
    for game in games.values():
        api.register_blueprint(game_blueprint(Blueprint, game, parser, keyring, settings, replay, search))
    openapi.former_names(api.spec, [game.schemas.prefix for game in games.values()])
    app.register_blueprint(docs.blueprint(api.spec.to_dict))
    app.register_blueprint(metering.blueprint())
    app.register_blueprint(play.blueprint())
    parser.compile_expected()  # before gunicorn forks its workers (preload_app)
    return api
