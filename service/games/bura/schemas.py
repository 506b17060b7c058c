"""Bura on the wire (shared/rules/bura.md §4.1, §7, §8)."""

from __future__ import annotations

from marshmallow import fields, validate

from service.api.fields import StrictBoolean, StrictInteger
from service.api.schemas import GameSchemas, Strict, named, one_of
from service.cards import codes
from service.games.bura import rules
from service.games.multi_trick.schemas import Family, state_and_view, trick_moves

FAMILY = Family(prefix="Bura", game="bura", codes=tuple(codes(rules.DECK)), max_seats=6,
                hand_size=rules.HAND_SIZE, phases=("play", "final_claims", "over"),
                ending_kinds=("claim", "bura", "moscow", "void"))
REASONS = ("claim_correct", "claim_false", "bura", "moscow", "void")


class BuraOptions(Strict):
    """§8; every option may be omitted and takes its default."""

    players = StrictInteger(load_default=2, validate=validate.Range(2, 6), metadata={
        "description": "Number of seats; a deal sets it from `players`."})
    winning_points = StrictInteger(load_default=31, validate=validate.Range(1, 120))
    open_play = StrictBoolean(load_default=False, metadata={
        "description": "Seed variant 40.a: discards are played face up too."})
    molodka_out_of_turn = StrictBoolean(load_default=True)
    moscow = StrictBoolean(load_default=True, metadata={"description": "Three aces win the hand."})
    moscow_requires_trump_ace = StrictBoolean(load_default=True)
    void_carry = StrictBoolean(load_default=True, metadata={
        "description": "A void hand's value carries to the next hand."})
    target_games = StrictInteger(load_default=11, validate=validate.Range(1, 1000))
    next_leader = one_of(["dealer_left", "last_trick_winner"], load_default="dealer_left")


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
    "claim": named("BuraClaim", "I have 31.", {
        "seat": FAMILY.seat(required=True), "type": one_of(["claim"], required=True)}),
    "declare": named("BuraDeclare", "Show bura (three trumps) or Moscow (three aces).", {
        "seat": FAMILY.seat(required=True), "type": one_of(["declare"], required=True),
        "combination": one_of(["bura", "moscow"], required=True)}),
    "pass": named("BuraPass", "Decline to claim in the final round.", {
        "seat": FAMILY.seat(required=True), "type": one_of(["pass"], required=True)}),
}

SCHEMAS = GameSchemas(
    prefix="Bura", card_codes=FAMILY.codes, player_counts=(2, 3, 4, 5, 6), state=STATE, moves=MOVES,
    options=BuraOptions, match=BuraMatch, view=VIEW, hand_score=BuraHandScore,
    reasons=tuple(rules.RULES),
    event_types=("lead", "molodka", "beat", "discard", "trick_won", "card_drawn", "final_claims",
                 "claimed", "declared", "passed", "hand_over"),
)
