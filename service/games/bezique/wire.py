"""Bezique on the wire (docs/rules/bezique.md §4, §7, §8; API.md, melding games): the state, a
seat's view, the moves, the families of declarations, the result and the match standing, each
field declared once; their schemas, loaders and dumpers are generated from the declarations
(``service.wire.form``).

Written by hand: the consistency check a state passes before any rule runs (``consistency``), a
play's "exactly one of ``cards`` and ``exposed_id``" and its dump (which leaves out what it does
not name), and the families of declarations (only ever dumped, each source with its own fields).
Bezique's own kinds of value (an exposed card's tags, a card from the hand) are ``kinds``'."""

from __future__ import annotations

from collections.abc import Callable

from marshmallow import fields

from service.cards import JOKER, SUITS, codes
from service.errors import FieldError, SchemaViolation
from service.games import views
from service.games.base import EventType, Saying, Wire
from service.games.bezique import consistency, rules
from service.games.bezique import declarations as decl
from service.games.bezique.consistency import require
from service.games.bezique.declarations import KINDS, LADDERED
from service.games.bezique.kinds import HandCard, Maybe, Named, Tags
from service.games.bezique.listing import DeclareFamily
from service.games.bezique.rules import (
    HAND_SIZE,
    Declare,
    ExchangeTrump,
    Exposed,
    Move,
    Options,
    Pass,
    Phase,
    Play,
    Played,
    State,
)
from service.games.bezique.scoring import HandResult, MatchStanding, result
from service.games.wired import STATUS, WireForm, declared
from service.i18n import N_
from service.wire.form import GameWire, Record, const, derived, field
from service.wire.kinds import BOOL, CARD, CARD_IN_LIST, SEAT, Int, Kind, ListOf, OneOf, PerSeat, Pile, Raw

LARGEST = rules.full_deck(Options(packs=10))
WIRE = GameWire("Bezique", tuple(dict.fromkeys(codes(LARGEST))), max_seats=4)
MAX_ID = 1_000
"""Exposed ids count the cards declared in a hand: far fewer than this."""
MAX_STOCK = len(LARGEST) - 2 * HAND_SIZE
EXPOSED_ID = Int(1, MAX_ID)
TRICKS = Int(0, 200)
HAND_COUNT = Int(0, HAND_SIZE)
OPTIONS = WIRE.options(Options)


def per_seat(kind: Kind) -> PerSeat:
    """Over every seat, the sitting-out dealer's entry empty (API.md)."""
    return PerSeat(kind, (2, 4))


EXPOSED = Named(WIRE.record("ExposedCard", tuple, {
    "id": field(EXPOSED_ID),
    "card": field(CARD, "the physical card (`JK` allowed)"),
    "as": field(CARD, "its identity: for a `JK` the card it was shown as, otherwise `card`", attr="as_"),
    "tags": field(Tags(OneOf(KINDS), 1, len(KINDS)), "the declaration kinds it has scored in, sorted"),
}, "A card shown in a declaration: it stays on the table, part of its owner's holding."), Exposed)

TRICK_CARD = Named(WIRE.record("TrickCard", tuple, {
    "seat": field(SEAT),
    "card": field(CARD),
    "as": field(CARD, "its identity", attr="as_"),
    "from": field(OneOf(("hand", "table")), attr="source"),
}), Played)

DECL_COUNTS: Record[tuple[int, ...]] = WIRE.record(
    "DeclCounts", tuple, {kind: field(Int(0, 100)) for kind in LADDERED},
    "Declarations made this hand of each laddered kind (the ladder's rung).")

RESULT = WIRE.record("Result", HandResult, {
    "scores": field(per_seat(Int())),
    "tricks_played": field(TRICKS),
    "last_trick_winner": field(SEAT),
    "hand_winners": field(ListOf(SEAT, 1, 3)),
}, "§7.2, once the hand is finished.")


def _result(state: State) -> HandResult | None:
    return result(state) if state.finished else None


