"""The HTTP paths: one blueprint per registered game (the same factory for all), plus the
game-independent ``/health`` and ``/v1/games``."""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Mapping
from functools import wraps
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TypeVar

import orjson
from flask import Response

from service.api.limits import listed
from service.api.parsing import CompiledParser
from service.api.schemas import GameDetail, GameList, Health, Problem, envelopes
from service.api.sealed import SealedPaths
from service.cards import DeckSource, GivenOrder, SeedStream
from service.config import Settings
from service.errors import (
    BadSeat,
    FieldError,
    HandNotFinished,
    IllegalMove,
    IllegalRecordedMove,
    InvalidDeck,
    InvalidState,
    SchemaViolation,
    WrongMode,
)
from service.games.base import DealSetup, Game, GameInfo, Wire
from service.sealing import Keyring

try:
    VERSION = version("card-rules-service")
except PackageNotFoundError:  # running from a source tree that was never installed
    VERSION = "0.0.0"

# Every answer a POST can give besides 200, documented so the spec tells the truth.
POST_ERRORS = {
    400: "The body is not JSON.",
    403: "Sealed mode: the seat key is missing (a move), another seat's, or not one of this hand's.",
    413: "The body is larger than the configured limit.",
    415: "The body is not application/json.",
    422: "The body breaks the schema, the state or match is inconsistent with the rules, or a "
         "sealed token cannot be opened.",
}


S = TypeVar("S")
M = TypeVar("M")


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
    return {
        **_summary(info),
        "deck": info.deck,
        "card_values": dict(info.card_values),
        "deck_cards": list(info.deck_cards),
        "move_types": list(info.move_types),
        "reasons": {reason.value: reason.rule for reason in info.reasons},
        "event_types": list(info.event_types),
    }


def served_directly(bp: Any, schema: type) -> Any:
    """Keep what flask-smorest's ``arguments`` and ``response`` decorators documented, and serve
    the view without their per-request wrappers: the view parses its body with the compiled
    parser (``bp.ARGUMENTS_PARSER``, as ``arguments`` would) and returns its own ``Response`` (which
    ``response`` would pass through). Place it right under ``@bp.route``.

    A bypass, kept for its measured gain (Sixty-six and Bura, validate, legal-moves and view):
    the two wrappers (webargs' ``use_args``, ``current_app.ensure_sync``, the tuple unpacking)
    cost 12-20 µs a request in process through the whole WSGI app (Sixty-six validate: 123-128
    µs with them, 108 without), and 0.05 of the ratio to the bare-Flask ceiling live (0.80 with
    them, 0.85 without: the mean of 12 rows, `make bench` A B A B). The GET paths use the
    decorators as designed.
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


def meta_blueprint(blueprint_class: Any, games: Mapping[str, Game[Any, Any]]) -> Any:
    bp = blueprint_class("meta", __name__, description="Liveness and the list of games.")

    @bp.route("/health", methods=["GET"])
    @bp.doc(operationId="health")
    @bp.response(200, Health)
    def health() -> Response:
        """Liveness: 200 and the service version."""
        return json_response({"status": "ok", "version": VERSION})

    @bp.route("/v1/games", methods=["GET"])
    @bp.doc(operationId="listGames")
    @bp.response(200, GameList)
    def list_games() -> Response:
        """Every supported game: id, names, player counts, variants and option defaults."""
        return json_response({"games": [_summary(g.info) for g in games.values()]})

    return bp


def _load_state(game: Game[S, M], body: Wire) -> S:
    try:
        return game.load_state(body["state"])
    except InvalidState as error:
        raise error.within("/state") from None


def _load_move(game: Game[S, M], wire: Wire, at: str) -> M:
    try:
        return game.load_move(wire)
    except SchemaViolation as error:
        raise error.within(at) from None


def _seat_at_table(seat: int | None, state: Wire, at: str) -> None:
    """The schema knows the largest table only; the state says how many seats this one has."""
    if seat is not None and seat >= state["seats"]:
        raise BadSeat(at, f"the table has seats 0..{state['seats'] - 1}")


def _replay(game: Game[S, M], record: Wire) -> S:
    """The state a hand record leads to; the first move the rules refuse is a 422 at its index."""
    try:
        state = game.load_state(record["start"])
    except InvalidState as error:
        raise error.within("/record/start") from None
    for index, wire_move in enumerate(record["moves"]):
        at = f"/record/moves/{index}"
        _seat_at_table(wire_move["seat"], record["start"], f"{at}/seat")
        move = _load_move(game, wire_move, at)
        try:
            game.check(state, move)
        except IllegalMove as refusal:
            refused = f"move {index} is illegal here: {refusal.reason}: {refusal.message}"
            raise IllegalRecordedMove(at, refused) from None
        state, _ = game.apply(state, move)
    return state


def _deck_source(body: Wire) -> tuple[str | None, DeckSource]:
    """The seed's shuffle (a seed drawn from the OS when none is sent), or the given deck."""
    if body.get("deck") is None:
        seed = body.get("seed") or secrets.token_hex(16)
        return seed, SeedStream(seed)
    if body.get("seed") is not None:
        raise SchemaViolation("send a seed or a deck, not both",
                              (FieldError("/deck", "a deal takes a seed or a deck, not both"),))
    return None, GivenOrder(body["deck"])


