"""Bezique rule table: every numbered rule, decision and worked example of docs/rules/bezique.md;
test ids name the rule (§) or the example (E1-E12, D1-D14). Positions are wire states built by
tests/games/bezique_positions.py and loaded through the game, so each passes the consistency check.
Expected values are worked out by hand from the rules text, not taken from the implementation."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from functools import partial

import pytest

from service.api.events import EVERY_SEAT, redacted, spoken, told
from service.cards import CARDS, JOKER, SeedStream, cards, codes
from service.errors import IllegalMove
from service.games.base import DealSetup, Event, evolve
from service.games.bezique import declarations, listing, rules
from service.games.bezique.play import trick_winner
from service.games.bezique.rules import Declare, ExchangeTrump, Pass, Play, Played
from service.games.decks import GivenOrder
from service.i18n import translate
from service.i18n.cards import card_forms
from tests.games import steps
from tests.games.bezique_positions import GAME, deck_codes, position, position_wire, shown

PACK = ["AC", "10C", "KC", "QC", "JC", "AD", "10D", "KD", "QD", "JD", "AH", "10H", "KH", "QH", "JH", "AS", "10S", "KS", "QS", "JS"]
SUIT_ORDER = "CDHS"
RANK_ORDER = ("A", "10", "K", "Q", "J", "9")
IDENTITIES = [r + s for s in SUIT_ORDER for r in RANK_ORDER]
"""The 24 real cards a JK may stand for (§4.2), in the canonical order of §4.6."""
SPEC_KINDS = (
    "bezique", "trump_marriage", "trump_quint",
    "four_aces", "four_kings", "four_queens", "four_jacks",
    "four_trump_aces", "four_trump_tens", "four_trump_kings", "four_trump_queens", "four_trump_jacks",
    "four_bezique_jacks",
    "extra_trump_ace", "extra_trump_ten", "extra_trump_king", "extra_trump_queen", "extra_trump_jack",
    "extra_bezique_jack",
)
"""§4.5, the kinds that exist."""


# --- helpers ---------------------------------------------------------------------------------------


refusal = partial(steps.refusal, GAME)


at = partial(steps.play_out, GAME)  # moves that must all be legal


def entries(text):
    """``"QH JK:JD"`` -> the from_hand entries ((QH, None), (JK, JD))."""
    found = []
    for token in text.split():
        card, _, as_ = token.partition(":")
        found.append((CARDS[card], CARDS[as_] if as_ else None))
    return tuple(found)


def physical(text):
    """The cards of a from_hand text, without nominations."""
    return " ".join(token.partition(":")[0] for token in text.split())


def declare(seat, kind, hand="", table=(), m=1):
    return Declare(seat, kind, m, entries(hand), tuple(table))


def play(seat, card, as_=None):
    return Play(seat, CARDS[card], None if as_ is None else CARDS[as_])


def play_shown(seat, exposed_id, as_=None):
    return Play(seat, None, None if as_ is None else CARDS[as_], exposed_id)


def window(hand="", *, trump="H", exposed=(), seat=1, tricks=12, options=None, **kw):
    """Seat ``seat`` (2 seats, dealer 0) has just won trick ``tricks``: phase ``declare``; its
    concealed hand holds ``hand`` (plus harmless cards), its table ``exposed``."""
    return position(hands={seat: physical(hand), **kw.pop("hands", {})}, exposed={seat: list(exposed)},
                    trump_suit=trump, phase="declare", tricks_played=tricks, leader=seat, options=options, **kw)


def gained(state, move):
    """The refusal code, or the points the (legal) move scores."""
    reason = refusal(state, move)
    if reason is not None:
        return reason
    after, _ = GAME.apply(state, move)
    return after.scores[move.seat] - state.scores[move.seat]


def win_trick(state, lead=None, lead_shown=None):
    """From phase ``lead``: the leader leads a harmless card (or ``lead`` / exposed id
    ``lead_shown``), everyone else plays a card of neither the trump nor the led suit, so the
    leader wins and the next declaration window opens."""
    leader, trump = state.leader, state.trump_suit
    assert state.phase == "lead"
    if lead_shown is not None:
        first = play_shown(leader, lead_shown)
        led = next(e.as_ for e in state.exposed[leader] if e.id == lead_shown)
    else:
        code = lead or next(c.code for c in state.hands[leader] if c.code in ("10C", "10D", "10S", "9C", "9D", "9S"))
        first, led = play(leader, code), CARDS[code]
    state = at(state, first)
    while state.phase == "follow":
        seat = state.to_move
        card = next(c for c in state.hands[seat] if c is not JOKER and c.suit not in (trump, led.suit))
        state = at(state, Play(seat, card))
    assert state.phase == "declare" and state.trick_winner == leader
    return state


def listed(state, seat):
    """The moves listed one by one (none of these positions has a family, §4.6)."""
    moves, families = listing.listing(state, seat)
    assert families == []
    return moves


def canon_key(card):
    return SUIT_ORDER.index(card.suit), RANK_ORDER.index(card.rank)


def canonical(state, move):
    """§4.6: the entry a declaration maps to: natural cards then JKs, each in canonical card
    order (a JK by its nomination); the lowest ids of each table class used, ascending."""
    if not isinstance(move, Declare) or any(c is JOKER and x in (None, JOKER) for c, x in move.from_hand):
        return move
    naturals = sorted((c for c, _ in move.from_hand if c is not JOKER), key=canon_key)
    wild = sorted((x for c, x in move.from_hand if c is JOKER), key=canon_key)
    klass = {e.id: (e.card, e.as_, e.tags) for e in state.exposed[move.seat]}
    if len(set(move.from_table)) != len(move.from_table) or not set(move.from_table) <= set(klass):
        return move  # not a declaration of this seat's cards: no entry maps to it
    members: dict = {}
    for exposed_id in sorted(klass):
        members.setdefault(klass[exposed_id], []).append(exposed_id)
    used = Counter(klass[i] for i in move.from_table)
    table = sorted(i for cls, k in used.items() for i in members[cls][:k])
    hand = tuple((c, None) for c in naturals) + tuple((JOKER, x) for x in wild)
    return Declare(move.seat, move.declaration, move.multiplicity, hand, tuple(table))


def wire_moves(state, seat):
    return sorted((GAME.dump_move(m) for m in listed(state, seat)), key=repr)


def held(state, seat):
    return Counter(codes(state.hands[seat]))


# --- §2.1 deck (E1) --------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "size"), [
    ({}, 174), ({"packs": 10}, 214), ({"wild_cards": 0}, 172), ({"packs": 10, "wild_cards": 0}, 212),
], ids=["E1-P8-174", "E1-P10-214", "E1-P8-no_wild-172", "E1-P10-no_wild-212"])
def test_2_1_E1_deck_composition(options, size):
    deck = codes(rules.full_deck(rules.Options(**options)))
    packs, wild = options.get("packs", 8), options.get("wild_cards", 2)
    expected = Counter({code: packs for code in PACK}) + Counter({f"9{s}": 3 for s in SUIT_ORDER})
    expected += Counter({"JK": wild})
    assert len(deck) == size and Counter(deck) == expected
    # a deal through the game holds exactly that deck
    state = GAME.deal(DealSetup(2, 0, options, None), SeedStream("E1"))
    dumped = GAME.dump_state(state)
    found = Counter(dumped["stock"]) + sum((Counter(h) for h in dumped["hands"]), Counter())
    assert found == expected


def test_2_1_canonical_order():
    deck = codes(rules.full_deck(rules.Options()))
    nines = ["9C", "9C", "9C", "9D", "9D", "9D", "9H", "9H", "9H", "9S", "9S", "9S"]
    assert deck == PACK * 8 + nines + ["JK", "JK"]
    assert codes(rules.full_deck(rules.Options(packs=10, wild_cards=0))) == PACK * 10 + nines


# --- §2.2 rank -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("ten_rank", "high_to_low"), [
    ("high", ("A", "10", "K", "Q", "J", "9")), ("low", ("A", "K", "Q", "J", "10", "9")),
], ids=["2.2-ten_rank_high", "2.2-ten_rank_low"])
@pytest.mark.parametrize("suit", ["C", "H"], ids=["plain", "trump"])
def test_2_2_rank(ten_rank, high_to_low, suit):
    options = rules.Options(ten_rank=ten_rank)
    for higher, lower in itertools.combinations(high_to_low, 2):
        up = (Played(1, CARDS[lower + suit], CARDS[lower + suit], "hand"),
              Played(0, CARDS[higher + suit], CARDS[higher + suit], "hand"))
        assert trick_winner(up, "H", options) == 0, (lower, higher)
        down = (Played(1, CARDS[higher + suit], CARDS[higher + suit], "hand"),
                Played(0, CARDS[lower + suit], CARDS[lower + suit], "hand"))
        assert trick_winner(down, "H", options) == 1, (higher, lower)


# --- §2.3 players and seats ------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "dealer", "options", "active"), [
    (2, 0, {}, [1, 0]),
    (3, 0, {}, [1, 2]),
    (3, 0, {"dealer_plays_at_three": True}, [1, 2, 0]),
    (4, 2, {}, [3, 0, 1]),
    (2, 1, {}, [0, 1]),
    (3, 2, {}, [0, 1]),
    (3, 1, {"dealer_plays_at_three": True}, [2, 0, 1]),
    (4, 0, {}, [1, 2, 3]),
    (4, 3, {"dealer_plays_at_three": True}, [0, 1, 2]),  # the option is for three seats only
], ids=["2.3-n2-d0", "2.3-n3-d0", "2.3-n3-d0-dealer_plays", "2.3-n4-d2", "2.3-n2-d1", "2.3-n3-d2",
        "2.3-n3-d1-dealer_plays", "2.3-n4-d0", "2.3-n4-option_ignored"])
def test_2_3_active_order(seats, dealer, options, active):
    assert list(rules.active_order(seats, dealer, rules.Options(**options))) == active
    state = GAME.deal(DealSetup(seats, dealer, options, None), SeedStream("2.3"))
    dumped = GAME.dump_state(state)
    assert dumped["active"] == active and dumped["to_move"] == active[0] == dumped["leader"]
    for seat in range(seats):
        assert len(dumped["hands"][seat]) == (18 if seat in active else 0)
    deck = len(rules.full_deck(rules.Options(**options)))
    assert len(dumped["stock"]) == deck - 18 * len(active)


# --- §2.4 trump and bezique jack -------------------------------------------------------------------


@pytest.mark.parametrize(("trump", "bj", "not_bj"), [
    ("H", "JD", ["JH", "JC", "JS"]), ("D", "JH", ["JD", "JC", "JS"]),
    ("C", "JS", ["JC", "JD", "JH"]), ("S", "JC", ["JS", "JD", "JH"]),
], ids=["2.4-T=H-JD", "2.4-T=D-JH", "2.4-T=C-JS", "2.4-T=S-JC"])
def test_2_4_bezique_jack(trump, bj, not_bj):
    deck = codes(rules.full_deck(rules.Options()))
    turn = deck.index("A" + trump, 40)
    deck[36], deck[turn] = deck[turn], deck[36]
    state = rules.deal_from(cards(deck), seats=2, dealer=0, options=rules.Options())
    dumped = GAME.dump_state(state)
    assert state.trump_suit == trump and dumped["trump_suit"] == trump
    assert dumped["bezique_jack"] == bj and dumped["trump_card"] == "A" + trump
    here = window(f"Q{trump} {bj} {' '.join(not_bj)}", trump=trump)
    assert gained(here, declare(1, "bezique", f"Q{trump} {bj}")) == 25
    for jack in not_bj:  # the same suit's jack, and both jacks of the other colour (English rule)
        assert refusal(here, declare(1, "bezique", f"Q{trump} {jack}")) == "invalid_combination"


# --- §3 deal (E2-E4) -------------------------------------------------------------------------------


def fix(deck, **positions):
    """Put ``code`` at each given index (``p36="KD"``) by swapping it from a free position."""
    deck = list(deck)
    wanted = {int(k[1:]): v for k, v in positions.items()}
    for index, code in wanted.items():
        if deck[index] != code:
            other = next(i for i, c in enumerate(deck) if c == code and i not in wanted)
            deck[index], deck[other] = deck[other], deck[index]
    assert all(deck[i] == c for i, c in wanted.items())
    return deck


def seeded_deck(options=None, seed=7):
    deck = codes(rules.full_deck(rules.Options(**(options or {}))))
    random.Random(seed).shuffle(deck)
    return deck


def dealt(deck, seats=2, dealer=0, **options):
    return rules.deal_from(cards(deck), seats=seats, dealer=dealer, options=rules.Options(**options))


def test_3_E2_deal_positions_two_seats():
    deck = fix(seeded_deck(), p36="KD", p0="QS", p3="JH")
    state = dealt(deck)
    assert list(state.active) == [1, 0]
    seat1 = [deck[i] for r in range(6) for i in range(6 * r, 6 * r + 3)]  # deck[0-2], [6-8], ..., [30-32]
    seat0 = [deck[i] for r in range(6) for i in range(6 * r + 3, 6 * r + 6)]  # deck[3-5], ..., [33-35]
    assert codes(state.hands[1]) == seat1 and codes(state.hands[0]) == seat0
    assert state.hands[1][0].code == "QS" and state.hands[0][0].code == "JH"
    dumped = GAME.dump_state(state)
    assert dumped["trump_suit"] == "D" and dumped["bezique_jack"] == "JH" and dumped["trump_card"] == "KD"
    assert dumped["stock"] == [*deck[37:], "KD"] and len(dumped["stock"]) == 138
    assert dumped["to_move"] == 1 == dumped["leader"] and dumped["phase"] == "lead"
    assert dumped["tricks_played"] == 0 and dumped["declared_in_window"] is False


def test_3_E3_four_seats():
    deck = fix(seeded_deck(), p54="9C")
    state = dealt(deck, seats=4, dealer=2)
    assert list(state.active) == [3, 0, 1]
    assert codes(state.hands[3][:3]) == deck[0:3] and codes(state.hands[0][:3]) == deck[3:6]
    assert codes(state.hands[1][:3]) == deck[6:9] and codes(state.hands[3][3:6]) == deck[9:12]
    assert state.hands[2] == ()
    dumped = GAME.dump_state(state)
    assert dumped["trump_card"] == "9C" and dumped["trump_suit"] == "C" and dumped["bezique_jack"] == "JS"
    assert dumped["stock"] == [*deck[55:], "9C"] and len(dumped["stock"]) == 120
    assert dumped["to_move"] == 3


def test_3_E4_wild_card_at_the_turn_up():
    deck = fix(seeded_deck(), p36="JK", p37="10C")
    state = dealt(deck)
    dumped = GAME.dump_state(state)
    assert dumped["trump_card"] == "10C" and dumped["trump_suit"] == "C" and dumped["bezique_jack"] == "JS"
    assert dumped["stock"] == [*deck[38:], "JK", "10C"] and len(dumped["stock"]) == 138


def test_3_2_both_wild_cards_at_the_turn_up():
    deck = fix(seeded_deck(), p36="JK", p37="JK", p38="QH")
    dumped = GAME.dump_state(dealt(deck))
    assert dumped["trump_card"] == "QH" and dumped["bezique_jack"] == "JD"
    assert dumped["stock"] == [*deck[39:], "JK", "JK", "QH"]


def test_3_2_wild_card_at_the_55th_card():
    deck = fix(seeded_deck(), p54="JK", p55="KS")
    dumped = GAME.dump_state(dealt(deck, seats=4, dealer=0))
    assert dumped["trump_card"] == "KS" and dumped["stock"] == [*deck[56:], "JK", "KS"]


@pytest.mark.parametrize(("seats", "dealer", "k", "expected"), [
    (2, 0, 1, {1: list(range(0, 36, 2)), 0: list(range(1, 36, 2))}),
    (2, 0, 3, {1: [i for r in range(6) for i in range(6 * r, 6 * r + 3)],
               0: [i for r in range(6) for i in range(6 * r + 3, 6 * r + 6)]}),
    (2, 0, 18, {1: list(range(18)), 0: list(range(18, 36))}),
    (4, 2, 1, {3: list(range(0, 54, 3)), 0: list(range(1, 54, 3)), 1: list(range(2, 54, 3))}),
    (4, 2, 3, {3: [i for r in range(6) for i in range(9 * r, 9 * r + 3)],
               0: [i for r in range(6) for i in range(9 * r + 3, 9 * r + 6)],
               1: [i for r in range(6) for i in range(9 * r + 6, 9 * r + 9)]}),
    (4, 2, 18, {3: list(range(18)), 0: list(range(18, 36)), 1: list(range(36, 54))}),
], ids=["3.1-packet_1-a2", "3.1-packet_3-a2", "3.1-packet_18-a2", "3.1-packet_1-a3", "3.1-packet_3-a3",
        "3.1-packet_18-a3"])
def test_3_1_packets(seats, dealer, k, expected):
    a = len(expected)
    deck = fix(seeded_deck(seed=k), **{f"p{18 * a}": "AD"})
    state = dealt(deck, seats=seats, dealer=dealer, deal_packet_size=k)
    for seat, indices in expected.items():
        assert codes(state.hands[seat]) == [deck[i] for i in indices]
    assert codes(state.stock) == [*deck[18 * a + 1:], "AD"]


def test_3_through_the_game_with_a_given_order():
    deck = fix(seeded_deck(seed=11), p36="KD")
    state = GAME.deal(DealSetup(2, None, {}, None), GivenOrder(deck))
    dumped = GAME.dump_state(state)
    assert dumped["dealer"] == 0 and dumped["hands"][1][:3] == deck[0:3] and dumped["hands"][0][:3] == deck[3:6]
    assert dumped["stock"] == [*deck[37:], "KD"] and dumped["trump_card"] == "KD"


@pytest.mark.parametrize(("seats", "options", "size"), [
    (2, {}, 138), (4, {}, 120), (2, {"packs": 10}, 178), (4, {"packs": 10}, 160),
    (2, {"wild_cards": 0}, 136), (4, {"wild_cards": 0}, 118), (2, {"packs": 10, "wild_cards": 0}, 176),
    (3, {"packs": 10, "wild_cards": 0, "dealer_plays_at_three": True}, 158),
], ids=["3.3-P8-a2-138", "3.3-P8-a3-120", "3.3-P10-a2-178", "3.3-P10-a3-160", "3.3-P8-a2-no_wild-136",
        "3.3-P8-a3-no_wild-118", "3.3-P10-a2-no_wild-176", "3.3-P10-a3-no_wild-158"])
def test_3_3_stock_size(seats, options, size):
    state = rules.deal_from(rules.full_deck(rules.Options(**options)), seats=seats, dealer=0,
                            options=rules.Options(**options))
    assert len(state.stock) == size


# --- §4.2 play ------------------------------------------------------------------------------------

# T=H. Seat 1 leads trick 6; it holds JK AH and shows QH (id 1) and JD (id 2); seat 0 shows KH (id 3).
LEAD = position(hands={1: "JK AH", 0: "KS AS"}, exposed={1: [shown("QH", "bezique"), shown("JD", "bezique")],
                                                       0: [shown("KH", "trump_marriage", id=3)]},
                tricks_played=5, leader=1)
# Seat 1 has led AH; seat 0 (holding KH AS 9C and no JK) is to play.
FOLLOW = position(hands={0: "KH AS 9C"}, phase="follow", trick=["AH"], tricks_played=5, leader=1)
DECLARE_WINDOW = window("QH JD AH", hands={0: "KS"})
FINISHED = position(hands={1: "AH QH JD", 0: "KS"}, phase="finished")

PLAY_ROWS = [
    ("4.2-hand_finished", FINISHED, play(1, "AH"), "hand_finished"),
    ("4.2-hand_finished-first", FINISHED, play(0, "9H"), "hand_finished"),
    ("4.2-wrong_phase-declare", DECLARE_WINDOW, play(1, "AH"), "wrong_phase"),
    ("4.2-wrong_phase-before_not_your_turn", DECLARE_WINDOW, play(0, "KS"), "wrong_phase"),
    ("4.2-not_your_turn", LEAD, play(0, "KS"), "not_your_turn"),
    ("4.2-not_your_turn-follow", FOLLOW, play(1, "10C"), "not_your_turn"),
    ("4.2-not_your_turn-before_card_not_in_hand", LEAD, play(0, "9H"), "not_your_turn"),
    ("4.2-card_not_in_hand", LEAD, play(1, "9H"), "card_not_in_hand"),
    ("4.2-card_not_in_hand-other_seats_exposed", LEAD, play_shown(1, 3), "card_not_in_hand"),
    ("4.2-card_not_in_hand-no_such_id", LEAD, play_shown(1, 9), "card_not_in_hand"),
    ("4.2-card_not_in_hand-before_identity", FOLLOW, play(0, "JK"), "card_not_in_hand"),
    ("4.2-card_not_in_hand-exposed_before_identity", LEAD, play_shown(1, 9, as_="QH"), "card_not_in_hand"),
    ("4.2-jk_needs_identity", LEAD, play(1, "JK"), "jk_needs_identity"),
    ("4.2-jk_needs_identity-JK_is_no_identity", LEAD, play(1, "JK", as_="JK"), "jk_needs_identity"),
    ("4.2-identity_not_allowed", LEAD, play(1, "AH", as_="AS"), "identity_not_allowed"),
    ("4.2-identity_not_allowed-even_itself", LEAD, play(1, "AH", as_="AH"), "identity_not_allowed"),
    ("4.2-identity_not_allowed-exposed", LEAD, play_shown(1, 1, as_="QS"), "identity_not_allowed"),
    ("4.2-lead_from_hand", LEAD, play(1, "AH"), None),
    ("4.2-lead_JK_as_any_identity", LEAD, play(1, "JK", as_="9C"), None),
    ("4.2-lead_JK_as_trump_ace", LEAD, play(1, "JK", as_="AH"), None),
    ("4.2-lead_exposed", LEAD, play_shown(1, 2), None),
    ("4.2-no_duty_to_follow", FOLLOW, play(0, "9C"), None),
    ("4.2-no_duty_to_trump", FOLLOW, play(0, "AS"), None),
    ("4.2-no_duty_to_beat", FOLLOW, play(0, "KH"), None),
]


@pytest.mark.parametrize(("state", "move", "expected"), [r[1:] for r in PLAY_ROWS], ids=[r[0] for r in PLAY_ROWS])
def test_4_2_play(state, move, expected):
    assert refusal(state, move) == expected
    assert (move in listed(state, move.seat)) == (expected is None), "§4.6: listed iff legal"


def test_4_2_effects_exposed_card_and_next_player():
    state = at(LEAD, play_shown(1, 2))
    assert [e.id for e in state.exposed[1]] == [1] and state.phase == "follow" and state.to_move == 0
    assert GAME.dump_state(state)["trick"] == [{"seat": 1, "card": "JD", "as": "JD", "from": "table"}]
    state = at(LEAD, play(1, "JK", as_="9C"))
    assert GAME.dump_state(state)["trick"] == [{"seat": 1, "card": "JK", "as": "9C", "from": "hand"}]
    assert held(state, 1)["JK"] == 0


def test_4_2_effects_three_players_clockwise():
    state = position(seats=4, dealer=0, hands={2: "AH"}, tricks_played=3, leader=2)
    state = at(state, play(2, "AH"))
    assert state.to_move == 3 and state.phase == "follow"
    state = at(state, play(3, state.hands[3][0].code))
    assert state.to_move == 1 and state.phase == "follow"


# --- §4.3 declare ---------------------------------------------------------------------------------

# T=H. Seat 1 has won trick 12; it holds QH QH JD KH JK and shows QH (id 1, bezique), JD (id 2,
# bezique) and KH (id 3, trump_marriage); seat 0 shows QH (id 4) and holds QH JD.
WIN = position(hands={1: "QH QH JD KH JK", 0: "QH JD"}, phase="declare", tricks_played=12, leader=1,
               exposed={1: [shown("QH", "bezique"), shown("JD", "bezique"), shown("KH", "trump_marriage")],
                        0: [shown("QH", "bezique", id=4)]})
CLOSED = position(hands={1: "QH JD", 0: "QH JD"}, tricks_played=12, leader=1)  # the window closed: lead
FIRST_LEAD = position(hands={1: "QH JD"})
SPACED = window("QH JD", options={"declaration_spacing": "not_consecutive"}, last_declared_after_trick={1: 11})
SPACED_GAP = window("QH JD", options={"declaration_spacing": "not_consecutive"}, last_declared_after_trick={1: 10})
UNSPACED = window("QH JD", last_declared_after_trick={1: 11})
FOLLOW_QH = position(hands={0: "QH JD"}, phase="follow", trick=["AS"], tricks_played=5, leader=1)

DECLARE_ROWS = [
    # 1
    ("4.3.1-hand_finished", FINISHED, declare(1, "bezique", "QH JD"), "hand_finished"),
    ("4.3.1-hand_finished-pass", FINISHED, Pass(1), "hand_finished"),
    # 2
    ("4.3.2-already_declared", CLOSED, declare(1, "bezique", "QH JD"), "already_declared"),
    ("4.3.2-already_declared-pass", CLOSED, Pass(1), "already_declared"),
    ("4.3.2-other_seat_after_the_window", CLOSED, declare(0, "bezique", "QH JD"), "not_declaration_window"),
    # 3
    ("4.3.3-not_declaration_window-first_lead", FIRST_LEAD, declare(1, "bezique", "QH JD"), "not_declaration_window"),
    ("4.3.3-not_declaration_window-follow", FOLLOW_QH, declare(0, "bezique", "QH JD"), "not_declaration_window"),
    ("4.3.3-not_declaration_window-leader_during_the_trick", FOLLOW_QH, declare(1, "bezique", "QH JD"),
     "not_declaration_window"),
    ("4.3.3-not_declaration_window-loser", WIN, declare(0, "bezique", "QH JD"), "not_declaration_window"),
    ("4.3.3-not_declaration_window-loser_pass", WIN, Pass(0), "not_declaration_window"),
    ("4.3.3-declared_last_trick", SPACED, declare(1, "bezique", "QH JD"), "declared_last_trick"),
    ("4.3.3-declared_last_trick-before_kind", SPACED, declare(1, "plain_marriage", "QH JD"), "declared_last_trick"),
    ("4.3.3-spacing_never_forbids_a_pass", SPACED, Pass(1), None),
    ("4.3.3-spacing-a_trick_between", SPACED_GAP, declare(1, "bezique", "QH JD"), None),
    ("4.3.3-per_trick_default", UNSPACED, declare(1, "bezique", "QH JD"), None),
    # 4
    ("4.3.4-unknown_kind", WIN, declare(1, "marriage", "QH KH"), "unknown_kind"),
    ("4.3.4-unknown_kind-before_needs_card", WIN, declare(1, "quint", "", [1, 3]), "unknown_kind"),
    ("4.3.4-bad_multiplicity-0", WIN, declare(1, "bezique", "QH JD", m=0), "bad_multiplicity"),
    ("4.3.4-bad_multiplicity-negative", WIN, declare(1, "bezique", "QH JD", m=-1), "bad_multiplicity"),
    ("4.3.4-bad_multiplicity-before_card_not_in_hand", WIN, declare(1, "bezique", "QS JS", m=0), "bad_multiplicity"),
    ("4.3.4-bad_multiplicity-extra", WIN, declare(1, "extra_trump_queen", "QH", m=2), "bad_multiplicity"),
    # 5
    ("4.3.5-card_not_in_hand", WIN, declare(1, "bezique", "QS JD"), "card_not_in_hand"),
    ("4.3.5-card_not_in_hand-duplicates_counted", WIN, declare(1, "bezique", "QH QH JD JD", m=2), "card_not_in_hand"),
    ("4.3.5-card_not_in_hand-other_seats_id", WIN, declare(1, "bezique", "JD", [4]), "card_not_in_hand"),
    ("4.3.5-card_not_in_hand-no_such_id", WIN, declare(1, "trump_marriage", "QH", [7]), "card_not_in_hand"),
    ("4.3.5-card_not_in_hand-id_twice", WIN, declare(1, "bezique", "QH JD", [1, 1]), "card_not_in_hand"),
    ("4.3.5-card_not_in_hand-before_needs_card", WIN, declare(1, "bezique", "", [1, 9]), "card_not_in_hand"),
    ("4.3.5-card_not_in_hand-before_jk", WIN, declare(1, "bezique", "QH JK", [9]), "card_not_in_hand"),
    ("4.3.5-jk_needs_identity", WIN, declare(1, "bezique", "QH JK"), "jk_needs_identity"),
    ("4.3.5-jk_needs_identity-JK_is_no_identity", WIN, declare(1, "bezique", "QH JK:JK"), "jk_needs_identity"),
    # 6
    ("4.3.6-needs_card_from_hand", WIN, declare(1, "bezique", "", [1, 2]), "needs_card_from_hand"),
    ("4.3.6-needs_card_from_hand-before_family", WIN, declare(1, "trump_marriage", "", [1, 3]),
     "needs_card_from_hand"),
    # 7
    ("4.3.7-card_already_used_in_family", WIN, declare(1, "bezique", "JD", [1]), "card_already_used_in_family"),
    ("4.3.7-family-before_invalid_combination", WIN, declare(1, "bezique", "QH", [2, 3]),
     "card_already_used_in_family"),
    ("4.3.7-other_family_reused", WIN, declare(1, "trump_marriage", "KH", [1]), None),
    # 8
    ("4.3.8-invalid_combination", WIN, declare(1, "trump_marriage", "QH JD"), "invalid_combination"),
    ("4.3.8-invalid_combination-left_over", WIN, declare(1, "bezique", "QH JD KH"), "invalid_combination"),
    ("4.3.8-invalid_combination-too_few", WIN, declare(1, "trump_marriage", "KH"), "invalid_combination"),
    ("4.3.8-invalid_combination-m_too_high", WIN, declare(1, "bezique", "QH JD", m=2), "invalid_combination"),
    ("4.3.8-invalid_combination-m_too_low", WIN, declare(1, "bezique", "QH QH JD JK:JD"), "invalid_combination"),
    ("4.3.8-invalid_combination-JK_identity_used", WIN, declare(1, "bezique", "QH JK:JH"), "invalid_combination"),
    ("4.3.8-double", WIN, declare(1, "bezique", "QH QH JD JK:JD", m=2), None),
    ("4.3.8-table_identity", WIN, declare(1, "trump_marriage", "JK:KH", [1]), None),
    ("4.3.8-extra_not_from_table", WIN, declare(1, "extra_trump_queen", "QH", [1]), "invalid_combination"),
    ("4.3.8-extra_needs_four_exposed", WIN, declare(1, "extra_trump_queen", "QH"), "extra_needs_four_exposed"),
]


@pytest.mark.parametrize(("state", "move", "expected"), [r[1:] for r in DECLARE_ROWS],
                         ids=[r[0] for r in DECLARE_ROWS])
def test_4_3_declare(state, move, expected):
    assert refusal(state, move) == expected
    if move.seat == state.to_move and (not isinstance(move, Declare) or move.multiplicity >= 1):
        assert (canonical(state, move) in listed(state, move.seat)) == (expected is None), "§4.6"


def test_4_3_effects():
    state = window("QH JD JK KH", exposed=[shown("QH", "bezique")], tricks=12)
    before = GAME.dump_state(state)
    state = at(state, declare(1, "bezique", "JK:QH JD"))
    dumped = GAME.dump_state(state)
    assert dumped["exposed"][1] == [
        {"id": 1, "card": "QH", "as": "QH", "tags": ["bezique"]},
        {"id": 2, "card": "JK", "as": "QH", "tags": ["bezique"]},
        {"id": 3, "card": "JD", "as": "JD", "tags": ["bezique"]},
    ]
    assert dumped["next_exposed_id"] == 4 and dumped["scores"][1] == 25
    assert dumped["decl_counts"][1] == {"bezique": 1, "trump_quint": 0, "trump_marriage": 0}
    assert dumped["last_declared_after_trick"][1] == 12 and dumped["declared_in_window"] is True
    assert dumped["phase"] == "lead" and dumped["to_move"] == 1 and dumped["trick_winner"] is None
    assert len(dumped["stock"]) == len(before["stock"]) - 2  # §5.3: the draw follows
    assert len(dumped["hands"][1]) == len(before["hands"][1]) - 2 + 1
    # a table card used gains the tag; the wild card keeps its nomination (D3)
    state = win_trick(state)
    state = at(state, declare(1, "trump_marriage", "KH", [2]))
    assert GAME.dump_state(state)["exposed"][1][1] == {"id": 2, "card": "JK", "as": "QH",
                                                       "tags": ["bezique", "trump_marriage"]}
    state = at(state, play_shown(1, 2))
    assert GAME.dump_state(state)["trick"] == [{"seat": 1, "card": "JK", "as": "QH", "from": "table"}]


def test_4_3_wire_form_of_a_declaration():
    move = GAME.load_move({"type": "declare", "seat": 1, "kind": "bezique", "multiplicity": 1,
                           "from_hand": [{"card": "QH"}, {"card": "JK", "as": "JD"}], "from_table": []})
    assert move == declare(1, "bezique", "QH JK:JD")
    assert gained(window("QH JK"), move) == 25
    move = GAME.load_move({"type": "declare", "seat": 1, "kind": "trump_marriage", "multiplicity": 1,
                           "from_hand": [{"card": "KH"}], "from_table": [1]})
    assert gained(window("KH", exposed=[shown("QH", "bezique")]), move) == 4


# --- §4.4 pass and exchange (E11) ------------------------------------------------------------------

EXCHANGE_LEAD = position(hands={1: "9H 9H", 0: "9H QH"}, trump_card="AH", tricks_played=5, leader=1)
EXCHANGE_WINDOW = window("9H", trump_card="AH", hands={0: "9H"})
NINE_UP = position(hands={1: "9H"}, trump_card="9H", tricks_played=5, leader=1)
EXCHANGE_ROWS = [
    ("4.4-E11-exchange_on_lead", EXCHANGE_LEAD, ExchangeTrump(1), None),
    ("4.4-exchange_in_the_window", EXCHANGE_WINDOW, ExchangeTrump(1), None),
    ("4.4-exchange_before_the_first_lead", position(hands={1: "9H"}, trump_card="KH"), ExchangeTrump(1), None),
    ("4.4-hand_finished", position(hands={1: "9H"}, phase="finished"), ExchangeTrump(1), "hand_finished"),
    ("4.4-not_on_move-lead_other_seat", EXCHANGE_LEAD, ExchangeTrump(0), "not_on_move"),
    ("4.4-not_on_move-window_loser", EXCHANGE_WINDOW, ExchangeTrump(0), "not_on_move"),
    ("4.4-not_on_move-follower", position(hands={0: "9H"}, trump_card="AH", phase="follow", trick=["KS"],
                                          tricks_played=5, leader=1), ExchangeTrump(0), "not_on_move"),
    ("4.4-not_on_move-leader_after_leading", position(hands={1: "9H"}, trump_card="AH", phase="follow",
                                                      trick=["KS"], tricks_played=5, leader=1),
     ExchangeTrump(1), "not_on_move"),
    ("4.4-not_on_move-before_no_trump_nine", position(hands={1: "9H"}, trump_card="AH", tricks_played=5),
     ExchangeTrump(0), "not_on_move"),
    # §4.4 no_trump_card: no consistent unfinished state has an empty stock (the face-up card is
    # drawn last, by the final draw), so the rule is checked on a state with its stock taken away.
    ("4.4-no_trump_card", evolve(EXCHANGE_LEAD, stock=()), ExchangeTrump(1), "no_trump_card"),
    ("4.4-E11-trump_card_is_nine", NINE_UP, ExchangeTrump(1), "trump_card_is_nine"),
    ("4.4-trump_card_is_nine-before_no_trump_nine", position(hands={1: "AS"}, trump_card="9H", tricks_played=5,
                                                             leader=1), ExchangeTrump(1), "trump_card_is_nine"),
    ("4.4-no_trump_nine", position(hands={1: "9D 9S 9C"}, trump_card="AH", tricks_played=5, leader=1),
     ExchangeTrump(1), "no_trump_nine"),
    ("4.4-no_trump_nine-wild_card_is_not_a_nine", position(hands={1: "JK"}, trump_card="AH", tricks_played=5,
                                                           leader=1), ExchangeTrump(1), "no_trump_nine"),
    ("4.4-pass", EXCHANGE_WINDOW, Pass(1), None),
    ("4.4-pass-hand_finished", FINISHED, Pass(1), "hand_finished"),
    ("4.4-pass-already_declared", CLOSED, Pass(1), "already_declared"),
    ("4.4-pass-not_declaration_window", EXCHANGE_WINDOW, Pass(0), "not_declaration_window"),
    ("4.4-pass-not_declaration_window-first_lead", FIRST_LEAD, Pass(1), "not_declaration_window"),
]


@pytest.mark.parametrize(("state", "move", "expected"), [r[1:] for r in EXCHANGE_ROWS],
                         ids=[r[0] for r in EXCHANGE_ROWS])
def test_4_4_pass_and_exchange(state, move, expected):
    assert refusal(state, move) == expected
    if state.stock:
        assert (move in listed(state, move.seat)) == (expected is None), "§4.6"


def test_4_4_E11_exchange_effects():
    state = EXCHANGE_LEAD
    after = at(state, ExchangeTrump(1))
    assert held(after, 1) - held(state, 1) == Counter({"AH": 1})
    assert held(state, 1) - held(after, 1) == Counter({"9H": 1})
    assert after.trump_card.code == "9H" and after.stock[-1].code == "9H" and after.stock[:-1] == state.stock[:-1]
    assert GAME.dump_state(after)["trump_card"] == "9H"
    assert after.scores == state.scores and after.phase == "lead" and after.to_move == 1
    # seat 1 still holds another 9H: a second exchange finds a nine face up
    assert refusal(after, ExchangeTrump(1)) == "trump_card_is_nine"


def test_4_4_E11_later_exchange_by_the_other_player():
    state = at(EXCHANGE_LEAD, ExchangeTrump(1), play(1, "10C"), play(0, "QH"))  # the trump wins: seat 0 on move
    assert state.phase == "declare" and state.trick_winner == 0 and CARDS["9H"] in state.hands[0]
    assert refusal(state, ExchangeTrump(0)) == "trump_card_is_nine"


def test_4_4_exchange_points_and_the_window_stays_open():
    state = window("9H JD", trump_card="QH", options={"exchange_points": 10})
    state = at(state, ExchangeTrump(1))
    assert state.scores[1] == 10 and state.phase == "declare" and not state.declared_in_window
    assert state.to_move == 1 == state.trick_winner and len(state.hands[1]) == 17
    # D10: the exchanged card may be declared in the same window
    assert gained(state, declare(1, "bezique", "QH JD")) == 25


def test_4_4_pass_effects():
    state = window("QH JD", tricks=12, stock_top="AS KS")
    after = at(state, Pass(1))
    assert after.declared_in_window and after.phase == "lead" and after.to_move == 1
    assert after.scores == state.scores and after.last_declared_after_trick == state.last_declared_after_trick
    assert held(after, 1) - held(state, 1) == Counter({"AS": 1}) and held(after, 0) - held(state, 0) == Counter({"KS": 1})


# --- §4.5 kinds -----------------------------------------------------------------------------------

FOUR = {"AH": "four_trump_aces", "10H": "four_trump_tens", "KH": "four_trump_kings", "QH": "four_trump_queens",
        "JH": "four_trump_jacks", "JD": "four_bezique_jacks"}


def four_shown(card, extras=0, tag=None):
    """Four ``card`` shown in its trump four (T=H), and ``extras`` more shown as extras."""
    extra = {"AH": "extra_trump_ace", "10H": "extra_trump_ten", "KH": "extra_trump_king", "QH": "extra_trump_queen",
             "JH": "extra_trump_jack", "JD": "extra_bezique_jack"}[card]
    return [shown(card, tag or FOUR[card]) for _ in range(4)] + [shown(card, extra) for _ in range(extras)]


KIND_ROWS = [
    # (id, hand, exposed, kind, table, m, expected points or refusal); T=H, BJ=JD
    ("4.5-bezique", "QH JD", [], "bezique", [], 1, 25),
    ("4.5-bezique-same_suit_jack", "QH JH", [], "bezique", [], 1, "invalid_combination"),
    ("4.5-bezique-plain_queen", "QD JD", [], "bezique", [], 1, "invalid_combination"),
    ("4.5-trump_marriage", "KH QH", [], "trump_marriage", [], 1, 4),
    ("4.5b-no_plain_marriage", "KD QD", [], "trump_marriage", [], 1, "invalid_combination"),
    ("4.5-trump_marriage-mixed_suits", "KH QD", [], "trump_marriage", [], 1, "invalid_combination"),
    ("4.5-trump_quint", "AH 10H KH QH JH", [], "trump_quint", [], 1, 50),
    ("4.5-trump_quint-bezique_jack", "AH 10H KH QH JD", [], "trump_quint", [], 1, 50),
    ("4.5-trump_quint-nine", "AH 10H KH QH 9H", [], "trump_quint", [], 1, "invalid_combination"),
    ("4.5-trump_quint-both_jacks", "AH 10H KH QH JH JD", [], "trump_quint", [], 1, "invalid_combination"),
    ("4.5b-no_plain_quint", "AD 10D KD QD JD", [], "trump_quint", [], 1, "invalid_combination"),
    ("4.5-four_aces", "AC AD AH AS", [], "four_aces", [], 1, 10),
    ("4.5-four_aces-any_suits", "AC AC AC AD", [], "four_aces", [], 1, 10),
    ("4.5-four_aces-a_king", "AC AD AH KS", [], "four_aces", [], 1, "invalid_combination"),
    ("4.5-four_aces-five", "AC AD AH AS AS", [], "four_aces", [], 1, "invalid_combination"),
    ("4.5-four_kings", "KC KD KH KS", [], "four_kings", [], 1, 8),
    ("4.5-four_kings-three", "KC KD KH", [], "four_kings", [], 1, "invalid_combination"),
    ("4.5-four_queens", "QC QD QS QS", [], "four_queens", [], 1, 6),
    ("4.5-four_queens-a_jack", "QC QD QS JS", [], "four_queens", [], 1, "invalid_combination"),
    ("4.5-four_jacks", "JC JD JH JS", [], "four_jacks", [], 1, 4),
    ("4.5-four_jacks-a_nine", "JC JD JH 9S", [], "four_jacks", [], 1, "invalid_combination"),
    ("4.5-four_trump_aces", "AH AH AH AH", [], "four_trump_aces", [], 1, 110),
    ("4.5-four_trump_aces-plain_ace", "AH AH AH AD", [], "four_trump_aces", [], 1, "invalid_combination"),
    ("4.5-four_trump_tens", "10H 10H 10H 10H", [], "four_trump_tens", [], 1, 90),
    ("4.5-four_trump_tens-plain_ten", "10H 10H 10H 10D", [], "four_trump_tens", [], 1, "invalid_combination"),
    ("4.5-four_trump_kings", "KH KH KH KH", [], "four_trump_kings", [], 1, 88),
    ("4.5-four_trump_kings-plain_king", "KH KH KH KS", [], "four_trump_kings", [], 1, "invalid_combination"),
    ("4.5-four_trump_queens", "QH QH QH QH", [], "four_trump_queens", [], 1, 176),
    ("4.5-four_trump_queens-plain_queen", "QH QH QH QC", [], "four_trump_queens", [], 1, "invalid_combination"),
    ("4.5-four_trump_jacks", "JH JH JH JH", [], "four_trump_jacks", [], 1, 44),
    ("4.5-four_trump_jacks-bezique_jacks", "JD JD JD JD", [], "four_trump_jacks", [], 1, "invalid_combination"),
    ("4.5-four_bezique_jacks", "JD JD JD JD", [], "four_bezique_jacks", [], 1, 164),
    ("4.5-four_bezique_jacks-trump_jacks", "JH JH JH JH", [], "four_bezique_jacks", [], 1, "invalid_combination"),
    ("4.5-four_bezique_jacks-a_trump_jack", "JD JD JD JH", [], "four_bezique_jacks", [], 1, "invalid_combination"),
    ("4.5b-no_plain_four_tens", "10C 10D 10H 10S", [], "four_tens", [], 1, "unknown_kind"),
    ("4.5b-no_four_nines", "9C 9D 9H 9S", [], "four_nines", [], 1, "unknown_kind"),
    ("4.5b-no_four_trump_nines", "9H 9H 9H JK:9H", [], "four_trump_nines", [], 1, "unknown_kind"),
    ("4.5b-no_plain_marriage_kind", "KD QD", [], "plain_marriage", [], 1, "unknown_kind"),
    ("4.5b-no_carte_blanche", "9C", [], "carte_blanche", [], 1, "unknown_kind"),
    ("4.5e-extra_trump_ace", "AH", four_shown("AH"), "extra_trump_ace", [], 1, 50),
    ("4.5e-extra_trump_ten", "10H", four_shown("10H"), "extra_trump_ten", [], 1, 50),
    ("4.5e-extra_trump_king", "KH", four_shown("KH"), "extra_trump_king", [], 1, 50),
    ("4.5e-extra_trump_queen", "QH", four_shown("QH"), "extra_trump_queen", [], 1, 100),
    ("4.5e-extra_trump_jack", "JH", four_shown("JH"), "extra_trump_jack", [], 1, 50),
    ("4.5e-extra_bezique_jack", "JD", four_shown("JD"), "extra_bezique_jack", [], 1, 100),
    ("4.5e-extra_trump_ace-no_four", "AH", [], "extra_trump_ace", [], 1, "extra_needs_four_exposed"),
    ("4.5e-extra_trump_ten-no_four", "10H", [], "extra_trump_ten", [], 1, "extra_needs_four_exposed"),
    ("4.5e-extra_trump_king-no_four", "KH", [], "extra_trump_king", [], 1, "extra_needs_four_exposed"),
    ("4.5e-extra_trump_queen-no_four", "QH", [], "extra_trump_queen", [], 1, "extra_needs_four_exposed"),
    ("4.5e-extra_trump_jack-no_four", "JH", [], "extra_trump_jack", [], 1, "extra_needs_four_exposed"),
    ("4.5e-extra_bezique_jack-no_four", "JD", [], "extra_bezique_jack", [], 1, "extra_needs_four_exposed"),
    # (a) m sets in one declaration
    ("4.5a-double_bezique", "QH QH JD JD", [], "bezique", [], 2, 50),
    ("4.5a-double_bezique-as_one_set", "QH QH JD JD", [], "bezique", [], 1, "invalid_combination"),
    ("4.5a-triple_trump_marriage", "KH KH KH QH QH QH", [], "trump_marriage", [], 3, 12),
    ("4.5a-double_four_trump_kings", "KH KH KH KH KH KH KH KH", [], "four_trump_kings", [], 2, 176),
    ("4.5a-double_four_jacks", "JC JC JD JD JH JH JS JS", [], "four_jacks", [], 2, 8),
    ("4.5a-double_quint-mixed_jacks", "AH AH 10H 10H KH KH QH QH JH JD", [], "trump_quint", [], 2, 100),
    ("4.5a-double_quint-jack_short", "AH AH 10H 10H KH KH QH QH JH", [], "trump_quint", [], 2, "invalid_combination"),
    # (c) the royal family is shared; families differ across the table
    ("4.5c-bezique_queen_in_marriage", "KH", [shown("QH", "bezique")], "trump_marriage", [1], 1, 4),
    ("4.5c-bezique_queen_in_four_queens", "QC QD QS", [shown("QH", "bezique")], "four_queens", [1], 1, 6),
    ("4.5c-bezique_queen_in_four_trump_queens", "QH QH QH", [shown("QH", "bezique")], "four_trump_queens", [1], 1,
     176),
    ("4.5c-marriage_cards_not_in_quint", "AH 10H JH", [shown("KH", "trump_marriage"), shown("QH", "trump_marriage")],
     "trump_quint", [1, 2], 1, "card_already_used_in_family"),
    ("4.5c-quint_king_not_in_marriage", "QH", [shown(c, "trump_quint") for c in ("AH", "10H", "KH", "QH", "JH")],
     "trump_marriage", [3], 1, "card_already_used_in_family"),
    ("4.5c-quint_queen_in_bezique", "JD", [shown(c, "trump_quint") for c in ("AH", "10H", "KH", "QH", "JH")],
     "bezique", [4], 1, 25),
    ("4.5c-marriage_queen_in_four_trump_queens", "QH QH QH", [shown("QH", "trump_marriage")],
     "four_trump_queens", [1], 1, 176),
    # (d) plain and trump fours of a rank, and the bezique jacks' four, share a family
    ("4.5d-plain_four_card_not_in_trump_four", "QH QH QH", [shown("QH", "four_queens")], "four_trump_queens", [1], 1,
     "card_already_used_in_family"),
    ("4.5d-trump_four_card_not_in_plain_four", "QC QD QS", [shown("QH", "four_trump_queens")], "four_queens", [1], 1,
     "card_already_used_in_family"),
    ("4.5d-four_jacks_card_not_in_bezique_jacks", "JD JD JD", [shown("JD", "four_jacks")], "four_bezique_jacks", [1],
     1, "card_already_used_in_family"),
    ("4.5d-bezique_jacks_card_not_in_four_jacks", "JC JH JS", [shown("JD", "four_bezique_jacks")], "four_jacks", [1],
     1, "card_already_used_in_family"),
    ("4.5d-trump_jacks_card_not_in_four_jacks", "JC JD JS", [shown("JH", "four_trump_jacks")], "four_jacks", [1], 1,
     "card_already_used_in_family"),
    ("4.5d-bezique_jacks_card_in_bezique", "QH", [shown("JD", "four_bezique_jacks")], "bezique", [1], 1, 25),
    ("4.5d-bezique_card_in_four_bezique_jacks", "JD JD JD", [shown("JD", "bezique")], "four_bezique_jacks", [1], 1, 164),
    ("4.5d-plain_four_of_trump_kings", "KH KH KH KH", [], "four_kings", [], 1, 8),
    # D7: a combination broken by play is not re-formed from the same table cards
    ("D7-no_re_forming", "QH", [shown("JD", "bezique")], "bezique", [1], 1, "card_already_used_in_family"),
    ("D7-new_card_and_fresh_table_card", "QH", [shown("JD", "four_bezique_jacks")], "bezique", [1], 1, 25),
]


@pytest.mark.parametrize(("hand", "exposed", "kind", "table", "m", "expected"), [r[1:] for r in KIND_ROWS],
                         ids=[r[0] for r in KIND_ROWS])
def test_4_5_kinds(hand, exposed, kind, table, m, expected):
    state = window(hand, exposed=exposed)
    move = declare(1, kind, hand, table, m)
    assert gained(state, move) == expected
    assert (canonical(state, move) in listed(state, 1)) == isinstance(expected, int), "§4.6"


def test_4_5b_the_kinds_that_exist():
    assert set(declarations.KINDS) == set(SPEC_KINDS)


# extras, T=S (BJ=JC): q counts only the exposed category cards of the four or its extras (e, D8)
def s_shown(card, tag, n=1, as_=None):
    return [shown(card, tag, as_=as_) for _ in range(n)]


EXTRA_ROWS = [
    ("4.5e-fifth", "QS", s_shown("QS", "four_trump_queens", 4), "extra_trump_queen", [], 1, 100),
    ("4.5e-sixth", "QS", s_shown("QS", "four_trump_queens", 4) + s_shown("QS", "extra_trump_queen"),
     "extra_trump_queen", [], 1, 200),
    ("4.5e-D8-one_of_the_four_played", "QS", s_shown("QS", "four_trump_queens", 3), "extra_trump_queen", [], 1,
     "extra_needs_four_exposed"),
    ("4.5e-D8-three_of_the_four_and_an_extra", "QS", s_shown("QS", "four_trump_queens", 3)
     + s_shown("QS", "extra_trump_queen"), "extra_trump_queen", [], 1, 100),
    ("4.5e-plain_four_of_trump_queens_does_not_count", "QS", s_shown("QS", "four_queens", 4), "extra_trump_queen", [],
     1, "extra_needs_four_exposed"),
    ("4.5e-bezique_queens_do_not_count", "QS", s_shown("QS", "bezique", 4), "extra_trump_queen", [], 1,
     "extra_needs_four_exposed"),
    ("4.5e-marriage_queens_do_not_count", "QS", s_shown("QS", "trump_marriage", 2) + s_shown("QS", "four_trump_queens", 3),
     "extra_trump_queen", [], 1, "extra_needs_four_exposed"),
    ("4.5e-shown_JK_counts_as_its_identity", "QS", s_shown("QS", "four_trump_queens", 3)
     + s_shown("JK", "four_trump_queens", as_="QS"), "extra_trump_queen", [], 1, 100),
    ("4.5e-JK_nominated_as_the_category_card", "JK:QS", s_shown("QS", "four_trump_queens", 4), "extra_trump_queen", [],
     1, 100),
    ("4.5e-JK_nominated_as_another_card", "JK:KS", s_shown("QS", "four_trump_queens", 4), "extra_trump_queen", [], 1,
     "invalid_combination"),
    ("4.5e-exactly_one_card", "QS QS", s_shown("QS", "four_trump_queens", 4), "extra_trump_queen", [], 1,
     "invalid_combination"),
    ("4.5e-not_the_category_card", "KS", s_shown("QS", "four_trump_queens", 4), "extra_trump_queen", [], 1,
     "invalid_combination"),
    ("4.5e-from_table_not_empty", "QS", s_shown("QS", "four_trump_queens", 4) + s_shown("QS", "bezique"),
     "extra_trump_queen", [5], 1, "invalid_combination"),
    ("4.5e-from_table_four_card-family_checked_first", "QS", s_shown("QS", "four_trump_queens", 4),
     "extra_trump_queen", [1], 1, "card_already_used_in_family"),
    ("4.5e-multiplicity_one", "QS", s_shown("QS", "four_trump_queens", 4), "extra_trump_queen", [], 2,
     "bad_multiplicity"),
    ("4.5e-other_category", "QS", s_shown("KS", "four_trump_kings", 4), "extra_trump_queen", [], 1,
     "extra_needs_four_exposed"),
    ("4.5e-bezique_jacks_are_not_trump_jacks", "JS", s_shown("JC", "four_bezique_jacks", 4), "extra_trump_jack", [], 1,
     "extra_needs_four_exposed"),
    ("4.5e-bezique_jack_extra", "JC", s_shown("JC", "four_bezique_jacks", 4), "extra_bezique_jack", [], 1, 100),
    ("4.5e-seventh_queen", "QS", s_shown("QS", "four_trump_queens", 4) + s_shown("QS", "extra_trump_queen", 2),
     "extra_trump_queen", [], 1, 400),
    ("4.5e-eighth_queen", "QS", s_shown("QS", "four_trump_queens", 4) + s_shown("QS", "extra_trump_queen", 3),
     "extra_trump_queen", [], 1, 1152),
    ("4.5e-eighth_king", "KS", s_shown("KS", "four_trump_kings", 4) + s_shown("KS", "extra_trump_king", 3),
     "extra_trump_king", [], 1, 576),
    ("4.5e-eighth_ten", "10S", s_shown("10S", "four_trump_tens", 4) + s_shown("10S", "extra_trump_ten", 3),
     "extra_trump_ten", [], 1, 576),
    ("4.5e-seventh_ace", "AS", s_shown("AS", "four_trump_aces", 4) + s_shown("AS", "extra_trump_ace", 2),
     "extra_trump_ace", [], 1, 200),
    ("4.5e-sixth_bezique_jack", "JC", s_shown("JC", "four_bezique_jacks", 4) + s_shown("JC", "extra_bezique_jack"),
     "extra_bezique_jack", [], 1, 200),
    ("4.5e-ninth_queen_with_a_wild_card", "JK:QS", s_shown("QS", "four_trump_queens", 4)
     + s_shown("QS", "extra_trump_queen", 4), "extra_trump_queen", [], 1, 100),
]


@pytest.mark.parametrize(("hand", "exposed", "kind", "table", "m", "expected"), [r[1:] for r in EXTRA_ROWS],
                         ids=[r[0] for r in EXTRA_ROWS])
def test_4_5e_extras(hand, exposed, kind, table, m, expected):
    state = window(hand, trump="S", exposed=exposed)
    move = declare(1, kind, hand, table, m)
    assert gained(state, move) == expected
    assert (canonical(state, move) in listed(state, 1)) == isinstance(expected, int), "§4.6"


def test_4_5e_ninth_and_tenth_card_with_ten_packs():
    exposed = s_shown("QS", "four_trump_queens", 4) + s_shown("QS", "extra_trump_queen", 4)
    state = window("QS QS", trump="S", exposed=exposed, options={"packs": 10})
    state = at(state, declare(1, "extra_trump_queen", "QS"))
    assert state.scores[1] == 100  # c = 9: the value for c - 4 = 5
    state = win_trick(state)
    assert gained(state, declare(1, "extra_trump_queen", "QS")) == 200  # c = 10: as c = 6


# --- §4.6 listing ---------------------------------------------------------------------------------


def declares(state, seat):
    return {m for m in listed(state, seat) if isinstance(m, Declare)}


LISTING_ROWS = [
    ("4.6-naturals", window("QH JD KH"), [
        declare(1, "bezique", "JD QH"), declare(1, "trump_marriage", "KH QH")]),
    ("4.6-two_wild_cards", window("QH JK JK"), [
        declare(1, "bezique", "QH JK:JD"), declare(1, "bezique", "JK:JD JK:QH"),
        declare(1, "trump_marriage", "QH JK:KH"), declare(1, "trump_marriage", "JK:KH JK:QH")]),
    ("4.6-wild_card_where_a_natural_could_be", window("QH JD JK"), [
        declare(1, "bezique", "JD QH"), declare(1, "bezique", "QH JK:JD"), declare(1, "bezique", "JD JK:QH"),
        declare(1, "trump_marriage", "QH JK:KH")]),
    ("4.6-table_classes_lowest_ids", window("KH", exposed=[shown("QH", "bezique"), shown("QH", "bezique"),
                                                           shown("QH", "four_queens")]), [
        declare(1, "trump_marriage", "KH", [1]), declare(1, "trump_marriage", "KH", [3])]),
    ("4.6-extras_and_table", window("QS JK", trump="S", exposed=s_shown("QS", "four_trump_queens", 4)), [
        declare(1, "extra_trump_queen", "QS"), declare(1, "extra_trump_queen", "JK:QS"),
        declare(1, "bezique", "QS JK:JC"), declare(1, "bezique", "JK:JC", [1]),
        declare(1, "trump_marriage", "QS JK:KS"), declare(1, "trump_marriage", "JK:KS", [1])]),
    ("4.6-double", window("QH QH JD JD"), [
        declare(1, "bezique", "JD QH"), declare(1, "bezique", "JD JD QH QH", m=2)]),
    ("4.6-spacing_lists_no_declaration", SPACED, []),
]


@pytest.mark.parametrize(("state", "expected"), [r[1:] for r in LISTING_ROWS], ids=[r[0] for r in LISTING_ROWS])
def test_4_6_declarations_listed(state, expected):
    moves = listed(state, 1)
    assert Pass(1) in moves and ExchangeTrump(1) not in moves
    found = [m for m in moves if isinstance(m, Declare)]
    assert len(found) == len(set(found)), "each entry once"
    assert set(found) == set(expected)
    assert all(isinstance(m, (Pass, Declare)) for m in moves), "no play in the declaration window"


def test_4_6_wire_form_of_entries():
    state = window("QH JK", exposed=[shown("QH", "trump_marriage")])
    found = [GAME.dump_move(m) for m in listed(state, 1) if isinstance(m, Declare)]
    assert {"seat": 1, "type": "declare", "kind": "bezique", "multiplicity": 1,
            "from_hand": [{"card": "QH"}, {"card": "JK", "as": "JD"}], "from_table": []} in found
    assert {"seat": 1, "type": "declare", "kind": "bezique", "multiplicity": 1,
            "from_hand": [{"card": "JK", "as": "JD"}], "from_table": [1]} in found
    for entry in found:
        assert set(entry) == {"seat", "type", "kind", "multiplicity", "from_hand", "from_table"}
        for item in entry["from_hand"]:
            assert ("as" in item) == (item["card"] == "JK")
    assert {"seat": 1, "type": "pass"} in [GAME.dump_move(m) for m in listed(state, 1)]


def test_4_6_plays_listed():
    state = position(hands={1: "9H JK QH QH AS AS"}, exposed={1: [shown("JD", "bezique"), shown("JD", "bezique")]},
                     trump_card="KH", tricks_played=4, leader=1)
    found = wire_moves(state, 1)
    concealed = sorted(set(codes(state.hands[1])) - {"JK"})
    expected = [{"seat": 1, "type": "play", "cards": [c]} for c in concealed]
    expected += [{"seat": 1, "type": "play", "cards": ["JK"], "as": x} for x in IDENTITIES]
    expected += [{"seat": 1, "type": "play", "exposed_id": k} for k in (1, 2)]
    expected += [{"seat": 1, "type": "exchange_trump"}]
    assert found == sorted(expected, key=repr)
    # the follower: plays only (no exchange outside the lead and declare phases)
    state = at(state, play(1, "AS"))
    moves = listed(state, 0)
    assert all(isinstance(m, Play) for m in moves)
    assert len(moves) == len(set(state.hands[0])) + 24 * (JOKER in state.hands[0]) + len(state.exposed[0])
    assert listed(state, 1) == []


def test_4_6_exchange_listed_in_the_window():
    state = window("9H QH JD", trump_card="KH")
    moves = listed(state, 1)
    assert ExchangeTrump(1) in moves and Pass(1) in moves and declare(1, "bezique", "JD QH") in moves
    assert listed(state, 0) == []


ORACLE = [
    ("4.6-oracle-royal", window("QH JD KH JK", exposed=[
        shown("QH", "bezique", "trump_marriage"), shown("JD", "bezique"), shown("KH", "trump_marriage"),
        shown("QH", "bezique")]), ["QH", "JD", "KH", "JK"]),
    ("4.6-oracle-fours", window("QS QS QC JK", trump="S", exposed=s_shown("QS", "four_trump_queens", 3)
                                + s_shown("QS", "bezique")), ["QS", "QS", "QC", "JK"]),
    ("4.6-oracle-extras", window("QS KS JK", trump="S", exposed=s_shown("QS", "four_trump_queens", 4)
                                 + s_shown("KS", "trump_marriage")), ["QS", "KS", "JK"]),
    ("4.6-oracle-wild_and_natural_classes", window("KH JD", exposed=[
        shown("QH", "bezique"), shown("JK", "bezique", as_="QH"), shown("QH", "bezique"), shown("JD", "four_jacks")]),
     ["KH", "JD"]),
    ("4.6-oracle-two_wild_cards", window("KH JK JK", exposed=[shown("QH", "bezique"), shown("JD", "bezique")]),
     ["KH", "JK", "JK"]),
]


@pytest.mark.parametrize(("state", "cards_"), [r[1:] for r in ORACLE], ids=[r[0] for r in ORACLE])
def test_4_6_a_move_is_legal_iff_its_canonical_entry_is_listed(state, cards_):
    found = declares(state, 1)
    assert all(canonical(state, m) == m for m in found), "entries are canonical"
    assert all(refusal(state, m) is None for m in found), "entries are legal"
    naturals = [c for c in cards_ if c != "JK"]
    jokers = cards_.count("JK")
    ids = [e.id for e in state.exposed[1]]
    nominations = [x for x in IDENTITIES if x != "JK"]
    hands = set()
    for n in range(len(naturals) + 1):
        for chosen in itertools.combinations(naturals, n):
            for k in range(jokers + 1):
                for noms in itertools.combinations_with_replacement(nominations, k):
                    hands.add(" ".join([*chosen, *(f"JK:{x}" for x in noms)]))
    seen_legal = set()
    for hand in sorted(hands):
        for t in range(len(ids) + 1):
            for table in itertools.combinations(ids, t):
                for kind in SPEC_KINDS:
                    for m in (1, 2):
                        move = declare(1, kind, hand, table, m)
                        legal = refusal(state, move) is None
                        assert (canonical(state, move) in found) == legal, move
                        if legal:
                            seen_legal.add(canonical(state, move))
    assert seen_legal == found and found


# --- §5.1 trick winners (E5, E6) -------------------------------------------------------------------

E5_ROWS = [
    ("E5-10S_AS", "10S", "AS", {}, 0),
    ("E5-KC_KC-identical", "KC", "KC", {}, 1),
    ("E5-AD_9H-trump", "AD", "9H", {}, 0),
    ("E5-QS_AD-other_suit", "QS", "AD", {}, 1),
    ("E5-9H_10H", "9H", "10H", {}, 0),
    ("E5-10S_KS-ten_high", "10S", "KS", {}, 1),
    ("E5-10S_KS-ten_low", "10S", "KS", {"ten_rank": "low"}, 0),
    ("5.1-identical_trumps", "AH", "AH", {}, 1),
    ("5.1-lower_trump_never_beats", "AH", "KH", {}, 1),
    ("5.1-JK_identical_to_the_lead", "AS", "JK:AS", {}, 1),
    ("5.1-JK_as_a_trump", "AS", "JK:9H", {}, 0),
    ("5.1-JK_lead_by_identity", "JK:KC", "AC", {}, 0),
]


def trick_play(seat, text):
    card, _, as_ = text.partition(":")
    return play(seat, card, as_ or None)


@pytest.mark.parametrize(("lead", "reply", "options", "winner"), [r[1:] for r in E5_ROWS], ids=[r[0] for r in E5_ROWS])
def test_5_1_E5_two_player_tricks(lead, reply, options, winner):
    state = position(hands={1: physical(lead), 0: physical(reply)}, tricks_played=3, leader=1, options=options)
    state = at(state, trick_play(1, lead), trick_play(0, reply))
    assert state.phase == "declare" and state.trick_winner == winner == state.leader == state.to_move


E6_ROWS = [
    ("E6-KH_AH_10H-current_best", "KH", "AH", "10H", 2),
    ("E6-AH_9S_JS-higher_trump", "AH", "9S", "JS", 0),
    ("E6-10C_10C_9C-identical", "10C", "10C", "9C", 1),
    ("5.1-AH_9S_KH-plain_never_beats_the_trump", "KH", "9S", "AH", 2),
    ("5.1-KH_QD_AH-other_suit_does_not_change_the_best", "KH", "QD", "AH", 0),
    ("5.1-AS_AS_JK-trumps_identical", "AS", "AS", "JK:AS", 1),
    ("5.1-QS_JK_AS-jk_covers_then_beaten", "QS", "JK:KS", "AS", 0),
]


@pytest.mark.parametrize(("first", "second", "third", "winner"), [r[1:] for r in E6_ROWS], ids=[r[0] for r in E6_ROWS])
def test_5_1_E6_three_player_tricks(first, second, third, winner):
    state = position(seats=3, dealer=0, options={"dealer_plays_at_three": True}, trump_suit="S",
                     hands={1: physical(first), 2: physical(second), 0: physical(third)}, tricks_played=2, leader=1)
    assert list(state.active) == [1, 2, 0]
    state = at(state, trick_play(1, first), trick_play(2, second), trick_play(0, third))
    assert state.trick_winner == winner == state.to_move


# --- §5.2 after the trick, §5.3 draw and end of hand (E12) -----------------------------------------


def test_5_2_after_the_trick():
    state = position(hands={1: "AH", 0: "JK"}, trump_suit="S", tricks_played=7, leader=1)
    won_before = [len(w) for w in state.won_cards]
    state = at(state, play(1, "AH"), play(0, "JK", as_="9S"))
    dumped = GAME.dump_state(state)
    assert dumped["won_cards"][0][-2:] == ["AH", "JK"] and len(dumped["won_cards"][0]) == won_before[0] + 2
    assert len(dumped["won_cards"][1]) == won_before[1]
    assert dumped["tricks_played"] == 8 and dumped["phase"] == "declare" and dumped["declared_in_window"] is False
    assert dumped["to_move"] == dumped["leader"] == dumped["trick_winner"] == 0 and dumped["trick"] == []


@pytest.mark.parametrize(("seats", "dealer", "options", "winner", "order"), [
    (2, 0, {}, 1, [1, 0]),
    (2, 0, {}, 0, [0, 1]),
    (3, 0, {"dealer_plays_at_three": True}, 0, [0, 1, 2]),
    (3, 0, {"dealer_plays_at_three": True}, 2, [2, 0, 1]),
    (4, 1, {}, 0, [0, 2, 3]),
], ids=["5.3-winner_first-n2", "5.3-winner_first-second_seat", "5.3-winner_first-n3", "5.3-clockwise_from_winner",
        "5.3-dealer_sits_out"])
def test_5_3_draw_order(seats, dealer, options, winner, order):
    top = ["AS", "KS", "QS"][:len(order)]
    state = position(seats=seats, dealer=dealer, options=options, phase="declare", tricks_played=9, leader=winner,
                     stock_top=top, trump_suit="C")
    after = at(state, Pass(winner))
    for seat, card in zip(order, top, strict=True):
        assert held(after, seat) - held(state, seat) == Counter({card: 1}), seat
    assert after.stock == state.stock[len(order):] and after.phase == "lead"


@pytest.mark.parametrize(("seats", "options", "last", "left"), [
    (2, {}, 69, 0), (4, {}, 40, 0), (2, {"packs": 10}, 89, 0), (4, {"packs": 10}, 53, 1),
    (2, {"wild_cards": 0}, 68, 0), (4, {"wild_cards": 0}, 39, 1), (2, {"packs": 10, "wild_cards": 0}, 88, 0),
    (4, {"packs": 10, "wild_cards": 0}, 52, 2),
], ids=["E12-P8-a2-69", "5.3-P8-a3-40", "5.3-P10-a2-89", "E12-P10-a3-53", "5.3-no_wild-P8-a2-68",
        "5.3-no_wild-P8-a3-39", "5.3-no_wild-P10-a2-88", "5.3-no_wild-P10-a3-52"])
def test_5_3_E12_final_draw_ends_the_hand(seats, options, last, left):
    state = position(seats=seats, dealer=0, options=options, phase="declare", tricks_played=last, leader=1,
                     trump_card="KH", stock_top=[])
    a = len(state.active)
    assert len(state.stock) == a + left
    after = at(state, Pass(1))
    dumped = GAME.dump_state(after)
    assert dumped["phase"] == "finished" and dumped["status"] == "finished" and dumped["to_move"] is None
    assert len(dumped["stock"]) == left
    if left == 0:  # the face-up card is drawn last, by the last seat in the draw
        assert held(after, state.active[-1])["KH"] == held(state, state.active[-1])["KH"] + 1
        assert dumped["trump_card"] is None
    else:  # it stays undrawn
        assert dumped["stock"][-1] == "KH" and dumped["trump_card"] == "KH"
    assert dumped["result"]["tricks_played"] == last and dumped["result"]["last_trick_winner"] == 1
    # the trick before the last leaves enough cards: play goes on
    earlier = position(seats=seats, dealer=0, options=options, phase="declare", tricks_played=last - 1, leader=1)
    assert at(earlier, Pass(1)).phase == "lead"


@pytest.mark.parametrize(("seats", "options", "tricks", "left"), [
    (2, {}, 69, 0), (4, {}, 40, 0), (2, {"packs": 10}, 89, 0), (3, {"packs": 10, "dealer_plays_at_three": True}, 53, 1),
    (2, {"wild_cards": 0}, 68, 0), (3, {"wild_cards": 0, "dealer_plays_at_three": True}, 39, 1),
    (2, {"packs": 10, "wild_cards": 0}, 88, 0), (4, {"packs": 10, "wild_cards": 0}, 52, 2),
], ids=["5.3-random-P8-a2-69", "5.3-random-P8-a3-40", "5.3-random-P10-a2-89", "5.3-random-P10-a3-53",
        "5.3-random-no_wild-P8-a2-68", "5.3-random-no_wild-P8-a3-39", "5.3-random-no_wild-P10-a2-88",
        "5.3-random-no_wild-P10-a3-52"])
def test_5_3_tricks_per_hand(seats, options, tricks, left):
    for seed in ("a", "b"):
        state = GAME.deal(DealSetup(seats, 1, options, None), SeedStream(seed))
        pick = random.Random(seed)
        declared = Counter()
        while state.phase != "finished":
            if state.phase == "lead":
                assert all(len(state.hands[s]) + len(state.exposed[s]) == 18 for s in state.active)
            move = pick.choice(listed(state, state.to_move))
            state, events = GAME.apply(state, move)
            for event in events:
                if event.type == "declared":
                    declared[event.seat] += event.points
        assert state.tricks_played == tricks and len(state.stock) == left
        assert GAME.dump_state(GAME.load_state(GAME.dump_state(state))) == GAME.dump_state(state)
        # E12: with the default options the scores are the declaration totals
        assert list(state.scores) == [declared[s] for s in range(seats)]


def test_6_the_last_winner_declares_before_the_final_draw():
    state = window("QH JD", tricks=69)
    after = at(state, declare(1, "bezique", "QH JD"))
    assert after.phase == "finished" and after.scores[1] == 25
    assert GAME.dump_state(after)["result"]["scores"] == [0, 25]
    assert refusal(after, Pass(1)) == "hand_finished" and listed(after, 1) == []


# --- §7.1 the points function (E7) -----------------------------------------------------------------

POINT_ROWS = [
    *((f"7.1-bezique-n{n}", "bezique", n, 1, 0, v) for n, v in enumerate([25, 50, 100, 200, 400, 800])),
    ("7.1-bezique-m2-n0", "bezique", 0, 2, 0, 50), ("7.1-bezique-m3-n2", "bezique", 2, 3, 0, 300),
    *((f"7.1-trump_quint-n{n}", "trump_quint", n, 1, 0, v) for n, v in enumerate([50, 100, 200, 400, 800])),
    ("7.1-trump_quint-m2-n0", "trump_quint", 0, 2, 0, 100),
    *((f"7.1-trump_marriage-n{n}", "trump_marriage", n, 1, 0, v) for n, v in enumerate([4, 8, 16, 32, 64, 128])),
    ("7.1-trump_marriage-m3-n0", "trump_marriage", 0, 3, 0, 12),
    *((f"7.1-{kind}-m{m}-n{n}", kind, n, m, 0, m * v)
      for kind, v in [("four_jacks", 4), ("four_queens", 6), ("four_kings", 8), ("four_aces", 10),
                      ("four_trump_jacks", 44), ("four_trump_queens", 176), ("four_trump_kings", 88),
                      ("four_trump_aces", 110), ("four_trump_tens", 90), ("four_bezique_jacks", 164)]
      for m, n in [(1, 0), (1, 3), (2, 0)]),
    *((f"7.1-{kind}-c{c}", kind, 0, 1, c, v)
      for kind, values in [("extra_trump_queen", [100, 200, 400, 1152]), ("extra_bezique_jack", [100, 200, 400, 1152]),
                           ("extra_trump_king", [50, 100, 200, 576]), ("extra_trump_ace", [50, 100, 200, 576]),
                           ("extra_trump_jack", [50, 100, 200, 576]), ("extra_trump_ten", [50, 100, 200, 576])]
      for c, v in zip(range(5, 13), values * 2, strict=True)),
    ("E7-bezique-0-1", "bezique", 0, 1, 0, 25), ("E7-bezique-3-1", "bezique", 3, 1, 0, 200),
    ("E7-bezique-0-2", "bezique", 0, 2, 0, 50), ("E7-trump_quint-1-2", "trump_quint", 1, 2, 0, 200),
    ("E7-trump_marriage-2-1", "trump_marriage", 2, 1, 0, 16), ("E7-four_trump_queens-1", "four_trump_queens", 5, 1, 0, 176),
    ("E7-four_jacks-2", "four_jacks", 2, 2, 0, 8), ("E7-extra_trump_queen-c8", "extra_trump_queen", 0, 1, 8, 1152),
    ("E7-extra_trump_king-c6", "extra_trump_king", 0, 1, 6, 100),
]


@pytest.mark.parametrize(("kind", "n_prev", "m", "c", "value"), [r[1:] for r in POINT_ROWS], ids=[r[0] for r in POINT_ROWS])
def test_7_1_points(kind, n_prev, m, c, value):
    assert declarations.points(kind, n_prev, m, c) == value


def test_7_1_E8_declaration_sequence_with_reuse():
    state = window("QH QH JD JD KH AH 10H JH", tricks=3)
    state = at(state, declare(1, "bezique", "QH JD"))  # 1
    assert state.scores[1] == 25
    assert GAME.dump_state(state)["exposed"][1] == [{"id": 1, "card": "QH", "as": "QH", "tags": ["bezique"]},
                                                    {"id": 2, "card": "JD", "as": "JD", "tags": ["bezique"]}]
    state = win_trick(state)
    assert gained(state, declare(1, "trump_marriage", "KH", [1])) == 4  # 2
    state = at(state, declare(1, "trump_marriage", "KH", [1]))
    assert [e.id for e in state.exposed[1] if e.card.code == "KH"] == [3]
    state = win_trick(state)
    assert refusal(state, declare(1, "bezique", "", [1, 2])) == "needs_card_from_hand"  # 3
    assert refusal(state, declare(1, "bezique", "JD", [1])) == "card_already_used_in_family"  # 4
    assert gained(state, declare(1, "bezique", "QH JD")) == 50  # 5
    state = at(state, declare(1, "bezique", "QH JD"))
    assert state.scores[1] == 79
    state = win_trick(state)
    assert refusal(state, declare(1, "trump_quint", "AH 10H JH", [3, 1])) == "card_already_used_in_family"  # 6


def test_7_1_E9_four_trump_queens_and_extras():
    state = window("QS QS QS QS QS QS QS JK", trump="S", tricks=3)
    total = []
    state = at(state, declare(1, "four_trump_queens", "QS QS QS QS"))
    total.append(state.scores[1])
    state = win_trick(state)
    state = at(state, declare(1, "extra_trump_queen", "QS"))  # c = 5
    total.append(state.scores[1])
    state = win_trick(state)
    state = at(state, declare(1, "extra_trump_queen", "QS"))  # c = 6
    total.append(state.scores[1])
    state = win_trick(state, lead_shown=1)  # one exposed QS is played to a trick: 5 are left
    assert sum(e.as_.code == "QS" for e in state.exposed[1]) == 5
    state = at(state, declare(1, "extra_trump_queen", "QS"))  # c = 6 again
    total.append(state.scores[1])
    assert sorted(e.id for e in state.exposed[1]) == [2, 3, 4, 5, 6, 7]  # §4.1: id 1 is not reused
    state = win_trick(state)
    state = at(state, declare(1, "extra_trump_queen", "JK:QS"))  # c = 7
    total.append(state.scores[1])
    assert [b - a for a, b in zip([0, *total], total, strict=False)] == [176, 100, 200, 200, 400]


def test_7_1_E10_the_window():
    state = window("QH JD KH QH", tricks=12, hands={0: "QH JD KH"})
    assert refusal(state, play(1, "QH")) == "wrong_phase"
    assert refusal(state, declare(0, "bezique", "QH JD")) == "not_declaration_window"
    stock = len(state.stock)
    state = at(state, declare(1, "bezique", "QH JD"))
    assert state.phase == "lead" and len(state.stock) == stock - 2
    assert refusal(state, declare(1, "trump_marriage", "KH QH")) == "already_declared"
    assert refusal(state, declare(0, "trump_marriage", "KH QH")) == "not_declaration_window"


def test_7_1_D6_ladder_counts_pokazkas_not_sets():
    state = window("QH QH QH JD JD JD", tricks=3)
    state = at(state, declare(1, "bezique", "QH QH JD JD", m=2))
    assert state.scores[1] == 50 and GAME.dump_state(state)["decl_counts"][1]["bezique"] == 1
    state = win_trick(state)
    assert gained(state, declare(1, "bezique", "QH JD")) == 50  # the second rung


def test_7_1_ladders_are_per_kind_and_royal_kinds_separate():
    state = window("KH QH KH QH AH 10H JH QH", tricks=3, decl_counts={1: {"trump_marriage": 2}})
    assert gained(state, declare(1, "trump_quint", "AH 10H KH QH JH")) == 50  # the marriages do not move it
    assert gained(state, declare(1, "trump_marriage", "KH QH")) == 16


# --- further positions the rules imply --------------------------------------------------------------

IMPLIED_ROWS = [
    # (id, hand, trump, exposed, counts, move, expected)
    ("implied-fifth_bezique_400", "QH JD", "H", [], {"bezique": 4}, declare(1, "bezique", "QH JD"), 400),
    ("implied-double_bezique_third_rung", "QH QH JD JD", "H", [], {"bezique": 2},
     declare(1, "bezique", "QH QH JD JD", m=2), 200),
    ("implied-triple_trump_marriage_second_rung", "KH KH KH QH QH QH", "H", [], {"trump_marriage": 1},
     declare(1, "trump_marriage", "KH KH KH QH QH QH", m=3), 24),
    ("implied-quint_with_the_bezique_jack", "AS 10S KS QS JC", "S", [], {}, declare(1, "trump_quint", "AS 10S KS QS JC"),
     50),
    ("implied-quint_JK_as_the_bezique_jack", "AS 10S KS QS JK", "S", [], {},
     declare(1, "trump_quint", "AS 10S KS QS JK:JC"), 50),
    ("implied-quint_JK_as_a_plain_jack", "AS 10S KS QS JK", "S", [], {},
     declare(1, "trump_quint", "AS 10S KS QS JK:JD"), "invalid_combination"),
    ("implied-JK_in_four_trump_kings", "KD KD KD JK", "D", [], {}, declare(1, "four_trump_kings", "KD KD KD JK:KD"), 88),
    ("implied-JK_as_a_plain_king_in_the_trump_four", "KD KD KD JK", "D", [], {},
     declare(1, "four_trump_kings", "KD KD KD JK:KS"), "invalid_combination"),
    ("implied-JK_as_a_plain_king_in_four_kings", "KD KD KD JK", "D", [], {},
     declare(1, "four_kings", "KD KD KD JK:KS"), 8),
    ("implied-second_quint_from_fresh_cards", "AH 10H KH QH JH", "H", [shown("QH", "bezique")], {"trump_quint": 1},
     declare(1, "trump_quint", "AH 10H KH JH", [1]), 100),
    ("implied-queen_scores_in_three_families", "QH QH QH", "H", [shown("QH", "bezique", "trump_marriage")], {},
     declare(1, "four_trump_queens", "QH QH QH", [1]), 176),
    ("implied-JK_shown_as_JD_in_bezique_joins_four_bezique_jacks", "JD JD JD", "H",
     [shown("JK", "bezique", as_="JD")], {}, declare(1, "four_bezique_jacks", "JD JD JD", [1]), 164),
]


@pytest.mark.parametrize(("hand", "trump", "exposed", "counts", "move", "expected"), [r[1:] for r in IMPLIED_ROWS],
                         ids=[r[0] for r in IMPLIED_ROWS])
def test_implied_positions(hand, trump, exposed, counts, move, expected):
    state = window(hand, trump=trump, exposed=exposed, decl_counts={1: counts})
    assert gained(state, move) == expected


def test_implied_four_bezique_jacks_then_extra_bezique_jack():
    state = window("JD JD JD JD JD JD", tricks=3)
    state = at(state, declare(1, "four_bezique_jacks", "JD JD JD JD"))
    assert state.scores[1] == 164
    state = win_trick(state)
    state = at(state, declare(1, "extra_bezique_jack", "JD"))
    assert state.scores[1] == 164 + 100
    state = win_trick(state)
    assert gained(state, declare(1, "extra_bezique_jack", "JD")) == 200


def test_implied_spacing_option_flow():
    options = {"declaration_spacing": "not_consecutive"}
    state = window("QH JD KH QH", tricks=12, options=options)
    state = at(state, declare(1, "bezique", "QH JD"))
    state = win_trick(state)  # trick 13, right after the declaring one
    assert refusal(state, declare(1, "trump_marriage", "KH QH")) == "declared_last_trick"
    state = at(state, Pass(1))
    state = win_trick(state)  # trick 14: the seat passed after 13
    assert gained(state, declare(1, "trump_marriage", "KH QH")) == 4


def test_implied_per_trick_default_allows_consecutive_declarations():
    state = window("QH JD KH QH", tricks=12)
    state = at(state, declare(1, "bezique", "QH JD"))
    state = win_trick(state)
    assert gained(state, declare(1, "trump_marriage", "KH QH")) == 4


# --- §7.2 hand score -------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "bonus", "brisque", "exchange"), [
    ({}, 0, 0, 0),
    ({"brisque_value": 10, "last_trick_bonus": 50, "exchange_points": 7}, 50, 10, 7),
    ({"brisque_value": 1}, 0, 1, 0),
], ids=["7.2-D12-defaults_score_nothing_more", "7.2-brisques_last_trick_exchange", "7.2-brisque_value_1"])
def test_7_2_hand_score(options, bonus, brisque, exchange):
    # T=H, trick 69 of 69 to play; seat 1 has won one trick (KC JK) and holds 9H AH; the face-up KH
    state = position(hands={1: "AH 9H", 0: "10S"}, trump_card="KH", stock_top="QC", tricks_played=68, leader=1,
                     won={1: "KC JK"}, won_by=0, options=options)
    state = at(state, ExchangeTrump(1), play(1, "AH"), play(0, "10S"), Pass(1))
    assert state.phase == "finished" and CARDS["9H"] in state.hands[0] and CARDS["QC"] in state.hands[1]
    assert codes(state.won_cards[1]) == ["KC", "JK", "AH", "10S"]  # two brisques: a JK never counts
    elsewhere = sum(c.code[:-1] in ("A", "10") for s in (0, 1) for c in state.hands[s])
    seat0_brisques = 8 * 4 * 2 - elsewhere - 2  # every A and 10 of the deck is held or won
    assert list(state.scores) == [brisque * seat0_brisques, exchange + brisque * 2 + bonus]
    result = GAME.score(state, None)["hand"]
    assert result == GAME.dump_state(state)["result"]
    assert result["scores"] == list(state.scores) and result["tricks_played"] == 69
    assert result["last_trick_winner"] == 1
    top = max(state.scores)
    assert sorted(result["hand_winners"]) == [s for s in (0, 1) if state.scores[s] == top]


def test_7_2_hand_winners_ties_and_the_sitting_out_dealer():
    state = position(seats=3, dealer=0, phase="finished", scores={1: 30, 2: 30})
    assert sorted(GAME.score(state, None)["hand"]["hand_winners"]) == [1, 2]
    state = position(seats=4, dealer=1, phase="finished", scores={0: 5, 2: 80, 3: 79})
    assert GAME.score(state, None)["hand"]["hand_winners"] == [2]


# --- §7.3 match ------------------------------------------------------------------------------------


def match(totals, next_dealer, target=1000):
    return {"totals": totals, "over": False, "winner": None, "target": target, "next_dealer": next_dealer}


MATCH_ROWS = [
    ("7.3-below_target_continues", 2, 0, {}, {0: 300, 1: 500}, match([100, 200], 0), [400, 700], None),
    ("7.3-target_reached", 2, 0, {}, {0: 500, 1: 100}, match([600, 400], 0), [1100, 500], 0),
    ("7.3-exactly_the_target", 2, 1, {}, {0: 100, 1: 0}, match([900, 400], 1), [1000, 400], 0),
    ("7.3-both_over_the_highest_wins", 2, 0, {}, {0: 150, 1: 300}, match([900, 800], 0), [1050, 1100], 1),
    ("7.3-tie_at_the_top_continues", 2, 0, {}, {0: 200, 1: 300}, match([900, 800], 0), [1100, 1100], None),
    ("7.3-target_option", 2, 0, {"target_score": 500}, {0: 300, 1: 600}, match([0, 0], 0, 500), [300, 600], 1),
    ("7.3-sitting_out_dealer_adds_nothing", 4, 2, {}, {0: 100, 1: 400, 3: 50}, match([10, 20, 30, 40], 2),
     [110, 420, 30, 90], None),
    ("7.3-three_seats_tie_continues", 3, 0, {}, {1: 600, 2: 550}, match([0, 500, 550], 0), [0, 1100, 1100], None),
]


@pytest.mark.parametrize(("seats", "dealer", "options", "scores", "before", "totals", "winner"), [r[1:] for r in MATCH_ROWS],
                         ids=[r[0] for r in MATCH_ROWS])
def test_7_3_match(seats, dealer, options, scores, before, totals, winner):
    state = position(seats=seats, dealer=dealer, options=options, phase="finished", scores=scores)
    after = GAME.score(state, before)["match"]
    assert after["totals"] == totals
    assert after["over"] is (winner is not None)
    assert after["winner"] in ((None,) if winner is None else (winner, [winner]))
    assert after["next_dealer"] == (dealer + 1) % seats


@pytest.mark.parametrize(("seats", "dealer", "options", "next_dealer", "sitting_out"), [
    (2, 0, {}, 1, None), (2, 1, {}, 0, None), (3, 0, {}, 1, 1), (3, 2, {}, 0, 0),
    (3, 0, {"dealer_plays_at_three": True}, 1, None), (4, 3, {}, 0, 0), (4, 1, {}, 2, 2),
], ids=["7.3-n2-d0", "7.3-n2-d1", "7.3-n3-d0-sits_out", "7.3-n3-d2-wraps", "7.3-n3-dealer_plays", "7.3-n4-d3",
        "7.3-n4-d1"])
def test_7_3_next_dealer(seats, dealer, options, next_dealer, sitting_out):
    state = position(seats=seats, dealer=dealer, options=options, phase="finished")
    after = GAME.score(state, None)["match"]
    assert after["next_dealer"] == next_dealer and after["sitting_out"] == sitting_out
    assert after["totals"] == [0] * seats and after["over"] is False


def test_7_3_the_first_hand_without_a_match_reaching_the_target():
    state = position(phase="finished", scores={0: 1200, 1: 40})
    after = GAME.score(state, None)["match"]
    assert after["totals"] == [1200, 40] and after["over"] is True and after["winner"] in (0, [0])


def test_D13_a_seat_sees_its_own_hand_and_the_table_only():
    state = window("QH JD", exposed=[shown("QH", "bezique")], hands={0: "KS"})
    seen = GAME.view(state, 1)
    assert "hands" not in seen and "stock" not in seen and "won_cards" not in seen
    assert seen["hand"] == codes(state.hands[1]) and seen["hand_sizes"] == [17, 16]
    assert seen["stock_size"] == len(state.stock) and seen["trump_card"] == state.trump_card.code
    assert seen["exposed"][1] == [{"id": 1, "card": "QH", "as": "QH", "tags": ["bezique"]}]
    assert GAME.view(state, None)["hand"] is None


# --- every refusal code ----------------------------------------------------------------------------


def test_every_reason_code_has_a_refused_row():
    rows = [*PLAY_ROWS, *DECLARE_ROWS, *EXCHANGE_ROWS]
    refused = {r[3] for r in rows if r[3]} | {r[-1] for r in [*KIND_ROWS, *EXTRA_ROWS] if isinstance(r[-1], str)}
    assert refused >= {r.value for r in rules.Reason}


def test_the_positions_helper_fills_a_consistent_deck():
    wire = position_wire(seats=4, dealer=1, phase="follow", trick=["AH", "KH"], tricks_played=7, leader=3,
                         hands={0: "QH"}, exposed={2: [shown("JD", "bezique")]})
    state = GAME.load_state(wire)
    everything = Counter(wire["stock"]) + sum((Counter(h) for h in wire["hands"]), Counter())
    everything += sum((Counter(w) for w in wire["won_cards"]), Counter()) + Counter(["AH", "KH", "JD"])
    assert everything == Counter(deck_codes()) and state.to_move == 2


# --- the words a player reads (issue 38) -------------------------------------------------------------


def refused(state, move, lang="ru"):
    """The refusal's sentence, said to the seat that tried the move."""
    with pytest.raises(IllegalMove) as caught:
        GAME.check(state, move)
    return caught.value.message.render(lang, move.seat, GAME.info.vocabulary)


