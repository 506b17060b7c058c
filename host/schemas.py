"""The host's request bodies, checked with marshmallow; a refusal names every field that is
wrong by its JSON pointer (``host.app``), in the answer's language: each field's messages are
message ids of the catalogs (``host/messages.ru.po``), none of marshmallow's own English."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from service.games.registry import GAMES
from service.i18n import N_
from service.player.levels import BY_NUMBER

TYPES = {
    ma.fields.String: N_("a string"), ma.fields.Integer: N_("a whole number"),
    ma.fields.Boolean: N_("yes or no"), ma.fields.Dict: N_("a JSON object"), ma.fields.List: N_("a list"),
}


def field(kind: type[ma.fields.Field], *args: Any, within: str | None = None, **kwargs: Any) -> Any:
    """A field whose refusals are the catalogs' sentences: its type's, and ``within`` for a
    value out of its range or choices."""
    messages: dict[str, str | list[Any] | dict[Any, Any]] = {
        "required": N_("this field is required"), "null": N_("this field may not be empty"),
        "invalid": TYPES[kind], "type": TYPES[kind]}
    if within is not None:
        kwargs["validate"] = _within(kwargs["validate"], within)
    kwargs.update(STRICT.get(kind, {}))
    return kind(*args, error_messages=messages, **kwargs)


STRICT: dict[type[ma.fields.Field], dict[str, Any]] = {
    ma.fields.Integer: {"strict": True}, ma.fields.Boolean: {"truthy": {True}, "falsy": {False}}}
"""JSON's types as they are: no number written as a string, no 2.5 taken for 2, no "yes" for true."""


WITHIN: set[str] = set()
"""Every ``within`` sentence: a refusal already in the catalogs' words."""


def _within(validator: Any, message: str) -> Any:
    WITHIN.add(message)
    validator.error = message
    return validator


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    error_messages = {"unknown": N_("this field is not one of the request's"),
                      "type": N_("a JSON object")}


class NewTable(Strict):
    game = field(ma.fields.String, required=True, validate=ma.validate.OneOf(sorted(GAMES)),
                 within=N_("a game of this service"),
                 metadata={"description": "A game id of `GET /v1/games`."})
    players = field(ma.fields.Integer, load_default=None,
                    metadata={"description": "The game's default when omitted."})
    options = field(ma.fields.Dict, load_default=dict,
                    metadata={"description": "The game's options, as `deal` takes them."})
    computer_seats = field(ma.fields.List, field(ma.fields.Integer, validate=ma.validate.Range(min=0, max=5),
                                                 within=N_("a seat: 0 to 5")),
                           load_default=list, validate=ma.validate.Length(max=5),
                           within=N_("5 seats at most"),
                           metadata={"description": "Seats the computer player plays."})
    computer_level = field(ma.fields.Integer, load_default=3,
                           validate=ma.validate.Range(min=1, max=max(BY_NUMBER)),
                           within=N_("a level from 1 to 5"),
                           metadata={"description": "The computer player's level, as `suggest`'s `level`: "
                                                    "1 (a beginner's opponent) to 5 (the longest search)."})
    turn_seconds = field(ma.fields.Integer, load_default=None, allow_none=True,
                         validate=ma.validate.Range(min=5, max=86_400), within=N_("from 5 to 86400 seconds"),
                         metadata={"description": "A person's time for a move; past it the host plays the "
                                                  "computer's choice. None: no timer."})
    lang = field(ma.fields.String, load_default="en", validate=ma.validate.OneOf(["en", "ru"]),
                 within=N_("en or ru"), metadata={"description": "The language of the table's page."})


class Join(Strict):
    invite = field(ma.fields.String, required=True, validate=ma.validate.Length(min=1, max=64),
                   within=N_("an invitation: 1 to 64 characters"))


class MoveIn(Strict):
    move = field(ma.fields.Dict, required=True, metadata={
        "description": "The move as `validate` takes it; its `seat` may be left out."})
    move_number = field(ma.fields.Integer, required=True, validate=ma.validate.Range(min=0),
                        within=N_("a move number: 0 or more"),
                        metadata={"description": "The hand's move number the move is made at."})


class SeatIn(Strict):
    computer = field(ma.fields.Boolean, required=True, metadata={
        "description": "True: the computer plays this seat until it is taken back (false)."})


MARSHMALLOW = {
    "Unknown field.": N_("this field is not one of the request's"),
    "Missing data for required field.": N_("this field is required"),
    "Field may not be null.": N_("this field may not be empty"),
    "Not a valid integer.": N_("a whole number"), "Not a valid string.": N_("a string"),
    "Not a valid boolean.": N_("yes or no"), "Not a valid list.": N_("a list"),
    "Not a valid mapping type.": N_("a JSON object"), "Invalid input type.": N_("a JSON object"),
}
"""The games' schemas (a move, the options) refuse in marshmallow's English: each of its
messages as one of the catalogs', any other as ``OTHER``, so that no refusal mixes languages."""
OTHER = N_("a value this field does not take")


def pointers(errors: Any, at: str = "") -> list[tuple[str, str]]:
    """marshmallow's nested error messages as (JSON pointer, message id) pairs."""
    if isinstance(errors, dict):
        return [pair for name, inner in errors.items() for pair in pointers(inner, f"{at}/{name}")]
    if isinstance(errors, list) and all(isinstance(e, str) for e in errors):
        return [(at or "/", _ours(message)) for message in errors]
    return [pair for inner in errors for pair in pointers(inner, at)]


def _ours(message: str) -> str:
    ours = set(TYPES.values()) | set(MARSHMALLOW.values())
    return message if message in ours or message in WITHIN else MARSHMALLOW.get(message, OTHER)