def _examples(game: Game[S, M]) -> dict[str, Wire]:
    """Request examples for the document: a real deal (seed "example") and, for ``score``, that
    hand played out by always taking the first legal move."""
    dealt = game.deal(DealSetup(game.info.default_players, None, {}, None), SeedStream("example"))
    state, seat = game.dump_state(dealt), game.to_move(dealt)
    move = game.dump_move(game.legal_moves(dealt, seat)[0]) if seat is not None else None
    finished = dealt
    while (to_move := game.to_move(finished)) is not None:
        finished, _ = game.apply(finished, game.legal_moves(finished, to_move)[0])
    return {
        "deal": {"seed": "example", "players": game.info.default_players},
        "validate": {"state": state, "move": move},
        "legal_moves": {"state": state},
        "view": {"state": state, "seat": 0},
        "score": {"state": game.dump_state(finished)},
    }


def game_blueprint(blueprint_class: Any, game: Game[Any, Any], parser: CompiledParser,
                   keyring: Keyring, settings: Settings) -> Any:
    """The six paths of one game, with that game's schemas; a body with a ``token`` (a deal with
    ``sealed``) is served in sealed mode."""
    info, env = game.info, envelopes(game.info, game.schemas)
    sealed = SealedPaths(game, keyring, max_listing=settings.max_listing)
    bp = blueprint_class(info.id, __name__, url_prefix=f"/v1/games/{info.id}",
                         description=f"{info.name_en} ({info.name_ru}).")
    bp.ARGUMENTS_PARSER = parser
    parser.expect(info.id, env.deal_in, env.validate_in, env.legal_moves_in, env.view_in, env.score_in)
    errors = _documented_errors(bp, 400, 413, 415)
    seat_errors = _documented_errors(bp, 403)

    def operation(verb: str) -> str:
        """``sixtySixDeal``, ``kozelBuraLegalMoves``: one operationId per path, for generated clients."""
        words = info.id.split("-")
        return words[0] + "".join(w.title() for w in words[1:]) + verb
    example = _examples(game)

    @bp.route("", methods=["GET"])
    @bp.doc(operationId=operation("Game"))
    @bp.response(200, GameDetail)
    def detail() -> Response:
        """The game in detail: deck, card values, options, move types and reason codes."""
        return json_response(_detail(info))

    @bp.route("/deal", methods=["POST"])
    @served_directly(bp, env.deal_in)
    @bp.doc(operationId=operation("Deal"))
    @bp.arguments(env.deal_in, example=example["deal"])
    @bp.response(200, env.deal_out)
    @errors
    def deal(body: Wire) -> Response:
        """Deal a hand: reproducibly from the seed (shuffle v1, see the README), or in the order
        of a given `deck` (for tests, replays of a reported deal, and duplicate play)."""
        if body.get("sealed"):
            return json_response(sealed.deal(body))
        if body.get("match_token") is not None:
            raise WrongMode("/match_token", "only a sealed deal takes a match_token")
        players, dealer = body.get("players", info.default_players), body.get("dealer")
        if dealer is not None and dealer >= players:
            raise BadSeat("/dealer", f"the dealer must be a seat 0..{players - 1}")
        setup = DealSetup(players, dealer, body.get("options", {}), body.get("match"))
        seed, source = _deck_source(body)
        try:
            state = game.deal(setup, source)
        except InvalidDeck as wrong:
            raise wrong.within("/deck") from None
        return json_response({"seed": seed, "shuffle": source.VERSION, "state": game.dump_state(state)})

    @bp.route("/validate", methods=["POST"])
    @served_directly(bp, env.validate_in)
    @bp.doc(operationId=operation("Validate"))
    @bp.arguments(env.validate_in, example=example["validate"])
    @bp.response(200, env.validate_out)
    @errors
    @seat_errors
    def validate(body: Wire) -> Response:
        """Is the move legal? If so, the next state and the events it caused."""
        if "token" in body:
            return json_response(sealed.validate(body, lambda: _load_move(game, body["move"], "/move")))
        state = _load_state(game, body)
        _seat_at_table(body["move"]["seat"], body["state"], "/move/seat")
        move = _load_move(game, body["move"], "/move")
        try:
            game.check(state, move)
        except IllegalMove as refusal:
            reason = {"code": refusal.reason, "message": refusal.message, "rule": refusal.rule}
            return json_response({"legal": False, "reason": reason})
        state, events = game.apply(state, move)
        return json_response({"legal": True, "state": game.dump_state(state),
                              "events": [e.to_wire() for e in events]})

    @bp.route("/legal-moves", methods=["POST"])
    @served_directly(bp, env.legal_moves_in)
    @bp.doc(operationId=operation("LegalMoves"))
    @bp.arguments(env.legal_moves_in, example=example["legal_moves"])
    @bp.response(200, env.legal_moves_out)
    @errors
    @seat_errors
    def legal_moves(body: Wire) -> Response:
        """Every legal move of the seat to move (or of `seat`, out-of-turn moves included)."""
        if "token" in body:
            return json_response(sealed.legal_moves(body))
        state = _load_state(game, body)
        seat = body.get("seat")
        _seat_at_table(seat, body["state"], "/seat")
        to_move = game.to_move(state)
        asking = to_move if seat is None else seat
        return json_response({"to_move": to_move, **listed(game, state, asking, most=settings.max_listing)})

    @bp.route("/view", methods=["POST"])
    @served_directly(bp, env.view_in)
    @bp.doc(operationId=operation("View"))
    @bp.arguments(env.view_in, example=example["view"])
    @bp.response(200, env.view_out)
    @errors
    @seat_errors
    def view(body: Wire) -> Response:
        """What one seat may see; `seat: null` is a spectator."""
        if "token" in body:
            return json_response(sealed.view(body))
        state = _load_state(game, body)
        seat = body.get("seat")
        _seat_at_table(seat, body["state"], "/seat")
        return json_response({"view": game.view(state, seat)})

    @bp.route("/score", methods=["POST"])
    @served_directly(bp, env.score_in)
    @bp.doc(operationId=operation("Score"))
    @bp.arguments(env.score_in, example=example["score"])
    @bp.response(200, env.score_out)
    @errors
    def score(body: Wire) -> Response:
        """Score a finished hand and carry the match forward (422 if the hand is not over). The hand
        is its final state, or a record: a start state and every move, each checked and applied."""
        if "token" in body:
            return json_response(sealed.score(body))
        if "state" in body:
            return json_response(game.score(_load_state(game, body), body.get("match")))
        state = _replay(game, body["record"])
        try:
            answer = game.score(state, body.get("match"))
        except HandNotFinished:
            raise HandNotFinished("/record/moves", "the moves stop before the hand is over") from None
        return json_response({**answer, "state": game.dump_state(state)})

    return bp

