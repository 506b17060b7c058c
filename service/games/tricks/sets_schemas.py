"""Schemas of tricks of sets: the Bura family's state, view and trick moves, built per game
(names carry the game's prefix, card codes are the game's deck)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from service.cards import SUITS
from service.games.tricks.sets import Lead, Molodka, Respond
from service.wire.fields import StrictBoolean, StrictInteger
from service.wire.schemas import CardFields, named, one_of


@dataclass(frozen=True)
class Family(CardFields):
    """One game of the family, as its schemas need it."""

    game: str
    hand_size: int
    phases: tuple[str, ...]
    ending_kinds: tuple[str, ...]

    def per_seat(self, field: fields.Field, **kwargs: Any) -> fields.List:
        return fields.List(field, validate=validate.Length(2, self.max_seats), **kwargs)


def trick_schema(family: Family, *, for_view: bool) -> type[ma.Schema]:
    p = family.prefix
    played = named(f"{p}Played" + ("View" if for_view else ""), "Cards one seat put on the trick.", {
        "seat": family.seat(required=True),
        "cards": family.cards(required=True, min_items=1 if not for_view else 0, max_items=3,
                              allow_none=for_view, metadata={
            "description": "null in a view for someone else's face-down discard"
            if for_view else "the cards, as played"}),
        "beat": StrictBoolean(required=True, metadata={
            "description": "true for the lead and for every answer that beat the winning set"}),
        "face_down": StrictBoolean(required=True),
    })
    return named(f"{p}Trick" + ("View" if for_view else ""), "The trick under way.", {
        "leader": family.seat(required=True),
        "plays": fields.List(fields.Nested(played), required=True,
                             validate=validate.Length(1, family.max_seats)),
        "size": StrictInteger(validate=validate.Range(1, 3), metadata={"description": "derived"}),
        "winning_seat": family.seat(metadata={"description": "derived"}),
        "winning_set": family.cards(max_items=3, metadata={"description": "derived"}),
    })


def ending_schema(family: Family) -> type[ma.Schema]:
    return named(f"{family.prefix}Ending", "How the hand ended.", {
        "kind": one_of(family.ending_kinds, required=True),
        "seat": family.seat(required=True, allow_none=True),
    })


def table_fields(family: Family, options: type[ma.Schema], result: type[ma.Schema]) -> dict[str, Any]:
    """Fields the state and a view share."""
    return {
        "game": one_of([family.game], required=True),
        "seats": StrictInteger(required=True, validate=validate.Range(2, family.max_seats)),
        "dealer": family.seat(required=True),
        "to_move": family.seat(required=True, allow_none=True),
        "status": one_of(["in_progress", "finished"], metadata={"description": "derived"}),
        "options": fields.Nested(options, load_default=dict),
        "trump": one_of(SUITS, metadata={"description": "derived from trump_card"}),
        "leader": family.seat(required=True),
        "phase": one_of(family.phases, required=True),
        "ending": fields.Nested(ending_schema(family), allow_none=True, load_default=None),
        "last_taker": family.seat(allow_none=True, load_default=None, metadata={
            "description": "The seat that took the last completed trick."}),
        "result": fields.Nested(result, allow_none=True, metadata={
            "description": "Set once the hand is over; derived, checked when sent."}),
    }


def state_and_view(family: Family, options: type[ma.Schema], result: type[ma.Schema],
                   extra: dict[str, Any]) -> tuple[type[ma.Schema], type[ma.Schema]]:
    p, size = family.prefix, family.hand_size
    table = table_fields(family, options, result)
    state = named(f"{p}State", "A hand in progress or finished; derived fields may be left out.", {
        **table, **extra,
        "trump_card": family.card(required=True),
        "stock": family.cards(required=True, max_items=len(family.codes)),
        "hands": family.per_seat(family.cards(max_items=size), required=True),
        "won": family.per_seat(family.cards(max_items=len(family.codes)), required=True),
        "points": family.per_seat(StrictInteger(validate=validate.Range(0, 120)),
                                  metadata={"description": "derived"}),
        "trick": fields.Nested(trick_schema(family, for_view=False), required=True, allow_none=True),
    })
    view = named(f"{p}View", "What one seat (or a spectator) may see.", {
        **table, **extra,
        "seat": family.seat(required=True, allow_none=True),
        "hand": family.cards(required=True, allow_none=True, max_items=size),
        "hand_sizes": family.per_seat(StrictInteger(validate=validate.Range(0, size)), required=True),
        "stock_size": StrictInteger(required=True, validate=validate.Range(0, len(family.codes))),
        "trump_card": family.card(required=True, allow_none=True, metadata={
            "description": "shown while it lies under the stock"}),
        "won": family.per_seat(family.cards(allow_none=True), required=True, metadata={
            "description": "a pile is null where its face-down cards are hidden from this seat"}),
        "won_sizes": family.per_seat(StrictInteger(validate=validate.Range(0, 36)), required=True),
        "points": family.per_seat(StrictInteger(allow_none=True, validate=validate.Range(0, 120)),
                                  required=True),
        "trick": fields.Nested(trick_schema(family, for_view=True), required=True, allow_none=True),
    })
    return state, view


def trick_moves(family: Family) -> dict[str, type[ma.Schema]]:
    def cards() -> fields.Field:
        return family.cards(required=True, min_items=1, max_items=3)

    return family.moves({
        Lead.kind: ("Lead cards of one suit.", {"cards": cards()}),
        Molodka.kind: ("Three cards of one suit led out of turn.", {"cards": cards()}),
        Respond.kind: ("Answer the trick card for card.", {
            "cards": cards(),
            "mode": one_of(["beat", "discard"], allow_none=True, load_default=None, metadata={
                "description": "omitted: beat if the cards beat, else discard"})}),
    })
