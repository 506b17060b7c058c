"""Canasta on the wire (docs/rules/canasta.md §4, §7, §8; API.md, melding games)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from service.cards import codes
from service.games.canasta import melds as m
from service.games.canasta import rules
from service.wire.fields import StrictBoolean, StrictInteger
from service.wire.schemas import CardFields, GameSchemas, Strict, named, one_of, options_schema

PREFIX = "Canasta"
CODES = tuple(dict.fromkeys(codes(rules.full_deck(6))))
DECK = len(rules.full_deck(6))
FIELDS = CardFields(PREFIX, CODES, max_seats=6)
_seat, _cards = FIELDS.seat, FIELDS.cards
NATURAL_KEYS = tuple(k for k in m.KEY_ORDER if k not in (m.THREE, m.WILD_KEY))


def _per(field: fields.Field, least: int, most: int, **kwargs: Any) -> fields.List:
    return fields.List(field, validate=validate.Length(least, most), **kwargs)


def _count(most: int, **kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=validate.Range(0, most), **kwargs)


CanastaOptions = options_schema("CanastaOptions", rules.Options)
CanastaMelds = named("CanastaMelds", "A side's melds by key (a natural rank; `3` the black threes, or in "
                     "`seed_13` every three; `W` the wild meld of `seed_13`), each its cards.",
                     {key: _cards(max_items=DECK) for key in m.KEY_ORDER})


class CanastaTurnInfo(Strict):
    """§4.0: what the current turn has done so far."""

    drew = one_of(["stock", "pile", "upcard"], required=True, allow_none=True)
    keys_at_start = fields.List(one_of(m.KEY_ORDER), required=True, validate=validate.Length(0, 13),
                                metadata={"description": "the side's meld keys when the turn began"})
    added_to_old = StrictBoolean(required=True)
    melded_this_turn = StrictBoolean(required=True)
    actions = _count(10_000, required=True, metadata={"description": "meld and exchange_joker moves so far"})
    asked = StrictBoolean(required=True)
    permission = one_of(["yes", "no"], required=True, allow_none=True)


class CanastaResult(Strict):
    reason = one_of(["went_out", "stock_exhausted", "red_three_last"], required=True)
    went_out = _seat(required=True, allow_none=True)
    concealed = StrictBoolean(required=True)


def _side_list(field: fields.Field, **kwargs: Any) -> fields.List:
    return _per(field, 2, 3, **kwargs)


def _seat_list(field: fields.Field, **kwargs: Any) -> fields.List:
    return _per(field, 2, 6, **kwargs)


class _Table(Strict):
    game = one_of(["canasta"], required=True)
    seats = one_of([2, 3, 4, 6], required=True)
    dealer = _seat(required=True)
    to_move = _seat(required=True, allow_none=True)
    status = one_of(["in_progress", "finished"], metadata={"description": "derived"})
    teams = _side_list(fields.List(_seat(), validate=validate.Length(1, 3)), metadata={
        "description": "derived: the sides' seats ([[0, 2], [1, 3]] at four; one seat a side at 2 and 3)"})
    options = fields.Nested(CanastaOptions, load_default=dict)
    side_scores = _side_list(StrictInteger(validate=validate.Range(-10_000_000, 10_000_000)), required=True,
                             metadata={"description": "each side's match total before this hand"})
    pile = _cards(required=True, max_items=DECK, metadata={"description": "top card first"})
    pile_frozen = StrictBoolean(required=True)
    melds = _side_list(fields.Nested(CanastaMelds), required=True)
    red_threes = _seat_list(_cards(max_items=6), required=True)
    turn = _seat(required=True)
    phase = one_of(tuple(rules.Phase), required=True)
    turn_index = _count(100_000, required=True)
    has_melded = _seat_list(StrictBoolean(), required=True)
    turn_info = fields.Nested(CanastaTurnInfo, required=True)
    result = fields.Nested(CanastaResult, required=True, allow_none=True)


class CanastaState(_Table):
    """A Canasta hand; derived fields may be left out, and must agree when sent."""

    hands = _seat_list(_cards(max_items=DECK), required=True)
    stock = _cards(required=True, max_items=DECK, metadata={"description": "top card first"})


class CanastaView(_Table):
    """What one seat may see: its own hand; the other hands and the stock as counts; the pile,
    the melds and the red threes."""

    seat = _seat(required=True, allow_none=True)
    hand = _cards(required=True, allow_none=True, max_items=DECK)
    hand_sizes = _seat_list(_count(DECK), required=True)
    stock_size = _count(DECK, required=True)


class CanastaGroup(Strict):
    """Cards from the hand for one meld key."""

    rank = one_of(m.KEY_ORDER, required=True, metadata={"description": "the meld key"})
    cards = _cards(required=True, max_items=DECK)


def _groups(**kwargs: Any) -> fields.List:
    return fields.List(fields.Nested(CanastaGroup), validate=validate.Length(0, 13), **kwargs)


def _one_card() -> fields.Field:
    return _cards(required=True, min_items=1, max_items=1)


MOVES = FIELDS.moves({
    rules.Draw.kind: ("Draw from the stock (two cards at a table of two).", {}),
    rules.TakePile.kind: ("Take the whole discard pile, melding its top card (§4.3).", {
        "top_cards": _cards(load_default=list, max_items=DECK, metadata={
            "description": "hand cards melded with the pile's top card"}),
        "melds": _groups(load_default=list, metadata={"description": "further groups laid in the same move"}),
    }),
    rules.TakeUpcard.kind: ("`seed_108`: the first player takes the upcard, showing what it is for.", {
        "show": _cards(required=True, max_items=DECK),
    }),
    rules.Meld.kind: ("Lay groups from the hand onto the side's melds, new or old.", {
        "melds": _groups(required=True),
    }),
    rules.ExchangeJoker.kind: ("`seed_108`: take a joker from an opponent's meld for a natural card.", {
        "from_side": StrictInteger(required=True, validate=validate.Range(0, 2)),
        "rank": one_of(NATURAL_KEYS, required=True),
        "cards": _one_card(),
    }),
    rules.Discard.kind: ("Discard a card, ending the turn.", {"cards": _one_card()}),
    rules.AskGoOut.kind: ("Ask the partner whether to go out (option `ask_permission`).", {}),
    rules.AnswerGoOut.kind: ("The partner's answer.", {"answer": StrictBoolean(required=True)}),
    rules.DeclinePile.kind: ("With the stock gone, leave a pile that need not be taken: the hand ends.", {}),
})


class CanastaSideScore(Strict):
    """§7.1, one side's hand score by its parts."""

    meld_points = StrictInteger(required=True)
    canasta_bonus = StrictInteger(required=True)
    red_three_points = StrictInteger(required=True)
    going_out_bonus = StrictInteger(required=True)
    hand_penalty = StrictInteger(required=True)
    total = StrictInteger(required=True)