TABLE = {
    "game": const("bezique"),
    "seats": field(OneOf((2, 3, 4))),
    "dealer": field(SEAT),
    "active": derived(ListOf(SEAT, 2, 3), "active",
                      "derived: the seats dealt in, clockwise from the dealer's left (§2.3)"),
    "to_move": field(SEAT, nullable=True),
    "status": derived(STATUS, "finished", "derived"),
    "options": field(OPTIONS, default={}),
    "trump_suit": field(OneOf(SUITS)),
    "bezique_jack": derived(CARD, "bezique_jack", "derived from the trump suit (§2.4)"),
    "trump_card": derived(CARD, "trump_card", "derived: the face-up card, the stock's last while it is "
                          "undrawn; else null", nullable=True),
    "exposed": field(per_seat(ListOf(EXPOSED, 0, 18))),
    "next_exposed_id": field(Int(1, MAX_ID + 1)),
    "phase": field(OneOf(Phase)),
    "leader": field(SEAT),
    "trick": field(ListOf(TRICK_CARD, 0, 2), "emptied once the trick is won"),
    "trick_winner": field(SEAT, "the seat whose declaration window is open; null outside it",
                          nullable=True, default=None),
    "declared_in_window": field(BOOL),
    "decl_counts": field(per_seat(DECL_COUNTS)),
    "last_declared_after_trick": field(per_seat(Maybe(TRICKS, null=True)),
                                       "per seat, the trick after which it last declared; null: not yet"),
    "scores": field(per_seat(Int(0, 1 << 40)), "this hand's points"),
    "tricks_played": field(TRICKS),
    "result": derived(RESULT, _result, "derived: the hand's result once finished, else null", nullable=True),
}
"""The fields the state and a seat's view share."""

STATE_FIELDS = {
    **TABLE,
    "stock": field(Pile(0, MAX_STOCK), "in draw order"),
    "hands": field(per_seat(Pile(0, HAND_SIZE)), "the concealed cards"),
    "won_cards": field(per_seat(Pile(0, len(LARGEST)))),
}
STATE_DOC = "A Bezique hand; derived fields may be left out, and must agree when sent."
STATE = WIRE.record("State", State, STATE_FIELDS, STATE_DOC)


VIEW = WIRE.view(State, TABLE, {
    "seat": derived(SEAT, views.seat, required=True, nullable=True),
    "hand": derived(Pile(0, HAND_SIZE), views.hand, required=True, nullable=True),
    "hand_sizes": derived(per_seat(HAND_COUNT), views.hand_sizes, required=True),
    "stock_size": derived(Int(0, MAX_STOCK), views.stock_size, required=True),
    "won_sizes": derived(per_seat(Int(0, len(LARGEST))), views.sizes("won_cards"), required=True),
}, "What one seat may see (§D13): its own concealed hand; exposed cards, the trick, the scores and "
   "the turned trump card; the other hands, the stock and the cards won as counts.")

_IDENTITY_NOTE = "a wild card (`JK`) from the hand needs `as`: " + " ".join(c.code for c in decl.IDENTITIES)
HAND_CARD = HandCard(WIRE.schema("HandCard", {
    "card": field(CARD),
    "as": field(CARD, "for a `JK` only: the card it stands for", optional=True, sometimes=True),
}))

MOVES = WIRE.moves_of({
    Play: ("Play a card to the trick: one from the hand, or one of the cards already shown on the table. "
           "A joker from the hand is played as the card its player names.", {
        "cards": field(Maybe(CARD_IN_LIST), attr="card", optional=True, sometimes=True),
        "as": field(Maybe(CARD), _IDENTITY_NOTE, attr="as_", optional=True, sometimes=True),
        "exposed_id": field(EXPOSED_ID, optional=True, sometimes=True),
    }),
    Declare: ("Declare a combination after winning a trick: its cards from the hand are laid face up on "
              "the table, and cards already shown may count again in a combination of another kind.", {
        "kind": field(OneOf(KINDS), attr="declaration"),
        "multiplicity": field(Int(1, HAND_SIZE), "how many sets: 2 is a double declaration", default=1),
        "from_hand": field(ListOf(HAND_CARD, 0, HAND_SIZE)),
        "from_table": field(ListOf(EXPOSED_ID, 0, HAND_SIZE), "ids of the seat's exposed cards used again",
                            default=[]),
    }),
    Pass: ("Declare nothing after the trick just won; then everyone draws from the stock.", {}),
    ExchangeTrump: ("Exchange the trump nine from the hand for the turned trump card.", {}),
})

