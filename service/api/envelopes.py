"""The request and answer schemas of each operation of one game (shared/API.md): the envelopes
shared by every game, around the game's own state, move, options, match, view and score schemas.
One builder per operation; each answer that differs by mode is a ``oneOf`` of its open and
sealed forms."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
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


def union(name: str, doc: str, branches: tuple[type[ma.Schema], ...]) -> type[ma.Schema]:
    """A schema that is exactly one of ``branches`` (a ``oneOf`` in the OpenAPI document, so a
    generated client gets a union type). Only the document and the compiled validators read it."""
    return type(name, (Strict,), {"__doc__": doc, "json_schema_union": branches,
                                  "Meta": type("Meta", (Strict.Meta,), {"register": False})})


def optional(members: dict[str, fields.Field]) -> dict[str, fields.Field]:
    """The same fields, not required (sealed answers only)."""
    return {name: type(f)(metadata=f.metadata) for name, f in members.items()}


@dataclass(frozen=True)
class Envelope:
    """One operation's request and answer schemas."""

    request: type[ma.Schema]
    answer: type[ma.Schema]


@dataclass(frozen=True)
class Parts:
    """What the envelopes of one game are built from: its info, its own schemas, and the fields
    several operations share."""

    info: GameInfo
    game: GameSchemas

    @property
    def prefix(self) -> str:
        return self.game.prefix

    def state(self, **metadata: str) -> fields.Nested:
        return fields.Nested(self.game.state, required=True, metadata=metadata)

    @cached_property
    def move(self) -> MoveUnion:
        return MoveUnion(self.game.moves, schema_name=f"{self.prefix}Move", required=True)

    @cached_property
    def match(self) -> fields.Nested:
        return fields.Nested(self.game.match, allow_none=True, load_default=None)

    @cached_property
    def event(self) -> type[ma.Schema]:
        return named(f"{self.prefix}Event", "Something a move caused.", {
            "type": fields.String(required=True, validate=validate.OneOf(self.info.event_types)),
            "seat": seat(allow_none=True, required=True),
            "cards": self.game.fields.cards(),
            "points": StrictInteger(),
            "suit": fields.String(validate=validate.OneOf("CDHS")),
            "count": StrictInteger(metadata={
                "description": "Sealed mode: the number of cards the event moved where this seat may not "
                "see them (another seat's draw), given instead of `cards`."}),
        })

    @cached_property
    def reason(self) -> type[ma.Schema]:
        codes = [r.value for r in self.info.reasons]
        return named(f"{self.prefix}Reason", "Why a move is illegal.", {
            "code": fields.String(required=True, validate=validate.OneOf(codes)),
            "message": fields.String(required=True),
            "rule": fields.String(required=True, metadata={"description": "the rule it enforces"}),
        })

    def branch(self, name: str, doc: str, members: dict[str, Any]) -> type[ma.Schema]:
        return named(self.prefix + name, doc, members)


# --- deal -------------------------------------------------------------------------------------

SEED = ("Any string; the same seed and options deal the same cards. Omitted (and no `deck`): the "
        "server draws one and returns it. Sealed: at most 128 characters, joined to the server's "
        "seed so that it cannot steer the deal. Up to 256 characters since API version 1.3, so that "
        "a sealed hand's joined seed (193 at most) can be dealt again to check it.")
DECK = ("Instead of a seed: the whole deck in dealing order, top card first, for test suites, replays "
        "of a reported deal and duplicate play (every table the same cards). It must be exactly the "
        "game's deck for these options (422 naming `/deck` otherwise); a deal the rules would redeal "
        "(a misdeal) is refused.")
SEALED = ("Deal a sealed hand: the answer is a `token` the client cannot read or forge, one `seat_keys` "
          "entry per seat, and the `seed_commitment` (README, \"Sealed mode\"). The deck is shuffled "
          "from a server seed joined with `seed` if sent; a sealed deal takes no `deck`, and the "
          "standing as `match_token`, not `match`.")
