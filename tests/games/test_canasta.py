"""Canasta rule table: every numbered rule and worked example of docs/rules/canasta.md; test ids
name the rule (§) or the example (E1-E14). Positions are wire states built by
tests/games/canasta_positions.py and loaded through the game, so each passes the consistency
check. Expected values are worked out by hand from the rules text, not taken from the
implementation.

Unless a test says otherwise a position is classic Canasta at four seats, dealer 0 (so seat 1
plays first), and a seat whose hand is not named holds one plain card."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from functools import partial

import pytest

from service.api.events import spoken, told
from service.cards import CARDS, SeedStream, cards, codes
from service.errors import IllegalMove, InvalidMatch, InvalidState
from service.games.base import DealSetup
from service.games.canasta import check, listing, rules
from service.games.canasta import melds as m
from service.games.canasta.moves import (
    AnswerGoOut,
    AskGoOut,
    DeclinePile,
    Discard,
    Draw,
    ExchangeJoker,
    Meld,
    TakePile,
    TakeUpcard,
)
from service.games.canasta.rules import Group, TurnInfo
from service.games.decks import GivenOrder
from tests.games import steps
from tests.games.canasta_positions import (
    GAME,
    WILD,
    deck_codes,
    deck_with,
    filler_order,
    finished,
    position,
    position_wire,
    split,
)

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SEED_108, SEED_13 = {"variant": "seed_108"}, {"variant": "seed_13"}
K_CANASTA = "KC KD KH KS KC KD KH"
Q_CANASTA = "QC QD QH QS QC QD QH"


# --- helpers ---------------------------------------------------------------------------------------


def cs(text):
    return cards(text.split())


def groups(*texts):
    """``"K: KC KD KH"`` -> Group("K", (KC, KD, KH)); ``"K:"`` is an empty group."""
    found = []
    for text in texts:
        key, _, named = text.partition(":")
        found.append(Group(key.strip(), cs(named)))
    return tuple(found)


def M(seat, *texts):
    return Meld(seat, groups(*texts))


def T(seat, top="", *texts):
    return TakePile(seat, cs(top), groups(*texts))


def D(seat, card):
    return Discard(seat, CARDS[card])


def X(seat, from_side, rank, card):
    return ExchangeJoker(seat, from_side, rank, CARDS[card])


def U(seat, show):
    return TakeUpcard(seat, cs(show))


refusal = partial(steps.refusal, GAME)


at = partial(steps.play_out, GAME)  # moves that must all be legal


def held(state, seat):
    return Counter(codes(state.hands[seat]))


def meld_of(state, side, key):
    return Counter(codes(state.melds[side][key]))


def bag(text):
    return Counter(text.split())


def play(hand, *, seat=1, **kw):
    """Seat ``seat`` has drawn from the stock and is to meld or discard."""
    return position(hands={**kw.pop("hands", {}), seat: hand}, turn=seat, phase="play", **kw)


def drawing(hand, *, seat=0, **kw):
    """Seat ``seat`` is to draw."""
    return position(hands={**kw.pop("hands", {}), seat: hand}, turn=seat, phase="draw", **kw)


def check_row(state, move, expected):
    """The refusal (or None) for the move, the same for its wire form; a refused move is never
    listed (§4.13 lists only legal moves)."""
    assert refusal(state, move) == expected
    again = GAME.load_move(GAME.dump_move(move))
    assert again == move and refusal(state, again) == expected
    if expected is not None:
        assert move not in GAME.legal_moves(state, move.seat)


def hand_score(state):
    return GAME.score(state, None)["hand"]


def side_parts(state, side):
    return hand_score(state)["sides"][side]


ALL_ROWS: list[tuple] = []
"""Every (id, state, move, expected) row of the tables below, for the §4.12 coverage test."""


def rows(table):
    ALL_ROWS.extend(table)
    return pytest.mark.parametrize(("state", "move", "expected"), [r[1:] for r in table], ids=[r[0] for r in table])


# --- §2.1 deck ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "copies", "size"), [(2, 2, 108), (3, 2, 108), (4, 2, 108), (6, 3, 162)],
                         ids=["2.1-n2-108", "2.1-n3-108", "2.1-n4-108", "2.1-n6-162"])
def test_2_1_deck_composition_and_canonical_order(seats, copies, size):
    expected = [r + s for _ in range(copies) for s in "CDHS" for r in RANKS] + ["JK"] * (2 * copies)
    assert len(expected) == size
    assert codes(rules.full_deck(seats)) == expected
    dumped = GAME.dump_state(GAME.deal(DealSetup(seats, 0, {}, None), SeedStream(f"2.1-{seats}")))
    found = Counter(dumped["stock"]) + Counter(dumped["pile"])
    for zone in (*dumped["hands"], *dumped["red_threes"]):
        found += Counter(zone)
    assert found == Counter(expected)


@pytest.mark.parametrize("variant", ["seed_108", "seed_13"], ids=["2.4-no_six-seed_108", "2.4-no_six-seed_13"])
def test_2_4_six_players_only_in_classic(variant):
    with pytest.raises(InvalidState):
        GAME.deal(DealSetup(6, 0, {"variant": variant}, None), SeedStream("six"))
    with pytest.raises(InvalidState):
        GAME.load_state(position_wire(seats=6, options={"variant": variant}))


# --- §2.2 card classes, §2.3 card values ------------------------------------------------------------

VALUE_ROWS = [
    # card, classic and seed_108, seed_13
    ("JK", 50, 50), ("2C", 20, 20), ("2H", 20, 20), ("AS", 20, 11), ("KH", 10, 10), ("QD", 10, 10), ("JC", 10, 10),
    ("10S", 10, 10), ("9H", 10, 9), ("8D", 10, 8), ("7C", 5, 7), ("6S", 5, 6), ("5H", 5, 5), ("4D", 5, 4),
    ("3C", 5, 3), ("3S", 5, 3), ("3H", None, 3), ("3D", None, 3),
]


@pytest.mark.parametrize("variant", ["classic", "seed_108", "seed_13"])
@pytest.mark.parametrize(("card", "classic", "seed13"), VALUE_ROWS, ids=[f"2.3-{r[0]}" for r in VALUE_ROWS])
def test_2_3_card_values(card, classic, seed13, variant):
    expected = seed13 if variant == "seed_13" else classic
    if expected is None:  # a red three where it is a bonus card: no card value, never in a hand
        assert m.value(CARDS[card], variant) == 0
        with pytest.raises(InvalidState):
            finished(options={"variant": variant}, hands={0: "", 1: card, 2: "", 3: ""})
        return
    state = finished(options={"variant": variant}, hands={0: "", 1: card, 2: "", 3: ""},
                     result={"reason": "stock_exhausted", "went_out": None})
    assert side_parts(state, 1)["hand_penalty"] == expected
    assert side_parts(state, 1)["total"] == -expected
    assert m.value(CARDS[card], variant) == expected


def test_2_3_values_of_a_whole_hand():
    # one card of every rank (no red three in classic): 50+20+20+10*4+10+10+5*4+5 = 175 classic;
    # seed_13: 50+20+11+40+9+8+7+6+5+4+3+3 = 166
    hand = "JK 2S AH KC QC JC 10C 9C 8C 7C 6C 5C 4C 3S"
    assert side_parts(finished(hands={0: "", 1: hand, 2: "", 3: ""}, result={"reason": "stock_exhausted",
                                                                          "went_out": None}), 1)["hand_penalty"] == 175
    state = finished(options=SEED_13, hands={0: "", 1: hand + " 3H", 2: "", 3: ""},
                     result={"reason": "stock_exhausted", "went_out": None})
    assert side_parts(state, 1)["hand_penalty"] == 166


KEY_ROWS = [
    ("2.2-seed_13-threes_meldable", SEED_13, "3C 3D 3H 4S 9D", "3: 3C 3D 3H", None),
    ("2.2-seed_13-threes_take_wild", SEED_13, "3C 3D 2H 4S 9D", "3: 3C 3D 2H", None),
    ("2.2-classic-black_threes_take_no_wild", {}, "3C 3S 2H 4S 9D", "3: 3C 3S 2H", "invalid_meld"),
    ("2.2-classic-twos_are_no_key", {}, "2C 2D 2H 4S 9D", "2: 2C 2D 2H", "bad_group"),
    ("2.2-seed_13-twos_are_no_key", SEED_13, "2C 2D 2H 4S 9D", "2: 2C 2D 2H", "bad_group"),
    ("2.2-classic-no_wild_key", {}, "2C 2D JK 4S 9D", "W: 2C 2D JK", "bad_group"),
    ("2.2-seed_108-no_wild_key", SEED_108, "2C 2D JK 4S 9D", "W: 2C 2D JK", "bad_group"),
    ("2.2-seed_13-wild_key", SEED_13, "2C 2D JK 4S 9D", "W: 2C 2D JK", None),
    ("2.2-jokers_and_twos_are_wild", {}, "2C JK 4S 9D", "K: 2C JK", None),
]


@pytest.mark.parametrize(("options", "hand", "group", "expected"), [r[1:] for r in KEY_ROWS],
                         ids=[r[0] for r in KEY_ROWS])
def test_2_2_card_classes_and_meld_keys(options, hand, group, expected):
    state = play(hand, options=options, melds={1: {"K": "KC KD KH"}})
    check_row(state, M(1, group), expected)


# --- §2.4 per player count ------------------------------------------------------------------------

TABLE_ROWS = [
    # variant, seats, dealt, draw, canastas to go out, target, sides
    ("2.4-classic-n4", "classic", 4, 11, 1, 1, 5000, [[0, 2], [1, 3]]),
    ("2.4-classic-n2", "classic", 2, 15, 2, 2, 5000, [[0], [1]]),
    ("2.4-classic-n3", "classic", 3, 13, 1, 1, 5000, [[0], [1], [2]]),
    ("2.4-classic-n6", "classic", 6, 13, 1, 2, 10000, [[0, 2, 4], [1, 3, 5]]),
    ("2.4-seed_108-n4", "seed_108", 4, 11, 1, 1, 5000, [[0, 2], [1, 3]]),
    ("2.4-seed_108-n2", "seed_108", 2, 15, 2, 2, 5000, [[0], [1]]),
    ("2.4-seed_108-n3", "seed_108", 3, 13, 1, 1, 5000, [[0], [1], [2]]),
    ("2.4-seed_13-n4", "seed_13", 4, 13, 1, 1, 5000, [[0, 2], [1, 3]]),
    ("2.4-seed_13-n2", "seed_13", 2, 13, 2, 2, 5000, [[0], [1]]),
    ("2.4-seed_13-n3", "seed_13", 3, 13, 1, 1, 5000, [[0], [1], [2]]),
]


@pytest.mark.parametrize(("variant", "seats", "dealt", "draw", "canastas", "target", "sides"),
                         [r[1:] for r in TABLE_ROWS], ids=[r[0] for r in TABLE_ROWS])
def test_2_4_table(variant, seats, dealt, draw, canastas, target, sides):
    options = {"variant": variant}
    dumped = GAME.dump_state(GAME.deal(DealSetup(seats, 0, options, None), SeedStream(f"2.4-{variant}-{seats}")))
    assert [len(h) for h in dumped["hands"]] == [dealt] * seats  # red threes are replaced
    assert dumped["teams"] == sides
    deck = 162 if seats == 6 else 108
    laid = sum(map(len, dumped["red_threes"]))
    assert len(dumped["stock"]) == deck - seats * dealt - len(dumped["pile"]) - laid
    # the draw per turn
    state = position(seats=seats, options=options, hands={1: "4C 5D 6H"}, stock_top="KS QD JH")
    assert held(at(state, Draw(1)), 1) == bag("4C 5D 6H " + " ".join(["KS", "QD", "JH"][:draw]))
    # canastas needed to go out: seat 1 discards its last card
    side = 1 % len(sides)
    for count in (canastas - 1, canastas):
        melds = dict(list({"K": K_CANASTA, "Q": Q_CANASTA}.items())[:count])
        state = play("9S", seats=seats, options=options, melds={side: melds} if melds else None)
        if count < canastas:
            assert refusal(state, D(1, "9S")) == "cannot_go_out"
        else:
            after = at(state, D(1, "9S"))
            assert after.phase == "hand_over" and after.result.went_out == 1
    # the target
    over = finished(seats=seats, options=options)
    assert GAME.score(over, None)["match"]["target"] == target


# --- §3 deal (E1) ---------------------------------------------------------------------------------

EXAMPLE_1 = split("AS 3H 3D 3C AH KD QS 3S KC KH QH KS QD 10C JC QC 9S 10D JD 10H 8H 9C 8S 9D 7C 7S 8C 8D 6D 6C "
                  "6H 7H 5S 5D 5C 7D 4H 4C 4S 5H JK 2D AD AC 2C 9H 3H KS 9C JH")


def _check_example_1(state, deck):
    assert Counter(codes(state.hands[1])) == bag("AS AH KC QD 9S 8H 7C 6D 5S 4H JK")
    assert Counter(codes(state.hands[0])) == bag("3C 3S KS QC 10H 9D 8D 7H 7D 5H AC")
    assert Counter(codes(state.hands[2])) == bag("KD KH 10C 10D 9C 7S 6C 5D 4C 2D KS")
    assert Counter(codes(state.hands[3])) == bag("QS QH JC JD 8S 8C 6H 5C 4S AD 9C")
    assert codes(state.pile) == ["9H", "2C"] and state.pile_frozen is True
    assert [codes(r) for r in state.red_threes] == [[], [], ["3H", "3H"], ["3D"]]
    assert codes(state.stock) == deck[49:] and state.stock[0] is CARDS["JH"] and len(state.stock) == 59
    assert state.turn == state.to_move == 1 and state.phase == "draw" and state.turn_index == 0
    assert state.melds == ({}, {}) and state.has_melded == (False,) * 4 and state.result is None
    assert state.turn_info == TurnInfo()


def test_3_E1_classic_deal():
    assert len(EXAMPLE_1) == 50
    deck = deck_with(EXAMPLE_1)
    assert deck[44] == "2C" and deck[45] == "9H" and deck[46:49] == ["3H", "KS", "9C"]
    state = rules.deal_from(cards(deck), seats=4, dealer=0, options=rules.Options(), side_scores=(0, 0))
    _check_example_1(state, deck)
    dealt = GAME.deal(DealSetup(4, None, {}, None), GivenOrder(deck))  # hand 1: seat 0 deals
    assert dealt.dealer == 0
    _check_example_1(dealt, deck)
    assert GAME.dump_state(dealt)["status"] == "in_progress"
    GAME.load_state(GAME.dump_state(dealt))


def plain_deck(seats, dealt, after=(), seed=0, head=None):
    """A deck whose first ``seats * dealt`` cards are plain (no wild card, no three), shuffled,
    or ``head`` with plain cards where it holds None; then ``after``; then the rest."""
    pool = Counter(deck_codes(seats))
    named = [c for c in [*(head or []), *after] if c is not None]
    pool.subtract(named)
    plain = [c for c in filler_order(+pool, seats) if c not in WILD and c[:-1] != "3"]
    random.Random(seed).shuffle(plain)
    fill = iter(plain)
    first = [next(fill) if c is None else c for c in (head or [None] * (seats * dealt))]
    return deck_with([*first, *after], seats)


DEAL_ROWS = [
    ("3.2-classic-n4-dealer_0", "classic", 4, 0, 11),
    ("3.2-classic-n4-dealer_3", "classic", 4, 3, 11),
    ("3.2-classic-n2-dealer_1", "classic", 2, 1, 15),
    ("3.2-classic-n3-dealer_2", "classic", 3, 2, 13),
    ("3.2-classic-n6-dealer_5", "classic", 6, 5, 13),
    ("3.2-seed_108-n3-dealer_0", "seed_108", 3, 0, 13),
    ("3.2-seed_13-n4-dealer_1", "seed_13", 4, 1, 13),
    ("3.2-seed_13-n2-dealer_0", "seed_13", 2, 0, 13),
]


@pytest.mark.parametrize(("variant", "seats", "dealer", "dealt"), [r[1:] for r in DEAL_ROWS],
                         ids=[r[0] for r in DEAL_ROWS])
def test_3_2_deal_one_at_a_time_from_the_dealers_left(variant, seats, dealer, dealt):
    deck = plain_deck(seats, dealt, seed=seats * 10 + dealer)
    sides = 2 if seats in (4, 6) else seats
    options = rules.Options(variant=variant)
    state = rules.deal_from(cards(deck), seats=seats, dealer=dealer, options=options, side_scores=(0,) * sides)
    first = (dealer + 1) % seats
    n = seats * dealt
    for seat in range(seats):
        assert Counter(codes(state.hands[seat])) == Counter(deck[i] for i in range(n) if (first + i) % seats == seat)
    assert codes(state.pile) == [deck[n]] and state.pile_frozen is False
    assert codes(state.stock) == deck[n + 1:]
    assert state.turn == state.to_move == first and state.turn_index == 0 and state.phase == "draw"
    assert state.red_threes == ((),) * seats and state.melds == ({},) * sides
    given = GAME.deal(DealSetup(seats, dealer, {"variant": variant}, None), GivenOrder(deck))
    assert GAME.dump_state(given) == GAME.dump_state(state)


UPCARD_ROWS = [
    ("3.3-plain_upcard", "classic", "8H", ["8H"], False),
    ("3.3-joker_covered", "classic", "JK 7C", ["7C", "JK"], True),
    ("3.3-wild_and_red_threes_covered", "classic", "2D 3H 2S 9D", ["9D", "2S", "3H", "2D"], True),
    ("3.3-red_three_covered", "classic", "3H 5S", ["5S", "3H"], True),
    ("3.3-seed_108-red_three_covered", "seed_108", "3D KC", ["KC", "3D"], True),
    ("3.3-seed_108-two_covered", "seed_108", "2H AS", ["AS", "2H"], True),
    ("3.3-black_three_not_covered", "classic", "3C", ["3C"], False),
    ("3.3-seed_13-red_three_ordinary", "seed_13", "3H", ["3H"], False),
    ("3.3-seed_13-wild_then_red_three", "seed_13", "2C 3D", ["3D", "2C"], True),
    ("3.3-seed_13-black_three", "seed_13", "3S", ["3S"], False),
]


@pytest.mark.parametrize(("variant", "turned", "pile", "frozen"), [r[1:] for r in UPCARD_ROWS],
                         ids=[r[0] for r in UPCARD_ROWS])
def test_3_3_upcard(variant, turned, pile, frozen):
    dealt = 13 if variant == "seed_13" else 11
    deck = plain_deck(4, dealt, after=turned.split(), seed=len(turned))
    state = rules.deal_from(cards(deck), seats=4, dealer=0, options=rules.Options(variant=variant), side_scores=(0, 0))
    assert codes(state.pile) == pile and state.pile_frozen is frozen
    assert codes(state.stock) == deck[4 * dealt + len(pile):]  # 3.3-5: the rest, in order
    assert state.red_threes == ((),) * 4  # a covered red three stays in the pile
    GAME.load_state(GAME.dump_state(state))


@pytest.mark.parametrize("variant", ["classic", "seed_108"])
def test_3_4_dealt_red_threes_replaced_in_seat_order(variant):
    # dealer 2: D[0] -> seat 3 (first), D[1] -> seat 0, D[2] -> seat 1; upcard D[44] = 8H
    head = ["3H", None, "3D", *[None] * 41]
    deck = plain_deck(4, 11, after=["8H", "3H", "KS", "QD"], head=head, seed=34)
    state = rules.deal_from(cards(deck), seats=4, dealer=2, options=rules.Options(variant=variant), side_scores=(0, 0))
    dealt = {seat: Counter(deck[i] for i in range(44) if (3 + i) % 4 == seat) for seat in range(4)}
    # seat 3 lays 3H, draws D[45] = 3H, lays it, draws D[46] = KS; then seat 1 lays 3D, draws D[47] = QD
    assert [codes(r) for r in state.red_threes] == [[], ["3D"], [], ["3H", "3H"]]
    assert held(state, 3) == dealt[3] - bag("3H") + bag("KS")
    assert held(state, 1) == dealt[1] - bag("3D") + bag("QD")
    assert held(state, 0) == dealt[0] and held(state, 2) == dealt[2]
    assert codes(state.pile) == ["8H"] and codes(state.stock) == deck[48:]
    assert all(len(h) == 11 for h in state.hands) and state.turn == 3


def test_3_4_seed_13_keeps_dealt_red_threes():
    head = ["3H", None, "3D", *[None] * 49]
    deck = plain_deck(4, 13, after=["8H", "3H", "KS"], head=head, seed=13)
    state = rules.deal_from(cards(deck), seats=4, dealer=2, options=rules.Options(variant="seed_13"),
                            side_scores=(0, 0))
    assert state.red_threes == ((),) * 4
    assert CARDS["3H"] in state.hands[3] and CARDS["3D"] in state.hands[1]
    assert codes(state.stock) == deck[53:] and codes(state.pile) == ["8H"]


def test_3_1_dealer_of_hand_one_and_of_the_next_hand():
    state = GAME.deal(DealSetup(4, None, {}, None), SeedStream("3.1"))
    assert state.dealer == 0 and state.turn == 1
    match = {"totals": [1500, -20], "over": False, "winner": None, "next_dealer": 3}
    state = GAME.deal(DealSetup(4, None, {}, match), SeedStream("3.1b"))
    assert state.dealer == 3 and state.turn == state.to_move == 0 and state.side_scores == (1500, -20)
    assert rules.min_req(state, 0) == 90 and rules.min_req(state, 1) == 15
    with pytest.raises(InvalidMatch):
        GAME.deal(DealSetup(4, 1, {}, match), SeedStream("3.1c"))  # the match says seat 3 deals


# --- §4.1.3 meld validity (E4), §4.1.1-4.1.2 groups and keys, §4.5 meld (E3, E7) -----------------

# side 1 has meld K; seat 1 holds plenty of cards (the hand-size rule is not in play)
MELD_HAND = "7C 7D 8C 8D 8H 2C 2D 2H 2S JK 3C 3S 9D 10H"
P_MELD = play(MELD_HAND, melds={1: {"K": "KC KD KH"}})
# E4: side 1's meld 7 already holds three wild cards
P_SEVENS = play("7C 2C 8C 9D 10H", melds={1: {"7": "7C 7D 7H 7S 2H 2S JK"}})
# side 0 (the opponents) has meld Q; side 1 has only K
P_OPPONENT_Q = play("QC QD QH 4C 5D", melds={0: {"Q": "QS QS QH"}, 1: {"K": "KC KD KH"}})
# E3: side 1 at 1500 (minimum 90) has no meld
P_E3 = play("QS QH QD AC AD JK 8C 8D 8H 5C 5D 2H 4S 9D", side_scores=[0, 1500])
# E7: seat 3, side 1 has meld K and no canasta
P_E7 = play("6C 6D 6H 9S", seat=3, melds={1: {"K": "KC KD KH"}})
P_E7_FIVE = play("6C 6D 6H 9S 9D", seat=3, melds={1: {"K": "KC KD KH"}})
# §4.5 M4: side 1 at 1500 (minimum 90), no meld; a concealed going out from the stock
P_CONCEALED = play("7C 7C 7D 7D 7H 7H 7S 4C 4D 4H 9S", side_scores=[0, 1500], hands={3: "5S", 0: "4S", 2: "6S"})
P_CONCEALED_ALL = play("7C 7C 7D 7D 7H 7H 7S 4C 4D 4H", side_scores=[0, 1500])
P_NO_CANASTA_OUT = play("7C 7D 7H 4C 4D 4H 9S", side_scores=[0, 1500])
SEVENS = "7: 7C 7C 7D 7D 7H 7H 7S"

MELD_ROWS = [
    ("4.1.3-E4-two_naturals_three_wild", P_MELD, M(1, "7: 7C 7D 2H 2S JK"), None),
    ("4.1.3-E4-one_natural", P_MELD, M(1, "7: 7C 2H 2S"), "invalid_meld"),
    ("4.1.3-E4-fourth_wild_card", P_SEVENS, M(1, "7: 2C"), "invalid_meld"),
    ("4.1.3-E4-no_wild_meld_in_classic", P_MELD, M(1, "W: 2C 2D JK"), "bad_group"),
    ("4.1.3-E4-no_wild_card_with_black_threes", P_MELD, M(1, "3: 3C 3S 2D"), "invalid_meld"),
    ("4.1.3-three_naturals", P_MELD, M(1, "8: 8C 8D 8H"), None),
    ("4.1.3-two_cards", P_MELD, M(1, "7: 7C 7D"), "invalid_meld"),
    ("4.1.3-four_wild_cards", P_MELD, M(1, "7: 7C 7D 2C 2D 2H 2S"), "invalid_meld"),
    ("4.1.3-natural_of_another_rank", P_MELD, M(1, "7: 7C 7D 8C"), "invalid_meld"),
    ("4.1.3-no_upper_size_limit", P_SEVENS, M(1, "7: 7C"), None),
    ("4.5-M2-one_card_onto_an_old_meld", P_MELD, M(1, "K: 2C"), None),
    ("4.1.3-three_wild_on_three_naturals", P_MELD, M(1, "K: 2C 2D JK"), None),
    ("4.1.3-four_wild_on_an_old_meld", P_MELD, M(1, "K: 2C 2D 2H JK"), "invalid_meld"),
    ("4.1.3-one_wild_alone_is_no_meld", P_MELD, M(1, "8: 2C"), "invalid_meld"),
    ("4.1.2-new_and_old_meld_in_one_move", P_MELD, M(1, "8: 8C 8D 8H", "K: 2C"), None),
    ("4.1.2-no_laying_off_to_the_opponents", P_OPPONENT_Q, M(1, "Q: QC"), "invalid_meld"),
    ("4.1.2-own_meld_of_a_rank_the_opponents_have", P_OPPONENT_Q, M(1, "Q: QC QD QH"), None),
    ("4.1.1-key_twice_in_one_move", P_MELD, M(1, "K: 2C", "K: 2D"), "bad_group"),
    ("4.1.1-empty_group", P_MELD, M(1, "K:"), "bad_group"),
    ("4.5-M1-no_group", P_MELD, Meld(1, ()), "bad_group"),
    ("4.5-M1-card_not_in_hand", P_MELD, M(1, "Q: QC QD QH"), "card_not_in_hand"),
    ("4.1.1-a_duplicate_needs_two_copies", P_MELD, M(1, "7: 7C 7C 7D"), "card_not_in_hand"),
    ("4.1.1-cards_counted_over_all_groups", P_MELD, M(1, "7: 7C 7D 2C", "8: 8C 8D 2C"), "card_not_in_hand"),
    ("4.5-M1-wrong_phase", drawing(MELD_HAND, seat=1, melds={1: {"K": "KC KD KH"}}), M(1, "K: 2C"), "wrong_phase"),
    ("4.5-M1-not_your_turn", P_MELD, M(3, "K: 2C"), "not_your_turn"),
    ("4.5-M3-black_threes_keeping_cards", play("3C 3C 3S 4D 5H", melds={1: {"K": K_CANASTA}}),
     M(1, "3: 3C 3C 3S"), "invalid_meld"),
    ("4.1.8-E7-would_keep_one_card", P_E7, M(3, "6: 6C 6D 6H"), "cannot_go_out"),
    ("4.1.8-E7-keeps_two_cards", P_E7_FIVE, M(3, "6: 6C 6D 6H"), None),
    ("4.1.2-any_member_adds_to_the_sides_meld", play("KS 4C 9D", seat=3, melds={1: {"K": "KC KD KH"}}),
     M(3, "K: KS"), None),
    ("4.5-M4-E3-meets_90", P_E3, M(1, "Q: QS QH QD", "A: AC AD JK"), None),
    ("4.5-M4-E3-60_below_90", P_E3, M(1, "8: 8C 8D 8H", "5: 5C 5D 2H"), "below_initial_minimum"),
    ("4.5-M4-concealed_going_out_exempt", P_CONCEALED, M(1, "4: 4C 4D 4H", SEVENS), None),
    ("4.5-M4-concealed_group_order_free", P_CONCEALED, M(1, SEVENS, "4: 4C 4D 4H"), None),
    ("4.5-M4-canasta_alone_keeps_four_cards", P_CONCEALED, M(1, SEVENS), "below_initial_minimum"),
    ("4.5-M4-concealed_and_empty_hand", P_CONCEALED_ALL, M(1, "4: 4C 4D 4H", SEVENS), None),
    ("4.5-M3-before_M4-no_canasta", P_NO_CANASTA_OUT, M(1, "7: 7C 7D 7H", "4: 4C 4D 4H"), "cannot_go_out"),
]


@rows(MELD_ROWS)
def test_4_5_meld(state, move, expected):
    check_row(state, move, expected)


def test_4_5_meld_effects():
    state = at(P_MELD, M(1, "8: 8C 8D 8H", "K: 2C"))
    assert meld_of(state, 1, "8") == bag("8C 8D 8H") and meld_of(state, 1, "K") == bag("KC KD KH 2C")
    assert held(state, 1) == bag(MELD_HAND) - bag("8C 8D 8H 2C")
    info = state.turn_info
    assert info.melded_this_turn and info.added_to_old and info.actions == 1 and state.phase == "play"
    state = at(P_OPPONENT_Q, M(1, "Q: QC QD QH"))
    assert meld_of(state, 0, "Q") == bag("QS QS QH") and meld_of(state, 1, "Q") == bag("QC QD QH")
    assert state.turn_info.added_to_old is False  # Q was not the side's meld when the turn began
    state = at(P_E7_FIVE, M(3, "6: 6C 6D 6H"))
    assert held(state, 3) == bag("9S 9D")
    for card in ("9S", "9D"):
        assert at(state, D(3, card)).turn == 0


def test_4_1_8_E7_only_discards():
    listed = [GAME.dump_move(mv) for mv in GAME.legal_moves(P_E7, 3)]
    assert sorted(mv["cards"][0] for mv in listed if mv["type"] == "discard") == ["6C", "6D", "6H", "9S"]
    assert all(mv["type"] == "discard" for mv in listed) and len(listed) == 4


# --- §4.1.4 canastas ------------------------------------------------------------------------------


def test_4_1_4_a_wild_card_makes_a_natural_canasta_mixed():
    state = play("2C 4D", melds={1: {"K": K_CANASTA}}, hands={0: "4S", 2: "6S", 3: "5S"})
    state = at(state, M(1, "K: 2C"), D(1, "4D"))
    assert state.result.reason == "went_out" and state.result.went_out == 1
    # K = seven kings + 2C = 90, a mixed canasta 300 (not 500), going out 100, seat 3 holds 5S
    assert side_parts(state, 1) == {"meld_points": 90, "canasta_bonus": 300, "red_three_points": 0,
                                    "going_out_bonus": 100, "hand_penalty": 5, "total": 485}
    assert side_parts(state, 0)["total"] == -10


@pytest.mark.parametrize(("size", "legal"), [(6, False), (7, True), (8, True)],
                         ids=["4.1.4-six_cards_no_canasta", "4.1.4-seven_cards_canasta", "4.1.4-eight_cards"])
def test_4_1_4_canasta_is_seven_cards(size, legal):
    kings = split(K_CANASTA + " KS")[:size]
    state = play("9S", melds={1: {"K": " ".join(kings)}})
    assert refusal(state, D(1, "9S")) == (None if legal else "cannot_go_out")


# --- §4.1.6 initial-meld minimum (E2) -------------------------------------------------------------

E2_ROWS = [
    ("4.1.6-E2-classic--5", {}, 4, -5, 15),
    ("4.1.6-E2-classic-1495", {}, 4, 1495, 50),
    ("4.1.6-E2-classic-1500", {}, 4, 1500, 90),
    ("4.1.6-E2-classic-3000", {}, 4, 3000, 120),
    ("4.1.6-E2-seed_108-base_30-2350", SEED_108, 4, 2350, 50),
    ("4.1.6-E2-seed_108-base_40-2350", {"variant": "seed_108", "initial_meld_base": 40}, 4, 2350, 60),
    ("4.1.6-E2-seed_108-base_30--150", SEED_108, 4, -150, 30),
    ("4.1.6-E2-seed_13--40", SEED_13, 4, -40, 50),
    ("4.1.6-E2-seed_13-2999", SEED_13, 4, 2999, 90),
    # further boundaries of the same table
    ("4.1.6-classic-0", {}, 4, 0, 50),
    ("4.1.6-classic-ignores_initial_meld_base", {"initial_meld_base": 40}, 4, 0, 50),
    ("4.1.6-classic-2999", {}, 4, 2999, 90),
    ("4.1.6-classic-n6-7499", {}, 6, 7499, 120),
    ("4.1.6-classic-n6-7500", {}, 6, 7500, 150),
    ("4.1.6-classic-n4-7500_no_150", {}, 4, 7500, 120),
    ("4.1.6-classic-n2-3000", {}, 2, 3000, 120),
    ("4.1.6-seed_108-999", SEED_108, 4, 999, 30),
    ("4.1.6-seed_108-1000", SEED_108, 4, 1000, 40),
    ("4.1.6-seed_108-base_40-1000", {"variant": "seed_108", "initial_meld_base": 40}, 4, 1000, 50),
    ("4.1.6-seed_108-no_cap-12345", SEED_108, 4, 12345, 150),
    ("4.1.6-seed_13-1499", SEED_13, 4, 1499, 50),
    ("4.1.6-seed_13-1500", SEED_13, 4, 1500, 90),
    ("4.1.6-seed_13-3000", SEED_13, 4, 3000, 120),
    ("4.1.6-seed_13-n3-9000", SEED_13, 3, 9000, 120),
]


@pytest.mark.parametrize(("options", "seats", "score", "minimum"), [r[1:] for r in E2_ROWS], ids=[r[0] for r in E2_ROWS])
def test_4_1_6_E2_minimum(options, seats, score, minimum):
    sides = 2 if seats in (4, 6) else seats
    scores = [score] + [0] * (sides - 1)
    state = position(seats=seats, options=options, side_scores=scores)
    assert rules.min_req(state, 0) == minimum
    # a hand scoring nothing: the match's next minimums are those of the same totals
    over = finished(seats=seats, options=options, side_scores=scores, hands={s: "" for s in range(seats)},
                    result={"reason": "stock_exhausted", "went_out": None})
    assert GAME.score(over, None)["match"]["next_minimums"][0] == minimum


MINIMUM_ROWS = [
    # (id, options, side 1's score, groups laid by seat 1, expected) - values by §2.3
    ("4.1.6-classic--5-15_meets", {}, -5, ["7: 7C 7D 7H"], None),
    ("4.1.6-classic-0-15_below_50", {}, 0, ["7: 7C 7D 7H"], "below_initial_minimum"),
    ("4.1.6-classic-0-40_below_50", {}, 0, ["K: KC KD KH KS"], "below_initial_minimum"),
    ("4.1.6-classic-0-50_meets", {}, 0, ["K: KC KD KH 2C"], None),
    ("4.1.6-classic-1495-50_meets", {}, 1495, ["K: KC KD KH 2C"], None),
    ("4.1.6-classic-1500-50_below_90", {}, 1500, ["K: KC KD KH 2C"], "below_initial_minimum"),
    ("4.1.6-classic-1500-85_below_90", {}, 1500, ["A: AC AD 2C", "6: 6C 6D 6H 6S 6C"], "below_initial_minimum"),
    ("4.1.6-classic-1500-90_meets", {}, 1500, ["A: AC AD 2C", "6: 6C 6D 6H 6S 6C 6D"], None),
    ("4.1.6-classic-3000-115_below_120", {}, 3000, ["A: AC AD JK", "6: 6C 6D 6H 6S 6C"], "below_initial_minimum"),
    ("4.1.6-classic-3000-120_meets", {}, 3000, ["A: AC AD JK", "K: KC KD KH"], None),
    ("4.1.6-seed_108-2350-40_below_50", SEED_108, 2350, ["K: KC KD KH KS"], "below_initial_minimum"),
    ("4.1.6-seed_108-2350-50_meets", SEED_108, 2350, ["K: KC KD KH 2C"], None),
    ("4.1.6-seed_108-base_40-2350-50_below_60", {"variant": "seed_108", "initial_meld_base": 40}, 2350,
     ["K: KC KD KH 2C"], "below_initial_minimum"),
    ("4.1.6-seed_108-base_40-2350-60_meets", {"variant": "seed_108", "initial_meld_base": 40}, 2350,
     ["A: AC AD 2C"], None),
    ("4.1.6-seed_108--150-25_below_30", SEED_108, -150, ["7: 7C 7D 7H 7S 7C"], "below_initial_minimum"),
    ("4.1.6-seed_108--150-30_meets", SEED_108, -150, ["K: KC KD KH"], None),
    ("4.1.6-seed_13--40-49_below_50", SEED_13, -40, ["A: AC AD AH", "4: 4C 4D 4H 4S"], "below_initial_minimum"),
    ("4.1.6-seed_13--40-50_meets", SEED_13, -40, ["K: KC KD KH 2C"], None),
    ("4.1.6-seed_13-2999-89_below_90", SEED_13, 2999, ["A: AC AD AH AS", "9: 9C 9D 9H 9S 9C"],
     "below_initial_minimum"),
    ("4.1.6-seed_13-2999-90_meets", SEED_13, 2999, ["Q: QC QD JK", "5: 5C 5D 5H 5S"], None),
    ("4.1.6-seed_13-3000-90_below_120", SEED_13, 3000, ["Q: QC QD JK", "5: 5C 5D 5H 5S"], "below_initial_minimum"),
]


@pytest.mark.parametrize(("options", "score", "laid", "expected"), [r[1:] for r in MINIMUM_ROWS],
                         ids=[r[0] for r in MINIMUM_ROWS])
def test_4_1_6_minimum_boundaries(options, score, laid, expected):
    named = " ".join(c for text in laid for c in text.partition(":")[2].split())
    state = play(named + " 10S 10H", options=options, side_scores=[0, score])  # two cards kept
    check_row(state, M(1, *laid), expected)


def test_4_1_6_the_minimum_is_for_the_first_meld_only():
    state = at(play("KC KD KH 2C 7C 7D 7H 9S 10S"), M(1, "K: KC KD KH 2C"))
    assert refusal(state, M(1, "7: 7C 7D 7H")) is None  # 15 points: the side has a meld now


# --- §4.2 draw ------------------------------------------------------------------------------------

DRAW_HAND = "4C 5D 6H"


def drawer(stock_top="", *, stock=None, seats=4, options=None):
    return position(seats=seats, options=options, hands={1: DRAW_HAND}, pile="9C", stock_top=stock_top, stock=stock)


DRAW_ROWS = [
    ("4.2-draw", drawer("KS"), Draw(1), None),
    ("4.2-stock_empty", drawer(stock=[]), Draw(1), "stock_empty"),
    ("4.2-not_your_turn", drawer("KS"), Draw(2), "not_your_turn"),
    ("4.2-wrong_phase", play(DRAW_HAND), Draw(1), "wrong_phase"),
]


@rows(DRAW_ROWS)
def test_4_2_draw(state, move, expected):
    check_row(state, move, expected)


DRAW_EFFECT_ROWS = [
    # (id, seats, options, stock_top or None, stock or None, drawn into the hand, red threes laid, over)
    ("4.2-one_card", 4, {}, "KS QD", None, "KS", "", None),
    ("4.2-red_three_laid_and_replaced", 4, {}, "3H KS QD", None, "KS", "3H", None),
    ("4.2-two_red_threes_then_a_card", 4, {}, "3H 3D KS", None, "KS", "3H 3D", None),
    ("4.2-seed_108-red_three_replaced", 4, SEED_108, "3D KS", None, "KS", "3D", None),
    ("4.2-seed_13-red_three_is_a_card", 4, SEED_13, "3H KS", None, "3H", "", None),
    ("4.2-red_three_last", 4, {}, None, ["3D"], "", "3D", "red_three_last"),
    ("4.2-last_plain_card", 4, {}, None, ["KS"], "KS", "", None),
    ("4.2-seed_13-red_three_last_is_a_card", 4, SEED_13, None, ["3D"], "3D", "", None),
    ("4.2-n2-two_cards", 2, {}, "KS QD JH", None, "KS QD", "", None),
    ("4.2-n2-red_three_not_counted", 2, {}, "KS 3H QD JH", None, "KS QD", "3H", None),
    ("4.2-n2-last_single_card", 2, {}, None, ["KS"], "KS", "", None),
    ("4.2-n2-red_three_last_after_a_card", 2, {}, None, ["KS", "3H"], "KS", "3H", "red_three_last"),
    ("4.2-n2-red_three_then_the_last_card", 2, {}, None, ["3H", "KS"], "KS", "3H", None),
    ("4.2-n2-seed_13-two_cards", 2, SEED_13, "3H KS QD", None, "3H KS", "", None),
]


@pytest.mark.parametrize(("seats", "options", "top", "stock", "drawn", "laid", "over"),
                         [r[1:] for r in DRAW_EFFECT_ROWS], ids=[r[0] for r in DRAW_EFFECT_ROWS])
def test_4_2_draw_effects(seats, options, top, stock, drawn, laid, over):
    state = drawer(top or "", stock=stock, seats=seats, options=options)
    before = len(state.stock)
    after = at(state, Draw(1))
    assert held(after, 1) == bag(DRAW_HAND) + bag(drawn)
    assert codes(after.red_threes[1]) == laid.split()
    assert len(after.stock) == before - len(drawn.split()) - len(laid.split())
    if over is None:
        assert after.phase == "play" and after.turn_info.drew == "stock" and after.to_move == 1
    else:
        assert after.phase == "hand_over" and after.to_move is None and after.stock == ()
        assert after.result.reason == over and after.result.went_out is None
        parts = hand_score(after)
        assert parts["reason"] == over and all(s["going_out_bonus"] == 0 for s in parts["sides"])
    GAME.load_state(GAME.dump_state(after))


# --- §4.3 take_pile (E5, E6) ----------------------------------------------------------------------

E5_MELDS = {0: {"9": "9C 9D JK", "K": "KC KD KH"}}
E5_PILE = "9H 4C 6D"
P_E5A = drawing("5S 7H 8D QC", melds=E5_MELDS, pile=E5_PILE)
P_E5B = drawing("9S 9D 5S 7H 7C 7D 7S", melds=E5_MELDS, pile=E5_PILE, pile_frozen=True)
P_E5C = drawing("9S 2C 5S 7H", melds=E5_MELDS, pile=E5_PILE, pile_frozen=True)
P_E5D = drawing("9S JK 5S 7H", melds={0: {"K": "KC KD KH"}}, pile=E5_PILE)
P_FOUR_WILD = drawing("2C 2D 2S 5S 7H", melds=E5_MELDS, pile=E5_PILE)
# E6: side 0 at 0 (minimum 50) has no meld
P_E6 = drawing("KC KD AC AD JK 5S 9D", pile="KH AS AS AH")
P_ONE_CARD = drawing("5S", melds=E5_MELDS, pile="9H")
P_ONE_CARD_TWO_PILE = drawing("5S", melds=E5_MELDS, pile="9H 4C")
P_KEEP_ONE = drawing("9S 9D", melds=E5_MELDS, pile="9H 4C", pile_frozen=True)
P_KEEP_TWO = drawing("9S 9D", melds=E5_MELDS, pile="9H 4C 6D", pile_frozen=True)
# a red three covered at the deal lies in the pile
P_RED_IN_PILE = drawing("9S 9D 5S", melds=E5_MELDS, pile="9H 3H", pile_frozen=True)
P_RED_IN_PILE_13 = drawing("9S 9D 5S", melds=E5_MELDS, pile="9H 3H", pile_frozen=True, options=SEED_13)

TAKE_ROWS = [
    ("4.3-E5-minimal_take", P_E5A, T(0), None),
    ("4.3-E5-frozen-minimal_take", P_E5B, T(0), "frozen_pile_needs_pair"),
    ("4.3-E5-frozen-natural_pair", P_E5B, T(0, "9S 9D"), None),
    ("4.3-E5-frozen-natural_and_wild", P_E5C, T(0, "9S 2C"), "frozen_pile_needs_pair"),
    ("4.3-E5-new_meld_natural_and_wild", P_E5D, T(0, "9S JK"), None),
    ("4.3-E5-black_three_on_top", drawing("9S 9D 5S", melds=E5_MELDS, pile="3S 9H 4C"), T(0, "9S 9D"),
     "pile_blocked"),
    ("4.3-E5-wild_card_on_top", drawing("9S 9D 5S", melds=E5_MELDS, pile="2C 9H 4C"), T(0, "9S 9D"), "pile_blocked"),
    ("4.3-E5-joker_on_top-minimal", drawing("9S 9D 5S", melds=E5_MELDS, pile="JK 9H 4C"), T(0), "pile_blocked"),
    ("4.3-P1-wrong_phase", play("5S 7H 8D QC", seat=0, melds=E5_MELDS, pile=E5_PILE), T(0), "wrong_phase"),
    ("4.3-P1-not_your_turn", P_E5A, T(1), "not_your_turn"),
    ("4.3-P2-pile_empty", drawing("9S 9D 5S", melds=E5_MELDS), T(0, "9S 9D"), "pile_empty"),
    ("4.3-P4-one_card_and_one_card_pile", P_ONE_CARD, T(0), "single_card_pile"),
    ("4.3-P4-one_card_and_two_card_pile", P_ONE_CARD_TWO_PILE, T(0), None),
    ("4.3-P4-even_when_it_could_go_out", drawing("5S", melds={0: {"9": "9C 9D JK", "K": K_CANASTA}}, pile="9H"), T(0),
     "single_card_pile"),
    ("4.3-P5-card_not_in_hand", P_E5B, T(0, "9S 9S"), "card_not_in_hand"),
    ("4.3-P5-group_card_not_in_hand", P_E5B, T(0, "9S 9D", "Q: QC QD QH"), "card_not_in_hand"),
    ("4.3-P5-top_cards_of_another_rank", P_E5B, T(0, "9S 9D 7H"), "bad_group"),
    ("4.3-P5-group_with_the_top_cards_key", P_E5B, T(0, "9S", "9: 9D"), "bad_group"),
    ("4.3-P5-empty_group", P_E5B, T(0, "9S 9D", "7:"), "bad_group"),
    ("4.3-P7-top_card_alone_is_no_meld", P_E5D, T(0), "invalid_meld"),
    ("4.3-P7-top_card_and_one_natural", P_E5D, T(0, "9S"), "invalid_meld"),
    ("4.3-P7-four_wild_cards", P_FOUR_WILD, T(0, "2C 2D 2S"), "invalid_meld"),
    ("4.3-P7-three_wild_cards", P_FOUR_WILD, T(0, "2C 2D"), None),
    ("4.3-P7-extra_group_invalid", P_E5B, T(0, "9S 9D", "7: 7C 7D"), "invalid_meld"),
    ("4.3-P7-extra_group", P_E5B, T(0, "9S 9D", "7: 7C 7D 7H"), None),
    ("4.3-P8-E6-pair_alone_30_below_50", P_E6, T(0, "KC KD"), "below_initial_minimum"),
    ("4.3-P8-E6-pair_and_aces_120", P_E6, T(0, "KC KD", "A: AC AD JK"), None),
    ("4.3-P8-pair_and_joker_80", P_E6, T(0, "KC KD JK"), None),
    ("4.1.5-P6-no_meld_is_frozen_for_the_side", P_E6, T(0, "KC JK"), "frozen_pile_needs_pair"),
    ("4.3-P9-would_keep_one_card", P_KEEP_ONE, T(0, "9S 9D"), "cannot_go_out"),
    ("4.3-P9-keeps_two_cards", P_KEEP_TWO, T(0, "9S 9D"), None),
    ("4.3-P9-red_three_in_the_pile_not_counted", P_RED_IN_PILE, T(0, "9S 9D"), "cannot_go_out"),
    ("4.3-P9-seed_13-red_three_in_the_pile_counted", P_RED_IN_PILE_13, T(0, "9S 9D"), None),
    ("4.3-P9-black_threes_keeping_cards", drawing("9S 9D 3C 3C 3S 5S", melds={0: {"K": K_CANASTA}}, pile="9H 4C"),
     T(0, "9S 9D", "3: 3C 3C 3S"), "invalid_meld"),
]


@rows(TAKE_ROWS)
def test_4_3_take_pile(state, move, expected):
    check_row(state, move, expected)


def test_4_3_E5_effects():
    state = at(P_E5A, T(0))
    assert meld_of(state, 0, "9") == bag("9C 9D JK 9H") and meld_of(state, 0, "K") == bag("KC KD KH")
    assert held(state, 0) == bag("5S 7H 8D QC 4C 6D")
    assert state.pile == () and state.pile_frozen is False and state.phase == "play" and state.to_move == 0
    info = state.turn_info
    assert info.drew == "pile" and info.melded_this_turn and info.added_to_old and info.actions == 0
    state = at(P_E5B, T(0, "9S 9D"))
    assert meld_of(state, 0, "9") == bag("9C 9D JK 9H 9S 9D") and state.pile_frozen is False
    assert held(state, 0) == bag("5S 7H 7C 7D 7S 4C 6D")
    state = at(P_E5D, T(0, "9S JK"))
    assert meld_of(state, 0, "9") == bag("9H 9S JK") and state.turn_info.added_to_old is False
    assert held(state, 0) == bag("5S 7H 4C 6D")


def test_4_3_a_group_onto_an_old_meld_is_added_to_old():
    state = drawing("9S JK KS 5S 7H", melds={0: {"K": "KC KD KH"}}, pile=E5_PILE)
    after = at(state, T(0, "9S JK", "K: KS"))
    assert after.turn_info.added_to_old is True and meld_of(after, 0, "K") == bag("KC KD KH KS")


def test_4_3_E6_effects():
    state = at(P_E6, T(0, "KC KD", "A: AC AD JK"))
    assert {k: Counter(codes(v)) for k, v in state.melds[0].items()} == {"K": bag("KH KC KD"), "A": bag("AC AD JK")}
    assert held(state, 0) == bag("5S 9D AS AS AH")  # the aces of the pile go to the hand


def test_4_3_red_threes_in_the_pile_go_to_the_taker():
    state = drawing("9S 9D 5S 7H", melds=E5_MELDS, pile="9H 4C 3D", pile_frozen=True)
    after = at(state, T(0, "9S 9D"))
    assert codes(after.red_threes[0]) == ["3D"] and held(after, 0) == bag("5S 7H 4C")
    assert after.stock == state.stock  # no replacement
    state = drawing("9S 9D 5S 7H", melds=E5_MELDS, pile="9H 4C 3D", options=SEED_13)
    after = at(state, T(0))
    assert after.red_threes[0] == () and held(after, 0) == bag("9S 9D 5S 7H 4C 3D")


# --- §4.4 take_upcard (E8) ------------------------------------------------------------------------

E8_HAND = "8D 8H 4C 5D 6H 7S 9C 10D JH QS KC"


def e8(options=SEED_108, hand=E8_HAND, pile="8C", **kw):
    """Dealer 0, seat 1's first turn (turn_index 0); side 1 has no meld."""
    return position(options=options, hands={1: hand}, pile=pile, turn=1, turn_index=kw.pop("turn_index", 0), **kw)


