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
from service.api.limits import SearchLimits
from service.api.parsing import CompiledParser, CompiledValidators
from service.api.routes import LANG, LANG_PARAMETER, game_blueprint, meta_blueprint, metered_routes
from service.api.schemas import Problem
from service.config import Settings
from service.games.base import Game
from service.replay import guard
from service.sealing import Keyring, StateKey

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

Changes in 1.1: `GET /v1/games/{game}` gives `card_values` by card code (`"AS": 11`), no longer by rank
(`"A": 11`), so that every card can have its own value.

Changes in 1.2: Bezique and Canasta; `GET /v1/games/{game}` also gives `deck_cards`, the deck with every card
as often as it is in it (a multi-pack game repeats codes).

Changes in 1.3: sealed mode (README, "Sealed mode"): `deal` with `sealed: true` answers an opaque
`token` and one `seat_keys` entry per seat; `validate`, `legal-moves`, `view` and `score` take a
`token` in place of the `state`, and `validate`, `legal-moves` and `view` a `seat_key`, and answer
what that seat may see. A wrong seat key (or none on a move) is a 403 problem, a token that cannot
be opened a 422 naming `/token`. An open `seed` may be 256 characters long.

Changes in 1.4: `legal-moves` of Bezique and Canasta also answers `families`: moves too many to
list one by one (a Bezique declaration with many ways to fill it, Canasta's multi-group first melds
of a large hand), each described once by the choices it leaves open (the game's rules file, §4.6
and §4.13); it is empty in the positions of ordinary play. Answers past a limit are a 422
`limit-exceeded` problem.

Changes in 2.0 (breaking; README, "What changed in 2.0"):
- Sealed mode has paths of its own, `/v1/games/{game}/sealed/deal|validate|legal-moves|view|events|...`,
  each with one request and one answer schema; the open paths no longer take `sealed`, `token`,
  `seat_key` or `match_token`, and answer one shape each (validate: a union on `legal`).
- Answer schemas are apart from request schemas: every field the server always sends is required in
  them. Where they differ, the answer form has the plain name (`SixtySixState`) and the request form
  is `...In` (`SixtySixStateIn`); every answer may be sent back as it came.
- A seat's view (`view`, `sealed/view`) and a spectator's (`spectator-view`, `sealed/spectator-view`)
  have operations of their own, so that a seat's `hand` is never null.
- Events are a union on `type` (`SixtySixEvent`), each type with its own fields, and every card that
  enters or leaves a hand is an event. `sealed/events` gives a seat (or a spectator) the events of
  every move since the one it names; a sealed validate also answers `public_events`.
- A token is of format 2, data and not a pickle: a token of format 1 is refused (422 at `/token`);
  a token sealed before a release adds a field or an option opens after it.
- A sealed score also answers `record` (the state dealt and every move), which `score` checks.
- An open score always answers the final `state`, and takes a `state` or a `record` in one schema.

Changes in 2.1: the computer player, `suggest` and `sealed/suggest` (README, "Computer player"): a move
for one seat, chosen only from what that seat may see, within a time budget (`budget_ms`, at most the
server's `SUGGEST_MAX_BUDGET_MS`) or a sample count, with each weighed move's value. A seat with no
move to make is a 422 problem of type `no-move`.

Changes in 2.2: the replay guard (README, "Run at scale"), when the server runs one: a sealed
`validate` on a token older than its hand's latest is a 409 problem of type `replayed` naming
`/token` (the same move sent again on the same token is answered again, so a retry is safe), and a
503 of type `replay-store-down`, with `Retry-After`, when the guard's store does not answer.
Languages (README, "Languages"): what a person reads (refusal messages, rule citations, problem
titles and details, field messages, the game's texts, card names) is English or Russian,
negotiated from `Accept-Language` or set by the `lang` query parameter, and said in
`Content-Language`; codes, pointers and card codes never change. A message names its cards ("the
ace of spades is not in seat 1's hand") where it gave their codes before. `GET /v1/games/{game}`
also answers `card_names` and `descriptions` (what each option, choice, move and event means).

Changes in 2.3: a person's table against the computer player (README, "A table against the
computer"): `sealed/deal-against-computer` answers the person's seat key only and a
`computer_key`, with which `sealed/computer-move` has the server play the seat to move when it
is one of the computer's, answering the new token and the public events.

Changes in 2.4: `GET /v1/games/{game}`'s `descriptions` also say what each value of `kind` means
(Bezique's declaration kinds, Bura's showings, Canasta's answers), in the language asked for.

Changes in 2.5: the replay guard is on by default (a SQLite file on one machine): a sealed deal
records its hand, and a token of a hand the guard cannot judge (its store lost it, or it was
dealt with no guard) is a 409 of type `hand-unknown`. `sealed/suggest` and `sealed/computer-move`
on a token the hand has moved past are a 409 before any search, and `computer-move` asked again
on the same token answers the move already made. The computer player's searches are bounded per
instance: past them, a 503 of type `computer-busy` with `Retry-After`. `SUGGEST_MAX_BUDGET_MS` is
250 by default.
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
        API_VERSION="2.5",
        OPENAPI_VERSION="3.1.0",
        API_SPEC_OPTIONS={"info": {"description": DESCRIPTION}},
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        GAME_IDS=tuple(games),
    )
    api = Api(app, spec_kwargs={"extra_plugins": [openapi.SchemaKeywords()]})
    api.spec.components.parameter(LANG, "query", {"name": "lang", **LANG_PARAMETER})
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
    app.register_blueprint(docs.blueprint(api.spec.to_dict))
    app.register_blueprint(metering.blueprint())
    app.register_blueprint(play.blueprint())
    parser.compile_expected()  # before gunicorn forks its workers (preload_app)
    return api
