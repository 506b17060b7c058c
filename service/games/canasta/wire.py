"""Canasta on the wire (docs/rules/canasta.md §4, §7, §8; API.md, melding games): the state, a
seat's view, the moves, the families of moves, the hand's score and the match standing, each
field declared once; their schemas, loaders and dumpers are generated from the declarations
(``service.wire.form``).

Written by hand: two kinds of value no shared kind has (a side's melds, an object of piles by
meld key; the meld keys a turn began with, a set), and the consistency check a state passes
before any rule runs. Input here has already passed the JSON schema, so types and codes are
right; what is checked is whether the position can arise under the rules."""

from __future__ import annotations

from itertools import chain
from typing import Any

import marshmallow as ma
from marshmallow import fields

from service.cards import Card, codes
from service.errors import InvalidState
from service.games.base import EventType, Saying, Wire
from service.games.canasta import melds as m
from service.games.canasta import moves as mv
from service.games.canasta import rules
from service.games.canasta.families import Family, GroupChoice
from service.games.canasta.rules import Group, Options, Phase, Result, State, TurnInfo
from service.games.canasta.scoring import Standing
from service.games.decks import check_deck
from service.games.seating import left_of
from service.games.wired import STATUS, WireForm, declared
from service.i18n import N_
from service.wire.codegen import Source
from service.wire.form import GameWire, const, derived, field
from service.wire.kinds import BOOL, CARD_IN_LIST, SEAT, Int, Kind, ListOf, OneOf, PerSeat, Pile
from service.wire.schemas import CardFields

DECK = len(rules.full_deck(6))
WIRE = GameWire("Canasta", tuple(dict.fromkeys(codes(rules.full_deck(6)))), max_seats=6)
CARDS = Pile(0, DECK)
COUNT = Int(0, DECK)
POINTS = Int(0, 100)
KEY = OneOf(m.KEY_ORDER)
TOTAL = Int(-10_000_000, 10_000_000)
NATURAL_KEYS = tuple(k for k in m.KEY_ORDER if k not in (m.THREE, m.WILD_KEY))


def per_side(kind: Kind) -> PerSeat:
    return PerSeat(kind, (2, 3))


def per_seat(kind: Kind) -> PerSeat:
    return PerSeat(kind, (2, 6))


OPTIONS = WIRE.options(Options)
MELDS = WIRE.schema("Melds", {key: field(CARDS, optional=True, sometimes=True) for key in m.KEY_ORDER},
                     "A side's melds by key (a natural rank; `3` the black threes, or in `seed_13` every "
                     "three; `W` the wild meld of `seed_13`), each its cards.")
KEY_RANK = {key: index for index, key in enumerate(m.KEY_ORDER)}


class SideMelds(Kind):
    """A side's melds (``MELDS``): an object of piles by meld key, written in ``KEY_ORDER``; a
    dict of tuples of cards in the state, in the order the melds were made."""

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return fields.Nested(MELDS, **kwargs)

    def read(self, src: str, code: Source) -> str:
        key, cards = code.temp(), code.temp()
        return f"{{{key}: {CARDS.read(cards, code)} for {key}, {cards} in {src}.items()}}"

    def write(self, src: str, code: Source) -> str:
        # src is one side's melds, a loop variable: cheap to look up once a key
        key, order = code.temp(), code.ref(m.KEY_ORDER, "KEY_ORDER")
        return f"{{{key}: {CARDS.write(f'{src}[{key}]', code)} for {key} in {order} if {key} in {src}}}"


class KeySet(ListOf):
    """Meld keys: a list in ``KEY_ORDER`` on the wire, a frozenset in the state."""

    def read(self, src: str, code: Source) -> str:
        return f"{code.ref(frozenset, 'frozenset')}({src})"

    def write(self, src: str, code: Source) -> str:
        return f"{code.ref(sorted, 'sorted')}({src}, key={code.ref(KEY_RANK.__getitem__, 'rank')})"


TURN_INFO = WIRE.record("TurnInfo", TurnInfo, {
    "drew": field(OneOf(("stock", "pile", "upcard")), nullable=True),
    "keys_at_start": field(KeySet(KEY, 0, 13), "the side's meld keys when the turn began"),
    "added_to_old": field(BOOL),
    "melded_this_turn": field(BOOL),
    "actions": field(Int(0, 10_000), "meld and exchange_joker moves so far"),
    "asked": field(BOOL),
    "permission": field(OneOf(("yes", "no")), nullable=True),
}, "§4.0: what the current turn has done so far.")

