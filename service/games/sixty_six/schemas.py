"""Sixty-six on the wire: the state, move, options, match, view and score schemas (§4.1, §7.4,
§7.5, §8 of docs/rules/sixty-six.md), in the field names of the rules file."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from service.cards import codes
from service.games.sixty_six import rules
from service.wire.fields import StrictBoolean, StrictInteger
from service.wire.schemas import CardFields, GameSchemas, Strict, one_of, options_schema, per_seat

PREFIX = "SixtySix"
CODES = tuple(codes(rules.DECK))
SUITS = ("C", "D", "H", "S")
FIELDS = CardFields(PREFIX, CODES, max_seats=2)
_seat, _card, _cards = FIELDS.seat, FIELDS.card, FIELDS.cards


def _pair(field: fields.Field, **kwargs: Any) -> fields.List:
    return per_seat(field, seats=2, **kwargs)


def _points(**kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=validate.Range(0, 300), **kwargs)


SixtySixOptions = options_schema("SixtySixOptions", rules.Options)


class SixtySixMarriage(Strict):
    suit = one_of(SUITS, required=True)
    points = one_of((20, 40), required=True)
    credited = StrictBoolean(required=True, metadata={
        "description": "false while pending the declarer's first trick (§4.2, D3)."})


class SixtySixClosedSnapshot(Strict):
    """The closer's opponent at the moment of closing (§4.3)."""

    opponent_points = _points(required=True)
    opponent_tricks = StrictInteger(required=True, validate=validate.Range(0, 12))


class SixtySixTrickCard(Strict):
    seat = _seat(required=True)
    card = _card(required=True)


class SixtySixResult(Strict):
    """§7.4: the hand's result."""

    winner = _seat(required=True, allow_none=True)
    game_points = _pair(StrictInteger(validate=validate.Range(0, 3)), required=True)
    draw = StrictBoolean(required=True)
    reason = one_of([r.value for r in rules.ResultReason], required=True)
    points = _pair(_points(), required=True)
    tricks = _pair(StrictInteger(validate=validate.Range(0, 12)), required=True)


class _Table(Strict):
    """Fields the state and a seat's view share."""

    game = one_of(["sixty-six"], required=True)
    seats = one_of([2], required=True)
    dealer = _seat(required=True)
    to_move = _seat(required=True, allow_none=True, metadata={
        "description": "The seat whose move it is; null once the hand is over."})
    status = one_of(["in_progress", "finished"], metadata={
        "description": "Derived; checked when sent."})
    options = fields.Nested(SixtySixOptions, load_default=dict)
    trump_suit = one_of(SUITS, metadata={"description": "Derived from trump_card; checked when sent."})
    stock_closed_by = _seat(required=True, allow_none=True)
    closed_snapshot = fields.Nested(SixtySixClosedSnapshot, allow_none=True, load_default=None,
                                    metadata={"description": "Required once the stock is closed."})
    leader = _seat(required=True)
    trick = fields.List(fields.Nested(SixtySixTrickCard), required=True,
                        validate=validate.Length(0, 1), metadata={
        "description": "The lead waiting for its reply, or empty."})
    tricks_won = _pair(fields.List(_cards(min_items=2, max_items=2), validate=validate.Length(0, 12)),
                       required=True, metadata={"description": "Per seat, its tricks: lead first."})
    card_points = _pair(_points(), metadata={"description": "Derived; checked when sent."})
    marriages = _pair(fields.List(fields.Nested(SixtySixMarriage), validate=validate.Length(0, 4)),
                      required=True)
    bonus_points = _pair(StrictInteger(validate=validate.OneOf([0, 10])), metadata={
        "description": "The optional last-trick bonus; derived, checked when sent."})
    first_to_66 = _seat(allow_none=True, metadata={
        "description": "The seat that reached 66 first (§6); needed only when both have 66."})
    claimed_by = _seat(allow_none=True, load_default=None)
    tricks_played = StrictInteger(validate=validate.Range(0, 12), metadata={
        "description": "Derived; checked when sent."})
    result = fields.Nested(SixtySixResult, allow_none=True, metadata={
        "description": "Set once the hand is finished (§7.4); checked when sent."})


class SixtySixState(_Table):
    """A Sixty-six hand (§4.1). Derived fields may be omitted; when sent they must agree."""

    trump_card = _card(required=True, metadata={
        "description": "The face-up card under the stock; stays as information once drawn."})
    stock = _cards(required=True, max_items=12, metadata={
        "description": "Draw order, top first; the face-up trump card is last while undrawn."})
    hands = _pair(_cards(max_items=6), required=True)


class SixtySixView(_Table):
    """What one seat (or a spectator) may see: its own hand, never the other's or the stock."""

    seat = _seat(required=True, allow_none=True)
    hand = _cards(required=True, allow_none=True, max_items=6, metadata={
        "description": "The seat's own hand; null for a spectator."})
    hand_sizes = _pair(StrictInteger(validate=validate.Range(0, 6)), required=True)
    stock_size = StrictInteger(required=True, validate=validate.Range(0, 12))
    trump_card = _card(required=True, allow_none=True, metadata={
        "description": "Shown while it lies under the stock; null once drawn."})


MOVES = FIELDS.moves({
    rules.Play.kind: ("Play a card.", {
        "cards": _cards(required=True, min_items=1, max_items=1),
        "marriage": StrictBoolean(load_default=False, metadata={
            "description": "Declare the marriage of the led king or queen (§4.2)."}),
    }),
    rules.Close.kind: ("Close the stock (§4.3).", {}),
    rules.ExchangeTrump.kind: ("Exchange the trump nine for the face-up trump card (§4.4).", {}),
    rules.Claim.kind: ("Stop play and claim 66, with a marriage or not (§4.5).", {
        "marriage_suit": one_of(SUITS, allow_none=True, load_default=None),
    }),
})


class SixtySixMatch(Strict):
    """§7.5: the party so far; pass it back to ``score`` and ``deal``."""

    party_score = _pair(StrictInteger(validate=validate.Range(0, 10_000)), required=True)
    over = StrictBoolean(required=True)
    winner = _seat(required=True, allow_none=True)
    next_dealer = _seat(required=True)


class SixtySixHandScore(SixtySixResult):
    card_points = _pair(_points(), required=True)
    marriage_points = _pair(_points(), required=True, metadata={
        "description": "Credited marriage points."})
    bonus_points = _pair(StrictInteger(validate=validate.OneOf([0, 10])), required=True)


SCHEMAS = GameSchemas(
    fields=FIELDS,
    state=SixtySixState,
    moves=MOVES,
    options=SixtySixOptions,
    match=SixtySixMatch,
    view=SixtySixView,
    hand_score=SixtySixHandScore,
)
