"""Kozel-bura on the wire (docs/rules/kozel-bura.md §4.1, §7, §8)."""

from __future__ import annotations

from marshmallow import fields, validate

from service.cards import codes
from service.games.kozel_bura import rules
from service.games.tricks.sets import Phase
from service.games.tricks.sets_schemas import Family, state_and_view, trick_moves
from service.wire.fields import StrictBoolean, StrictInteger
from service.wire.schemas import GameSchemas, Strict, one_of, options_schema

FAMILY = Family(prefix="KozelBura", game="kozel-bura", codes=tuple(codes(rules.DECKS[36])),
                max_seats=5, hand_size=rules.HAND_SIZE, phases=(Phase.PLAY, Phase.OVER),
                ending_kinds=("bura", "played_out"))


KozelBuraOptions = options_schema("KozelBuraOptions", rules.Options)


class KozelBuraResult(Strict):
    reason = one_of(["bura", "played_out", "eggs"], required=True)
    winner = FAMILY.seat(required=True, allow_none=True)
    points = FAMILY.per_seat(StrictInteger(validate=validate.Range(0, 120)), required=True)


class KozelBuraMatch(Strict):
    """§7.2: penalty points so far; pass it back to ``score`` and ``deal``."""

    penalties = FAMILY.per_seat(StrictInteger(validate=validate.Range(0, 100_000)), required=True)
    multiplier = StrictInteger(required=True, validate=validate.Range(1, 1 << 20), metadata={
        "description": "the next hand's multiplier: 2 after eggs"})
    over = StrictBoolean(required=True)
    losers = fields.List(FAMILY.seat(), required=True, allow_none=True, metadata={
        "description": "the goats: seats at or past the penalty limit"})
    winner = fields.List(FAMILY.seat(), required=True, allow_none=True, metadata={
        "description": "every other seat, once the match is over"})
    next_dealer = FAMILY.seat(required=True)


class KozelBuraHandScore(KozelBuraResult):
    penalties = FAMILY.per_seat(StrictInteger(validate=validate.Range(0, 1 << 24)), required=True)
    multiplier = StrictInteger(required=True, validate=validate.Range(1, 1 << 20))


STATE, VIEW = state_and_view(FAMILY, KozelBuraOptions, KozelBuraResult, {})

SCHEMAS = GameSchemas(fields=FAMILY, state=STATE, moves=trick_moves(FAMILY), options=KozelBuraOptions,
                      match=KozelBuraMatch, view=VIEW, hand_score=KozelBuraHandScore)