RESULT = WIRE.record("Result", Result, {
    "reason": field(OneOf(("went_out", "stock_exhausted", "red_three_last"))),
    "went_out": field(SEAT, nullable=True),
    "concealed": field(BOOL),
})


def _teams(state: State) -> tuple[tuple[int, ...], ...]:
    return state.table.sides.all()


TABLE = {
    "game": const("canasta"),
    "seats": field(OneOf((2, 3, 4, 6))),
    "dealer": field(SEAT),
    "to_move": field(SEAT, nullable=True),
    "status": derived(STATUS, "finished", "derived"),
    "teams": derived(per_side(ListOf(SEAT, 1, 3)), _teams,
                     "derived: the sides' seats ([[0, 2], [1, 3]] at four; one seat a side at 2 and 3)"),
    "options": field(OPTIONS, default={}),
    "side_scores": field(per_side(TOTAL), "each side's match total before this hand"),
    "pile": field(CARDS, "top card first"),
    "pile_frozen": field(BOOL),
    "melds": field(per_side(SideMelds())),
    "red_threes": field(per_seat(Pile(0, 6))),
    "turn": field(SEAT),
    "phase": field(OneOf(Phase)),
    "turn_index": field(Int(0, 100_000)),
    "has_melded": field(per_seat(BOOL)),
    "turn_info": field(TURN_INFO),
    "result": field(RESULT, nullable=True),
}
"""The fields the state and a seat's view share."""

STATE = WIRE.record("State", State, {
    **TABLE,
    "hands": field(per_seat(CARDS)),
    "stock": field(CARDS, "top card first"),
}, "A Canasta hand; derived fields may be left out, and must agree when sent.")


VIEW = WIRE.view(State, TABLE, {
    "seat": derived(SEAT, lambda state, seat: seat, required=True, nullable=True),
    "hand": derived(CARDS, lambda state, seat: None if seat is None else state.hands[seat], required=True,
                    nullable=True),
    "hand_sizes": derived(per_seat(COUNT), lambda state, seat: map(len, state.hands), required=True),
    "stock_size": derived(COUNT, lambda state, seat: len(state.stock), required=True),
}, "What one seat may see (API.md): its own hand; the other hands and the stock as counts; the "
   "pile, the melds and the red threes.")

GROUPS = ListOf(WIRE.record("Group", Group, {
    "rank": field(KEY, "the meld key", attr="key"),
    "cards": field(CARDS),
}, "Cards from the hand for one meld key."), 0, 13)

MOVES = WIRE.moves_of({
    mv.Draw: ("Draw from the stock: one card, or two at a table of two.", {}),
    mv.TakePile: ("Take the whole discard pile, melding its top card at once with cards from the hand; more "
               "groups may be laid in the same move.", {
        "top_cards": field(CARDS, "hand cards melded with the pile's top card", default=[]),
        "melds": field(GROUPS, "further groups laid in the same move", default=[]),
    }),
    mv.TakeUpcard: ("The book's first variant, on the very first turn: the first player takes the upcard and "
                 "the pile without a meld, showing the natural cards the upcard goes with.", {
        "show": field(CARDS),
    }),
    mv.Meld: ("Lay groups of cards from the hand on the side's melds, new ones or those already on the "
              "table.", {
        "melds": field(GROUPS),
    }),
    mv.ExchangeJoker: ("The book's first variant: take a joker from an opponent's meld, giving a natural "
                       "card of that meld's rank in its place.", {
        "from_side": field(Int(0, 2)),
        "rank": field(OneOf(NATURAL_KEYS)),
        "cards": field(CARD_IN_LIST, attr="card"),
    }),
    mv.Discard: ("Discard a card onto the pile, ending the turn.", {
        "cards": field(CARD_IN_LIST, attr="card"),
    }),
    mv.AskGoOut: ("Ask the partner whether you may go out, at a table that plays with permission.", {}),
    mv.AnswerGoOut: ("Answer the partner's question: may they go out or not.", {"answer": field(BOOL)}),
    mv.DeclinePile: ("With the stock gone, leave a pile you are not bound to take: the hand ends.", {}),
})

