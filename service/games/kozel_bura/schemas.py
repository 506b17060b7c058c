"""Kozel-bura on the wire (shared/rules/kozel-bura.md §4.1, §7, §8)."""

from __future__ import annotations

from marshmallow import fields, validate

from service.api.fields import StrictBoolean, StrictInteger
from service.api.schemas import GameSchemas, Strict, one_of
from service.cards import codes
from service.games.kozel_bura import rules
from service.games.multi_trick.schemas import Family, state_and_view, trick_moves

FAMILY = Family(prefix="KozelBura", game="kozel-bura", codes=tuple(codes(rules.DECKS[36])),
                max_seats=5, hand_size=rules.HAND_SIZE, phases=("play", "over"),
                ending_kinds=("bura", "played_out"))


class KozelBuraOptions(Strict):
    """§8; every option may be omitted and takes its default."""

    players = StrictInteger(load_default=2, validate=validate.Range(2, 5), metadata={
        "description": "Number of seats; a deal sets it from `players`."})
    deck = one_of([36, 32], load_default=36, metadata={"description": "32 leaves out the sixes."})
    triple_lead = StrictBoolean(load_default=False, metadata={
        "description": "Leads of three cards of one suit, and the molodka out of turn."})
    egg_compounding = StrictBoolean(load_default=False, metadata={
        "description": "Ties in a row keep doubling the next hand."})
    penalty_limit = StrictInteger(load_default=12, validate=validate.Range(1, 10_000))


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

SCHEMAS = GameSchemas(
    prefix="KozelBura", card_codes=FAMILY.codes, player_counts=(2, 3, 4, 5), state=STATE,
    moves=trick_moves(FAMILY), options=KozelBuraOptions, match=KozelBuraMatch, view=VIEW,
    hand_score=KozelBuraHandScore, reasons=tuple(rules.RULES),
    event_types=("lead", "molodka", "beat", "discard", "trick_won", "card_drawn", "hand_over"),
)
