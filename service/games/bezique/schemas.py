"""Bezique on the wire (docs/rules/bezique.md §4, §7, §8; API.md, melding games)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from service.cards import SUITS, codes
from service.games.bezique import rules
from service.games.bezique.declarations import IDENTITIES, KINDS
from service.wire.fields import StrictBoolean, StrictInteger
from service.wire.schemas import (
    CardFields,
    GameSchemas,
    Strict,
    one_of,
    options_schema,
)

PREFIX = "Bezique"
CODES = tuple(dict.fromkeys(codes(rules.full_deck(rules.Options(packs=10)))))
MAX_ID = 1_000
"""Exposed ids count the cards declared in a hand: far fewer than this."""
FIELDS = CardFields(PREFIX, CODES, max_seats=4)
_seat, _card, _cards = FIELDS.seat, FIELDS.card, FIELDS.cards
MAX_DECK = len(rules.full_deck(rules.Options(packs=10)))
MAX_STOCK = MAX_DECK - 2 * rules.HAND_SIZE


def _per_seat(field: fields.Field, **kwargs: Any) -> fields.List:
    """Over every seat, the sitting-out dealer's entry empty (API.md)."""
    return fields.List(field, validate=validate.Length(2, 4), **kwargs)


def _count(most: int, **kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=validate.Range(0, most), **kwargs)


BeziqueOptions = options_schema("BeziqueOptions", rules.Options)


class BeziqueExposedCard(Strict):
    """A card shown in a declaration: it stays on the table, part of its owner's holding."""

    id = StrictInteger(required=True, validate=validate.Range(1, MAX_ID))
    card = _card(required=True, metadata={"description": "the physical card (`JK` allowed)"})
    as_ = _card(required=True, data_key="as", metadata={
        "description": "its identity: for a `JK` the card it was shown as, otherwise `card`"})
    tags = fields.List(one_of(KINDS), required=True, validate=validate.Length(1, len(KINDS)), metadata={
        "description": "the declaration kinds it has scored in, sorted"})


class BeziqueTrickCard(Strict):
    seat = _seat(required=True)
    card = _card(required=True)
    as_ = _card(required=True, data_key="as", metadata={"description": "its identity"})
    from_ = one_of(["hand", "table"], required=True, data_key="from")


class BeziqueDeclCounts(Strict):
    """Declarations made this hand of each laddered kind (the ladder's rung)."""

    bezique = _count(100, required=True)
    trump_quint = _count(100, required=True)
    trump_marriage = _count(100, required=True)


class BeziqueResult(Strict):
    """§7.2, once the hand is finished."""

    scores = _per_seat(StrictInteger(), required=True)
    tricks_played = _count(200, required=True)
    last_trick_winner = _seat(required=True)
    hand_winners = fields.List(_seat(), required=True, validate=validate.Length(1, 3))


class _Table(Strict):
    game = one_of(["bezique"], required=True)
    seats = one_of([2, 3, 4], required=True)
    dealer = _seat(required=True)
    active = fields.List(_seat(), validate=validate.Length(2, 3), metadata={
        "description": "derived: the seats dealt in, clockwise from the dealer's left (§2.3)"})
    to_move = _seat(required=True, allow_none=True)
    status = one_of(["in_progress", "finished"], metadata={"description": "derived"})
    options = fields.Nested(BeziqueOptions, load_default=dict)
    trump_suit = one_of(SUITS, required=True)
    bezique_jack = _card(metadata={"description": "derived from the trump suit (§2.4)"})
    trump_card = _card(allow_none=True, metadata={
        "description": "derived: the face-up card, the stock's last while it is undrawn; else null"})
    exposed = _per_seat(fields.List(fields.Nested(BeziqueExposedCard), validate=validate.Length(0, 18)),
                        required=True)
    next_exposed_id = StrictInteger(required=True, validate=validate.Range(1, MAX_ID + 1))
    phase = one_of(tuple(rules.Phase), required=True)
    leader = _seat(required=True)
    trick = fields.List(fields.Nested(BeziqueTrickCard), required=True, validate=validate.Length(0, 2),
                        metadata={"description": "emptied once the trick is won"})
    trick_winner = _seat(allow_none=True, load_default=None, metadata={
        "description": "the seat whose declaration window is open; null outside it"})
    declared_in_window = StrictBoolean(required=True)
    decl_counts = _per_seat(fields.Nested(BeziqueDeclCounts), required=True)
    last_declared_after_trick = _per_seat(_count(200, allow_none=True), required=True, metadata={
        "description": "per seat, the trick after which it last declared; null: not yet"})
    scores = _per_seat(_count(1 << 40), required=True, metadata={"description": "this hand's points"})
    tricks_played = _count(200, required=True)
    result = fields.Nested(BeziqueResult, allow_none=True, metadata={
        "description": "derived: the hand's result once finished, else null"})


