"""Kozel on the wire (docs/rules/kozel.md §4, §7, §8)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from service.cards import codes
from service.games.kozel import rules
from service.wire.fields import StrictBoolean, StrictInteger
from service.wire.schemas import CardFields, GameSchemas, Strict, one_of, options_schema, per_seat

PREFIX = "Kozel"
CODES = tuple(codes(rules.DECK))
SUITS = ("C", "D", "H", "S")
FIELDS = CardFields(PREFIX, CODES, max_seats=4)
_seat, _card, _cards = FIELDS.seat, FIELDS.card, FIELDS.cards


def _per(count: int, field: fields.Field, **kwargs: Any) -> fields.List:
    return per_seat(field, seats=count, **kwargs)


def _team(**kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=validate.Range(0, 1), **kwargs)


KozelOptions = options_schema("KozelOptions", rules.Options)


class KozelTrickCard(Strict):
    seat = _seat(required=True)
    card = _card(required=True)


class _Table(Strict):
    game = one_of(["kozel"], required=True)
    seats = one_of([4], required=True)
    dealer = _seat(required=True)
    to_move = _seat(required=True, allow_none=True)
    status = one_of(["in_progress", "finished"], metadata={"description": "derived"})
    options = fields.Nested(KozelOptions, load_default=dict)
    teams = _per(2, _per(2, _seat()), metadata={"description": "always [[0, 2], [1, 3]]"})
    trump = one_of(SUITS, required=True, allow_none=True, metadata={"description": "null until named"})
    phase = one_of(tuple(rules.Phase), required=True)
    first_leader = _seat(required=True)
    turned = _cards(load_default=list, max_items=9, metadata={
        "description": "cards shown to all while trump was fixed"})
    trick = fields.List(fields.Nested(KozelTrickCard), required=True, validate=validate.Length(0, 3))
    won = _per(2, _cards(max_items=32), required=True, metadata={"description": "per team"})
    points = _per(2, StrictInteger(validate=validate.Range(0, 120)), metadata={
        "description": "per team; derived"})
    tricks_played = StrictInteger(validate=validate.Range(0, 8), metadata={"description": "derived"})
    exchange_done = _per(2, StrictBoolean(), load_default=lambda: [False, False])
    visit = StrictInteger(load_default=0, validate=validate.Range(0, 4), metadata={
        "description": "seats the lone-trump exchange has visited, from the first leader"})
    qc_captured_team = _team(allow_none=True, load_default=None)
    first_deal = StrictBoolean(load_default=False, metadata={"description": "the match's first deal"})
    named_by = _seat(allow_none=True, load_default=None, metadata={
        "description": "who names (named) trump: the dealer's left (three cards) or the JC holder"})


class KozelState(_Table):
    """A Kozel hand; derived fields may be left out, and must agree when sent."""

    hands = _per(4, _cards(max_items=9), required=True)
    undealt = _cards(load_default=list, max_items=29, metadata={
        "description": "three-card method: the cards waiting for name_trump"})
    received_trump = _card(allow_none=True, load_default=None, metadata={
        "description": "the lone trump just given, while the partner's give_back is pending"})


class KozelView(_Table):
    seat = _seat(required=True, allow_none=True)
    hand = _cards(required=True, allow_none=True, max_items=9)
    hand_sizes = _per(4, StrictInteger(validate=validate.Range(0, 9)), required=True)
    undealt_size = StrictInteger(required=True, validate=validate.Range(0, 29))
    received_trump = _card(required=True, allow_none=True, metadata={
        "description": "shown to the two partners of a pending exchange only"})


def _one_card() -> fields.Field:
    return _cards(required=True, min_items=1, max_items=1)


MOVES = FIELDS.moves({
    rules.Play.kind: ("Play a card.", {"cards": _one_card()}),
    rules.NameTrump.kind: ("Name trump: a suit, or (three cards) by the last card received.", {
        "suit": one_of(SUITS, allow_none=True, load_default=None),
        "by_last": StrictBoolean(load_default=False, metadata={
            "description": "three cards: the printed suit of the last card the namer receives"}),
        "deal_order": fields.List(_seat(), allow_none=True, load_default=None,
                                  validate=validate.Length(4, 4), metadata={
            "description": "three cards: the order in which the seats are dealt their packets"}),
    }),
    rules.GiveTrump.kind: ("Pass the lone trump to the partner.", {"cards": _one_card()}),
    rules.GiveBack.kind: ("Give the partner a card back.", {"cards": _one_card()}),
    rules.Pass.kind: ("Keep the lone trump (or have none to give).", {}),
})


class KozelMatch(Strict):
    """§7.2-7.3: pairs uncovered per team; pass it back to ``score`` and ``deal``."""

    pairs_opened = _per(2, StrictInteger(validate=validate.Range(0, 100_000)), required=True)
    multiplier = StrictInteger(required=True, validate=validate.Range(1, 1 << 20))
    over = StrictBoolean(required=True)
    winner = _per(2, _seat(), required=True, allow_none=True, metadata={"description": "a team"})
    loser = _per(2, _seat(), required=True, allow_none=True, metadata={"description": "the goat"})
    next_dealer = _seat(required=True)
    pips_opened = _per(2, StrictInteger(validate=validate.Range(0, 200_000)), metadata={
        "description": "derived: two pips a pair"})
    pairs_left = _per(2, StrictInteger(validate=validate.Range(0, 1000)), metadata={
        "description": "derived"})


class KozelHandScore(Strict):
    points = _per(2, StrictInteger(validate=validate.Range(0, 120)), required=True)
    pairs_opened_this_hand = _per(2, StrictInteger(validate=validate.Range(0, 1 << 24)), required=True)
    eggs = StrictBoolean(required=True)
    qc_captured_team = _team(required=True, allow_none=True)
    multiplier = StrictInteger(required=True, validate=validate.Range(1, 1 << 20))
    next_multiplier = StrictInteger(required=True, validate=validate.Range(1, 1 << 21))


SCHEMAS = GameSchemas(fields=FIELDS, state=KozelState, moves=MOVES, options=KozelOptions,
                      match=KozelMatch, view=KozelView, hand_score=KozelHandScore)