def say(event, reader, lang="ru"):
    """``event`` as ``reader`` (a seat, or None: a spectator) is told it, in its sentence."""
    types = GAME.info.event_types
    wire = redacted(types, told(types, [event], EVERY_SEAT), reader)
    return spoken(types, wire, reader, lang, GAME.info.vocabulary)[0]["text"]


@pytest.mark.parametrize(("state", "move", "russian", "english"), [
    (LEAD, play(0, "KS"), "Сейчас ходит место 2", "It is seat 2's turn to play"),
    (LEAD, play(1, "9H"), "У вас нет девятки червей", "You do not hold the nine of hearts"),
    (LEAD, play(1, "JK"), "Назовите карту, которой будет инфузорка: туза, десятку, короля, даму, валета или "
                          "девятку какой-либо масти",
     "Name the card the joker stands for: an ace, a ten, a king, a queen, a jack or a nine of a suit"),
    (LEAD, play(1, "AH", as_="AS"), "Другой картой можно назвать только инфузорку, а не туза червей",
     "Only a joker is named as another card, not the ace of hearts"),
    (DECLARE_WINDOW, play(1, "AH"), "Вы только что взяли взятку: прежде чем ходить, объявите показку или "
                                    "спасуйте", "You have just won the trick: declare or pass before playing a card"),
    (DECLARE_WINDOW, play(0, "KS"), "Взятку только что взяло место 2: сначала оно объявляет показку или пасует",
     "Seat 2 has just won the trick and declares or passes first"),
    (WIN, declare(1, "bezique", "QH QH JD JD", m=2), "У вас на руке не хватает валета бубён",
     "Your hand is short of the jack of diamonds"),
    (WIN, declare(1, "bezique", "QH JD", m=2), "Эти карты не составляют две такие показки: какой-то карты "
                                              "не хватает или есть лишняя",
     "These cards do not make 2 such declarations: a card is missing or left over"),
    (WIN, declare(1, "bezique", "JD", [1]), "Одна из ваших открытых карт уже засчитана в безике",
     "One of your cards on the table has already scored in a bezique"),
    (WIN, declare(1, "extra_trump_queen", "QH"), "Дама червей добавляется только к четырём таким же, уже "
                                                "объявленным вами",
     "The queen of hearts is added only to four like it that you have already declared"),
], ids=["not_your_turn", "card_not_in_hand", "jk_needs_identity", "identity_not_allowed", "wrong_phase-winner",
        "wrong_phase-other", "card_not_in_hand-declare", "invalid_combination-double", "card_already_used",
        "extra_needs_four_exposed"])