MELD_NO_MINIMUM = {"variant": "seed_108", "first_take_mode": "meld_no_minimum"}

UPCARD_ROWS_4_4 = [
    ("4.4-E8-show_a_natural_pair", e8(), U(1, "8D 8H"), None),
    ("4.4-E8-joker_cannot_be_shown", e8(hand=E8_HAND + " JK"), U(1, "8D JK"), "show_needs_natural_pair"),
    ("4.4-one_card_shown", e8(), U(1, "8D"), "show_needs_natural_pair"),
    ("4.4-other_rank_shown", e8(hand=E8_HAND + " 9D"), U(1, "9C 9D"), "show_needs_natural_pair"),
    ("4.4-shown_card_not_in_hand", e8(), U(1, "8D 8S"), "card_not_in_hand"),
    ("4.4-not_first_turn", e8(turn_index=4), U(1, "8D 8H"), "not_first_turn"),
    ("4.4-black_three_upcard", e8(pile="3S", hand=E8_HAND.replace("8D 8H", "3C 3C")), U(1, "3C 3C"), "pile_blocked"),
    ("4.4-E8-classic_not_offered", e8(options={}), U(1, "8D 8H"), "not_offered"),
    ("4.4-seed_13_not_offered", e8(options=SEED_13), U(1, "8D 8H"), "not_offered"),
    ("4.4-E8-classic_take_pile_30_below_50", e8(options={}), T(1, "8D 8H"), "below_initial_minimum"),
    ("4.4-seed_108_take_pile_remains-30_meets_30", e8(), T(1, "8D 8H"), None),
    ("4.4-seed_108_draw_remains", e8(), Draw(1), None),
    ("4.4-wrong_phase", play(E8_HAND, options=SEED_108, pile="8C", turn_index=0), U(1, "8D 8H"), "wrong_phase"),
    ("4.4-not_your_turn", e8(), U(2, "8D 8H"), "not_your_turn"),
    ("4.4-meld_no_minimum-hand_size", e8(options=MELD_NO_MINIMUM, hand="8D 8H"), U(1, "8D 8H"), "cannot_go_out"),
    ("4.4-meld_no_minimum-below_any_minimum", e8(options=MELD_NO_MINIMUM, side_scores=[0, 5000]), U(1, "8D 8H"), None),
]