KIND_TEXTS = {
    "bezique": N_("A bezique: the queen of trumps and the bezique jack, the jack of the other suit of the "
                  "trumps' colour."),
    "trump_quint": N_("A trump quint: the ace, ten, king, queen and jack of trumps, or the bezique jack in "
                      "place of the jack."),
    "trump_marriage": N_("A trump marriage: the king and the queen of trumps."),
    "four_aces": N_("Four aces of any suits."), "four_kings": N_("Four kings of any suits."),
    "four_queens": N_("Four queens of any suits."), "four_jacks": N_("Four jacks of any suits."),
    "four_trump_aces": N_("Four aces of trumps."), "four_trump_tens": N_("Four tens of trumps."),
    "four_trump_kings": N_("Four kings of trumps."), "four_trump_queens": N_("Four queens of trumps."),
    "four_trump_jacks": N_("Four jacks of trumps."), "four_bezique_jacks": N_("Four bezique jacks."),
    "extra_trump_ace": N_("One more ace of trumps, added to four already shown."),
    "extra_trump_ten": N_("One more ten of trumps, added to four already shown."),
    "extra_trump_king": N_("One more king of trumps, added to four already shown."),
    "extra_trump_queen": N_("One more queen of trumps, added to four already shown."),
    "extra_trump_jack": N_("One more jack of trumps, added to four already shown."),
    "extra_bezique_jack": N_("One more bezique jack, added to four already shown."),
}
"""What each declaration kind is (§4.5), in ``KINDS``' order."""

DECLARED = {
    "bezique": N_("a bezique"), "trump_quint": N_("a trump quint"), "trump_marriage": N_("a trump marriage"),
    "four_aces": N_("four aces"), "four_kings": N_("four kings"), "four_queens": N_("four queens"),
    "four_jacks": N_("four jacks"), "four_trump_aces": N_("four trump aces"),
    "four_trump_tens": N_("four trump tens"), "four_trump_kings": N_("four trump kings"),
    "four_trump_queens": N_("four trump queens"), "four_trump_jacks": N_("four trump jacks"),
    "four_bezique_jacks": N_("four bezique jacks"),
    "extra_trump_ace": N_("one more trump ace"), "extra_trump_ten": N_("one more trump ten"),
    "extra_trump_king": N_("one more trump king"), "extra_trump_queen": N_("one more trump queen"),
    "extra_trump_jack": N_("one more trump jack"), "extra_bezique_jack": N_("one more bezique jack"),
}
"""Each declaration kind as an event's sentence names it («Место 3 объявляет безик: 25 очков»)."""

