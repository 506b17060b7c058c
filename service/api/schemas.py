"""Envelopes shared by every game (shared/API.md), and the per-game request/response schemas
built from a game's own state, move, options, match, view and score schemas."""

from __future__ import annotations

from dataclasses import dataclass

import marshmallow as ma
from marshmallow import fields, validate

from service.games.base import GameInfo
from service.wire.fields import MoveUnion, StrictBoolean, StrictInteger
from service.wire.schemas import GameSchemas, Strict, named, one_of, seat

MAX_DECK = 256
"""More cards than any deal of these games uses (Bezique's largest: 214)."""
MAX_RECORD_MOVES = 1000
"""More moves than any hand of these games takes; bounds the work one request can ask for."""


# --- game-independent answers ---------------------------------------------------------------


class ProblemFieldError(Strict):
    pointer = fields.String(required=True, metadata={"description": "JSON pointer into the body"})
    message = fields.String(required=True)


class Problem(Strict):
    """RFC 9457 problem details; every error answer has this body."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = StrictInteger(required=True)
    detail = fields.String(required=True)
    errors = fields.List(fields.Nested(ProblemFieldError))
    request_id = fields.String()


class Health(Strict):
    status = fields.String(required=True, validate=validate.OneOf(["ok"]))
    version = fields.String(required=True)


class GameSummary(Strict):
    id = fields.String(required=True)
    name = fields.String(required=True, metadata={"description": "English name"})
    name_ru = fields.String(required=True, metadata={"description": "Russian name"})
    players = fields.List(StrictInteger(), required=True)
    default_players = StrictInteger(required=True)
    variants = fields.List(fields.String(), required=True)
    options = fields.Dict(keys=fields.String(), required=True, metadata={"description": "defaults"})


class GameList(Strict):
    games = fields.List(fields.Nested(GameSummary), required=True)


class GameDetail(GameSummary):
    deck = fields.String(required=True)
    card_values = fields.Dict(keys=fields.String(), values=StrictInteger(), required=True, metadata={
        "description": "The value of every card of the game's deck, by card code (`{\"AS\": 11, "
        "\"10S\": 10, ...}`). Keyed by code, not by rank, since API version 1.1: a red three, a "
        "black three and a joker can each have their own value."})
    deck_cards = fields.List(fields.String(), required=True, metadata={
        "description": "The deck for the default options in its canonical unshuffled order, each "
        "card as often as the deck holds it (Bezique repeats every code): a `deal` with `deck` "
        "takes a reordering of it. Since API version 1.2."})
    move_types = fields.List(fields.String(), required=True)
    reasons = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    event_types = fields.List(fields.String(), required=True)


# --- per-game envelopes ---------------------------------------------------------------------


@dataclass(frozen=True)
class Envelopes:
    deal_in: type[ma.Schema]
    deal_out: type[ma.Schema]
    validate_in: type[ma.Schema]
    validate_out: type[ma.Schema]
    legal_moves_in: type[ma.Schema]
    legal_moves_out: type[ma.Schema]
    view_in: type[ma.Schema]
    view_out: type[ma.Schema]
    score_in: type[ma.Schema]
    score_out: type[ma.Schema]


def union(name: str, doc: str, branches: tuple[type[ma.Schema], ...]) -> type[ma.Schema]:
    """A schema that is exactly one of ``branches`` (a ``oneOf`` in the OpenAPI document, so a
    generated client gets a union type). Only the document and the compiled validators read it."""
    return type(name, (Strict,), {"__doc__": doc, "json_schema_union": branches,
                                  "Meta": type("Meta", (Strict.Meta,), {"register": False})})


def envelopes(info: GameInfo, game: GameSchemas) -> Envelopes:
    p = game.prefix
    state = fields.Nested(game.state, required=True)
    move = MoveUnion(game.moves, schema_name=f"{p}Move", required=True)
    event = named(f"{p}Event", "Something a move caused.", {
        "type": fields.String(required=True, validate=validate.OneOf(info.event_types)),
        "seat": seat(allow_none=True, required=True),
        "cards": game.fields.cards(),
        "points": StrictInteger(),
        "suit": fields.String(validate=validate.OneOf("CDHS")),
    })
    reason = named(f"{p}Reason", "Why a move is illegal.", {
        "code": fields.String(required=True, validate=validate.OneOf([r.value for r in info.reasons])),
        "message": fields.String(required=True),
        "rule": fields.String(required=True, metadata={"description": "the rule it enforces"}),
    })
    match = fields.Nested(game.match, allow_none=True, load_default=None)
    return Envelopes(
        deal_in=named(f"{p}DealIn", "Deal a new hand.", {
            "players": one_of(info.player_counts, load_default=info.default_players),
            "dealer": seat(allow_none=True, load_default=None, metadata={
                "description": "Dealing seat; default: the match's next dealer, else seat 0."}),
            "options": fields.Nested(game.options, load_default=dict),
            "seed": fields.String(validate=validate.Length(1, 128), allow_none=True,
                                  load_default=None, metadata={
                "description": "Any string; the same seed and options deal the same cards. "
                "Omitted (and no `deck`): the server draws one and returns it."}),
            "deck": game.fields.cards(allow_none=True, load_default=None, max_items=MAX_DECK, metadata={
                "description": "Instead of a seed: the whole deck in dealing order, top card first, "
                "for test suites, replays of a reported deal and duplicate play (every table the "
                "same cards). It must be exactly the game's deck for these options (422 naming "
                "`/deck` otherwise); a deal the rules would redeal (a misdeal) is refused."}),
            "match": match,
        }),
        deal_out=named(f"{p}DealOut", "The new hand.", {
            "seed": fields.String(required=True, allow_none=True, metadata={
                "description": "The seed dealt from; null for a given deck."}),
            "shuffle": fields.String(required=True, validate=validate.OneOf(["v1", "given"]), metadata={
                "description": "`v1`: shuffled from the seed (see the README); `given`: the deck sent."}),
            "state": state,
        }),
        validate_in=named(f"{p}ValidateIn", "A state and a proposed move.", {
            "state": state, "move": move,
        }),
        validate_out=union(f"{p}ValidateOut", "legal: the next state and the events; illegal: the reason.", (
            named(f"{p}ValidateLegal", "The move is legal: the next state and what the move caused.", {
                "legal": StrictBoolean(required=True, validate=validate.OneOf([True])),
                "state": fields.Nested(game.state, required=True),
                "events": fields.List(fields.Nested(event), required=True),
            }),
            named(f"{p}ValidateIllegal", "The move is illegal: why, and the rule it breaks.", {
                "legal": StrictBoolean(required=True, validate=validate.OneOf([False])),
                "reason": fields.Nested(reason, required=True),
            }),
        )),
        legal_moves_in=named(f"{p}LegalMovesIn", "A state, and optionally the seat asking.", {
            "state": state,
            "seat": seat(allow_none=True, load_default=None, metadata={
                "description": "List what this seat may do now (out-of-turn moves included); "
                "default: the seat to move."}),
        }),
        legal_moves_out=named(f"{p}LegalMovesOut", "Every legal move, as validate takes it.", {
            "to_move": seat(allow_none=True, required=True),
            "moves": fields.List(move, required=True),
        }),
        view_in=named(f"{p}ViewIn", "A state and the seat looking (null: a spectator).", {
            "state": state,
            "seat": seat(allow_none=True, load_default=None),
        }),
        view_out=named(f"{p}ViewOut", "What the seat may see.", {
            "view": fields.Nested(game.view, required=True),
        }),
        score_in=union(f"{p}ScoreIn", "A finished hand, as its final state or as a record of its moves, "
                       "and the match so far.", (
            named(f"{p}ScoreState", "A finished hand as its final state.", {
                "state": fields.Nested(game.state, required=True, metadata={
                    "description": "The final state."}),
                "match": match,
            }),
            named(f"{p}ScoreRecord", "A finished hand as a record of its moves.", {
                "record": fields.Nested(named(f"{p}HandRecord", "A hand played elsewhere: the state it "
                                              "started from and every move, in order. Each move is "
                                              "checked and applied; the first illegal one is a 422 at "
                                              "its index.", {
                    "start": fields.Nested(game.state, required=True, metadata={
                        "description": "Usually the state `deal` answered."}),
                    "moves": fields.List(move, required=True, validate=validate.Length(max=MAX_RECORD_MOVES)),
                }), required=True),
                "match": match,
            }),
        )),
        score_out=named(f"{p}ScoreOut", "The hand's breakdown and the updated match.", {
            "hand": fields.Nested(game.hand_score, required=True),
            "match": fields.Nested(game.match, required=True),
            "state": fields.Nested(game.state, metadata={
                "description": "The final state the record led to (only when a record was scored)."}),
        }),
    )
