"""Envelopes shared by every game (shared/API.md), and the per-game request/response schemas
built from a game's own state, move, options, match, view and score schemas."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from service.games.base import GameInfo
from service.wire.fields import MoveUnion, StrictBoolean, StrictInteger
from service.wire.schemas import GameSchemas, Strict, named, one_of, seat

MAX_DECK = 256
"""More cards than any deal of these games uses (Bezique's largest: 214)."""
MAX_RECORD_MOVES = 1000
"""More moves than any hand of these games takes; bounds the work one request can ask for."""
MAX_TOKEN = 65_536
"""Characters of a token at most; the largest state (Bezique, 214 cards) seals in about 2,000."""


def token(description: str, **kwargs: Any) -> fields.String:
    return fields.String(validate=[validate.Length(1, MAX_TOKEN), validate.Regexp(r"^[A-Za-z0-9+/]+={0,2}$")],
                         metadata={"description": description}, **kwargs)


def seat_key(description: str) -> fields.String:
    return fields.String(validate=[validate.Length(1, 64), validate.Regexp(r"^[A-Za-z0-9_-]+$")],
                         allow_none=True, load_default=None, metadata={"description": description})


HAND_TOKEN = "The hand's sealed state, as the last sealed answer gave it (README, \"Sealed mode\")."
SEALED_IDS: dict[str, fields.Field] = {
    "hand_id": fields.String(required=True, metadata={
        "description": "The hand's id, the same in every sealed answer of the hand."}),
    "hand_number": StrictInteger(required=True, metadata={
        "description": "The hand's place in its match, from 1: one more than the last hand's."}),
    "move_number": StrictInteger(required=True, metadata={
        "description": "Moves applied since the deal. A validate answer's is one more than the "
        "token's it was sent: a host that relays moves accepts an answer only when its number is "
        "one more than the highest it has seen for the hand (an older token, sent again, answers "
        "a number already seen)."}),
}


# --- game-independent answers ---------------------------------------------------------------


class ProblemFieldError(Strict):
    pointer = fields.String(required=True, metadata={"description": "JSON pointer into the body"})
    message = fields.String(required=True)


class ProblemLimit(Strict):
    name = fields.String(required=True, metadata={
        "description": "The setting (README, \"Configuration\"): `MAX_LISTING` or `MAX_ANSWER_BYTES`"})
    value = StrictInteger(required=True, metadata={"description": "its value on this server"})


class Problem(Strict):
    """RFC 9457 problem details; every error answer has this body."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = StrictInteger(required=True)
    detail = fields.String(required=True)
    errors = fields.List(fields.Nested(ProblemFieldError))
    limit = fields.Nested(ProblemLimit, metadata={
        "description": "The limit an answer would have passed (`limit-exceeded` only)."})
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


def optional(members: dict[str, fields.Field]) -> dict[str, fields.Field]:
    """The same fields, not required (sealed answers only)."""
    return {name: type(f)(metadata=f.metadata) for name, f in members.items()}


def _families(game: GameSchemas) -> dict[str, fields.Field]:
    """The families of legal-moves, for a game that has them."""
    if game.family is None:
        return {}
    return {"families": fields.List(fields.Nested(game.family), required=True, metadata={
        "description": "Moves too many to list one by one, each family described by the choices "
        "it leaves open: every move built by a family's rule is legal, and `moves` leaves them "
        "out. Empty in almost every position (the game's rules file says when not)."})}


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
        "count": StrictInteger(metadata={
            "description": "Sealed mode: the number of cards the event moved where this seat may not "
            "see them (another seat's draw), given instead of `cards`."}),
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
            "seed": fields.String(validate=validate.Length(1, 256), allow_none=True,
                                  load_default=None, metadata={
                "description": "Any string; the same seed and options deal the same cards. "
                "Omitted (and no `deck`): the server draws one and returns it. Sealed: at most 128 "
                "characters, joined to the server's seed so that it cannot steer the deal. Up to 256 "
                "characters since API version 1.3, so that a sealed hand's joined seed (193 at most) "
                "can be dealt again to check it."}),
            "deck": game.fields.cards(allow_none=True, load_default=None, max_items=MAX_DECK, metadata={
                "description": "Instead of a seed: the whole deck in dealing order, top card first, "
                "for test suites, replays of a reported deal and duplicate play (every table the "
                "same cards). It must be exactly the game's deck for these options (422 naming "
                "`/deck` otherwise); a deal the rules would redeal (a misdeal) is refused."}),
            "match": match,
            "sealed": StrictBoolean(load_default=False, metadata={
                "description": "Deal a sealed hand: the answer is a `token` the client cannot read or "
                "forge, one `seat_keys` entry per seat, and the `seed_commitment` (README, \"Sealed "
                "mode\"). The deck is shuffled from a server seed joined with `seed` if sent; a sealed "
                "deal takes no `deck`, and the standing as `match_token`, not `match`."}),
            "match_token": token("Sealed deal: the `match_token` the last hand's score answered. The "
                                 "match keeps its players and options: `players` and `options`, "
                                 "if sent, must agree with them.", allow_none=True, load_default=None),
        }),
        deal_out=union(f"{p}DealOut", "The new hand: its state, or (sealed) its token and seat keys.", (
            named(f"{p}DealOpen", "The new hand.", {
                "seed": fields.String(required=True, allow_none=True, metadata={
                    "description": "The seed dealt from; null for a given deck."}),
                "shuffle": fields.String(required=True, validate=validate.OneOf(["v1", "given"]), metadata={
                    "description": "`v1`: shuffled from the seed (see the README); `given`: the deck sent."}),
                "state": state,
            }),
            named(f"{p}DealSealed", "The new sealed hand.", {
                "token": token(HAND_TOKEN, required=True),
                "seat_keys": fields.List(fields.String(), required=True, metadata={
                    "description": "One secret per seat, by seat: give each player only their own."}),
                "seed_commitment": fields.String(required=True, metadata={
                    "description": "Lowercase hex SHA-256 of the UTF-8 `server_seed` that the finished "
                    "hand's score reveals."}),
                "shuffle": fields.String(required=True, validate=validate.OneOf(["v1"])),
                "match_id": fields.String(required=True, metadata={
                    "description": "The match's id, kept from hand to hand through `match_token`."}),
                **SEALED_IDS,
                "to_move": seat(allow_none=True, required=True),
            }),
        )),
        validate_in=union(f"{p}ValidateIn", "A state (or a sealed token and the mover's seat key) and a "
                          "proposed move.", (
            named(f"{p}ValidateOpen", "A state and a proposed move.", {"state": state, "move": move}),
            named(f"{p}ValidateSealed", "A sealed hand, the mover's seat key and a proposed move.", {
                "token": token(HAND_TOKEN, required=True),
                "seat_key": seat_key("The mover's seat key (403 without it, or with another seat's)."),
                "move": move,
            }),
        )),
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
            named(f"{p}ValidateSealedLegal", "Sealed: the move is legal; the new token, the mover's view "
                  "and the events as the mover may see them.", {
                "legal": StrictBoolean(required=True, validate=validate.OneOf([True])),
                "token": token(HAND_TOKEN, required=True),
                "view": fields.Nested(game.view, required=True),
                "events": fields.List(fields.Nested(event), required=True),
                "to_move": seat(allow_none=True, required=True),
                **SEALED_IDS,
            }),
            named(f"{p}ValidateSealedIllegal", "Sealed: the move is illegal; the token stays as it was.", {
                "legal": StrictBoolean(required=True, validate=validate.OneOf([False])),
                "reason": fields.Nested(reason, required=True),
                **SEALED_IDS,
            }),
        )),
        legal_moves_in=union(f"{p}LegalMovesIn", "A state (or a sealed token), and optionally the seat "
                             "asking.", (
            named(f"{p}LegalMovesOpen", "A state, and optionally the seat asking.", {
                "state": state,
                "seat": seat(allow_none=True, load_default=None, metadata={
                    "description": "List what this seat may do now (out-of-turn moves included); "
                    "default: the seat to move."}),
            }),
            named(f"{p}LegalMovesSealed", "A sealed hand and the asking seat's key.", {
                "token": token(HAND_TOKEN, required=True),
                "seat_key": seat_key("List what this seat may do now (out-of-turn moves included); "
                                     "without a key (a spectator) the list is empty."),
            }),
        )),
        legal_moves_out=named(f"{p}LegalMovesOut", "Every legal move, as validate takes it.", {
            "to_move": seat(allow_none=True, required=True),
            "moves": fields.List(move, required=True),
            **_families(game),
            **optional(SEALED_IDS),
        }),
        view_in=union(f"{p}ViewIn", "A state and the seat looking, or a sealed token and the seat's key "
                      "(none: a spectator).", (
            named(f"{p}ViewOpen", "A state and the seat looking (null: a spectator).", {
                "state": state,
                "seat": seat(allow_none=True, load_default=None),
            }),
            named(f"{p}ViewSealed", "A sealed hand and the looking seat's key.", {
                "token": token(HAND_TOKEN, required=True),
                "seat_key": seat_key("The looking seat's key; without one, the spectator's view."),
            }),
        )),
        view_out=named(f"{p}ViewOut", "What the seat may see.", {
            "view": fields.Nested(game.view, required=True),
            **optional(SEALED_IDS),
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
            named(f"{p}ScoreSealed", "A finished sealed hand (its standing is in the token).", {
                "token": token(HAND_TOKEN, required=True),
            }),
        )),
        score_out=named(f"{p}ScoreOut", "The hand's breakdown and the updated match.", {
            "hand": fields.Nested(game.hand_score, required=True),
            "match": fields.Nested(game.match, required=True),
            "state": fields.Nested(game.state, metadata={
                "description": "The final state the record led to, or the sealed hand's final state."}),
            "match_token": token("Sealed: the standing, for the next sealed deal."),
            "server_seed": fields.String(metadata={
                "description": "Sealed: the server's seed, whose SHA-256 is the deal's `seed_commitment`."}),
            "seed": fields.String(allow_none=True, metadata={
                "description": "Sealed: the client's seed the deal was sent (null: none). The deck is "
                "shuffle v1 of `server_seed + \":\" + seed` (an empty seed for none)."}),
            "seed_commitment": fields.String(metadata={
                "description": "Sealed: the deal's commitment, SHA-256 of `server_seed`."}),
            "shuffle": fields.String(validate=validate.OneOf(["v1"]), metadata={
                "description": "Sealed: how the deck follows from the joined seed (README)."}),
            "match_id": fields.String(metadata={"description": "Sealed: the match's id."}),
            **optional(SEALED_IDS),
        }),
    )