MATCH_TOKEN = ("Sealed deal: the `match_token` the last hand's score answered. The match keeps its players "
               "and options: `players` and `options`, if sent, must agree with them.")


def deal(p: Parts) -> Envelope:
    request = p.branch("DealIn", "Deal a new hand.", {
        "players": one_of(p.info.player_counts, load_default=p.info.default_players),
        "dealer": seat(allow_none=True, load_default=None, metadata={
            "description": "Dealing seat; default: the match's next dealer, else seat 0."}),
        "options": fields.Nested(p.game.options, load_default=dict),
        "seed": fields.String(validate=validate.Length(1, 256), allow_none=True, load_default=None,
                              metadata={"description": SEED}),
        "deck": p.game.fields.cards(allow_none=True, load_default=None, max_items=MAX_DECK,
                                    metadata={"description": DECK}),
        "match": p.match,
        "sealed": StrictBoolean(load_default=False, metadata={"description": SEALED}),
        "match_token": token(MATCH_TOKEN, allow_none=True, load_default=None),
    })
    return Envelope(request, union(f"{p.prefix}DealOut", "The new hand: its state, or (sealed) its "
                                   "token and seat keys.", (_dealt_open(p), _dealt_sealed(p))))


def _dealt_open(p: Parts) -> type[ma.Schema]:
    return p.branch("DealOpen", "The new hand.", {
        "seed": fields.String(required=True, allow_none=True, metadata={
            "description": "The seed dealt from; null for a given deck."}),
        "shuffle": fields.String(required=True, validate=validate.OneOf(["v1", "given"]), metadata={
            "description": "`v1`: shuffled from the seed (see the README); `given`: the deck sent."}),
        "state": p.state(),
    })


def _dealt_sealed(p: Parts) -> type[ma.Schema]:
    return p.branch("DealSealed", "The new sealed hand.", {
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
    })


# --- validate -------------------------------------------------------------------------------


def validate_move(p: Parts) -> Envelope:
    request = union(f"{p.prefix}ValidateIn", "A state (or a sealed token and the mover's seat key) and a "
                    "proposed move.", (
        p.branch("ValidateOpen", "A state and a proposed move.", {"state": p.state(), "move": p.move}),
        p.branch("ValidateSealed", "A sealed hand, the mover's seat key and a proposed move.", {
            "token": token(HAND_TOKEN, required=True),
            "seat_key": seat_key("The mover's seat key (403 without it, or with another seat's)."),
            "move": p.move,
        }),
    ))
    legal = {"legal": StrictBoolean(required=True, validate=validate.OneOf([True]))}
    illegal = {"legal": StrictBoolean(required=True, validate=validate.OneOf([False])),
               "reason": fields.Nested(p.reason, required=True)}
    events = {"events": fields.List(fields.Nested(p.event), required=True)}
    answer = union(f"{p.prefix}ValidateOut", "legal: the next state and the events; illegal: the reason.", (
        p.branch("ValidateLegal", "The move is legal: the next state and what the move caused.", {
            **legal, "state": p.state(), **events}),
        p.branch("ValidateIllegal", "The move is illegal: why, and the rule it breaks.", illegal),
        p.branch("ValidateSealedLegal", "Sealed: the move is legal; the new token, the mover's view and "
                 "the events as the mover may see them.", {
            **legal, "token": token(HAND_TOKEN, required=True),
            "view": fields.Nested(p.game.view, required=True), **events,
            "to_move": seat(allow_none=True, required=True), **SEALED_IDS}),
        p.branch("ValidateSealedIllegal", "Sealed: the move is illegal; the token stays as it was.", {
            **illegal, **SEALED_IDS}),
    ))
    return Envelope(request, answer)


# --- legal-moves and view -------------------------------------------------------------------

LISTED_SEAT = "List what this seat may do now (out-of-turn moves included)"
FAMILIES = ("Moves too many to list one by one, each family described by the choices it leaves open: "
            "every move built by a family's rule is legal, and `moves` leaves them out. Empty in almost "
            "every position (the game's rules file says when not).")