class CanastaHandScore(Strict):
    sides = _side_list(fields.Nested(CanastaSideScore), required=True)
    reason = one_of(["went_out", "stock_exhausted", "red_three_last"], required=True)
    went_out = _seat(required=True, allow_none=True)
    concealed = StrictBoolean(required=True)


class CanastaMatch(Strict):
    """§7.2: running totals per side; pass it back to ``score`` and ``deal``."""

    totals = _side_list(StrictInteger(validate=validate.Range(-10_000_000, 10_000_000)), required=True)
    target = StrictInteger(validate=validate.Range(1, 10_000_000), metadata={
        "description": "derived: the total the match is played to"})
    over = StrictBoolean(required=True)
    winner = fields.List(_seat(), required=True, allow_none=True, validate=validate.Length(1, 3), metadata={
        "description": "the winning side's seats, once over"})
    next_dealer = _seat(required=True)
    next_minimums = _side_list(_count(100_000), metadata={
        "description": "derived: each side's first-meld minimum in the next hand"})


class CanastaFamilyGroup(Strict):
    """A group a family's move may lay: `least` or more of `naturals` (the hand's cards of the
    key, alike for the rules: take the first ones), and at most `most_wild` wild cards from the
    family's `twos` and `jokers`; three cards at least (the top group counts the pile's top card)."""

    rank = one_of(m.KEY_ORDER, required=True, metadata={"description": "the meld key"})
    naturals = _cards(required=True, max_items=DECK)
    least = _count(DECK, required=True)
    most_wild = _count(DECK, required=True)
    points = _count(100, required=True, metadata={"description": "what each of its naturals is worth"})


class CanastaFamily(Strict):
    """§4.13: the multi-group `meld`s or `take_pile`s of a side without melds, when there are too
    many to list one by one. A move of the family lays, for a take, the `top` group (its cards go
    in `top_cards`) and any of `groups` (in `melds`); for a meld, one or more of `groups`. Each
    group within its bounds, each key once; the wild cards of all groups together at most the
    family's `twos` and `jokers`. The move must be worth `least_points` or more (each natural its
    group's `points`, each 2 `two_points`, each joker `joker_points`, and a take's top card
    `top_card_points`), leave the mover between `cards_left.least` and `cards_left.most` cards
    (the hand holds `cards` before the move lays any), and make `least_canastas` groups of seven
    cards or more. Every move so built is legal, and the family has at least one."""

    seat = _seat(required=True)
    type = one_of([rules.Meld.kind, rules.TakePile.kind], required=True)
    top = fields.Nested(CanastaFamilyGroup, required=True, allow_none=True, metadata={
        "description": "take_pile: the group of the pile's top card; null for a meld"})
    groups = fields.List(fields.Nested(CanastaFamilyGroup), required=True, validate=validate.Length(0, 13))
    twos = _cards(required=True, max_items=DECK)
    jokers = _count(DECK, required=True)
    two_points = _count(100, required=True)
    joker_points = _count(100, required=True)
    top_card_points = _count(100, required=True)
    least_points = _count(100_000, required=True, allow_none=True, metadata={
        "description": "the first meld's minimum; null: exempt (a concealed going out)"})
    cards = _count(DECK, required=True)
    cards_left = fields.Nested(named("CanastaCardsLeft", "The mover's hand after the move.", {
        "least": _count(DECK, required=True),
        "most": _count(DECK, required=True, allow_none=True, metadata={"description": "null: no bound"}),
    }), required=True)
    least_canastas = _count(3, required=True)


SCHEMAS = GameSchemas(fields=FIELDS, state=CanastaState, moves=MOVES, options=CanastaOptions,
                      match=CanastaMatch, view=CanastaView, hand_score=CanastaHandScore, family=CanastaFamily)