EVENTS = {
    "drew": EventType(
        "The player draws from the stock: the player alone sees the cards, the others learn how many.",
        cards=True, private=True, hand=1,
        says=Saying("{seat} draws {cards} from the stock", you="you draw {cards} from the stock",
                    hidden="{seat} draws {count} from the stock")),
    "red_three_laid": EventType(
        "The player lays out a red three drawn from the stock or found in the pile taken.", cards=True,
        says=Saying("{seat} lays out {cards}", you="you lay out {cards}")),
    "took_pile": EventType(
        "The player takes the discard pile, all but its red threes, top card first; the top card is melded "
        "at once.", cards=True, hand=1,
        says=Saying("{seat} takes the discard pile", you="you take the discard pile")),
    "took_upcard": EventType(
        "The first player takes the pile, all but its red threes, for its top card; the natural cards shown, "
        "or the meld, follow.", cards=True, hand=1,
        says=Saying("{seat} takes the upcard with the pile", you="you take the upcard with the pile")),
    "naturals_shown": EventType(
        "The player shows the natural cards the upcard was taken for; they stay in the hand.", cards=True,
        says=Saying("{seat} shows {cards}", you="you show {cards}")),
    "melded": EventType(
        "The player lays cards on the side's melds.", cards=True, hand=-1,
        says=Saying("{seat} melds {cards}", you="you meld {cards}")),
    "joker_exchanged": EventType(
        "The player puts a natural card in an opponent's meld in place of its joker; the joker goes to the "
        "player's hand next.", cards=True, hand=-1,
        says=Saying("{seat} puts {cards} in an opponent's meld in place of the joker",
                    you="you put {cards} in an opponent's meld in place of the joker")),
    "joker_taken": EventType(
        "The player takes the joker just exchanged into the hand.", cards=True, hand=1,
        says=Saying("{seat} takes {cards} into the hand", you="you take {cards} into your hand")),
    "discarded": EventType(
        "The player discards a card onto the pile, ending the turn.", cards=True, hand=-1,
        says=Saying("{seat} discards {cards}", you="you discard {cards}")),
    "asked_to_go_out": EventType(
        "The player asks the partner whether they may go out.",
        says=Saying("{seat} asks the partner whether to go out",
                    you="you ask your partner whether to go out")),
    "answered": EventType(
        "The partner answers yes or no.", kinds={
            "yes": N_("Yes: the player who asked may go out."),
            "no": N_("No: the player who asked may not go out this turn.")},
        says=Saying("{seat} answers: {kind}", you="you answer: {kind}",
                    kinds={"yes": N_("yes, go out"), "no": N_("no, do not go out")})),
    "declined_pile": EventType(
        "The stock is gone and the player does not take the pile.",
        says=Saying("{seat} leaves the discard pile", you="you leave the discard pile")),
    "went_out": EventType(
        "The player's hand is empty: the player goes out.",
        says=Saying("{seat} goes out", you="you go out")),
    "hand_over": EventType(
        "The hand is over; no one player wins it: each side scores its points.", winner=True,
        says=Saying("the hand is over: the points are counted",
                    nobody="the hand is over: the points are counted")),
}
"""What a move may cause, each type with the fields it carries (``EventType``)."""

FAMILY_GROUP = WIRE.record("FamilyGroup", GroupChoice, {
    "rank": field(KEY, "the meld key", attr="key"),
    "naturals": field(CARDS),
    "least": field(COUNT),
    "most_wild": field(COUNT),
    "points": field(POINTS, "what each of its naturals is worth", attr="natural_points"),
}, "A group a family's move may lay: `least` or more of `naturals` (the hand's cards of the key, alike "
   "for the rules: take the first ones), and at most `most_wild` wild cards from the family's `twos` "
   "and `jokers`; three cards at least (the top group counts the pile's top card).")