@rows(UPCARD_ROWS_4_4)
def test_4_4_take_upcard(state, move, expected):
    check_row(state, move, expected)


def test_4_4_E8_show_effects():
    state = at(e8(side_scores=[0, 1000]), U(1, "8D 8H"))
    assert held(state, 1) == bag(E8_HAND + " 8C") and len(state.hands[1]) == 12
    assert state.melds[1] == {} and state.pile == () and state.pile_frozen is False and state.phase == "play"
    assert state.turn_info.drew == "upcard" and state.turn_info.melded_this_turn is False
    # no meld was made: the side's first meld still needs the minimum (1000: 40 in seed_108)
    assert refusal(state, M(1, "8: 8C 8D 8H")) == "below_initial_minimum"
    assert refusal(state, M(1, "8: 8C 8D 8H", "Q: QS JH 10D")) == "invalid_meld"
    after = at(state, D(1, "4C"))
    assert after.has_melded[1] is False  # §9-12: showing is not melding


def test_4_4_the_whole_pile_with_the_upcard():
    state = at(e8(pile="8C 2C", pile_frozen=True), U(1, "8D 8H"))  # a wild card covered at the deal
    assert held(state, 1) == bag(E8_HAND + " 8C 2C")
    state = at(e8(pile="8C 3H", pile_frozen=True), U(1, "8D 8H"))  # a red three covered at the deal
    assert held(state, 1) == bag(E8_HAND + " 8C") and codes(state.red_threes[1]) == ["3H"]