# The answers, for the OpenAPI document (host/openapi.yaml, ``python -m host.spec``) ------------

class Invite(ma.Schema):
    seat = ma.fields.Integer(required=True)
    invite = ma.fields.String(required=True, metadata={"description": "Opens its seat once (`join`)."})


class Opened(ma.Schema):
    table_id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    players = ma.fields.Integer(required=True)
    invites = ma.fields.List(ma.fields.Nested(Invite), required=True,
                             metadata={"description": "One per person's seat."})
    spectator_key = ma.fields.String(required=True,
                                     metadata={"description": "Proves a spectator, who may watch."})


class Joined(ma.Schema):
    table_id = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    seat_key = ma.fields.String(required=True, metadata={"description": "Sent as `Authorization: Bearer`."})


class SeatState(ma.Schema):
    seat = ma.fields.Integer(required=True)
    computer = ma.fields.Boolean(required=True, metadata={"description": "A computer's seat from the start."})
    joined = ma.fields.Boolean(required=True)
    away = ma.fields.Boolean(required=True,
                             metadata={"description": "A person's seat the computer plays now."})
    connected = ma.fields.Boolean(required=True, metadata={"description": "It has an event stream open."})


class TableOut(ma.Schema):
    table_id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    players = ma.fields.Integer(required=True)
    options = ma.fields.Dict(required=True)
    seat = ma.fields.Integer(required=True, allow_none=True, metadata={"description": "None: a spectator."})
    hand_number = ma.fields.Integer(required=True)
    move_number = ma.fields.Integer(required=True, metadata={"description": "Moves of this hand so far."})
    to_move = ma.fields.Integer(required=True, allow_none=True)
    view = ma.fields.Dict(required=True, metadata={"description": "The game's `view` for the seat (a "
                                                                  "spectator's for a spectator)."})
    moves = ma.fields.List(ma.fields.Dict(), required=True, metadata={
        "description": "The seat's legal moves when it is to move, as `legal-moves` lists them; else empty."})
    families = ma.fields.List(ma.fields.Dict(), metadata={"description": "Bezique's and Canasta's, as "
                                                                         "`legal-moves` answers them."})
    seats = ma.fields.List(ma.fields.Nested(SeatState), required=True)
    deadline = ma.fields.Float(required=True, allow_none=True, metadata={
        "description": "When the person to move runs out of time (seconds since the epoch)."})
    turn_seconds = ma.fields.Integer(required=True, allow_none=True)
    computer_level = ma.fields.Integer(required=True)
    lang = ma.fields.String(required=True)
    match = ma.fields.Dict(required=True, allow_none=True, metadata={
        "description": "The standing after the last hand scored, as `score` answers it."})
    over = ma.fields.Boolean(required=True, metadata={"description": "The match is over."})
    closed = ma.fields.Boolean(required=True, metadata={"description": "Closed for idleness."})
    last_event_id = ma.fields.Integer(required=True)


class TableEvent(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    id = ma.fields.Integer(required=True,
                           metadata={"description": "Increasing; `Last-Event-ID` resumes after it."})
    type = ma.fields.String(required=True, metadata={"description": (
        "move (`seat`, `by`: seat, computer or timer, `hand_number`, `move_number`, `events`: the game's "
        "events as `sealed/events` tells them to the reader), dealt, joined, connected, reconnected, left, "
        "computer_took, taken_back, timer_started (`seat`, `deadline`, `seconds`), timer_expired, hand_over "
        "(`hand`, `match_before`, `match`, `record`, `server_seed`, `seed_commitment`), match_over, "
        "table_closed")})
    text = ma.fields.String(required=True, metadata={"description": (
        "The event in one sentence for a person, in the table's language (or the one the request asks "
        "for: `lang`, `Accept-Language`), said to the seat reading it: seats counted from 1 («Место 2 "
        "в сети»), the reader in the second person («Вы снова в игре»), a spectator reading every seat "
        "in the third. A move's game `events` each have theirs too, as `sealed/events` says them "
        "(«Место 2 кладёт даму пик»), of a card the reader may not see only that there was one.")})


class Reason(ma.Schema):
    code = ma.fields.String(required=True)
    message = ma.fields.String(required=True, metadata={"description": (
        "Why, in one sentence for the person who tried the move, in the answer's language: no code, "
        "field name or rule number in it («У вас нет дамы треф»).")})
    template = ma.fields.String(required=True, metadata={"description": (
        "`message` before its values are written in: `{seat}`, `{card}`, `{count}`… each named in "
        "`params`, with the case it stands in after a colon (`{card:gen}`).")})
    params = ma.fields.Dict(keys=ma.fields.String(), required=True, metadata={"description": (
        "The values of `template`: a seat as its number (from 0, as `seat` everywhere), a card as its "
        "code, a suit as its letter, a count as a number.")})
    rule = ma.fields.String(required=True)


class Verdict(ma.Schema):
    legal = ma.fields.Boolean(required=True)
    move_number = ma.fields.Integer(required=True)
    hand_number = ma.fields.Integer(metadata={"description": "A legal move's."})
    to_move = ma.fields.Integer(allow_none=True, metadata={"description": "A legal move's."})
    events = ma.fields.List(ma.fields.Nested(TableEvent), metadata={
        "description": "A legal move's events, as the mover's stream tells them."})
    reason = ma.fields.Nested(Reason, metadata={"description": "An illegal move's."})


class SeatOut(ma.Schema):
    seat = ma.fields.Integer(required=True)
    computer = ma.fields.Boolean(required=True)


class Ticket(ma.Schema):
    ticket = ma.fields.String(required=True, metadata={"description": "Opens the seat's stream: "
                                                                      "`.../events?ticket=`."})
    expires_in = ma.fields.Integer(required=True)