FAMILY = WIRE.record("Family", Family, {
    "seat": field(SEAT),
    "type": derived(OneOf((mv.Meld.kind, mv.TakePile.kind)), "kind", required=True, checked=False),
    "top": field(FAMILY_GROUP, "take_pile: the group of the pile's top card; null for a meld", nullable=True),
    "groups": field(ListOf(FAMILY_GROUP, 0, 13)),
    "twos": field(CARDS),
    "jokers": field(COUNT),
    "two_points": field(POINTS),
    "joker_points": field(POINTS),
    "top_card_points": field(POINTS),
    "least_points": field(Int(0, 100_000), "the first meld's minimum; null: exempt (a concealed going out)",
                          nullable=True),
    "cards": field(COUNT),
    "cards_left": field(WIRE.record("CardsLeft", tuple, {
        "least": field(COUNT),
        "most": field(COUNT, "null: no bound", nullable=True),
    }, "The mover's hand after the move.")),
    "least_canastas": field(Int(0, 3)),
}, "§4.13: the multi-group `meld`s or `take_pile`s of a side without melds, when there are too many to "
   "list one by one (the rule of a family's moves: ``service.games.canasta.families``).")

SIDE_SCORE = WIRE.record("SideScore", m.SideScore, {
    "meld_points": field(Int()),
    "canasta_bonus": field(Int()),
    "red_three_points": field(Int()),
    "going_out_bonus": field(Int()),
    "hand_penalty": field(Int()),
    "total": derived(Int(), "total", required=True, checked=False),
}, "§7.1, one side's hand score by its parts.")

HAND_SCORE = WIRE.schema("HandScore", {"sides": field(per_side(SIDE_SCORE)), **RESULT.fields})


def hand_score(sides: list[m.SideScore], result: Result) -> Wire:
    """The hand's part of ``score`` (``HAND_SCORE``): each side's score, and how the hand ended."""
    return {"sides": [SIDE_SCORE.dump(side) for side in sides], **RESULT.dump(result)}


MATCH = WIRE.record("Match", Standing, {
    "totals": field(per_side(TOTAL)),
    "target": derived(Int(1, 10_000_000), "target", "derived: the total the match is played to",
                      checked=False),
    "over": field(BOOL),
    "winner": field(ListOf(SEAT, 1, 3), "the winning side's seats, once over", nullable=True),
    "next_dealer": field(SEAT),
    "next_minimums": derived(per_side(Int(0, 100_000)), "next_minimums",
                             "derived: each side's first-meld minimum in the next hand", checked=False),
}, "§7.2: running totals per side; pass it back to ``score`` and ``deal``.")


# --- the consistency check ---------------------------------------------------------------------


def _require(condition: bool, pointer: str, message: str, /, **params: object) -> None:
    """``message``: an English sentence marked ``N_`` (a message id), naming ``params``."""
    if not condition:
        raise InvalidState(pointer, message, **params)


def load_state(wire: Wire) -> State:
    """Build the state and check it; ``InvalidState`` pointers are relative to the state."""
    state = STATE.load(wire)
    _check_table(state)
    _check_cards(state)
    _check_melds(state)
    _check_turn(state)
    STATE.check(wire, state)
    return state


def _check_table(state: State) -> None:
    """The variant's table (§2.4): its seat numbers, an entry per seat or per side."""
    seats, variant = state.seats, state.variant
    _require(seats in rules.PLAYER_COUNTS[variant], "/seats", N_("{variant} is played by {counts} players"),
             variant=variant, counts=rules.PLAYER_COUNTS[variant])
    sides = state.table.sides.count
    entries = {"hands": state.hands, "red_threes": state.red_threes, "has_melded": state.has_melded,
               "side_scores": state.side_scores, "melds": state.melds}
    for name, values in entries.items():
        by_side = name in ("side_scores", "melds")
        count, sentence = (sides, N_("one entry per side: {count}")) if by_side else (
            seats, N_("one entry per seat: {count}"))
        _require(len(values) == count, f"/{name}", sentence, count=count)
    _require(state.dealer < seats, "/dealer", N_("seats are 0..{last}"), last=seats - 1)
    _require(state.turn < seats, "/turn", N_("seats are 0..{last}"), last=seats - 1)


def _zones(state: State) -> list[tuple[str, tuple[Card, ...]]]:
    return [
        ("/stock", state.stock), ("/pile", state.pile),
        *((f"/hands/{s}", h) for s, h in enumerate(state.hands)),
        *((f"/red_threes/{s}", r) for s, r in enumerate(state.red_threes)),
        *((f"/melds/{side}/{key}", cards)
          for side, melds in enumerate(state.melds) for key, cards in melds.items()),
    ]