def test_4_4_meld_no_minimum_effects():
    state = at(e8(options=MELD_NO_MINIMUM, side_scores=[0, 5000]), U(1, "8D 8H"))
    assert meld_of(state, 1, "8") == bag("8C 8D 8H") and len(state.hands[1]) == 9
    assert state.turn_info.drew == "pile" and state.turn_info.melded_this_turn is True
    assert at(state, D(1, "4C")).has_melded[1] is True


# --- §4.6 exchange_joker (E9) ---------------------------------------------------------------------

E9_MELDS = {0: {"K": "KC KD KH JK 2S", "Q": "QC QD 2H", "A": "AC AD JK"}, 1: {"5": "5C 5D 5S"}}
E9_HAND = "KS QS 5H AH 4C 9D"


def e9(options=SEED_108, melds=E9_MELDS, phase="play", **kw):
    return position(options=options, melds=melds, hands={1: E9_HAND}, turn=1, phase=phase, **kw)


EXCHANGE_ROWS = [
    ("4.6-E9-exchange", e9(), X(1, 0, "K", "KS"), None),
    ("4.6-E9-own_side", e9(), X(1, 1, "5", "5H"), "not_opponent_meld"),
    ("4.6-no_such_meld", e9(), X(1, 0, "9", "9D"), "not_opponent_meld"),
    ("4.6-no_side_2", e9(), X(1, 2, "K", "KS"), "not_opponent_meld"),
    ("4.6-E9-twos_are_not_exchanged", e9(), X(1, 0, "Q", "QS"), "no_joker_in_meld"),
    ("4.6-card_not_in_hand", e9(), X(1, 0, "K", "KH"), "card_not_in_hand"),
    ("4.6-card_of_another_rank", e9(), X(1, 0, "K", "QS"), "exchange_card_wrong_rank"),
    ("4.6-needs_own_meld", e9(melds={0: E9_MELDS[0]}), X(1, 0, "K", "KS"), "exchange_needs_own_meld"),
    ("4.6-classic_not_offered", e9(options={}), X(1, 0, "K", "KS"), "not_offered"),
    ("4.6-seed_13_not_offered", e9(options=SEED_13), X(1, 0, "K", "KS"), "not_offered"),
    ("4.6-wrong_phase", e9(phase="draw"), X(1, 0, "K", "KS"), "wrong_phase"),
    ("4.6-not_your_turn", e9(), X(3, 0, "K", "KS"), "not_your_turn"),
]


@rows(EXCHANGE_ROWS)
def test_4_6_exchange_joker(state, move, expected):
    check_row(state, move, expected)


def test_4_6_own_meld_made_earlier_this_turn():
    state = play("KS 5C 5D 5H 2C 4C 9D", options=SEED_108, melds={0: E9_MELDS[0]})
    assert refusal(state, X(1, 0, "K", "KS")) == "exchange_needs_own_meld"
    state = at(state, M(1, "5: 5C 5D 5H 2C"))  # 35 >= 30
    assert refusal(state, X(1, 0, "K", "KS")) is None


def test_4_6_E9_effects_and_any_number_per_turn():
    state = e9(has_melded={1: False, 3: True})
    after = at(state, X(1, 0, "K", "KS"))
    assert meld_of(after, 0, "K") == bag("KC KD KH 2S KS") and held(after, 1) == bag(E9_HAND) - bag("KS") + bag("JK")
    assert len(after.melds[0]["K"]) == 5 and len(after.hands[1]) == len(state.hands[1])
    assert after.turn_info.actions == 1 and after.turn_info.melded_this_turn is False
    after = at(after, X(1, 0, "A", "AH"))
    assert meld_of(after, 0, "A") == bag("AC AD AH") and held(after, 1)["JK"] == 2
    assert after.turn_info.actions == 2
    # the jokers may be melded or discarded; an exchange is not melding (§9-12)
    assert refusal(after, M(1, "5: JK")) is None
    after = at(after, D(1, "JK"))
    assert after.pile[0] is CARDS["JK"] and after.pile_frozen is True and after.has_melded[1] is False


# --- §4.7 discard ---------------------------------------------------------------------------------

DISCARD_MELDS = {0: {"Q": "QC QD QH"}, 1: {"K": "KC KD KH"}}
P_DISCARD = play("4C 9S JK 3S", melds=DISCARD_MELDS)

DISCARD_ROWS = [
    ("4.7-discard", P_DISCARD, D(1, "9S"), None),
    ("4.7-wild_card", P_DISCARD, D(1, "JK"), None),
    ("4.7-black_three", P_DISCARD, D(1, "3S"), None),
    ("4.7-card_not_in_hand", P_DISCARD, D(1, "9D"), "card_not_in_hand"),
    ("4.7-last_card_may_not_go_out", play("9S", melds=DISCARD_MELDS), D(1, "9S"), "cannot_go_out"),
    ("4.7-last_card_going_out", play("9S", melds={1: {"K": K_CANASTA}}), D(1, "9S"), None),
    ("4.7-wrong_phase", drawing("4C 9S", seat=1, melds=DISCARD_MELDS), D(1, "9S"), "wrong_phase"),
    ("4.7-not_your_turn", P_DISCARD, D(2, "9S"), "not_your_turn"),
]


@rows(DISCARD_ROWS)
def test_4_7_discard(state, move, expected):
    check_row(state, move, expected)


def test_4_7_discard_effects():
    after = at(P_DISCARD, D(1, "9S"))
    assert codes(after.pile)[0] == "9S" and after.pile_frozen is False and held(after, 1) == bag("4C JK 3S")
    assert after.turn == after.to_move == 2 and after.phase == "draw"
    assert at(P_DISCARD, D(1, "JK")).pile_frozen is True  # a discarded wild card freezes the pile
    frozen = play("4C 9S JK 3S", melds=DISCARD_MELDS, pile="5D 2C 7H")
    assert frozen.pile_frozen is True and at(frozen, D(1, "9S")).pile_frozen is True  # until taken
    after = at(P_DISCARD, D(1, "3S"))
    # the black three stops the next player (seat 2's side has meld Q; it holds one card)
    assert after.pile[0] is CARDS["3S"] and refusal(after, T(2)) == "pile_blocked"


# --- §4.8 ask_go_out / answer_go_out ------------------------------------------------------------

ASK = {"ask_permission": True}
ASK_MELDS = {1: {"K": K_CANASTA, "Q": "QC QD QH"}}
P_ASK = play("QS 9S", options=ASK, melds=ASK_MELDS)
P_ASKED = at(P_ASK, AskGoOut(1))
P_SAID_NO = at(P_ASKED, AnswerGoOut(3, False))
P_SAID_YES = at(P_ASKED, AnswerGoOut(3, True))

ASK_ROWS = [
    ("4.8-ask", P_ASK, AskGoOut(1), None),
    ("4.8-not_offered_without_the_option", play("QS 9S", melds=ASK_MELDS), AskGoOut(1), "not_offered"),
    ("4.8-not_offered_at_two", play("QS 9S", seats=2, options=ASK, melds=ASK_MELDS), AskGoOut(1), "not_offered"),
    ("4.8-not_offered_at_three", play("QS 9S", seats=3, options=ASK, melds=ASK_MELDS), AskGoOut(1), "not_offered"),
    ("4.8-answer_not_offered", play("QS 9S", melds=ASK_MELDS), AnswerGoOut(3, True), "not_offered"),
    ("4.8-offered_at_six", play("QS 9S", seats=6, options=ASK, melds=ASK_MELDS), AskGoOut(1), None),
    ("4.8-already_asked", P_SAID_YES, AskGoOut(1), "already_asked"),
    ("4.8-ask_after_meld", at(P_ASK, M(1, "Q: QS")), AskGoOut(1), "ask_after_meld"),
    ("4.8-hand_too_small_to_ask", play("9S", options=ASK, melds=ASK_MELDS), AskGoOut(1), "hand_too_small_to_ask"),
    ("4.8-ask_in_draw_phase", drawing("QS 9S", seat=1, options=ASK, melds=ASK_MELDS), AskGoOut(1), "wrong_phase"),
    ("4.8-answer_by_the_partner", P_ASKED, AnswerGoOut(3, False), None),
    ("4.8-answer_by_the_asker", P_ASKED, AnswerGoOut(1, True), "not_your_turn"),
    ("4.8-answer_by_an_opponent", P_ASKED, AnswerGoOut(0, True), "not_your_turn"),
    ("4.8-no_discard_while_waiting", P_ASKED, D(1, "9S"), "wrong_phase"),
    ("4.8-answer_in_play_phase", P_ASK, AnswerGoOut(3, True), "wrong_phase"),
    ("4.8-no_binds-meld", P_SAID_NO, M(1, "Q: QS"), "cannot_go_out"),
    ("4.8-no_binds-meld_all", P_SAID_NO, M(1, "Q: QS", "K: 9S"), "invalid_meld"),
    ("4.8-no-still_discards", P_SAID_NO, D(1, "9S"), None),
    ("4.8-yes_permits", P_SAID_YES, M(1, "Q: QS"), None),
    ("4.8-yes_does_not_compel", P_SAID_YES, D(1, "9S"), None),
]


@rows(ASK_ROWS)
def test_4_8_ask_and_answer(state, move, expected):
    check_row(state, move, expected)


