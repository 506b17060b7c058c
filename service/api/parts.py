"""What the envelopes of one game (``service.api.envelopes``) are built from: its info, its own
schemas, the fields several operations share, and the fields where the two modes differ: where
the body holds the hand (a state, or a token) and which seat it speaks for (a seat, or a seat
key); a sealed answer also names the hand (``SEALED_IDS``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from service.api.answers import answered, narrowed, not_null
from service.api.modes import Mode
from service.games.base import EventType, GameInfo
from service.wire.fields import Null, StrictInteger, TypeUnion
from service.wire.schemas import GameSchemas, Strict, named, one_of, seat

MAX_DECK = 256
"""More cards than any deal of these games uses (Bezique's largest: 214)."""
MAX_RECORD_MOVES = 1000
"""More moves than any hand of these games takes; bounds the work one request can ask for."""
MAX_TOKEN = 65_536
"""Characters of a token at most; the longest of six random Bezique hands, the largest records
(about 210 moves), seals in 11,300 (its record in parts: ``service.api.sealed``), and a record
ends at ``MAX_RECORD_MOVES``."""
MAX_CLIENT_SEED = 128
"""So that the joined seed (README, "Sealed mode") fits an open deal's ``seed`` to be checked."""


def token(description: str, **kwargs: Any) -> fields.String:
    """A token: opaque to its bearer, its length bounded. Its alphabet (base64 texts joined by full
    stops) is the opening's to check, with a clear 422 naming it, not the schema's: a pattern cost
    jsonschema-rs 1.7 ns a character, 10 µs a request for a Bezique token of 5.8 kB."""
    return fields.String(validate=validate.Length(1, MAX_TOKEN), metadata={"description": description},
                         **kwargs)


def seat_key(description: str, *, required: bool = False) -> fields.String:
    """A seat key; optional (a spectator) unless ``required``."""
    optional: dict[str, Any] = {} if required else {"allow_none": True, "load_default": None}
    return fields.String(validate=[validate.Length(1, 64), validate.Regexp(r"^[A-Za-z0-9_-]+$")],
                         required=required, metadata={"description": description}, **optional)


HAND_TOKEN = "The hand's sealed record, as the last sealed answer gave it (README, \"Sealed mode\")."
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
SOMETIMES = {"sometimes": True}
"""Metadata of an answer's field that is not always sent (``answered`` leaves it optional)."""


TEXT = ("The event in one sentence for a person, in the answer's language: seats counted from 1 "
        "(«Место 2 кладёт даму пик»), said to the reader when it is about the seat whose answer it is "
        "(«Вы берёте взятку: 21 очко»), and of a card the reader may not see, only that there was "
        "one. Its values are the event's own fields.")
MESSAGE = ("Why, in one sentence for the person who tried the move, in the answer's language: no "
           "code, field name or rule number in it («У вас нет дамы треф»).")
TEMPLATE = ("`message` before its values are written in, in the answer's language: `{seat}`, "
            "`{card}`, `{count}`… each named in `params`, with the case it stands in after a colon "
            "(`{card:gen}`), for a front end that writes the values its own way (player names).")
PARAMS = ("The values of `template`: a seat as its number (from 0, as `seat` everywhere), a card as "
          "its code, a suit as its letter, a count as a number.")
WINNER = "Who won, if one seat did (null: nobody, or a side, which the score names)."


def _null(field: fields.Field) -> fields.Field:
    return Null(required=True, metadata=field.metadata)


def union(name: str, doc: str, branches: tuple[type[ma.Schema], ...]) -> type[ma.Schema]:
    """A schema that is exactly one of ``branches`` (a ``oneOf`` in the OpenAPI document, so a
    generated client gets a union type). Only the document and the compiled validators read it."""
    return type(name, (Strict,), {"__doc__": doc, "json_schema_union": branches,
                                  "Meta": type("Meta", (Strict.Meta,), {"register": False})})


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
    def move(self) -> TypeUnion:
        return TypeUnion(self.game.moves, schema_name=f"{self.prefix}Move", required=True)

    @cached_property
    def match(self) -> fields.Nested:
        return fields.Nested(self.game.match, allow_none=True, load_default=None)

    @cached_property
    def events(self) -> fields.List:
        members = {name: self.event(name, declared) for name, declared in self.info.event_types.items()}
        return fields.List(TypeUnion(members, schema_name=f"{self.prefix}Event", noun="event",
                                     about="Something a move caused: one of the game's event types, "
                                     "chosen by `type`."), required=True)

    def event(self, name: str, declared: EventType) -> type[ma.Schema]:
        members: dict[str, fields.Field] = {
            "type": one_of([name], required=True),
            "seat": seat(required=True, allow_none=declared.winner,
                         metadata={"description": WINNER if declared.winner else "Who acted."}),
        }
        if declared.cards and declared.private:
            members["cards"] = self.game.fields.cards(metadata={
                **SOMETIMES, "description": "The cards, to the seats they belong to only."})
            members["count"] = StrictInteger(required=True, metadata={"description": "How many cards."})
        elif declared.cards:
            members["cards"] = self.game.fields.cards(required=True)
        if declared.points:
            members["points"] = StrictInteger(required=True)
        if declared.suit:
            members["suit"] = fields.String(required=True, validate=validate.OneOf("CDHS"))
        if declared.kinds:
            members["kind"] = one_of(tuple(declared.kinds), required=True)
        if declared.to:
            members["to"] = seat(required=True, metadata={"description": "The seat the cards go to."})
        members["text"] = fields.String(required=True, metadata={"description": TEXT})
        title = name.title().replace("_", "")
        return named(f"{self.prefix}{title}Event", declared.doc, members)

    @cached_property
    def seat_view(self) -> type[ma.Schema]:
        return narrowed(self.game.view, f"{self.prefix}SeatView", "What a seat may see: its own hand, "
                        "and what is public.", {"seat": not_null, "hand": not_null})

    @cached_property
    def spectator_view(self) -> type[ma.Schema]:
        """A seat's view and a spectator's have operations of their own, so that each answer has
        one type: a generated client cannot tell them apart by a field that is only ever null
        (openapi-fetch's ``Readable`` drops such a field from the answer's type)."""
        return narrowed(self.game.view, f"{self.prefix}SpectatorView", "What a spectator may see: what "
                        "is public, and no hand.", {"seat": _null, "hand": _null})

    @cached_property
    def reason(self) -> type[ma.Schema]:
        codes = [r.value for r in self.info.reasons]
        return named(f"{self.prefix}Reason", "Why a move is illegal.", {
            "code": fields.String(required=True, validate=validate.OneOf(codes)),
            "rule": fields.String(required=True, metadata={"description": "the rule it enforces"}),
            "message": fields.String(required=True, metadata={"description": MESSAGE}),
            "template": fields.String(required=True, metadata={"description": TEMPLATE}),
            "params": fields.Dict(keys=fields.String(), required=True, metadata={"description": PARAMS}),
        })

    @cached_property
    def record(self) -> type[ma.Schema]:
        return self.branch("HandRecord", RECORD, {
            "start": self.state(description="Usually the state `deal` answered."),
            "moves": fields.List(self.move, required=True, validate=validate.Length(max=MAX_RECORD_MOVES)),
        })

    @cached_property
    def weighed(self) -> type[ma.Schema]:
        return self.answer("WeighedMove", "A move the computer player weighed, and its value.", {
            "move": self.move,
            "value": fields.Float(required=True, allow_none=True, metadata={"description": VALUE})})

    def branch(self, name: str, doc: str, members: dict[str, Any]) -> type[ma.Schema]:
        return named(self.prefix + name, doc, members)

    def answer(self, name: str, doc: str, members: dict[str, Any]) -> type[ma.Schema]:
        return answered(self.branch(name, doc, members))


RECORD = (
    "The hand so far: the state it started from and every move, as `score` takes it; they must lead "
    "to `state` (else a 422 at `/record`). The player infers from it what the seat saw: a suit a "
    "player failed to follow, cards it saw go into a hand. A sealed hand's token holds its record.")
VALUE = ("The move's mean value for the seat over the samples, in the game's hand-score units: what its "
         "side's hand score would beat the others' by (README, \"Computer player\"). Null for a move "
         "that was not weighed: the only legal move, answered at once.")


def held(p: Parts, mode: Mode) -> dict[str, fields.Field]:
    """Where a request holds the hand: its state, or its token."""
    return mode.choose({"state": p.state()}, {"token": token(HAND_TOKEN, required=True)})


def asking(mode: Mode, *, required: bool, seat_doc: str, key_doc: str) -> dict[str, fields.Field]:
    """The seat a request speaks for: a ``seat`` sent (``seat_doc``), or a seat key (``key_doc``)."""
    if mode is Mode.SEALED:
        return {"seat_key": seat_key(key_doc, required=required)}
    optional: dict[str, Any] = {} if required else {"allow_none": True, "load_default": None}
    return {"seat": seat(required=required, metadata={"description": seat_doc}, **optional)}


def ids(mode: Mode) -> dict[str, fields.Field]:
    """What a sealed answer says of its hand besides the answer."""
    return mode.choose({}, SEALED_IDS)