def _check_cards(state: State) -> None:
    """Every card of the deck once as often as it holds it; red threes only laid out (or buried
    in the pile by the deal) where they are bonus cards."""
    found = [*state.stock, *state.pile, *chain.from_iterable(state.hands),
             *chain.from_iterable(state.red_threes),
             *(c for melds in state.melds for cards in melds.values() for c in cards)]
    check_deck(rules.full_deck(state.seats), found, lambda: _zones(state))
    special = m.threes_special(state.variant)
    for seat, hand in enumerate(state.hands):
        _require(not special or m.RED_THREES.isdisjoint(hand), f"/hands/{seat}",
                 N_("a red three is laid out at once, never held"))
    for seat, threes in enumerate(state.red_threes):
        _require(not threes or (special and m.RED_THREES.issuperset(threes)), f"/red_threes/{seat}",
                 N_("only red threes are laid out, and none in the book's second variant"))
    _require(not state.pile or not m.is_red_three(state.pile[0], state.variant), "/pile/0",
             N_("a red three is never the pile's top card"))
    _require(bool(state.pile) or not state.pile_frozen, "/pile_frozen", N_("an empty pile is not frozen"))


def _check_melds(state: State) -> None:
    known = m.keys(state.variant)
    for side, melds in enumerate(state.melds):
        for key, cards in melds.items():
            _require(key in known and m.meld_valid(key, cards, state.variant), f"/melds/{side}/{key}",
                     N_("not a valid {key} meld of {variant}"), key=key, variant=state.variant)
    for seat, melded in enumerate(state.has_melded):
        _require(not melded or bool(state.melds[state.side_of(seat)]), f"/has_melded/{seat}",
                 N_("a seat that has melded has a side with melds"))


def _check_turn(state: State) -> None:
    """Whose turn and whose move (§4.0): the turns go clockwise from the dealer's left; the
    asked partner answers; nobody moves once the hand is over."""
    phase, n = state.phase, state.seats
    _require(state.turn == left_of(state.dealer, n, 1 + state.turn_index), "/turn",
             N_("the turn goes clockwise from the dealer's left, one seat for each turn played"))
    _require((state.result is not None) == state.finished, "/result",
             N_("a result exactly once the hand is over"))
    asked = phase == Phase.AWAIT_ANSWER
    if state.finished:
        _require(state.to_move is None, "/to_move", N_("nobody is to move once the hand is over"))
    else:
        expected = left_of(state.turn, n, 2) if asked else state.turn
        _require(state.to_move == expected, "/to_move", N_("seat {seat} is to move"), seat=expected)
    if state.result is not None:
        _check_result(state, state.result)
        return
    for seat, hand in enumerate(state.hands):
        _require(bool(hand), f"/hands/{seat}", N_("a hand in progress leaves every player a card"))
    _check_turn_info(state, state.turn_info)


def _check_turn_info(state: State, info: TurnInfo) -> None:
    """What the turn has done fits its phase (§4.0, §4.8)."""
    phase, melds = state.phase, state.melds[state.side_of(state.turn)]
    _require(info.keys_at_start <= melds.keys(), "/turn_info/keys_at_start",
             N_("the side's melds when the turn began are still its melds"))
    if phase == Phase.DRAW:
        _require(info == TurnInfo(keys_at_start=info.keys_at_start), "/turn_info",
                 N_("nothing has happened yet in a turn that is to draw"))
        _require(info.keys_at_start == melds.keys(), "/turn_info/keys_at_start",
                 N_("the side's meld keys as the turn begins"))
    else:
        _require(info.drew is not None, "/turn_info/drew", N_("the turn has drawn"))
        _require(info.asked == (info.permission is not None) or phase == Phase.AWAIT_ANSWER,
                 "/turn_info/permission", N_("an answer only to a question"))
    if phase == Phase.AWAIT_ANSWER:
        _require(info.asked and info.permission is None and state.options.ask_permission
                 and state.seats in (4, 6), "/turn_info/asked", N_("a question is waiting for its answer"))


def _check_result(state: State, result: Result) -> None:
    if result.reason == "went_out":
        seat = result.went_out
        _require(seat is not None and seat < state.seats and not state.hands[seat], "/result/went_out",
                 N_("the seat that went out holds no card"))
    else:
        _require(result.went_out is None and not result.concealed, "/result/went_out", N_("nobody went out"))


FORM: WireForm[State, mv.Move] = declared(WIRE, load_state, STATE, VIEW, MOVES, options=OPTIONS, match=MATCH,
                                       hand_score=HAND_SCORE, family=FAMILY)