def test_4_8_effects():
    assert P_ASKED.phase == "await_answer" and P_ASKED.to_move == 3 and P_ASKED.turn == 1
    assert P_ASKED.turn_info.asked is True and P_ASKED.turn_info.permission is None
    assert P_SAID_NO.phase == "play" and P_SAID_NO.to_move == 1 and P_SAID_NO.turn_info.permission == "no"
    assert P_SAID_YES.turn_info.permission == "yes"
    six = at(play("QS 9S", seats=6, options=ASK, melds=ASK_MELDS), AskGoOut(1))
    assert six.to_move == 3  # §2.4: the partner asked is (s + 2) mod n
    listed = [GAME.dump_move(mv) for mv in GAME.legal_moves(P_ASKED, 3)]
    assert sorted(listed, key=repr) == sorted([{"seat": 3, "type": "answer_go_out", "answer": True},
                                               {"seat": 3, "type": "answer_go_out", "answer": False}], key=repr)
    assert GAME.legal_moves(P_ASKED, 1) == []
    # yes: going out now is allowed; after no, the last card may not be discarded
    out = at(P_SAID_YES, M(1, "Q: QS"), D(1, "9S"))
    assert out.result.reason == "went_out" and out.result.went_out == 1
    no = at(P_SAID_NO, D(1, "9S"))
    assert no.turn == 2 and no.phase == "draw"


def test_4_8_ask_after_taking_the_pile():
    state = drawing("QS 9S 9D 4C", seat=1, options=ASK, melds=ASK_MELDS, pile="9H 5D", pile_frozen=True)
    state = at(state, T(1, "9S 9D"))
    assert refusal(state, AskGoOut(1)) is None


# --- §4.9 decline_pile ----------------------------------------------------------------------------

P_MUST_TAKE = drawing("4D 7S", seat=1, melds={1: {"9": "9C 9D 2C"}}, stock=[], pile="9H", pile_frozen=False)
P_MAY_DECLINE = drawing("9S 9D 4C", seat=1, melds={1: {"9": "9C 9H 2C"}}, stock=[], pile="9H", pile_frozen=True)

DECLINE_ROWS = [
    ("4.9-stock_not_empty", drawing("9S 9D 4C", seat=1, pile="9H"), DeclinePile(1), "stock_not_empty"),
    ("4.9-must_take_pile", P_MUST_TAKE, DeclinePile(1), "must_take_pile"),
    ("4.9-minimal_take_forced", P_MUST_TAKE, T(1), None),
    ("4.9-decline_when_not_forced", P_MAY_DECLINE, DeclinePile(1), None),
    ("4.9-take_when_not_forced", P_MAY_DECLINE, T(1, "9S 9D"), None),
    ("4.9-wrong_phase", play("9S 9D 4C", melds={1: {"9": "9C 9H 2C"}}, stock=[], pile="9H"), DeclinePile(1),
     "wrong_phase"),
    ("4.9-not_your_turn", P_MAY_DECLINE, DeclinePile(2), "not_your_turn"),
]


@rows(DECLINE_ROWS)
def test_4_9_decline_pile(state, move, expected):
    check_row(state, move, expected)


def test_4_9_decline_ends_the_hand():
    after = at(P_MAY_DECLINE, DeclinePile(1))
    assert after.phase == "hand_over" and after.result.reason == "stock_exhausted" and after.result.went_out is None
    assert after.to_move is None and all(s["going_out_bonus"] == 0 for s in hand_score(after)["sides"])


# --- §4.10 going out, concealed -------------------------------------------------------------------


def test_4_10_going_out_by_discard():
    state = play("9S", melds={1: {"K": K_CANASTA}}, hands={0: "4S", 2: "6S", 3: "5S"})
    after = at(state, D(1, "9S"))
    assert after.result.reason == "went_out" and after.result.went_out == 1 and after.result.concealed is False
    assert after.phase == "hand_over" and after.to_move is None
    assert side_parts(after, 1) == {"meld_points": 70, "canasta_bonus": 500, "red_three_points": 0,
                                    "going_out_bonus": 100, "hand_penalty": 5, "total": 665}
    assert refusal(after, Draw(2)) == "hand_finished"


def test_4_10_concealed_going_out_from_the_stock():
    after = at(P_CONCEALED, M(1, "4: 4C 4D 4H", SEVENS), D(1, "9S"))
    assert after.result.went_out == 1 and after.result.concealed is True
    # 4s 15 + 7s 35; natural canasta 500; concealed 200; seat 3 holds 5S
    assert side_parts(after, 1) == {"meld_points": 50, "canasta_bonus": 500, "red_three_points": 0,
                                    "going_out_bonus": 200, "hand_penalty": 5, "total": 745}
    assert side_parts(after, 0)["total"] == -10
    out = at(P_CONCEALED_ALL, M(1, "4: 4C 4D 4H", SEVENS))  # going out without a discard
    assert out.phase == "hand_over" and out.result.went_out == 1 and out.result.concealed is True


CONCEALED_ROWS = [
    # (id, seat 1's hand, its moves, concealed) - partner seat 3 made side 1's meld K; seat 1 has not melded
    ("4.10-not_concealed-card_on_an_old_meld", "KS 9S", [M(1, SEVENS, "K: KS"), D(1, "9S")], False),
    ("4.10-not_concealed-old_meld_in_a_second_move", "KS 9S", [M(1, SEVENS), M(1, "K: KS"), D(1, "9S")], False),
    ("4.10-concealed-per_player", "9S", [M(1, SEVENS), D(1, "9S")], True),
]


@pytest.mark.parametrize(("rest", "moves", "concealed"), [r[1:] for r in CONCEALED_ROWS],
                         ids=[r[0] for r in CONCEALED_ROWS])
def test_4_10_concealed_is_per_player(rest, moves, concealed):
    state = play("7C 7C 7D 7D 7H 7H 7S " + rest, melds={1: {"K": "KC KD KH"}}, has_melded={1: False, 3: True},
                 hands={3: "5S"})
    after = at(state, *moves)
    assert after.result.went_out == 1 and after.result.concealed is concealed
    assert side_parts(after, 1)["going_out_bonus"] == (200 if concealed else 100)


def test_4_10_going_out_by_taking_the_pile():
    state = drawing("9S 9D", melds={0: {"K": K_CANASTA}}, pile="9H", has_melded={0: False, 2: True})
    after = at(state, T(0, "9S 9D"))
    assert after.result.reason == "went_out" and after.result.went_out == 0
    assert after.result.concealed is False  # the new meld 9 is no canasta
    assert meld_of(after, 0, "9") == bag("9H 9S 9D")


# --- §4.11 turn transition, automatic end ---------------------------------------------------------


def test_4_11_turn_transition():
    state = play("4D 9S", melds=DISCARD_MELDS, has_melded={1: False, 3: True}, turn_info={"melded_this_turn": True})
    after = at(state, D(1, "9S"))
    assert after.turn == after.to_move == 2 and after.turn_index == state.turn_index + 1 and after.phase == "draw"
    assert after.has_melded == (True, True, True, True)
    assert after.turn_info == TurnInfo(keys_at_start=frozenset({"Q"}))  # seat 2's side's melds
    state = play("4D 9S", melds=DISCARD_MELDS, has_melded={1: False, 3: True})
    assert at(state, D(1, "9S")).has_melded[1] is False
    wrap = at(play("4D 9S", seat=3, melds=DISCARD_MELDS), D(3, "9S"))
    assert wrap.turn == 0 and wrap.turn_info.keys_at_start == frozenset({"Q"})


def test_4_11_last_stock_card_is_played_normally():
    state = position(hands={1: "4D 9S"}, stock=["KS"], pile="6C", pile_frozen=False)
    state = at(state, Draw(1))
    assert state.phase == "play" and state.stock == () and held(state, 1) == bag("4D 9S KS")


EXHAUSTED_ROWS = [
    # seat 1 discards 9S on an exhausted stock; seat 2 (side 0) is next
    ("4.11-no_take_ends_the_hand", {}, "4C", "stock_exhausted"),
    ("4.11-a_take_with_a_pair_goes_on", {0: {"Q": "QC QD QH"}}, "9C 9D 4C", "draw"),
    ("4.11-minimal_take_goes_on", {0: {"9": "9H 9H 2C"}}, "4C", "draw"),
    ("4.11-pair_below_the_minimum_ends", {}, "9C 9D 4C", "stock_exhausted"),
]


@pytest.mark.parametrize(("melds", "next_hand", "outcome"), [r[1:] for r in EXHAUSTED_ROWS],
                         ids=[r[0] for r in EXHAUSTED_ROWS])
def test_4_11_stock_exhausted(melds, next_hand, outcome):
    state = play("4D 9S", melds=melds, stock=[], pile="6C", pile_frozen=False, hands={2: next_hand})
    after = at(state, D(1, "9S"))
    if outcome == "stock_exhausted":
        assert after.phase == "hand_over" and after.result.reason == "stock_exhausted" and after.to_move is None
        assert after.result.went_out is None
    else:
        assert after.phase == "draw" and after.to_move == 2 and listing.any_take(after, 2)


def test_6_taking_the_pile_on_an_exhausted_stock_plays_on():
    state = play("4D 9S", melds={0: {"Q": "QC QD QH"}}, stock=[], pile="6C", pile_frozen=False,
                 hands={2: "9C 9D 4C 5H", 3: "8S"})
    state = at(state, D(1, "9S"), T(2, "9C 9D"))
    assert state.phase == "play" and state.stock == ()
    state = at(state, D(2, "4C"))  # seat 3 (side 1, no meld) holds only 8S: no take, the hand ends
    assert state.phase == "hand_over" and state.result.reason == "stock_exhausted"


def test_4_11_one_card_cannot_take_one_card():
    # the pile has just been taken (it is empty) and the stock is exhausted; seat 2 holds one card
    wire = position_wire(hands={1: "4D 9S", 2: "4C"}, melds={0: {"9": "9H 9H 2C", "K": K_CANASTA}}, stock=[],
                         pile="6C",
                         phase="play", turn=1)
    rest, wire["pile"], wire["pile_frozen"] = wire["pile"], [], False
    wire["hands"][3] += [c for c in rest if c not in ("3D", "3H")]
    wire["red_threes"][3] += [c for c in rest if c in ("3D", "3H")]
    after = at(GAME.load_state(wire), D(1, "9S"))
    # seat 2's only take (9S onto side 0's meld 9, then going out with 4C: side 0 has a canasta) is
    # refused by P4 alone (one card in hand, a one-card pile)
    assert codes(after.pile) == ["9S"] and held(after, 2) == bag("4C")
    assert after.phase == "hand_over" and after.result.reason == "stock_exhausted"


# --- §4.12 the order of the first checks ----------------------------------------------------------

P_OVER = finished(hands={1: "", 0: "4S", 2: "5S", 3: "6S"}, melds={1: {"K": K_CANASTA}})
P_EMPTY_STOCK = drawing("4C 5D", seat=1, stock=[], pile="9C", pile_frozen=True)

ORDER_ROWS = [
    ("4.12-hand_finished-first_of_all", P_OVER, U(3, "8D 8H"), "hand_finished"),
    ("4.12-hand_finished-draw", P_OVER, Draw(2), "hand_finished"),
    ("4.12-hand_finished-answer", P_OVER, AnswerGoOut(0, True), "hand_finished"),
    ("4.12-not_offered-before_wrong_phase", P_DISCARD, U(1, "4C 9S"), "not_offered"),
    ("4.12-not_offered-before_not_your_turn", P_DISCARD, X(2, 0, "Q", "QC"), "not_offered"),
    ("4.12-wrong_phase-before_not_your_turn", P_E5A, M(2, "K: KS"), "wrong_phase"),
    ("4.12-wrong_phase-discard_in_draw", P_E5A, D(0, "5S"), "wrong_phase"),
    ("4.12-wrong_phase-draw_in_play", P_DISCARD, Draw(1), "wrong_phase"),
    ("4.12-wrong_phase-decline_in_play", P_DISCARD, DeclinePile(1), "wrong_phase"),
    ("4.12-not_your_turn-before_stock_empty", P_EMPTY_STOCK, Draw(2), "not_your_turn"),
    ("4.12-not_your_turn-before_card_not_in_hand", P_DISCARD, D(3, "AS"), "not_your_turn"),
    ("4.12-stock_empty", P_EMPTY_STOCK, Draw(1), "stock_empty"),
]


SECTION_ORDER_ROWS = [
    # within a move, its section's conditions in the order the section lists them (§4.12)
    ("4.12-P3_before_P4", drawing("5S", melds=E5_MELDS, pile="2C"), T(0), "pile_blocked"),
    ("4.12-P4_before_P5", P_ONE_CARD, T(0, "9S 9S"), "single_card_pile"),
    ("4.12-P5-in_hand_before_the_rank", P_E5B, T(0, "9S 8C"), "card_not_in_hand"),
    ("4.12-P6_before_P7", P_E5C, T(0, "9S 2C"), "frozen_pile_needs_pair"),
    ("4.12-P7_before_P8", P_E6, T(0, "KC KD", "A: AC AD"), "invalid_meld"),
    ("4.12-P8_before_P9", drawing("7C 7D", pile="7H"), T(0, "7C 7D"), "below_initial_minimum"),
    ("4.12-M2_before_M3", play("7C 7D 9S", melds={1: {"K": "KC KD KH"}}), M(1, "7: 7C 7D"), "invalid_meld"),
    ("4.12-4.4-turn_before_the_upcard", e8(turn_index=4, pile="3S"), U(1, "8D 8H"), "not_first_turn"),
    ("4.12-4.4-in_hand_before_the_pair", e8(), U(1, "8D JK"), "card_not_in_hand"),
    ("4.12-4.6-opponent_before_in_hand", e9(), X(1, 1, "5", "QH"), "not_opponent_meld"),
    ("4.12-4.6-joker_before_in_hand", e9(), X(1, 0, "Q", "QH"), "no_joker_in_meld"),
    ("4.12-4.6-in_hand_before_the_rank", e9(), X(1, 0, "K", "JH"), "card_not_in_hand"),
    ("4.12-4.6-rank_before_own_meld", e9(melds={0: E9_MELDS[0]}), X(1, 0, "K", "QS"), "exchange_card_wrong_rank"),
    ("4.12-4.7-in_hand_before_going_out", play("9S", melds=DISCARD_MELDS), D(1, "4C"), "card_not_in_hand"),
    ("4.12-4.8-asked_before_melded", at(P_SAID_YES, M(1, "Q: QS")), AskGoOut(1), "already_asked"),
    ("4.12-4.8-melded_before_hand_size", at(P_ASK, M(1, "Q: QS")), AskGoOut(1), "ask_after_meld"),
    ("4.12-4.9-stock_before_forced_take", drawing("4D 7S", seat=1, melds={1: {"9": "9C 9D 2C"}}, pile="9H"),
     DeclinePile(1), "stock_not_empty"),
]


@rows(SECTION_ORDER_ROWS)
def test_4_12_order_within_a_section(state, move, expected):
    check_row(state, move, expected)


@rows(ORDER_ROWS)
def test_4_12_order_of_checks(state, move, expected):
    check_row(state, move, expected)


# --- §4.13 listing --------------------------------------------------------------------------------


def wire_listed(state, seat=None):
    seat = state.to_move if seat is None else seat
    return sorted((GAME.dump_move(mv) for mv in GAME.legal_moves(state, seat)), key=repr)


def meld_wire(seat, *texts):
    return {"seat": seat, "type": "meld", "melds": [{"rank": g.key, "cards": codes(g.cards)} for g in groups(*texts)]}


def take_wire(seat, top="", *texts):
    return {"seat": seat, "type": "take_pile", "top_cards": top.split(),
            "melds": [{"rank": g.key, "cards": codes(g.cards)} for g in groups(*texts)]}


def discards(seat, text):
    return [{"seat": seat, "type": "discard", "cards": [c]} for c in text.split()]


# rule 1: side 1 has meld K; one-group moves only
P_L1 = play("QC QD 2H 4S 9D", melds={1: {"K": "KC KD KH"}})
# rules 1 and 2: side 1 has no meld (minimum 50)
P_L2 = play("KC KD KH QC QD 2C 4S 9D")
# rule 3: side 1 at 1500 (minimum 90) has no meld; only the concealed going out is legal
P_L3 = play("7C 7C 7D 7D 7H 7H 7S 4C 4D 4H 9S", side_scores=[0, 1500])
# rule 4: two cards left, side 1 has a canasta
P_L4 = play("QS 2C", melds={1: {"K": K_CANASTA, "Q": "QC QD QH"}})
# take_pile rule 1: side 0 has meld 9; rule 2: E6; rule 4: a take that goes out with one more card
P_T1 = drawing("9C 2D 5H 8S", melds={0: {"9": "9D 9H 9S"}}, pile="9S 4C")
P_T3 = drawing("9D QS", melds={0: {"9": "9H 9H 9S", "Q": "QC QD QH", "K": K_CANASTA}}, pile="9C")
P_TWO_TWOS = play("2C 2D", melds={1: {"K": K_CANASTA, "Q": "QC QD QH"}})
P_TWO_JOKERS = play("JK JK", melds={1: {"K": K_CANASTA, "Q": "QC QD QH"}})
# the canonical codes of §4.13: KS KD KD 2S 2C JK
P_CODES = play("KS KD KD 2S 2C JK 4C 9H", melds={1: {"Q": "QC QD QH"}})

