"""The request and answer schemas of each operation of one game (shared/API.md): the envelopes
shared by every game, around the game's own state, move, options, match, view and score schemas.
One builder per operation and mode, each giving exactly one request and one answer schema (a
validate answer is a union on ``legal``); every answer in its answer form (``answered``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import marshmallow as ma
from marshmallow import ValidationError, fields, validate

from service.api.answers import answered, narrowed, not_null
from service.games.base import EventType, GameInfo
from service.player.levels import LEVELS, NAMES
from service.wire.fields import Null, StrictBoolean, StrictInteger, TypeUnion
from service.wire.schemas import GameSchemas, Strict, named, one_of, seat

MAX_DECK = 256
"""More cards than any deal of these games uses (Bezique's largest: 214)."""
MAX_RECORD_MOVES = 1000
"""More moves than any hand of these games takes; bounds the work one request can ask for."""
MAX_TOKEN = 65_536
"""Characters of a token at most; a played-out Bezique hand at 4, the largest record, seals in
about 4,000."""
MAX_CLIENT_SEED = 128
"""So that the joined seed (README, "Sealed mode") fits an open deal's ``seed`` to be checked."""


def token(description: str, **kwargs: Any) -> fields.String:
    return fields.String(validate=[validate.Length(1, MAX_TOKEN), validate.Regexp(r"^[A-Za-z0-9+/]+={0,2}$")],
                         metadata={"description": description}, **kwargs)


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


# --- deal -------------------------------------------------------------------------------------

SEED = ("Any string; the same seed and options deal the same cards. Omitted (and no `deck`): the "
        "server draws one and returns it.")
SEALED_SEED = ("Any string, joined to the server's seed so that it cannot steer the deal (README, "
               "\"Sealed mode\").")
DECK = ("Instead of a seed: the whole deck in dealing order, top card first, for test suites, replays "
        "of a reported deal and duplicate play (every table the same cards). It must be exactly the "
        "game's deck for these options (422 naming `/deck` otherwise); a deal the rules would redeal "
        "(a misdeal) is refused.")
MATCH_TOKEN = ("The `match_token` the last hand's score answered. The match keeps its players and "
               "options: `players` and `options`, if sent, must agree with them.")


def _table(p: Parts) -> dict[str, fields.Field]:
    return {
        "players": one_of(p.info.player_counts, load_default=p.info.default_players),
        "dealer": seat(allow_none=True, load_default=None, metadata={
            "description": "Dealing seat; default: the match's next dealer, else seat 0."}),
        "options": fields.Nested(p.game.options, load_default=dict),
    }


def deal(p: Parts) -> Envelope:
    request = p.branch("DealIn", "Deal a new hand.", {
        **_table(p),
        "seed": fields.String(validate=validate.Length(1, 256), allow_none=True, load_default=None,
                              metadata={"description": SEED}),
        "deck": p.game.fields.cards(allow_none=True, load_default=None, max_items=MAX_DECK,
                                    metadata={"description": DECK}),
        "match": p.match,
    })
    return Envelope(request, p.answer("Dealt", "The new hand.", {
        "seed": fields.String(required=True, allow_none=True, metadata={
            "description": "The seed dealt from; null for a given deck."}),
        "shuffle": fields.String(required=True, validate=validate.OneOf(["v1", "given"]), metadata={
            "description": "`v1`: shuffled from the seed (see the README); `given`: the deck sent."}),
        "state": p.state(),
    }))


def _sealed_dealt() -> dict[str, fields.Field]:
    """What every sealed deal answers besides its token and keys."""
    return {
        "seed_commitment": fields.String(required=True, metadata={
            "description": "Lowercase hex SHA-256 of the UTF-8 `server_seed` that the finished "
            "hand's score reveals."}),
        "shuffle": fields.String(required=True, validate=validate.OneOf(["v1"])),
        "match_id": fields.String(required=True, metadata={
            "description": "The match's id, kept from hand to hand through `match_token`."}),
        **SEALED_IDS,
        "to_move": seat(allow_none=True, required=True),
    }


def sealed_deal(p: Parts) -> Envelope:
    request = p.branch("SealedDealIn", "Deal a new sealed hand.", {
        **_table(p),
        "seed": fields.String(validate=validate.Length(1, MAX_CLIENT_SEED), allow_none=True,
                              load_default=None, metadata={"description": SEALED_SEED}),
        "match_token": token(MATCH_TOKEN, allow_none=True, load_default=None),
    })
    return Envelope(request, p.answer("SealedDealt", "The new sealed hand: its token and seat keys.", {
        "token": token(HAND_TOKEN, required=True),
        "seat_keys": fields.List(fields.String(), required=True, metadata={
            "description": "One secret per seat, by seat: give each player only their own."}),
        **_sealed_dealt(),
    }))


COMPUTER_KEY = ("The key that has the server play the computer player's seats of this hand "
                "(`sealed/computer-move`), without holding their seat keys.")


def sealed_deal_against_computer(p: Parts) -> Envelope:
    request = p.branch("SealedDealAgainstComputerIn", "Deal a new sealed hand to a person at `seat`, "
                       "the computer player at every other seat.", {
        **_table(p),
        "seat": seat(load_default=0, metadata={"description": "The person's seat; default 0."}),
        "seed": fields.String(validate=validate.Length(1, MAX_CLIENT_SEED), allow_none=True,
                              load_default=None, metadata={"description": SEALED_SEED}),
        "match_token": token(MATCH_TOKEN, allow_none=True, load_default=None),
    })
    return Envelope(request, p.answer("SealedDealtAgainstComputer", "The new sealed hand: its token, the "
                                      "person's seat key, and the computer key.", {
        "token": token(HAND_TOKEN, required=True),
        "seat": seat(required=True, metadata={"description": "The person's seat."}),
        "seat_key": fields.String(required=True, metadata={"description": "The person's seat key: no "
                                  "other seat's key is answered."}),
        "computer_key": fields.String(required=True, metadata={"description": COMPUTER_KEY}),
        **_sealed_dealt(),
    }))


def sealed_computer_move(p: Parts) -> Envelope:
    request = p.branch("SealedComputerMoveIn", "A sealed hand whose seat to move the computer key plays, "
                       "and the search's budget.", {
        "token": token(HAND_TOKEN, required=True),
        "computer_key": seat_key(COMPUTER_KEY, required=True),
        "budget_ms": _search(p)["budget_ms"],
        "seed": _search(p)["seed"],
    })
    return Envelope(request, p.answer("SealedComputerMoved", "The computer player's move, made: the new "
                                      "token, and the events as everyone may see them (each seat reads "
                                      "its own with `sealed/events`).", {
        "seat": seat(required=True, metadata={"description": "The seat the computer player moved."}),
        "token": token(HAND_TOKEN, required=True),
        "public_events": fields.List(p.events.inner, required=True, metadata={
            "description": "The events as a spectator sees them."}),
        "to_move": seat(allow_none=True, required=True),
        **SEALED_IDS,
    }))


# --- validate -------------------------------------------------------------------------------

LEGAL = {"legal": StrictBoolean(required=True, validate=validate.OneOf([True]))}


def _illegal(p: Parts) -> dict[str, fields.Field]:
    return {"legal": StrictBoolean(required=True, validate=validate.OneOf([False])),
            "reason": fields.Nested(p.reason, required=True)}


def validate_move(p: Parts) -> Envelope:
    request = p.branch("ValidateIn", "A state and a proposed move.", {"state": p.state(), "move": p.move})
    return Envelope(request, union(f"{p.prefix}ValidateOut", "legal: the next state and the events; "
                                   "illegal: the reason.", (
        p.answer("ValidateLegal", "The move is legal: the next state and what the move caused.", {
            **LEGAL, "state": p.state(), "events": p.events}),
        p.answer("ValidateIllegal", "The move is illegal: why, and the rule it breaks.", _illegal(p)),
    )))


def sealed_validate(p: Parts) -> Envelope:
    request = p.branch("SealedValidateIn", "A sealed hand, the mover's seat key and a proposed move.", {
        "token": token(HAND_TOKEN, required=True),
        "seat_key": seat_key("The mover's seat key (403 with another seat's).", required=True),
        "move": p.move,
    })
    return Envelope(request, union(f"{p.prefix}SealedValidateOut", "legal: the new token and the "
                                   "events; illegal: the reason.", (
        p.answer("SealedValidateLegal", "The move is legal: the new token, and the events as the mover "
                 "and as everyone may see them (they are enough to follow one's hand; `sealed/view` "
                 "shows it all).", {
            **LEGAL, "token": token(HAND_TOKEN, required=True),
            "events": p.events,
            "public_events": fields.List(p.events.inner, required=True, metadata={
                "description": "The events as a spectator sees them: what a relay may send to every "
                "seat."}),
            "to_move": seat(allow_none=True, required=True), **SEALED_IDS}),
        p.answer("SealedValidateIllegal", "The move is illegal; the token stays as it was.",
                 {**_illegal(p), **SEALED_IDS}),
    )))


# --- legal-moves and view -------------------------------------------------------------------

LISTED_SEAT = "List what this seat may do now (out-of-turn moves included)"
FAMILIES = ("Moves too many to list one by one, each family described by the choices it leaves open: "
            "every move built by a family's rule is legal, and `moves` leaves them out. Empty in almost "
            "every position (the game's rules file says when not).")


def _listing(p: Parts) -> dict[str, fields.Field]:
    families = {} if p.game.family is None else {"families": fields.List(
        fields.Nested(p.game.family), required=True, metadata={"description": FAMILIES})}
    return {"to_move": seat(allow_none=True, required=True), "moves": fields.List(p.move, required=True),
            **families}


def legal_moves(p: Parts) -> Envelope:
    request = p.branch("LegalMovesIn", "A state, and optionally the seat asking.", {
        "state": p.state(),
        "seat": seat(allow_none=True, load_default=None, metadata={
            "description": f"{LISTED_SEAT}; default: the seat to move."}),
    })
    return Envelope(request, p.answer("LegalMovesOut", "Every legal move, as validate takes it.",
                                      _listing(p)))


def sealed_legal_moves(p: Parts) -> Envelope:
    request = p.branch("SealedLegalMovesIn", "A sealed hand and the asking seat's key.", {
        "token": token(HAND_TOKEN, required=True),
        "seat_key": seat_key(f"{LISTED_SEAT}; without a key (a spectator) the list is empty."),
    })
    return Envelope(request, p.answer("SealedLegalMovesOut", "Every legal move of the asking seat, as "
                                      "validate takes it.", {**_listing(p), **SEALED_IDS}))


def view(p: Parts) -> Envelope:
    request = p.branch("ViewIn", "A state and the seat looking.", {
        "state": p.state(),
        "seat": seat(required=True, metadata={"description": "The seat looking (a spectator: "
                                                              "`spectator-view`)."}),
    })
    return Envelope(request, p.answer("ViewOut", "What the seat may see.", {
        "view": fields.Nested(p.seat_view, required=True)}))


def spectator_view(p: Parts) -> Envelope:
    request = p.branch("SpectatorViewIn", "A state.", {"state": p.state()})
    return Envelope(request, p.answer("SpectatorViewOut", "What a spectator may see.", {
        "view": fields.Nested(p.spectator_view, required=True)}))


def sealed_view(p: Parts) -> Envelope:
    request = p.branch("SealedViewIn", "A sealed hand and the looking seat's key.", {
        "token": token(HAND_TOKEN, required=True),
        "seat_key": seat_key("The looking seat's key (a spectator: `sealed/spectator-view`).", required=True),
    })
    return Envelope(request, p.answer("SealedViewOut", "What the seat may see.", {
        "view": fields.Nested(p.seat_view, required=True), **SEALED_IDS}))


def sealed_spectator_view(p: Parts) -> Envelope:
    request = p.branch("SealedSpectatorViewIn", "A sealed hand.", {"token": token(HAND_TOKEN, required=True)})
    return Envelope(request, p.answer("SealedSpectatorViewOut", "What a spectator may see.", {
        "view": fields.Nested(p.spectator_view, required=True), **SEALED_IDS}))


def sealed_events(p: Parts) -> Envelope:
    request = p.branch("SealedEventsIn", "A sealed hand, the asking seat's key (none: a spectator), "
                       "and the last move whose events the seat has.", {
        "token": token(HAND_TOKEN, required=True),
        "seat_key": seat_key("The asking seat's key; without one, the events a spectator sees."),
        "since": StrictInteger(validate=validate.Range(0, MAX_RECORD_MOVES), load_default=0, metadata={
            "description": "The last move number whose events the seat has (0: from the deal). "
            "422 if the hand has had fewer moves."}),
    })
    moved = p.answer("MoveEvents", "The events one move caused.", {
        "move_number": StrictInteger(required=True, metadata={"description": "The move's number, from 1."}),
        "events": p.events,
    })
    return Envelope(request, p.answer("SealedEventsOut", "The events of every move after `since`, as "
                                      "the seat may see them: its own cards, another seat's hidden "
                                      "ones as their number.", {
        "moves": fields.List(fields.Nested(moved), required=True),
        "to_move": seat(allow_none=True, required=True), **SEALED_IDS}))


# --- suggest ----------------------------------------------------------------------------------

BUDGET = ("Milliseconds the computer player may think; default: the server's SUGGEST_BUDGET_MS (100 "
          "unless set). Past the server's SUGGEST_MAX_BUDGET_MS (250 unless set): a 422.")
SAMPLES = ("Deals of the unseen cards to weigh the moves on, at most: the same seed and sample count give "
           "the same move (on the same release). Without `budget_ms`, the search still stops at the "
           "server's SUGGEST_MAX_BUDGET_MS. Past SUGGEST_MAX_SAMPLES (10,000 unless set): a 422.")
SEARCH_SEED = "Any string; the same seed and sample count give the same answer. Omitted: drawn, and returned."
VALUE = ("The move's mean value for the seat over the samples, in the game's hand-score units: what its "
         "side's hand score would beat the others' by (README, \"Computer player\"). Null for a move "
         "that was not weighed: the only legal move, answered at once.")


LEVEL = ("The computer player's level, instead of `budget_ms` and `samples`: 1 to 5, or by name, "
         + ", ".join(f"{lv.number} `{lv.name}`" for lv in LEVELS)
         + ". Levels 1 and 2 play the game's greedy player's move, with random slips (40 % and 10 % of "
           "the moves: level 1 loses to the greedy player); 3 to 5 search for "
         + ", ".join(f"{lv.budget_ms}" for lv in LEVELS[2:])
         + " ms. Each level is meant to beat the one below it (docs/strength.md measures it).")


def _not_a_boolean(value: object) -> None:
    """``true`` is not level 1 (Python's ``True == 1``)."""
    if isinstance(value, bool):
        raise ValidationError("Must be one of the levels.")


def _search(p: Parts) -> dict[str, fields.Field]:
    return {
        "budget_ms": StrictInteger(validate=validate.Range(1, 60_000), allow_none=True, load_default=None,
                                   metadata={"description": BUDGET}),
        "samples": StrictInteger(validate=validate.Range(1, 1_000_000), allow_none=True, load_default=None,
                                 metadata={"description": SAMPLES}),
        "seed": fields.String(validate=validate.Length(1, MAX_CLIENT_SEED), allow_none=True,
                              load_default=None, metadata={"description": SEARCH_SEED}),
        "level": fields.Raw(validate=[validate.OneOf(NAMES), _not_a_boolean], allow_none=True,
                            load_default=None, metadata={"description": LEVEL}),
    }


def _suggestion(p: Parts) -> dict[str, fields.Field]:
    return {
        "move": p.move,
        "candidates": fields.List(fields.Nested(p.weighed), required=True, metadata={
            "description": "Every move weighed, the best first (the melding games weigh a dozen of "
                           "their moves at most: the greedy choice and others at random)."}),
        "samples": StrictInteger(required=True, metadata={
            "description": "Deals of the unseen cards the moves were weighed on: as many as the budget "
                           "allowed, or as asked."}),
        "seed": fields.String(required=True, metadata={"description": "The seed searched with."}),
        "budget_ms": StrictInteger(required=True, metadata={"description": "The time budget applied."}),
    }


SUGGEST_RECORD = (
    "The hand so far: the state it started from and every move, as `score` takes it; they must lead "
    "to `state` (else a 422 at `/record`). The player infers from it what the seat saw: a suit a "
    "player failed to follow, cards it saw go into a hand. A sealed hand's token holds its record.")


def suggest(p: Parts) -> Envelope:
    request = p.branch("SuggestIn", "A state, the seat to advise, and the search's budget; and, when "
                       "the client has it, the record that led to the state.", {
        "state": p.state(),
        "seat": seat(required=True, metadata={"description": "The seat to advise: the search reads only "
                                                              "what this seat may see."}),
        "record": fields.Nested(p.record, metadata={"description": SUGGEST_RECORD}),
        **_search(p),
    })
    return Envelope(request, p.answer("SuggestOut", "The computer player's move, and what it weighed.",
                                      _suggestion(p)))


def sealed_suggest(p: Parts) -> Envelope:
    request = p.branch("SealedSuggestIn", "A sealed hand, the advised seat's key, and the search's "
                       "budget.", {
        "token": token(HAND_TOKEN, required=True),
        "seat_key": seat_key("The advised seat's key.", required=True),
        **_search(p),
    })
    return Envelope(request, p.answer("SealedSuggestOut", "The computer player's move for the seat, and "
                                      "what it weighed.", {**_suggestion(p), **SEALED_IDS}))


# --- score ------------------------------------------------------------------------------------

RECORD = ("A hand played elsewhere: the state it started from and every move, in order. Each move is "
          "checked and applied; the first illegal one is a 422 at its index.")


def score(p: Parts) -> Envelope:
    request = p.branch("ScoreIn", "A finished hand, as its final `state` or as its `record` (one of "
                       "them), and the match so far.", {
        "state": fields.Nested(p.game.state, metadata={"description": "The final state."}),
        "record": fields.Nested(p.record),
        "match": p.match,
    })
    return Envelope(request, p.answer("ScoreOut", "The hand's breakdown and the updated match.", {
        "hand": fields.Nested(p.game.hand_score, required=True),
        "match": fields.Nested(p.game.match, required=True),
        "state": p.state(description="The final state (the record's, for a record)."),
    }))


def sealed_score(p: Parts) -> Envelope:
    request = p.branch("SealedScoreIn", "A finished sealed hand (its standing is in the token).", {
        "token": token(HAND_TOKEN, required=True)})
    return Envelope(request, p.answer("SealedScoreOut", "The hand's breakdown, the updated match, and "
                                      "all it takes to check the hand: the seeds and the record.", {
        "hand": fields.Nested(p.game.hand_score, required=True),
        "match": fields.Nested(p.game.match, required=True),
        "state": p.state(description="The final state."),
        "record": fields.Nested(p.record, required=True, metadata={
            "description": "The state dealt and every move: `score {\"record\": ...}` checks each."}),
        "match_token": token("The standing, for the next sealed deal.", required=True),
        "server_seed": fields.String(required=True, metadata={
            "description": "The server's seed, whose SHA-256 is the deal's `seed_commitment`."}),
        "seed": fields.String(required=True, allow_none=True, metadata={
            "description": "The client's seed the deal was sent (null: none). The deck is shuffle v1 "
            "of `server_seed + \":\" + seed` (an empty seed for none)."}),
        "seed_commitment": fields.String(required=True, metadata={
            "description": "The deal's commitment, SHA-256 of `server_seed`."}),
        "shuffle": fields.String(required=True, validate=validate.OneOf(["v1"]), metadata={
            "description": "How the deck follows from the joined seed (README)."}),
        "match_id": fields.String(required=True, metadata={"description": "The match's id."}),
        **SEALED_IDS,
    }))


OPEN: dict[str, Callable[[Parts], Envelope]] = {
    "deal": deal, "validate": validate_move, "legal_moves": legal_moves, "view": view,
    "spectator_view": spectator_view, "suggest": suggest, "score": score,
}
"""Each open operation's envelope builder, by the operation's name."""
SEALED: dict[str, Callable[[Parts], Envelope]] = {
    "deal": sealed_deal, "validate": sealed_validate, "legal_moves": sealed_legal_moves,
    "view": sealed_view, "spectator_view": sealed_spectator_view, "events": sealed_events,
    "suggest": sealed_suggest, "score": sealed_score,
    "deal_against_computer": sealed_deal_against_computer, "computer_move": sealed_computer_move,
}
"""Each sealed operation's envelope builder."""


def envelopes(info: GameInfo, game: GameSchemas) -> tuple[dict[str, Envelope], dict[str, Envelope]]:
    """Every operation's envelope for one game: the open ones, and the sealed ones."""
    parts = Parts(info, game)
    return ({operation: build(parts) for operation, build in OPEN.items()},
            {operation: build(parts) for operation, build in SEALED.items()})
