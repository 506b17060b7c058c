"""The host's request bodies, checked with marshmallow; a refusal names every field that is
wrong by its JSON pointer (``host.app.body``)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from host.settings import LEVEL_BUDGET_MS

KEY = {"validate": ma.validate.Length(min=1, max=64)}


class NewTable(ma.Schema):
    game = ma.fields.String(required=True, metadata={"description": "A game id of `GET /v1/games`."})
    players = ma.fields.Integer(load_default=None,
                                metadata={"description": "The game's default when omitted."})
    options = ma.fields.Dict(load_default=dict,
                             metadata={"description": "The game's options, as `deal` takes them."})
    computer_seats = ma.fields.List(ma.fields.Integer(validate=ma.validate.Range(min=0, max=5)),
                                    load_default=list, validate=ma.validate.Length(max=5),
                                    metadata={"description": "Seats the computer player plays."})
    computer_level = ma.fields.Integer(
        load_default=3, validate=ma.validate.Range(min=1, max=max(LEVEL_BUDGET_MS)),
        metadata={"description": "1 (the greedy player) to 5 (the longest search)."})
    turn_seconds = ma.fields.Integer(load_default=None, allow_none=True,
                                     validate=ma.validate.Range(min=5, max=86_400),
                                     metadata={"description": "A person's time for a move; past it the host "
                                                              "plays the computer's choice. None: no timer."})
    lang = ma.fields.String(load_default="en", validate=ma.validate.OneOf(["en", "ru"]))


class Join(ma.Schema):
    invite = ma.fields.String(required=True, **KEY)


class MoveIn(ma.Schema):
    move = ma.fields.Dict(required=True, metadata={"description": "The move as `validate` takes it; its "
                                                                  "`seat` may be left out."})
    move_number = ma.fields.Integer(required=True, validate=ma.validate.Range(min=0),
                                    metadata={"description": "The hand's move number the move is made at."})


class SeatIn(ma.Schema):
    computer = ma.fields.Boolean(required=True, metadata={
        "description": "True: the computer plays this seat until it is taken back (false)."})


def pointers(errors: Any, at: str = "") -> list[tuple[str, str]]:
    """marshmallow's nested error messages as (JSON pointer, message) pairs."""
    if isinstance(errors, dict):
        return [pair for name, inner in errors.items() for pair in pointers(inner, f"{at}/{name}")]
    if isinstance(errors, list) and all(isinstance(e, str) for e in errors):
        return [(at or "/", message) for message in errors]
    return [pair for inner in errors for pair in pointers(inner, at)]