LISTING_ROWS = [
    ("4.13-meld_rule_1", P_L1, [meld_wire(1, "K: 2H"), meld_wire(1, "Q: QC QD 2H"), *discards(1, "2H 4S 9D QC QD")]),
    ("4.13-meld_rule_2", P_L2, [meld_wire(1, "K: KC KD KH 2C"), meld_wire(1, "Q: QC QD 2C", "K: KC KD KH"),
                                *discards(1, "2C 4S 9D KC KD KH QC QD")]),
    ("4.13-meld_rule_3", P_L3, [meld_wire(1, "4: 4C 4D 4H", SEVENS), *discards(1, "4C 4D 4H 7C 7D 7H 7S 9S")]),
    ("4.13-meld_rule_4", P_L4, [meld_wire(1, "Q: QS"), meld_wire(1, "Q: QS 2C"), meld_wire(1, "Q: 2C"),
                                meld_wire(1, "K: 2C"), meld_wire(1, "Q: QS", "K: 2C"), *discards(1, "QS 2C")]),
    ("4.13-take_rule_1", P_T1, [{"seat": 0, "type": "draw"}, take_wire(0), take_wire(0, "9C"), take_wire(0, "2D"),
                                take_wire(0, "9C 2D")]),
    ("4.13-take_rule_2-E6", P_E6, [{"seat": 0, "type": "draw"}, take_wire(0, "KC KD JK"),
                                   take_wire(0, "KC KD", "A: AC AD JK")]),
    ("4.13-take_rule_4", P_T3, [{"seat": 0, "type": "draw"}, take_wire(0), take_wire(0, "9D"),
                                take_wire(0, "9D", "Q: QS")]),
    ("4.13-decline_and_forced_take", P_MAY_DECLINE, [take_wire(1, "9D 9S"), {"seat": 1, "type": "decline_pile"}]),
    # rule 4 with the last two cards both 2s: [{Q: 2C}, {K: 2D}] is one count signature, listed once
    ("4.13-meld_rule_4-two_twos_listed_once", P_TWO_TWOS,
     [meld_wire(1, "Q: 2C"), meld_wire(1, "K: 2C"), meld_wire(1, "Q: 2C 2D"), meld_wire(1, "K: 2C 2D"),
      meld_wire(1, "Q: 2C", "K: 2D"), *discards(1, "2C 2D")]),
    ("4.13-meld_rule_4-two_jokers_listed_once", P_TWO_JOKERS,
     [meld_wire(1, "Q: JK"), meld_wire(1, "K: JK"), meld_wire(1, "Q: JK JK"), meld_wire(1, "K: JK JK"),
      meld_wire(1, "Q: JK", "K: JK"), *discards(1, "JK")]),
    ("4.13-ask_listed", P_ASK, [meld_wire(1, "Q: QS"), {"seat": 1, "type": "ask_go_out"}, *discards(1, "QS 9S")]),
]


@pytest.mark.parametrize(("state", "expected"), [r[1:] for r in LISTING_ROWS], ids=[r[0] for r in LISTING_ROWS])
def test_4_13_listing(state, expected):
    assert wire_listed(state) == sorted(expected, key=repr)


def test_4_13_canonical_codes():
    listed = wire_listed(P_CODES)
    king_groups = [mv["melds"][0]["cards"] for mv in listed if mv["type"] == "meld" and mv["melds"][0]["rank"] == "K"]
    assert ["KD", "KD", "KS", "2C"] in king_groups  # the example of §4.13
    assert ["KD", "KD", "KS", "2C", "2S", "JK"] in king_groups and ["KD", "KD", "2C"] in king_groups
    for found in king_groups:  # naturals C D H S, then the 2s in suit order, then jokers
        naturals = [c for c in found if c[0] == "K"]
        twos = [c for c in found if c[0] == "2"]
        assert found == naturals + twos + [c for c in found if c == "JK"]
        assert naturals == ["KD", "KD", "KS"][:len(naturals)] and twos == ["2C", "2S"][:len(twos)]
    # a later group of the same move takes the next 2s, top_cards first: at 1500 (minimum 90)
    # KH KC KD 2C (50) needs AC AD 2S (60)
    state = drawing("KC KD AC AD 2S 2C 5S 9D", pile="KH 4C", side_scores=[1500, 0])
    assert take_wire(0, "KC KD 2C", "A: AC AD 2S") in wire_listed(state)


def one_group_signatures(state, seat):
    """Every legal one-group meld by brute force, as (key, naturals, twos, jokers)."""
    hand = state.hands[seat]
    found = set()
    for size in range(1, len(hand) + 1):
        for chosen in set(itertools.combinations(sorted(hand, key=lambda c: c.code), size)):
            for key in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "W"):
                if refusal(state, Meld(seat, (Group(key, chosen),))) is None:
                    found.add(signature(Group(key, chosen)))
    return found


def signature(group):
    twos = sum(1 for c in group.cards if c.rank == "2")
    jokers = sum(1 for c in group.cards if c.code == "JK")
    return group.key, len(group.cards) - twos - jokers, twos, jokers


@pytest.mark.parametrize("state", [P_L1, P_L4, P_CODES, play("KC KD 2C JK 4S", options=SEED_13, melds={1: {"W": "2H 2S JK"}})],
                         ids=["4.13-rule_1_complete-L1", "4.13-rule_1_complete-L4", "4.13-rule_1_complete-codes",
                              "4.13-rule_1_complete-seed_13_W"])
def test_4_13_rule_1_lists_every_legal_one_group_signature(state):
    listed = {signature(mv.melds[0]) for mv in GAME.legal_moves(state, state.to_move)
              if isinstance(mv, Meld) and len(mv.melds) == 1}
    assert listed == one_group_signatures(state, state.to_move)


def test_4_13_legal_but_not_listed():
    # E3 at 1500 (minimum 90): A alone meets it, so [{Q}, {A}] is legal and split into listed moves
    both = M(1, "Q: QS QH QD", "A: AC AD JK")
    assert refusal(P_E3, both) is None and both not in GAME.legal_moves(P_E3, 1)
    assert M(1, "A: AC AD JK") in GAME.legal_moves(P_E3, 1)
    after = at(P_E3, M(1, "A: AC AD JK"))
    assert M(1, "Q: QD QH QS") in GAME.legal_moves(after, 1)
    # a take with one extra single card that does not go out
    state = drawing("KS 5S 7H 8D", melds=E5_MELDS, pile=E5_PILE)
    extra = T(0, "", "K: KS")
    assert refusal(state, extra) is None and extra not in GAME.legal_moves(state, 0)
    assert T(0) in GAME.legal_moves(state, 0) and M(0, "K: KS") in GAME.legal_moves(at(state, T(0)), 0)


def test_4_13_upcard_and_exchange_listing():
    state = e8(hand="8D 8H 8S 4C 5D 6H 7S 9C 10D JH QS")
    upcards = [mv for mv in wire_listed(state) if mv["type"] == "take_upcard"]
    assert upcards == sorted([{"seat": 1, "type": "take_upcard", "show": ["8D", "8H"]},
                              {"seat": 1, "type": "take_upcard", "show": ["8D", "8H", "8S"]}], key=repr)
    state = position(options=SEED_108, melds=E9_MELDS, hands={1: "KS KS KC 5H 9D"}, turn=1, phase="play")
    exchanges = [mv for mv in wire_listed(state) if mv["type"] == "exchange_joker"]
    assert exchanges == sorted([{"seat": 1, "type": "exchange_joker", "from_side": 0, "rank": "K", "cards": [c]}
                                for c in ("KC", "KS")], key=repr)


def test_4_13_every_listed_move_is_legal_and_round_trips():
    states = list({id(r[1]): r[1] for r in ALL_ROWS}.values()) + [r[1] for r in LISTING_ROWS]
    states += [r[1] for r in ORACLE_STATES]
    count = 0
    for state in states:
        if state.to_move is None:
            assert GAME.legal_moves(state, 0) == []
            continue
        for other in range(state.seats):
            if other != state.to_move:
                assert GAME.legal_moves(state, other) == []
        for move in GAME.legal_moves(state, state.to_move):
            check.check(state, move)
            assert GAME.load_move(GAME.dump_move(move)) == move
            count += 1
    assert count > 300


# --- §7.1 hand score (E11-E13) --------------------------------------------------------------------

P_E11 = finished(
    melds={0: {"K": "KC KD KH KS KC KD 2H", "7": "7C 7D 7H 7S 7C 7D 7H", "A": "AC AD JK"},
           1: {"Q": "QC QD QH 2C", "5": "5C 5D 5S"}},
    red_threes={0: "3H", 1: "3D", 3: "3D"},
    hands={0: "", 2: "9C 4D 2S", 1: "AS AH JK 8C", 3: "3C 6H 6S"})
P_E12 = finished(
    options=SEED_13,
    melds={0: {"W": "2C 2D 2H 2S JK JK 2C", "9": "9C 9D 9H 9S 9C 9D 9H", "3": "3C 3D 3H"},
           1: {"A": "AC AD AH 2D", "K": "KC KD KH KS KC KD JK"}},
    hands={0: "", 2: "AS 3S 8D", 1: "5C 5D", 3: "JK 10H 4C"})
P_E13 = finished(melds={0: {"K": "KC KD KH"}}, red_threes={1: "3D", 3: "3H"},
                 hands={0: "4S", 2: "5S", 1: "AS JK 10C", 3: "4C"})


def parts(meld_points, canasta_bonus, red_three_points, going_out_bonus, hand_penalty, total):
    return {"meld_points": meld_points, "canasta_bonus": canasta_bonus, "red_three_points": red_three_points,
            "going_out_bonus": going_out_bonus, "hand_penalty": hand_penalty, "total": total}


def test_7_1_E11_classic():
    assert GAME.score(P_E11, None) == {
        "hand": {"sides": [parts(205, 800, 100, 100, 35, 1170), parts(65, 0, 200, 0, 115, 150)],
                 "reason": "went_out", "went_out": 0, "concealed": False},
        "match": {"totals": [1170, 150], "target": 5000, "over": False, "winner": None, "next_dealer": 1,
                  "next_minimums": [50, 50]},
    }


def test_7_1_E12_seed_13():
    assert GAME.score(P_E12, None) == {
        "hand": {"sides": [parts(272, 1800, 0, 200, 22, 2250), parts(163, 300, 0, 0, 74, 389)],
                 "reason": "went_out", "went_out": 0, "concealed": False},
        "match": {"totals": [2250, 389], "target": 5000, "over": False, "winner": None, "next_dealer": 1,
                  "next_minimums": [90, 50]},
    }


def test_7_1_E13_red_threes_without_a_meld():
    assert side_parts(P_E13, 1) == parts(0, 0, -200, 0, 85, -285)
    assert side_parts(P_E13, 0) == parts(30, 0, 0, 0, 10, 20)
    state = finished(melds={0: {"K": "KC KD KH"}}, red_threes={0: "3D 3H", 2: "3D 3H"},
                     hands={0: "4S", 2: "5S", 1: "6S", 3: "4C"})
    assert side_parts(state, 0) == parts(30, 0, 800, 0, 10, 820)


RED_THREE_ROWS = [
    ("7.1-one", 4, 1, True, 100), ("7.1-two", 4, 2, True, 200), ("7.1-three", 4, 3, True, 300),
    ("7.1-all_four_800", 4, 4, True, 800), ("7.1-all_four_without_meld", 4, 4, False, -800),
    ("7.1-two_without_meld", 4, 2, False, -200), ("7.1-n2-all_four", 2, 4, True, 800),
    ("7.1-n3-all_four", 3, 4, True, 800),
    ("7.1-n6-four_is_400", 6, 4, True, 400), ("7.1-n6-five_1000", 6, 5, True, 1000),
    ("7.1-n6-six_1200", 6, 6, True, 1200), ("7.1-n6-five_without_meld", 6, 5, False, -1000),
    ("7.1-n6-six_without_meld", 6, 6, False, -1200), ("7.1-n6-three", 6, 3, True, 300),
]


@pytest.mark.parametrize(("seats", "count", "melded", "expected"), [r[1:] for r in RED_THREE_ROWS],
                         ids=[r[0] for r in RED_THREE_ROWS])
def test_7_1_red_three_values(seats, count, melded, expected):
    team = list(range(0, seats, 2 if seats in (4, 6) else seats))
    threes: dict[int, list[str]] = {seat: [] for seat in team}
    for i, card in enumerate(["3D", "3H", "3D", "3H", "3D", "3H"][:count]):
        threes[team[i % len(team)]].append(card)
    state = finished(seats=seats, melds={0: {"K": "KC KD KH"}} if melded else None,
                     red_threes={s: " ".join(c) for s, c in threes.items()})
    assert side_parts(state, 0)["red_three_points"] == expected
    assert all(side_parts(state, side)["red_three_points"] == 0 for side in range(1, len(state.side_scores)))


GOING_OUT_ROWS = [
    ("7.1-classic-100", {}, False, 500, 100),
    ("7.1-classic-concealed_200", {}, True, 500, 200),
    ("7.1-seed_108-100", SEED_108, False, 500, 100),
    ("7.1-seed_13-200", SEED_13, False, 600, 200),
    ("7.1-seed_13-concealed_200", SEED_13, True, 600, 200),
    ("7.1-seed_13-concealed_option_400", {"variant": "seed_13", "concealed_going_out_bonus": 400}, True, 600, 400),
    ("7.1-seed_13-option_400_not_concealed", {"variant": "seed_13", "concealed_going_out_bonus": 400}, False, 600, 200),
    ("7.1-classic-ignores_the_seed_13_option", {"concealed_going_out_bonus": 400}, True, 500, 200),
]


@pytest.mark.parametrize(("options", "concealed", "natural", "bonus"), [r[1:] for r in GOING_OUT_ROWS],
                         ids=[r[0] for r in GOING_OUT_ROWS])
def test_7_1_going_out_bonus(options, concealed, natural, bonus):
    state = finished(options=options, melds={0: {"K": K_CANASTA}}, hands={0: "", 2: "5S", 1: "4S", 3: "6S"},
                     result={"concealed": concealed})
    # seven kings are 70 in every variant; seat 2 holds 5S (5)
    assert side_parts(state, 0) == parts(70, natural, 0, bonus, 5, 70 + natural + bonus - 5)
    assert side_parts(state, 1)["going_out_bonus"] == 0


@pytest.mark.parametrize("reason", ["stock_exhausted", "red_three_last"], ids=["7.1-no_bonus-stock_exhausted",
                                                                               "7.1-no_bonus-red_three_last"])
def test_7_1_no_going_out_bonus_without_going_out(reason):
    state = finished(melds={0: {"K": K_CANASTA}}, result={"reason": reason, "went_out": None})
    assert [s["going_out_bonus"] for s in hand_score(state)["sides"]] == [0, 0]
    assert side_parts(state, 0)["canasta_bonus"] == 500


def test_7_1_a_hand_in_progress_is_not_scored():
    with pytest.raises(InvalidState):
        GAME.score(P_DISCARD, None)


# --- §7.2 game (E14), next dealer, next minimums ----------------------------------------------------


def plain_finish(seats, side_scores, options=None, dealer=0):
    """Every seat holds one 5-point card: each side loses 5 per member."""
    hand = ["5C", "5D", "5H", "5S", "5C", "5D"]
    return finished(seats=seats, dealer=dealer, options=options, side_scores=side_scores,
                    hands={s: hand[s] for s in range(seats)})


