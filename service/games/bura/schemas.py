"""Bura on the wire (docs/rules/bura.md §4.1, §7, §8)."""

from __future__ import annotations

from marshmallow import fields, validate

from service.cards import codes
from service.games.bura import rules
from service.games.tricks.sets import Phase
from service.games.tricks.sets_schemas import Family, state_and_view, trick_moves
from service.wire.fields import StrictBoolean, StrictInteger
from service.wire.schemas import GameSchemas, Strict, one_of, options_schema

FAMILY = Family(prefix="Bura", game="bura", codes=tuple(codes(rules.DECK)), max_seats=6,
                hand_size=rules.HAND_SIZE, phases=tuple(Phase),
                ending_kinds=("claim", "bura", "moscow", "void"))
REASONS = ("claim_correct", "claim_false", "bura", "moscow", "void")


BuraOptions = options_schema("BuraOptions", rules.Options)


class BuraResult(Strict):
    reason = one_of(REASONS, required=True)
    seat = FAMILY.seat(required=True, allow_none=True, metadata={"description": "who claimed or declared"})
    winners = fields.List(FAMILY.seat(), required=True)
    losers = fields.List(FAMILY.seat(), required=True)
    points = FAMILY.per_seat(StrictInteger(validate=validate.Range(0, 120)), required=True)


class BuraMatch(Strict):
    """§7.3: the match so far; pass it back to ``score`` and ``deal``."""

    match_scores = FAMILY.per_seat(StrictInteger(validate=validate.Range(0, 100_000)), required=True)
    void_streak = StrictInteger(required=True, validate=validate.Range(0, 10_000))
    over = StrictBoolean(required=True)
    winner = fields.List(FAMILY.seat(), required=True, allow_none=True, metadata={
        "description": "the seats with the most games once the match is over"})
    next_dealer = FAMILY.seat(required=True)
    next_leader = FAMILY.seat(required=True)


class BuraHandScore(BuraResult):
    value = StrictInteger(required=True, validate=validate.Range(0, 10_001), metadata={
        "description": "games each winner adds (1 + void hands before it, with void_carry)"})


STATE, VIEW = state_and_view(FAMILY, BuraOptions, BuraResult, {
    "passes": StrictInteger(load_default=0, validate=validate.Range(0, 6), metadata={
        "description": "seats that passed in the final claim round"}),
})
MOVES = {
    **trick_moves(FAMILY),
    **FAMILY.moves({
        rules.Claim.kind: ("I have 31.", {}),
        rules.Declare.kind: ("Show bura (three trumps) or Moscow (three aces).", {
            "combination": one_of(["bura", "moscow"], required=True)}),
        rules.Pass.kind: ("Decline to claim in the final round.", {}),
    }),
}

SCHEMAS = GameSchemas(fields=FAMILY, state=STATE, moves=MOVES, options=BuraOptions, match=BuraMatch,
                      view=VIEW, hand_score=BuraHandScore)
