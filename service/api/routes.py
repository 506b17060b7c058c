"""The HTTP paths: one blueprint per registered game (the same factory for all), plus the
game-independent ``/health`` and ``/v1/games``."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

import orjson
from flask import Response

from service.api import metering
from service.api.languages import current as current_language
from service.api.limits import SearchLimits
from service.api.parsing import CompiledParser
from service.api.parts import Envelope, Parts
from service.api.paths import OpenPaths, Post, SealedPaths
from service.api.schemas import GameList, Health, Problem, game_detail
from service.cards import CARDS, SeedStream
from service.config import Settings
from service.games.base import DealSetup, Game, GameInfo, Wire
from service.i18n import translate
from service.i18n.cards import CASES, card_name
from service.replay import ReplayGuard
from service.sealing import Keyring
from service.version import VERSION

# Every answer a POST can give besides 200, documented so the spec tells the truth.
POST_ERRORS = {
    400: "The body is not JSON, or the query parameter `lang` is not one of the service's languages.",
    403: "The seat key is another seat's (a move), or not one of this hand's.",
    413: "The body is larger than the configured limit.",
    415: "The body is not application/json.",
    409: "The hand has moved on: a move on a token older than the hand's latest (the replay "
         "guard, when the server runs one).",
    422: "The body breaks the schema, the state or match is inconsistent with the rules, a "
         "sealed token cannot be opened, or (suggest) the seat has no move or the budget is past "
         "the server's limit.",
    503: "The replay guard's store did not answer (when the server refuses moves then); retry.",
}


LANG_PARAMETER = {"required": False, "schema": {"type": "string", "enum": ["en", "ru"]},
                  "description": "The language of what a person reads in the answer (messages, titles, "
                                 "rule citations, card names); it overrides `Accept-Language`, which is "
                                 "negotiated with its quality values otherwise. English by default; "
                                 "another value is a 400 problem. The answer says its language in "
                                 "`Content-Language`."}
"""Every path takes it (``service.api.languages`` reads it before any view): one component,
``Lang``, that each operation refers to."""
LANG = "Lang"
LANG_ERROR = "The query parameter `lang` is not one of the service's languages."


def json_response(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status=status, mimetype="application/json")


def _summary(info: GameInfo) -> Wire:
    return {
        "id": info.id,
        "name": info.name_en,
        "name_ru": info.name_ru,
        "players": list(info.player_counts),
        "default_players": info.default_players,
        "variants": list(info.variants),
        "options": dict(info.options),
    }


def _detail(info: GameInfo) -> Wire:
    lang = current_language()
    return {
        **_summary(info),
        "deck": translate(info.about_deck, lang).replace("{cards}", " ".join(info.deck_cards)),
        "card_values": dict(info.card_values),
        "deck_cards": list(info.deck_cards),
        "card_names": {code: card_name(CARDS[code], lang, "nom", info.vocabulary)
                       for code in dict.fromkeys(info.deck_cards)},
        "card_forms": {code: {case: card_name(CARDS[code], lang, case, info.vocabulary) for case in CASES}
                       for code in info.card_values},
        "move_types": list(info.move_types),
        "reasons": {reason.value: translate(reason.rule, lang) for reason in info.reasons},
        "event_types": list(info.event_types),
        "descriptions": _descriptions(info, lang),
    }


def _descriptions(info: GameInfo, lang: str) -> Wire:
    """What every option, choice, move type, event type and ``kind`` means, in ``lang``."""
    return {
        "options": {name: {"description": translate(text.description, lang),
                           "choices": {value: translate(label, lang)
                                       for value, label in text.choices.items()}}
                    for name, text in info.option_texts.items()},
        "moves": {kind: translate(doc, lang) for kind, doc in info.move_texts.items()},
        "events": {kind: translate(event.doc, lang) for kind, event in info.event_types.items()},
        "kinds": {value: translate(text, lang) for value, text in info.kind_texts.items()},
    }


def meta_blueprint(blueprint_class: Any, games: Mapping[str, Game[Any, Any]]) -> Any:
    bp = blueprint_class("meta", __name__, description="Liveness and the list of games.")

    @bp.route("/health", methods=["GET"])
    @bp.doc(operationId="health")
    @bp.response(200, Health)
    def health() -> Response:
        """Liveness: 200 and the service version."""
        return json_response({"status": "ok", "version": VERSION})

    @bp.route("/v1/games", methods=["GET"])
    @bp.doc(operationId="listGames", parameters=[LANG])
    @bp.response(200, GameList)
    @bp.alt_response(400, schema=Problem, content_type="application/problem+json", description=LANG_ERROR)
    def list_games() -> Response:
        """Every supported game: id, names, player counts, variants and option defaults."""
        return json_response({"games": [_summary(g.info) for g in games.values()]})

    return bp


def _examples(game: Game[Any, Any]) -> dict[str, Wire]:
    """Request examples for the document, by path: a real deal (seed "example") and, for
    ``score``, that hand played out by always taking the first legal move. (A sealed request's
    token is sealed with the server's keys: no example can hold one.)"""
    dealt = game.deal(DealSetup(game.info.default_players, None, {}, None), SeedStream("example"))
    state, seat = game.dump_state(dealt), game.to_move(dealt)
    move = game.dump_move(game.legal_moves(dealt, seat)[0]) if seat is not None else None
    finished = dealt
    while (to_move := game.to_move(finished)) is not None:
        finished, _ = game.apply(finished, game.legal_moves(finished, to_move)[0])
    return {
        "/deal": {"seed": "example", "players": game.info.default_players},
        "/validate": {"state": state, "move": move},
        "/legal-moves": {"state": state},
        "/view": {"state": state, "seat": 0},
        "/spectator-view": {"state": state},
        "/suggest": {"state": state, "seat": seat, "samples": 20, "seed": "example"},
        "/score": {"state": game.dump_state(finished)},
        "/sealed/deal": {"seed": "example", "players": game.info.default_players},
    }


def game_blueprint(blueprint_class: Any, game: Game[Any, Any], parser: CompiledParser,
                   keyring: Keyring, settings: Settings, guard: ReplayGuard, search: SearchLimits) -> Any:
    """The paths of one game, with that game's schemas: its detail, and every path of each mode
    (``service.api.paths``) with its envelope, served by its handler."""
    info = game.info
    bp = blueprint_class(info.id, __name__, url_prefix=f"/v1/games/{info.id}",
                         description=f"{info.name_en} ({info.name_ru}).")
    bp.ARGUMENTS_PARSER = parser

    @bp.route("", methods=["GET"])
    @bp.doc(operationId=_operation_id(info, "Game"), parameters=[LANG])
    @bp.response(200, game_detail(game.schemas.fields, info.move_types, info.event_types))
    @bp.alt_response(400, schema=Problem, content_type="application/problem+json", description=LANG_ERROR)
    def detail() -> Response:
        """The game in detail: deck, card values, options, move types and reason codes."""
        return json_response(_detail(info))

    most, parts = settings.max_listing, Parts(info, game.schemas)
    modes = (OpenPaths(game, max_listing=most, search=search),
             SealedPaths(game, keyring, max_listing=most, search=search, guard=guard))
    # Every envelope is built before any path is documented: building an answer form renames the
    # request form it comes from (``answers.answered``).
    served = [(post, handler, post.envelope(parts, paths.mode)) for paths in modes
              for post, handler in paths.handlers()]
    parser.expect(info.id, *(envelope.request for _, _, envelope in served))
    examples = _examples(game)
    for post, handler, envelope in served:
        _register(bp, post, handler, envelope, example=examples.get(post.path),
                  operation_id=_operation_id(info, post.verb))
    return bp


def metered_routes(game_ids: tuple[str, ...]) -> dict[str, metering.Route]:
    """Every path of the service with the labels it is counted by."""
    operations = [(post.name, post.path, paths.mode.value) for paths in (OpenPaths, SealedPaths)
                  for post in paths.posts()]
    return metering.routes(game_ids, operations)


def _operation_id(info: GameInfo, verb: str) -> str:
    """``sixtySixDeal``, ``kozelBuraLegalMoves``: one operationId per path, for generated clients."""
    words = info.id.split("-")
    return words[0] + "".join(w.title() for w in words[1:]) + verb


def _register(bp: Any, post: Post, handler: Callable[[Wire], Wire], envelope: Envelope, *,
              example: Wire | None, operation_id: str) -> None:
    """``handler`` served at its path, documented by flask-smorest's decorators: its body schema
    (``arguments``), its answer (``response``), every other status it may answer, its operationId
    and the ``lang`` parameter; its summary is the handler's docstring."""
    def view(body: Wire) -> Response:
        answer = handler(body)
        if answer.get("legal") is False:
            metering.illegal(answer["reason"]["code"])
        return json_response(answer)

    view.__name__, view.__doc__ = post.endpoint, handler.__doc__
    documented: Any = view
    documented = _documented_errors(bp, *post.errors, 400, 413, 415)(documented)
    documented = bp.response(200, envelope.answer)(documented)
    examples = {} if example is None else {"example": example}
    documented = bp.arguments(envelope.request, **examples)(documented)
    documented = bp.doc(operationId=operation_id, parameters=[LANG])(documented)
    bp.route(post.path, methods=["POST"])(served_directly(bp, envelope.request)(documented))


def served_directly(bp: Any, schema: type) -> Any:
    """Keep what flask-smorest's ``arguments`` and ``response`` decorators documented, and serve
    the view without their per-request wrappers: the view parses its body with the compiled
    parser (``bp.ARGUMENTS_PARSER``, as ``arguments`` would) and returns its own ``Response`` (which
    ``response`` would pass through). Every POST path is served so (``_register``), and only they.

    The one bypass, kept for its measured cost: the two wrappers (webargs' ``use_args``,
    ``current_app.ensure_sync`` twice, the tuple unpacking) take 8-15 µs a request on their own
    (the view called in one request context, the fastest of 15 rounds A B A B in CPU time, two
    runs: Sixty-six validate 8.5 and 15 µs of its 80-110, Bura view 10 and 12, Sixty-six sealed
    view 10 and 10), and 6-28 µs of 100-220 through the whole WSGI app (Sixty-six and Bura,
    validate, legal-moves, view and their sealed forms: every row slower with them, in both
    runs). Live, they cost 0.05 of the ratio to the bare-Flask ceiling (0.80 with them, 0.85
    without: the mean of 12 rows, `make bench` A B A B).
    The GET paths use the decorators as designed.
    """
    parse = bp.ARGUMENTS_PARSER.parse

    def decorate(documented: Any) -> Any:
        view = inspect.unwrap(documented)

        @wraps(view)
        def served() -> Response:
            return view(parse(schema))  # type: ignore[no-any-return]

        served._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return served
    return decorate


def _documented_errors(bp: Any, *statuses: int) -> Any:
    def decorate(view: Any) -> Any:
        for status in statuses:
            view = bp.alt_response(status, schema=Problem, content_type="application/problem+json",
                                   description=POST_ERRORS[status])(view)
        return view
    return decorate