MATCH_ROWS = [
    ("7.2-E14-side_0_wins", 4, None, [5020, 5000], [5010, 4990], [0, 2]),
    ("7.2-E14-both_over_side_1_wins", 4, None, [5310, 6110], [5300, 6100], [1, 3]),
    ("7.2-E14-tie_at_the_top_plays_on", 4, None, [5130, 5130], [5120, 5120], None),
    ("7.2-below_target", 4, None, [4010, 3000], [4000, 2990], None),
    ("7.2-exactly_the_target", 4, None, [5010, 0], [5000, -10], [0, 2]),
    ("7.2-target_option", 4, {"target_score": 3000}, [3010, 0], [3000, -10], [0, 2]),
    ("7.2-n6-10000-not_yet", 6, None, [10005, 9000], [9990, 8985], None),
    ("7.2-n6-10000", 6, None, [10015, 0], [10000, -15], [0, 2, 4]),
    ("7.2-n3-tie_at_the_top", 3, None, [5005, 5005, 0], [5000, 5000, -5], None),
    ("7.2-n3-the_highest_wins", 3, None, [5005, 4000, 6000], [5000, 3995, 5995], [2]),
    ("7.2-n3-tie_below_the_top", 3, None, [6005, 5005, 5005], [6000, 5000, 5000], [0]),
]


@pytest.mark.parametrize(("seats", "options", "before", "totals", "winner"), [r[1:] for r in MATCH_ROWS],
                         ids=[r[0] for r in MATCH_ROWS])
def test_7_2_E14_match(seats, options, before, totals, winner):
    state = plain_finish(seats, before, options)
    for match in (None, {"totals": before, "over": False, "winner": None, "next_dealer": 0}):
        after = GAME.score(state, match)["match"]
        assert after["totals"] == totals and after["over"] is (winner is not None) and after["winner"] == winner
    with pytest.raises(InvalidMatch):
        GAME.score(state, {"totals": [t + 1 for t in before], "over": False, "winner": None, "next_dealer": 0})


@pytest.mark.parametrize(("seats", "dealer", "next_dealer"), [(4, 0, 1), (4, 3, 0), (2, 1, 0), (3, 2, 0), (6, 5, 0),
                                                              (6, 2, 3)],
                         ids=["7.2-n4-d0", "7.2-n4-d3", "7.2-n2-d1", "7.2-n3-d2", "7.2-n6-d5", "7.2-n6-d2"])
def test_7_2_next_dealer(seats, dealer, next_dealer):
    sides = 2 if seats in (4, 6) else seats
    state = plain_finish(seats, [0] * sides, dealer=dealer)
    assert GAME.score(state, None)["match"]["next_dealer"] == next_dealer


NEXT_MIN_ROWS = [
    ("7.2-classic", {}, 4, [-5, 1495], [15, 50]),
    ("7.2-classic-high", {}, 4, [1500, 3000], [90, 120]),
    ("7.2-seed_108-base_40", {"variant": "seed_108", "initial_meld_base": 40}, 4, [2350, 999], [60, 40]),
    ("7.2-seed_108", SEED_108, 4, [1000, -150], [40, 30]),
    ("7.2-seed_13", SEED_13, 4, [-40, 2999], [50, 90]),
    ("7.2-seed_13-high", SEED_13, 4, [1500, 3000], [90, 120]),
    ("7.2-classic-n6", {}, 6, [7500, 7499], [150, 120]),
    ("7.2-classic-n3", {}, 3, [-1, 0, 1500], [15, 50, 90]),
]


@pytest.mark.parametrize(("options", "seats", "totals", "minimums"), [r[1:] for r in NEXT_MIN_ROWS],
                         ids=[r[0] for r in NEXT_MIN_ROWS])
def test_7_2_next_minimums(options, seats, totals, minimums):
    loss = {2: 5, 3: 5, 4: 10, 6: 15}[seats]
    state = plain_finish(seats, [t + loss for t in totals], options)
    after = GAME.score(state, None)["match"]
    assert after["totals"] == totals and after["next_minimums"] == minimums


# --- §4.13 the listing against a brute-force reading of rules (1)-(4) -----------------------------

KEY_ORDER = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "W")
TABLE_2_3 = {
    "classic": {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10, "7": 5, "6": 5,
                "5": 5, "4": 5, "3": 5},
    "seed_13": {"JK": 50, "2": 20, "A": 11, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6,
                "5": 5, "4": 4, "3": 3},
}


def rank_of(code):
    return "JK" if code == "JK" else code[:-1]


def is_wild(code):
    return rank_of(code) in ("JK", "2")


def value_of(code, variant):
    return TABLE_2_3["seed_13" if variant == "seed_13" else "classic"][rank_of(code)]