def test_a_refusal_is_said_to_the_player_who_tried_the_move(state, move, russian, english):
    assert refused(state, move) == russian
    assert refused(state, move, "en") == english


def test_a_declaration_is_told_with_its_kind_and_points():
    event = Event("declared", 2, (JOKER, CARDS["JD"]), 25, kind="bezique")
    assert say(event, 0) == "Место 3 объявляет безик: 25 очков"
    assert say(event, 2) == "Вы объявляете безик: 25 очков"
    assert say(event, None, "en") == "Seat 3 declares a bezique: 25 points"
    extra = Event("declared", 1, (CARDS["QH"],), 100, kind="extra_trump_queen")
    assert say(extra, 0) == "Место 2 объявляет ещё одну козырную даму: 100 очков"
    assert say(Event("declared", 1, (CARDS["AS"],) * 4, 10, kind="four_aces"), 0) == \
        "Место 2 объявляет четыре туза: 10 очков"


def test_the_joker_is_an_infusoria_in_russian_and_a_joker_in_english():
    drawn = Event("card_drawn", 1, (JOKER,))
    assert say(drawn, 1) == "Вы берёте из колоды инфузорку"
    assert say(drawn, 0) == "Место 2 берёт карту из колоды"
    assert say(drawn, None, "en") == "Seat 2 draws a card from the stock"
    assert say(drawn, 1, "en") == "You draw the joker from the stock"
    assert say(Event("card_played", 0, (JOKER,)), 1) == "Место 1 кладёт инфузорку"