class BeziqueState(_Table):
    """A Bezique hand; derived fields may be left out, and must agree when sent."""

    stock = _cards(required=True, max_items=MAX_STOCK, metadata={"description": "in draw order"})
    hands = _per_seat(_cards(max_items=rules.HAND_SIZE), required=True, metadata={
        "description": "the concealed cards"})
    won_cards = _per_seat(_cards(max_items=MAX_DECK), required=True)


class BeziqueView(_Table):
    """What one seat may see: its own concealed hand; exposed cards, the trick, the scores and the
    turned trump card; the other hands, the stock and the cards won as counts."""

    seat = _seat(required=True, allow_none=True)
    hand = _cards(required=True, allow_none=True, max_items=rules.HAND_SIZE)
    hand_sizes = _per_seat(_count(rules.HAND_SIZE), required=True)
    stock_size = _count(MAX_STOCK, required=True)
    won_sizes = _per_seat(_count(MAX_DECK), required=True)


class BeziqueHandCard(Strict):
    card = _card(required=True)
    as_ = _card(data_key="as", metadata={"description": "for a `JK` only: the card it stands for"})


_IDENTITY_NOTE = "a wild card (`JK`) from the hand needs `as`: " + " ".join(c.code for c in IDENTITIES)

MOVES = FIELDS.moves({
    rules.Play.kind: ("Play a card: from the concealed hand (`cards`), or an exposed card by its id "
                      "(`exposed_id`). Send exactly one of the two: both or neither is a 422.", {
        "cards": _cards(min_items=1, max_items=1),
        "as_": _card(data_key="as", metadata={"description": _IDENTITY_NOTE}),
        "exposed_id": StrictInteger(validate=validate.Range(1, MAX_ID)),
    }),
    rules.Declare.kind: ("Declare a combination (a pokazka) after winning a trick (§4.3).", {
        "kind": one_of(KINDS, required=True),
        "multiplicity": StrictInteger(load_default=1, validate=validate.Range(1, rules.HAND_SIZE),
                                      metadata={"description": "how many sets: 2 is a double pokazka"}),
        "from_hand": fields.List(fields.Nested(BeziqueHandCard), required=True,
                                 validate=validate.Length(0, rules.HAND_SIZE)),
        "from_table": fields.List(StrictInteger(validate=validate.Range(1, MAX_ID)), load_default=list,
                                  validate=validate.Length(0, rules.HAND_SIZE), metadata={
            "description": "ids of the seat's exposed cards used again"}),
    }),
    rules.Pass.kind: ("Declare nothing for the trick just won; the draw follows.", {}),
    rules.ExchangeTrump.kind: ("Exchange the trump nine for the turned trump card (§4.4).", {}),
})