def expected_min(variant, seats, score, base):
    """§4.1.6, from its table."""
    if variant == "seed_108":
        return base + 10 * (max(score, 0) // 1000)
    if variant == "classic" and score < 0:
        return 15
    if score < 1500:
        return 50
    if score < 3000:
        return 90
    return 150 if variant == "classic" and seats == 6 and score >= 7500 else 120


def by_suit(found):
    return sorted(found, key=lambda c: "CDHS".index(c[-1]))


def split_hand(hand):
    naturals: dict[str, list[str]] = {}
    for code in by_suit([c for c in hand if not is_wild(c)]):
        naturals.setdefault(rank_of(code), []).append(code)
    return naturals, by_suit([c for c in hand if rank_of(c) == "2"]), hand.count("JK")


def plans(keys, naturals, twos, jokers):
    """Every choice of (a, b, j) per key, keys in order, empty groups left out."""
    if not keys:
        yield ()
        return
    key, rest = keys[0], keys[1:]
    for a in range(len(naturals.get(key, ())) + 1):
        for b in range(twos + 1):
            for j in range(jokers + 1):
                for tail in plans(rest, naturals, twos - b, jokers - j):
                    yield (((key, (a, b, j)),) if a + b + j else ()) + tail


def fill(plan, naturals, twos, used=0):
    found = []
    for key, (a, b, j) in plan:
        found.append({"rank": key, "cards": naturals.get(key, [])[:a] + twos[used:used + b] + ["JK"] * j})
        used += b
    return found


def oracle(state):
    """The meld and take_pile moves §4.13 lists, found by trying every count signature."""
    wire, seat, variant = GAME.dump_state(state), state.to_move, state.variant
    hand, sides = wire["hands"][seat], len(wire["side_scores"])
    side = seat % sides
    mine = wire["melds"][side]
    minimum = expected_min(variant, state.seats, wire["side_scores"][side], wire["options"].get("initial_meld_base", 30))
    naturals, twos, jokers = split_hand(hand)

    def worth(found):
        return sum(value_of(c, variant) for c in found)

    expected = []

    def keys_for(exclude=None):
        return tuple(k for k in KEY_ORDER if k != exclude and (k in naturals or k in mine or
                                                             (k == "W" and variant == "seed_13")))

    def needed(total, found):
        return all(total - worth(g["cards"]) < minimum for g in found)

    if state.phase == "play":
        for plan in plans(keys_for(), naturals, len(twos), jokers):
            found = fill(plan, naturals, twos)
            move = {"seat": seat, "type": "meld", "melds": found}
            if not plan or refusal(state, GAME.load_move(move)) is not None:
                continue
            left = len(hand) - sum(len(g["cards"]) for g in found)
            if len(found) == 1:
                listed = True  # rule 1
            elif not mine:  # rules 2 and 3
                listed = needed(sum(worth(g["cards"]) for g in found), found) or left <= 1
            else:  # rule 4
                listed = len(hand) == 2 and all(len(g["cards"]) == 1 for g in found)
            if listed:
                expected.append(move)
    elif state.phase == "draw" and wire["pile"]:
        top = wire["pile"][0]
        key = rank_of(top)
        gain = len(wire["pile"]) - 1 - sum(1 for c in wire["pile"][1:]
                                           if c in ("3D", "3H") and variant != "seed_13")
        for a in range(len(naturals.get(key, ())) + 1):
            for b in range(len(twos) + 1):
                for j in range(jokers + 1):
                    top_cards = naturals.get(key, [])[:a] + twos[:b] + ["JK"] * j
                    for plan in plans(keys_for(key), naturals, len(twos) - b, jokers - j):
                        found = fill(plan, naturals, twos, used=b)
                        move = {"seat": seat, "type": "take_pile", "top_cards": top_cards, "melds": found}
                        if refusal(state, GAME.load_move(move)) is not None:
                            continue
                        left = len(hand) - len(top_cards) - sum(len(g["cards"]) for g in found) + gain
                        if not found:
                            listed = True  # rule 1
                        elif not mine:  # rules 2 and 3
                            total = value_of(top, variant) + worth(top_cards) + sum(worth(g["cards"]) for g in found)
                            listed = needed(total, found) or left <= 1
                        else:  # rule 4
                            listed = len(found) == 1 and len(found[0]["cards"]) == 1 and left == 0
                        if listed:
                            expected.append(move)
    return sorted(expected, key=repr)


# side 0 without a meld at -5 (minimum 15): the canasta from the pile alone meets it, so the 4s
# are listed only because the take then goes out (rule 3)
P_T_OUT = drawing("7C 7C 7D 7D 7S 7S 4C 4D 4H", pile="7H", side_scores=[-5, 0])
# two players need two canastas (seat 1 has one): the last two cards, both at once
P_TWO_CANASTAS = play("QS 2C", seats=2, melds={1: {"K": K_CANASTA, "Q": "QC QD QH QS QC QD"}})
P_SEED_13_W = play("KC KD 2C 2D JK 4S 3C 3H", options=SEED_13)
P_SEED_13_TAKE = drawing("3C 3H 2C 2D JK 4S", options=SEED_13, pile="3S 4C")
P_SEED_13_TAKE_MELDED = drawing("3C 2C 2D JK 4S", options=SEED_13, pile="3S 4C", melds={0: {"W": "2H 2S JK"}})

ORACLE_STATES = [
    ("4.13-oracle-L1", P_L1), ("4.13-oracle-L2", P_L2), ("4.13-oracle-L3", P_L3), ("4.13-oracle-L4", P_L4),
    ("4.13-oracle-codes", P_CODES), ("4.13-oracle-E3", P_E3), ("4.13-oracle-concealed", P_CONCEALED),
    ("4.13-oracle-two_canastas", P_TWO_CANASTAS), ("4.13-oracle-seed_13_W", P_SEED_13_W),
    ("4.13-oracle-T1", P_T1), ("4.13-oracle-E6", P_E6), ("4.13-oracle-T3", P_T3), ("4.13-oracle-take_out", P_T_OUT),
    ("4.13-oracle-E5A", P_E5A), ("4.13-oracle-E5B", P_E5B), ("4.13-oracle-E5D", P_E5D),
    ("4.13-oracle-decline", P_MAY_DECLINE), ("4.13-oracle-seed_13_take", P_SEED_13_TAKE),
    ("4.13-oracle-seed_13_take_melded", P_SEED_13_TAKE_MELDED), ("4.13-oracle-E8", e8()),
    ("4.13-oracle-two_twos", P_TWO_TWOS), ("4.13-oracle-two_jokers", P_TWO_JOKERS),
]


@pytest.mark.parametrize("state", [r[1] for r in ORACLE_STATES], ids=[r[0] for r in ORACLE_STATES])
def test_4_13_listing_matches_the_rules(state):
    listed = [mv for mv in wire_listed(state) if mv["type"] in ("meld", "take_pile")]
    assert listed == oracle(state)


# --- E10 seed_108: no going out in one go -----------------------------------------------------------


def e10(hand, melded=False, options=SEED_108):
    # side 0 has a canasta made by seat 0; seat 2 is to play
    return play(hand, seat=2, options=options, melds={0: {"K": K_CANASTA}}, has_melded={0: True, 2: melded})


E10_ROWS = [
    ("E10-meld_leaving_one_card", e10("5C 5D 5H 9S"), M(2, "5: 5C 5D 5H"), "cannot_go_out"),
    ("E10-meld_leaving_nothing", e10("5C 5D 5H"), M(2, "5: 5C 5D 5H"), "cannot_go_out"),
    ("E10-last_card", e10("9S"), D(2, "9S"), "cannot_go_out"),
    ("E10-meld_keeping_two", e10("5C 5D 5H 9S 9D"), M(2, "5: 5C 5D 5H"), None),
    ("E10-later_turn", e10("5C 5D 5H 9S", melded=True), M(2, "5: 5C 5D 5H"), None),
    ("E10-later_turn-last_card", e10("9S", melded=True), D(2, "9S"), None),
    ("E10-classic_allows_it", e10("5C 5D 5H 9S", options={}), M(2, "5: 5C 5D 5H"), None),
]


@rows(E10_ROWS)
def test_E10_no_going_out_in_one_go(state, move, expected):
    check_row(state, move, expected)


def test_E10_melding_earlier_permits_going_out_later():
    after = at(e10("5C 5D 5H 9S 9D"), M(2, "5: 5C 5D 5H"), D(2, "9D"))
    assert after.has_melded[2] is True and after.turn == 3
    # a later turn of seat 2, from the melds that turn left
    later = play("5S 9S", seat=2, options=SEED_108, melds={0: {"K": K_CANASTA, "5": "5C 5D 5H"}},
                 has_melded={0: True, 2: True})
    out = at(later, M(2, "5: 5S"), D(2, "9S"))
    assert out.result.went_out == 2 and out.result.concealed is False
    assert side_parts(out, 0)["going_out_bonus"] == 100


# --- further positions the rules imply ------------------------------------------------------------

P_W = play("2C 2D 2H 2S JK 7C 4D 9S", options=SEED_13, melds={1: {"K": "KC KD KH"}})
P_W_OLD = play("2H 7C 4D 9S", options=SEED_13, melds={1: {"W": "2C 2D JK"}})
P_BLACK = play("3C 3C 3S 4D", melds={1: {"K": K_CANASTA}}, hands={3: "5S"})
P_FROZEN_OLD = drawing("9C 9H 5S 7H", melds={0: {"9": "9C 9D 9H"}}, pile="9S 2C 5D")
P_SIX = play("AC AD JK KC KD KH QC QD QH 4S 9D", seat=0, seats=6, side_scores=[7500, 7499])
P_SIX_1 = play("AC AD JK KC KD KH QC QD QH 4S 9D", seat=1, seats=6, side_scores=[7500, 7499])
P_PILE_CONCEALED = drawing("7C 7C 7D 7D 7S 7S 4H", pile="7H 5D")
P_THREE_SEATS = play("7C 7D 7H 4S 9D", seat=2, seats=3, side_scores=[0, 1500, -100])
P_THREE_SEATS_1 = play("7C 7D 7H 4S 9D", seat=1, seats=3, side_scores=[0, 1500, -100])

IMPLIED_ROWS = [
    ("implied-seed_108-1000_exactly-30_below_40", play("KC KD KH KS 4C 9D", options=SEED_108, side_scores=[0, 1000]),
     M(1, "K: KC KD KH"), "below_initial_minimum"),
    ("implied-seed_108-1000_exactly-40_meets", play("KC KD KH KS 4C 9D", options=SEED_108, side_scores=[0, 1000]),
     M(1, "K: KC KD KH KS"), None),
    ("implied-seed_108-999-30_meets", play("KC KD KH KS 4C 9D", options=SEED_108, side_scores=[0, 999]),
     M(1, "K: KC KD KH"), None),
    ("implied-seed_13-wild_meld", P_W, M(1, "W: 2C 2D JK"), None),
    ("implied-seed_13-wild_meld_of_five", P_W, M(1, "W: 2C 2D 2H 2S JK"), None),
    ("implied-seed_13-wild_meld_of_two", P_W, M(1, "W: 2C 2D"), "invalid_meld"),
    ("implied-seed_13-natural_in_the_wild_meld", P_W, M(1, "W: 2C 2D 7C"), "invalid_meld"),
    ("implied-seed_13-natural_meld_keeps_three_wild_at_most", P_W, M(1, "K: 2C 2D 2H 2S"), "invalid_meld"),
    ("implied-seed_13-wild_card_onto_the_wild_meld", P_W_OLD, M(1, "W: 2H"), None),
    ("implied-seed_13-natural_onto_the_wild_meld", P_W_OLD, M(1, "W: 7C"), "invalid_meld"),
    ("implied-seed_13-wild_meld_first-90_meets_50", play("2C 2D JK 4D 9S", options=SEED_13), M(1, "W: 2C 2D JK"), None),
    ("implied-black_threes_going_out", P_BLACK, M(1, "3: 3C 3C 3S"), None),
    ("implied-black_threes_all_four", play("3C 3C 3S 3S", melds={1: {"K": K_CANASTA}}), M(1, "3: 3C 3C 3S 3S"), None),
    ("implied-black_threes_without_canasta", play("3C 3C 3S 4D", melds={1: {"K": "KC KD KH"}}),
     M(1, "3: 3C 3C 3S"), "cannot_go_out"),
    ("implied-black_threes_need_three", play("3C 3S 4D", melds={1: {"K": K_CANASTA}}), M(1, "3: 3C 3S"),
     "invalid_meld"),
    ("implied-frozen_pile-pair_onto_the_old_meld", P_FROZEN_OLD, T(0, "9C 9H"), None),
    ("implied-frozen_pile-one_natural_onto_the_old_meld", P_FROZEN_OLD, T(0, "9C"), "frozen_pile_needs_pair"),
    ("implied-frozen_pile-no_minimal_take", P_FROZEN_OLD, T(0), "frozen_pile_needs_pair"),
    ("implied-six_players-7500-120_below_150", P_SIX, M(0, "A: AC AD JK", "K: KC KD KH"), "below_initial_minimum"),
    ("implied-six_players-7500-150_meets", P_SIX, M(0, "A: AC AD JK", "K: KC KD KH", "Q: QC QD QH"), None),
    ("implied-six_players-7499-120_meets", P_SIX_1, M(1, "A: AC AD JK", "K: KC KD KH"), None),
    ("implied-four_players-7500-120_meets", play("AC AD JK KC KD KH 4S 9D", side_scores=[0, 7500]),
     M(1, "A: AC AD JK", "K: KC KD KH"), None),
    ("implied-concealed_from_the_pile-no_exemption", P_PILE_CONCEALED, T(0, "7C 7C 7D 7D 7S 7S"),
     "below_initial_minimum"),
    ("implied-seed_13-black_three_does_not_stop",
     drawing("3C 3D 5S 7H", options=SEED_13, melds={0: {"K": "KC KD KH"}}, pile="3S 9H"), T(0, "3C 3D"), None),
    ("implied-classic-black_three_stops",
     drawing("3C 3C 5S 7H", melds={0: {"K": "KC KD KH"}}, pile="3S 9H"), T(0, "3C 3C"), "pile_blocked"),
    ("implied-n3-each_for_his_own_score-15", P_THREE_SEATS, M(2, "7: 7C 7D 7H"), None),
    ("implied-n3-each_for_his_own_score-90", P_THREE_SEATS_1, M(1, "7: 7C 7D 7H"), "below_initial_minimum"),
    ("implied-n2-one_canasta_is_not_enough", play("9S", seats=2, melds={1: {"K": K_CANASTA}}), D(1, "9S"),
     "cannot_go_out"),
]


@rows(IMPLIED_ROWS)
def test_implied_positions(state, move, expected):
    check_row(state, move, expected)


def test_implied_black_three_meld_scores():
    after = at(P_BLACK, M(1, "3: 3C 3C 3S"), D(1, "4D"))
    # K canasta 70 + black threes 15; natural canasta 500; going out 100; seat 3 holds 5S
    assert side_parts(after, 1) == parts(85, 500, 0, 100, 5, 680)


def test_implied_frozen_pile_onto_the_old_meld_effects():
    after = at(P_FROZEN_OLD, T(0, "9C 9H"))
    assert list(after.melds[0]) == ["9"] and meld_of(after, 0, "9") == bag("9C 9D 9H 9S 9C 9H")
    assert held(after, 0) == bag("5S 7H 2C 5D") and after.pile_frozen is False


def test_implied_seed_108_mixed_canasta_becomes_natural_after_the_exchange():
    state = play("KH 4C", options=SEED_108, melds={0: {"K": "KC KD KH KS KC KD JK"},
                                                    1: {"Q": Q_CANASTA, "5": "5C 5D 5S"}},
                 hands={0: "4S", 2: "6S", 3: "9H"})
    before = finished(options=SEED_108, melds={0: {"K": "KC KD KH KS KC KD JK"}, 1: {"Q": Q_CANASTA}},
                      hands={0: "4S", 2: "6S", 1: "", 3: "9H"})
    assert side_parts(before, 0) == parts(110, 300, 0, 0, 10, 400)  # mixed before the exchange
    after = at(state, X(1, 0, "K", "KH"), M(1, "5: JK"), D(1, "4C"))
    assert after.result.went_out == 1
    # side 0: seven natural kings 70, natural canasta 500, seats 0 and 2 hold 10
    assert side_parts(after, 0) == parts(70, 500, 0, 0, 10, 560)
    # side 1: Q canasta 70 + 5C 5D 5S JK 65, natural canasta 500, going out 100, seat 3 holds 9H
    assert side_parts(after, 1) == parts(135, 500, 0, 100, 10, 725)


def test_implied_concealed_from_the_pile_meeting_the_minimum():
    state = drawing("7C 7C 7D 7D 7S 7S", pile="7H", side_scores=[-5, 0], has_melded={0: False},
                    hands={2: "5S"})
    after = at(state, T(0, "7C 7C 7D 7D 7S 7S"))  # 35 >= 15, a canasta, nothing left: out
    assert after.result.went_out == 0 and after.result.concealed is True
    assert side_parts(after, 0) == parts(35, 500, 0, 200, 5, 730)


def test_implied_seed_13_threes_are_ordinary():
    state = drawing("4C 5D 6H", seat=1, options=SEED_13, stock_top="3H")
    assert held(at(state, Draw(1)), 1) == bag("4C 5D 6H 3H")
    state = play("3C 3D 3H 9S 4D", options=SEED_13, melds={1: {"K": "KC KD KH"}})
    assert meld_of(at(state, M(1, "3: 3C 3D 3H")), 1, "3") == bag("3C 3D 3H")
    # and scored at 3 each, with no red-three bonus
    over = finished(options=SEED_13, melds={1: {"3": "3C 3D 3H 3S"}}, hands={1: "3H", 0: "", 2: "", 3: ""},
                    result={"reason": "stock_exhausted", "went_out": None})
    assert side_parts(over, 1) == parts(12, 0, 0, 0, 3, 9)


# --- §4.12 every reason code -----------------------------------------------------------------------


def test_4_12_every_reason_code_has_a_refused_row():
    refused = {r[3] for r in ALL_ROWS if r[3] is not None}
    expected = {"hand_finished", "not_offered", "wrong_phase", "not_your_turn", "card_not_in_hand", "stock_empty",
                "pile_empty", "pile_blocked", "single_card_pile", "bad_group", "frozen_pile_needs_pair",
                "invalid_meld", "below_initial_minimum", "cannot_go_out", "not_first_turn",
                "show_needs_natural_pair", "not_opponent_meld", "no_joker_in_meld", "exchange_card_wrong_rank",
                "exchange_needs_own_meld", "already_asked", "ask_after_meld", "hand_too_small_to_ask",
                "stock_not_empty", "must_take_pile"}
    assert refused == expected
    assert {r.value for r in rules.Reason} == expected


# --- the positions helper -------------------------------------------------------------------------


def test_the_positions_helper_fills_a_consistent_deck():
    wire = position_wire(seats=6, hands={1: "KS KS"}, melds={1: {"Q": "QC QD QH"}}, pile="9H 2C", stock_top="4D",
                         red_threes={3: "3D"}, phase="play", turn=1)
    state = GAME.load_state(wire)
    everything = Counter(wire["stock"]) + Counter(wire["pile"]) + Counter(["QC", "QD", "QH", "3D"])
    for hand in wire["hands"]:
        everything += Counter(hand)
    assert everything == Counter(deck_codes(6)) and state.to_move == 1 and state.pile_frozen is True
    assert wire["stock"][0] == "4D" and all(len(h) == 1 for s, h in enumerate(wire["hands"]) if s != 1)
    assert state.turn_index == 6 and state.has_melded == (False, True, False, True, False, True)
    # the others' cards meet nothing on the table: no pair, not the pile's rank, not a meld of their side
    for seat, hand in enumerate(wire["hands"]):
        if seat != 1:
            assert hand[0][:-1] not in ("9", "Q") and not is_wild(hand[0]) and hand[0][:-1] != "3"


# --- the words: refusals said to the mover, events in a sentence -----------------------------------


def said(state, move):
    """The refusal's message as the seat that tried the move reads it, in Russian and in English,
    and its parameters as the wire gives them."""
    with pytest.raises(IllegalMove) as refused:
        GAME.check(state, move)
    message = refused.value.message
    return message.render("ru", move.seat), message.render("en", move.seat), message.wire_params()


SAID_ROWS = [
    ("not_your_turn-the_seat_to_move_counted_from_1", P_MELD, M(3, "K: 2C"),
     "Сейчас ходит место 2", "It is seat 2's turn", {"seat": 1}),
    ("wrong_phase-draw_first", drawing(MELD_HAND, seat=1, melds={1: {"K": "KC KD KH"}}), M(1, "K: 2C"),
     "Сначала возьмите карты: из колоды или весь сброс",
     "Take your cards first: draw from the stock or take the discard pile", {}),
    ("wrong_phase-already_drawn", play(DRAW_HAND), Draw(1),
     "Вы уже взяли карты в этот ход", "You have already taken your cards this turn", {}),
    ("wrong_phase-the_asker_waits", P_ASKED, M(1, "Q: QS"),
     "Подождите: место 4 отвечает, можно ли закончить игру", "Wait: seat 4 is answering whether to go out",
     {"seat": 3}),
    ("wrong_phase-the_partner_answers_first", P_ASKED, Discard(3, CARDS["QS"]),
     "Сначала ответьте партнёру, можно ли ему закончить игру",
     "Answer your partner first: may they go out or not", {}),
    ("below_initial_minimum-counted", P_E3, M(1, "8: 8C 8D 8H", "5: 5C 5D 2H"),
     "Ваша первая выкладка должна стоить не меньше 90 очков, а эти карты дают 60 очков",
     "Your first meld must be worth at least 90 points: these cards make 60 points", {"count": 90, "points": 60}),
    ("cannot_go_out-one_canasta", P_E7, M(3, "6: 6C 6D 6H"),
     "Оставьте на руке хотя бы две карты: закончить игру можно, только когда у вас будет одна канаста",
     "Keep at least two cards: going out needs 1 canasta", {"count": 1}),
    ("cannot_go_out-two_canastas_at_two", play("6C 6D 6H 9S", seats=2, melds={1: {"K": K_CANASTA}}),
     M(1, "6: 6C 6D 6H"),
     "Оставьте на руке хотя бы две карты: закончить игру можно, только когда у вас будут две канасты",
     "Keep at least two cards: going out needs 2 canastas", {"count": 2}),
    ("wrong_phase-an_answer_nobody_asked_for", P_ASK, AnswerGoOut(3, True),
     "Вас никто не спрашивал, можно ли закончить игру", "Nobody has asked you whether to go out", {}),
    ("cannot_go_out-the_partner_said_no", P_SAID_NO, M(1, "Q: QS"),
     "Партнёр ответил «нет»: в этот ход оставьте на руке хотя бы две карты",
     "Your partner said no: keep at least two cards this turn", {}),
    ("not_opponent_meld-own_side", e9(), X(1, 1, "5", "5H"),
     "Забрать джокера можно только из выкладки противника", "You may take a joker only from an opponent's meld",
     {}),
    ("not_opponent_meld-team_counted_from_1", e9(), X(1, 0, "9", "9D"),
     "У команды 1 нет выкладки такого достоинства", "Team 1 has no meld of that rank", {"side": 1}),
    ("not_opponent_meld-no_team_3", e9(), X(1, 2, "K", "KS"),
     "За этим столом нет команды 3", "There is no team 3 at this table", {"side": 3}),
    ("no_joker_in_meld-a_seat_at_three", e9(seats=3, melds={0: E9_MELDS[0], 1: {"5": "5C 5D 5S"}, 2: {}}),
     X(1, 0, "Q", "QS"), "У места 1 в этой выкладке нет джокера", "Seat 1 has no joker in that meld", {"seat": 0}),
    ("exchange_card_wrong_rank-the_rank_named", e9(), X(1, 0, "K", "QS"),
     "Джокера меняют только на короля, не на двойку и не на другого джокера",
     "The joker is exchanged only for a natural king", {"rank": "K"}),
    ("card_not_in_hand-named", P_MELD, M(1, "Q: QC QD QH"),
     "У вас на руке нет дамы треф, дамы бубён и дамы червей",
     "You do not hold the queen of clubs, the queen of diamonds and the queen of hearts",
     {"cards": ["QC", "QD", "QH"]}),
    ("card_not_in_hand-too_few_copies", P_MELD, M(1, "7: 7C 7C 7D"),
     "Вы назвали больше карт, чем у вас на руке: семёрка треф",
     "You named the seven of clubs more times than you hold them", {"cards": ["7C"]}),
    ("pile_blocked-the_top_card_named", drawing("9S 9D 5S", melds=E5_MELDS, pile="2C 9H"), T(0, "9S 9D"),
     "Сброс нельзя взять, пока сверху лежит двойка треф",
     "You cannot take the discard pile while the two of clubs is on top", {"card": "2C"}),
    ("hand_finished", finished(), Draw(1),
     "Раздача окончена, ходов больше нет", "This hand is over: no more moves are made", {}),
]


@pytest.mark.parametrize(("state", "move", "russian", "english", "params"), [r[1:] for r in SAID_ROWS],
                         ids=[r[0] for r in SAID_ROWS])
def test_a_refusal_is_said_to_the_seat_that_tried_the_move(state, move, russian, english, params):
    assert said(state, move) == (russian, english, params)


def event_texts(events, reader, lang):
    wire = told(GAME.info.event_types, events, reader)
    return [event["text"] for event in spoken(GAME.info.event_types, wire, reader, lang, GAME.info.vocabulary)]


def test_every_event_type_has_its_sentence():
    types = GAME.info.event_types
    assert all(declared.says is not None for declared in types.values())
    assert types["drew"].says.hidden and types["hand_over"].says.nobody
    assert set(types["answered"].says.kinds) == {"yes", "no"} == set(types["answered"].kinds)


def test_a_draw_is_told_to_the_drawer_and_counted_to_the_others():
    _, events = GAME.apply(drawer("KS"), Draw(1))
    assert event_texts(events, 1, "ru") == ["Вы берёте из колоды короля пик"]
    assert event_texts(events, 0, "ru") == ["Место 2 берёт из колоды одну карту"]
    assert event_texts(events, None, "en") == ["Seat 2 draws 1 card from the stock"]
    _, events = GAME.apply(drawer("KS QD", seats=2), Draw(1))
    assert event_texts(events, 0, "ru") == ["Место 2 берёт из колоды две карты"]


def test_a_red_three_that_was_the_stocks_last_card_is_no_draw():
    _, events = GAME.apply(drawer(stock=["3D"]), Draw(1))
    assert [event.type for event in events] == ["red_three_laid", "hand_over"]
    assert event_texts(events, 1, "ru") == ["Вы выкладываете тройку бубён", "Раздача окончена: подсчёт очков"]
    assert event_texts(events, 2, "en") == ["Seat 2 lays out the three of diamonds",
                                            "The hand is over: the points are counted"]


def test_the_question_and_its_answer_are_told():
    _, asked = GAME.apply(P_ASK, AskGoOut(1))
    _, answered = GAME.apply(P_ASKED, AnswerGoOut(3, False))
    assert event_texts(asked, 3, "ru") == ["Место 2 спрашивает партнёра, можно ли закончить игру"]
    assert event_texts(answered, 3, "ru") == ["Вы отвечаете: нет, заканчивать нельзя"]
    assert event_texts(answered, 1, "en") == ["Seat 4 answers: no, do not go out"]


def test_the_descriptions_hold_no_code():
    from service.i18n import translate

    info = GAME.info
    texts = [info.about_deck, *info.move_texts.values(), *info.kind_texts.values(),
             *(event.doc for event in info.event_types.values())]
    for option in info.option_texts.values():
        texts += [option.description, *option.choices.values()]
    for text in texts:
        for lang in ("en", "ru"):
            written = translate(text, lang)
            assert not re.search(r"[_`§{}]", written), written
            assert lang == "en" or not re.search(r"[A-Za-z]", written), written