def test_the_other_events_in_a_sentence():
    assert say(Event("trick_won", 1, (CARDS["AH"], CARDS["10H"])), 1) == "Вы берёте взятку: туз червей и десятка червей"
    assert say(Event("passed", 0), 1) == "Место 1 ничего не объявляет"
    assert say(Event("trump_exchanged", 0, (CARDS["9H"],), 10), 1) == \
        "Место 1 меняет девятку червей на открытый козырь: 10 очков"
    assert say(Event("trump_card_taken", 0, (CARDS["KH"],)), 0) == "Вы забираете открытый козырь — короля червей"
    assert say(Event("trump_card_drawn", 1, (CARDS["KH"],)), 0) == \
        "Место 2 берёт из колоды открытый козырь — короля червей"
    assert say(Event("table_card_played", 1, (CARDS["QH"],)), 0) == "Место 2 кладёт со стола даму червей"
    assert say(Event("hand_over", 1), 1) == "Игра окончена: вы выиграли"
    assert say(Event("hand_over", 1), 0, "en") == "The hand is over: seat 2 wins it"
    assert say(Event("hand_over", None), 0) == "Игра окончена вничью: больше всех очков набрали несколько игроков"


def test_the_descriptions_are_plain_sentences_that_call_the_joker_an_infusoria():
    info = GAME.info
    texts = [info.about_deck, *info.move_texts.values(), *info.kind_texts.values(),
             *(event.doc for event in info.event_types.values())]
    for option in info.option_texts.values():
        texts += [option.description, *option.choices.values()]
    for text in texts:
        russian = translate(text, "ru")
        assert not re.search(r"[`§_{}]|\bJK\b", text), text
        assert not re.search(r"[A-Za-z`§_{}]|джокер", russian), russian
    assert "инфузорки" in translate(info.about_deck, "ru")
    assert card_forms(JOKER, info.vocabulary)["acc"] == "инфузорку"