def legal_moves(p: Parts) -> Envelope:
    request = union(f"{p.prefix}LegalMovesIn", "A state (or a sealed token), and optionally the seat "
                    "asking.", (
        p.branch("LegalMovesOpen", "A state, and optionally the seat asking.", {
            "state": p.state(),
            "seat": seat(allow_none=True, load_default=None, metadata={
                "description": f"{LISTED_SEAT}; default: the seat to move."}),
        }),
        p.branch("LegalMovesSealed", "A sealed hand and the asking seat's key.", {
            "token": token(HAND_TOKEN, required=True),
            "seat_key": seat_key(f"{LISTED_SEAT}; without a key (a spectator) the list is empty."),
        }),
    ))
    families = {} if p.game.family is None else {"families": fields.List(
        fields.Nested(p.game.family), required=True, metadata={"description": FAMILIES})}
    answer = p.branch("LegalMovesOut", "Every legal move, as validate takes it.", {
        "to_move": seat(allow_none=True, required=True),
        "moves": fields.List(p.move, required=True),
        **families,
        **optional(SEALED_IDS),
    })
    return Envelope(request, answer)


def view(p: Parts) -> Envelope:
    request = union(f"{p.prefix}ViewIn", "A state and the seat looking, or a sealed token and the seat's "
                    "key (none: a spectator).", (
        p.branch("ViewOpen", "A state and the seat looking (null: a spectator).", {
            "state": p.state(),
            "seat": seat(allow_none=True, load_default=None),
        }),
        p.branch("ViewSealed", "A sealed hand and the looking seat's key.", {
            "token": token(HAND_TOKEN, required=True),
            "seat_key": seat_key("The looking seat's key; without one, the spectator's view."),
        }),
    ))
    answer = p.branch("ViewOut", "What the seat may see.", {
        "view": fields.Nested(p.game.view, required=True),
        **optional(SEALED_IDS),
    })
    return Envelope(request, answer)


# --- score ------------------------------------------------------------------------------------

RECORD = ("A hand played elsewhere: the state it started from and every move, in order. Each move is "
          "checked and applied; the first illegal one is a 422 at its index.")


def score(p: Parts) -> Envelope:
    record = p.branch("HandRecord", RECORD, {
        "start": p.state(description="Usually the state `deal` answered."),
        "moves": fields.List(p.move, required=True, validate=validate.Length(max=MAX_RECORD_MOVES)),
    })
    request = union(f"{p.prefix}ScoreIn", "A finished hand, as its final state or as a record of its "
                    "moves, and the match so far.", (
        p.branch("ScoreState", "A finished hand as its final state.", {
            "state": p.state(description="The final state."), "match": p.match}),
        p.branch("ScoreRecord", "A finished hand as a record of its moves.", {
            "record": fields.Nested(record, required=True), "match": p.match}),
        p.branch("ScoreSealed", "A finished sealed hand (its standing is in the token).", {
            "token": token(HAND_TOKEN, required=True)}),
    ))
    return Envelope(request, p.branch("ScoreOut", "The hand's breakdown and the updated match.", {
        "hand": fields.Nested(p.game.hand_score, required=True),
        "match": fields.Nested(p.game.match, required=True),
        **_revealed(p),
        **optional(SEALED_IDS),
    }))


def _revealed(p: Parts) -> dict[str, fields.Field]:
    """What a score answers besides the breakdown: the final state, and (sealed) the standing to
    deal on with and what the hand was dealt from."""
    return {
        "state": fields.Nested(p.game.state, metadata={
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
    }


BUILDERS: dict[str, Callable[[Parts], Envelope]] = {
    "deal": deal, "validate": validate_move, "legal_moves": legal_moves, "view": view, "score": score,
}
"""Each operation's envelope builder, by the operation's name."""


def envelopes(info: GameInfo, game: GameSchemas) -> dict[str, Envelope]:
    """Every operation's envelope for one game."""
    parts = Parts(info, game)
    return {operation: build(parts) for operation, build in BUILDERS.items()}