class BeziqueFamilySource(Strict):
    """Where a slot's cards may come from: hand cards of one identity, wild cards nominated as one
    identity, or a class of exposed cards; exactly one of `card` and `table`."""

    card = _card(metadata={"description": "`card` alone: natural cards of the concealed hand, each "
                           "`{\"card\": card}` in `from_hand`; `JK` with `as`: wild cards, each "
                           "`{\"card\": \"JK\", \"as\": as}` in `from_hand`"})
    as_ = _card(data_key="as", metadata={"description": "with `card` `JK` only: the identity the wild cards "
                                         "are nominated as"})
    table = fields.List(StrictInteger(validate=validate.Range(1, MAX_ID)), validate=validate.Length(1, 18),
                        metadata={"description": "exposed cards alike for the rules (§4.6), lowest id first: "
                                  "k cards of this source are its first k ids, in `from_table`. A source has "
                                  "exactly one of `card` and `table`"})
    most = _count(rules.HAND_SIZE, required=True, metadata={"description": "the most cards it gives"})


class BeziqueFamilySlot(Strict):
    """One group of the kind's set (§4.5) for m sets."""

    count = _count(rules.HAND_SIZE, required=True, metadata={
        "description": "exactly this many cards: m times the group's cards in one set (§4.5), such as the "
                       "m trump queens of an m-fold bezique or the 4m cards of a four"})
    from_ = fields.List(fields.Nested(BeziqueFamilySource), required=True, data_key="from")


_FAMILY_RULE = (
    "A declaration of the family (`kind`, `multiplicity`) fills every slot with exactly its `count` cards, "
    "each source giving at most its `most`, the wild cards of all slots together at most `jokers`, and at "
    "least one card from the hand. Every declaration so built is legal, and every legal declaration of this "
    "kind and multiplicity is one of them up to interchangeable cards (§4.6); `moves` lists none of them.")


class BeziqueFamily(Strict):
    """§4.6: the declarations of one kind and multiplicity when there are too many to list one by
    one (a family of moves, not a scoring family of §4.5)."""

    seat = _seat(required=True)
    type = one_of([rules.Declare.kind], required=True)
    kind = one_of(KINDS, required=True)
    multiplicity = StrictInteger(required=True, validate=validate.Range(1, rules.HAND_SIZE))
    slots = fields.List(fields.Nested(BeziqueFamilySlot), required=True, validate=validate.Length(1, 5),
                        metadata={"description": _FAMILY_RULE})
    jokers = _count(2, required=True, metadata={"description": "the wild cards (`JK`) in the hand"})
    count = _count(1 << 40, required=True, metadata={
        "description": "how many declarations (in canonical form) the family stands for"})


class BeziqueMatch(Strict):
    """§7.3: running totals per seat; pass it back to ``score`` and ``deal``."""

    totals = _per_seat(StrictInteger(validate=validate.Range(0, 1 << 50)), required=True)
    target = StrictInteger(validate=validate.Range(1, 10_000_000), metadata={
        "description": "derived: the option `target_score` the match is played to"})
    over = StrictBoolean(required=True)
    winner = fields.List(_seat(), required=True, allow_none=True, validate=validate.Length(1, 1),
                         metadata={"description": "the seat with the highest total, once over"})
    next_dealer = _seat(required=True)
    sitting_out = _seat(allow_none=True, metadata={
        "description": "derived: the seat that sits out the next hand (its dealer at 3 or 4), or null"})


class BeziqueHandScore(Strict):
    scores = _per_seat(StrictInteger(), required=True, metadata={
        "description": "per seat: declarations, exchanges and the optional brisques and last trick"})
    tricks_played = _count(200, required=True)
    last_trick_winner = _seat(required=True)
    hand_winners = fields.List(_seat(), required=True, validate=validate.Length(1, 3))


SCHEMAS = GameSchemas(fields=FIELDS, state=BeziqueState, moves=MOVES, options=BeziqueOptions,
                      match=BeziqueMatch, view=BeziqueView, hand_score=BeziqueHandScore,
                      family=BeziqueFamily)