EVENTS = {
    "card_played": EventType(
        "A player plays a card from the hand to the trick.", cards=True, hand=-1,
        says=Saying("{seat} plays {cards}", you="You play {cards}")),
    "table_card_played": EventType(
        "A player plays to the trick one of the cards they have shown on the table.", cards=True,
        says=Saying("{seat} plays {cards} from the table", you="You play {cards} from the table")),
    "trick_won": EventType(
        "A player wins the trick and takes its cards, given in the order they were played.", cards=True,
        says=Saying("{seat} wins the trick: {cards}", you="You win the trick: {cards}")),
    "declared": EventType(
        "A player declares a combination, lays its cards from the hand face up on the table and scores "
        "its points.", cards=True, points=True, kinds=KIND_TEXTS, hand=-1,
        says=Saying("{seat} declares {kind}: {points}", you="You declare {kind}: {points}", kinds=DECLARED)),
    "passed": EventType(
        "The winner of the trick declares nothing.",
        says=Saying("{seat} declares nothing", you="You declare nothing")),
    "trump_exchanged": EventType(
        "A player lays the trump nine in place of the turned trump card and scores the points the options "
        "give for it; the player's taking the turned card follows.", cards=True, points=True, hand=-1,
        says=Saying("{seat} exchanges {cards} for the turned trump card: {points}",
                    you="You exchange {cards} for the turned trump card: {points}")),
    "trump_card_taken": EventType(
        "A player takes the turned trump card in exchange for the trump nine.", cards=True, hand=1,
        says=Saying("{seat} takes the turned trump card, {cards}",
                    you="You take the turned trump card, {cards}")),
    "card_drawn": EventType(
        "A player draws a card from the stock, the trick's winner first; only that player sees it.",
        cards=True, private=True, hand=1,
        says=Saying("{seat} draws {cards} from the stock", you="You draw {cards} from the stock",
                    hidden="{seat} draws a card from the stock")),
    "trump_card_drawn": EventType(
        "A player draws the turned trump card, the last card of the stock.", cards=True, hand=1,
        says=Saying("{seat} draws the turned trump card, {cards}",
                    you="You draw the turned trump card, {cards}")),
    "hand_over": EventType(
        "The stock cannot give every player a card: the hand is over. Its winner is the one player with the "
        "highest score, or nobody when several share it.", winner=True,
        says=Saying("The hand is over: {seat} wins it", you="The hand is over: you win it",
                    nobody="The hand is over: a tie for the highest score")),
}
"""What a move may cause, each type with the fields it carries (``EventType``)."""


_load_move: Callable[[Wire], Move] = MOVES.load


def load_move(wire: Wire) -> Move:
    """A move checked against the schema; raises ``SchemaViolation`` (pointers relative to the
    move) for a play that names no card or two."""
    if wire["type"] == "play" and ("cards" in wire) is ("exposed_id" in wire):
        why = N_("a play sends exactly one of: cards, exposed_id")
        errors = (FieldError("/exposed_id" if "cards" in wire else "/cards", why),)
        raise SchemaViolation("the move does not match the schema", errors)
    return _load_move(wire)


def dump_move(move: Move) -> Wire:
    """As ``MOVES`` declares it; a play by hand, which leaves out (rather than writes null) what
    it does not name: the declared dumper writes every field."""
    if not isinstance(move, Play):
        return MOVES.dump(move)
    if move.exposed_id is not None:
        return {"seat": move.seat, "type": "play", "exposed_id": move.exposed_id}
    card = move.card.code  # type: ignore[union-attr]  # a play names a card or an exposed one
    if move.as_ is None:
        return {"seat": move.seat, "type": "play", "cards": [card]}
    return {"seat": move.seat, "type": "play", "cards": [card], "as": move.as_.code}


def _nested(schema: type) -> Raw:
    """An object nested in a family, written by hand (``dump_family``)."""
    return Raw(lambda ctx, **kwargs: fields.Nested(schema, **kwargs))


FAMILY_SOURCE = WIRE.schema("FamilySource", {
    "card": field(CARD, "`card` alone: natural cards of the concealed hand, each `{\"card\": card}` in "
                  "`from_hand`; `JK` with `as`: wild cards, each `{\"card\": \"JK\", \"as\": as}` in "
                  "`from_hand`", optional=True, sometimes=True),
    "as": field(CARD, "with `card` `JK` only: the identity the wild cards are nominated as", optional=True,
                sometimes=True),
    "table": field(ListOf(EXPOSED_ID, 1, 18), "exposed cards alike for the rules (§4.6), lowest id first: "
                   "k cards of this source are its first k ids, in `from_table`. A source has exactly one "
                   "of `card` and `table`", optional=True, sometimes=True),
    "most": field(HAND_COUNT, "the most cards it gives"),
}, "Where a slot's cards may come from: hand cards of one identity, wild cards nominated as one "
   "identity, or a class of exposed cards; exactly one of `card` and `table`.")

FAMILY_SLOT = WIRE.schema("FamilySlot", {
    "count": field(HAND_COUNT, "exactly this many cards: m times the group's cards in one set (§4.5), "
                   "such as the m trump queens of an m-fold bezique or the 4m cards of a four"),
    "from": field(ListOf(_nested(FAMILY_SOURCE))),
}, "One group of the kind's set (§4.5) for m sets.")

FAMILY = WIRE.schema("Family", {
    "seat": field(SEAT),
    "type": const(Declare.kind),
    "kind": field(OneOf(KINDS)),
    "multiplicity": field(Int(1, HAND_SIZE)),
    "slots": field(ListOf(_nested(FAMILY_SLOT), 1, 5), "A declaration of the family (`kind`, "
                   "`multiplicity`) fills every slot with exactly its `count` cards, each source giving at "
                   "most its `most`, the wild cards of all slots together at most `jokers`, and at least one "
                   "card from the hand. Every declaration so built is legal, and every legal declaration of "
                   "this kind and multiplicity is one of them up to interchangeable cards (§4.6); `moves` "
                   "lists none of them."),
    "jokers": field(Int(0, 2), "the wild cards (`JK`) in the hand"),
    "count": field(Int(0, 1 << 40), "how many declarations (in canonical form) the family stands for"),
}, "§4.6: the declarations of one kind and multiplicity when there are too many to list one by one "
   "(a family of moves, not a scoring family of §4.5).")


def dump_family(family: DeclareFamily) -> Wire:
    """A family of declarations (§4.6), as ``FAMILY`` describes it."""
    found = family.choices
    slots = [{"count": slot.count, "from": [_source(s) for s in slot.sources]} for slot in found.slots]
    return {"seat": family.seat, "type": family.kind, "kind": found.kind, "multiplicity": found.multiplicity,
            "slots": slots, "jokers": found.jokers, "count": found.count}


def _source(source: decl.Source) -> Wire:
    if source.ids:
        return {"table": list(source.ids), "most": source.most}
    if source.wild:
        return {"card": JOKER.code, "as": source.identity.code, "most": source.most}
    return {"card": source.identity.code, "most": source.most}


MATCH = WIRE.record("Match", MatchStanding, {
    "totals": field(per_seat(Int(0, 1 << 50))),
    "target": field(Int(1, 10_000_000), "derived: the option `target_score` the match is played to",
                    optional=True),
    "over": field(BOOL),
    "winner": field(ListOf(SEAT, 1, 1), "the seat with the highest total, once over", nullable=True),
    "next_dealer": field(SEAT),
    "sitting_out": derived(SEAT, "sitting_out", "derived: the seat that sits out the next hand (its dealer "
                           "at 3 or 4), or null", nullable=True, checked=False),
}, "§7.3: running totals per seat; pass it back to ``score`` and ``deal``.")

HAND_SCORE = WIRE.schema("HandScore", {
    **RESULT.fields,
    "scores": field(per_seat(Int()),
                    "per seat: declarations, exchanges and the optional brisques and last trick"),
})


def load_state(wire: Wire) -> State:
    """Build the state and check it; ``InvalidState`` pointers are relative to the state."""
    seats = wire["seats"]
    for name in ("hands", "exposed", "won_cards", "scores", "decl_counts", "last_declared_after_trick"):
        require(len(wire[name]) == seats, f"/{name}", N_("one entry per seat: {seats}"), seats=seats)
    require(wire["dealer"] < seats, "/dealer", N_("seats are 0..{last}"), last=seats - 1)
    state = STATE.load(wire)
    consistency.check(state)
    STATE.check(wire, state)
    return state


FORM: WireForm[State, Move] = declared(WIRE, load_state, STATE, VIEW, MOVES, options=OPTIONS, match=MATCH,
                                       hand_score=HAND_SCORE, family=FAMILY, by_hand=(load_move, dump_move),
                                       dump_family=dump_family)
