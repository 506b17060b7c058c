"""Kozel-bura rule table: every numbered rule, decision and worked example of
docs/rules/kozel-bura.md."""

from __future__ import annotations

import pytest

from service.api.events import EVERY_SEAT, said, spoken, told
from service.cards import SeedStream, cards, codes
from service.errors import IllegalMove, InvalidMatch, InvalidState
from service.games.base import DealSetup
from service.games.kozel_bura import rules
from service.games.kozel_bura.game import KozelBura
from service.games.tricks import draw_round, sets
from service.games.tricks.sets import Molodka
from tests.games.family import lead, position, refused, respond
from tests.games.steps import play_out, refusal

GAME = KozelBura()
DECK36, DECK32 = codes(rules.DECKS[36]), codes(rules.DECKS[32])
TRIPLE = {"triple_lead": True}


def at(state, *moves):
    return play_out(GAME, state, *moves)


def deal(text, *, players=2, dealer=0, **options):
    return rules.deal_from(cards(text), players=players, dealer=dealer,
                           options=rules.Options(players=players, **options))


E1 = ("JH QH 10D AH KC QC AC 6H 6C QS KS 6S 9H 8D 7D 10H 10S 7C AD 8C 10C 6D JD 9C 9S 7H 8H QD KD "
      "KH JC 9D JS AS 8S 7S")


def test_3_E1_deal():
    state = deal(E1)
    assert codes(state.hands[1]) == ["JH", "10D", "KC", "AC"] and codes(state.hands[0]) == ["QH", "AH", "QC", "6H"]
    assert state.trump == "C" and len(state.stock) == 28 and state.stock[-1].code == "6C"
    assert codes(state.stock)[:2] == ["QS", "KS"] and state.to_move == 1 and state.phase == "play"


def test_10_E2_first_trick():
    state = at(deal(E1), lead(1, "10D"), respond(0, "QC"))
    assert state.won[0] == cards("10D QC") and state.points(0) == 13
    assert state.hands[0][-1].code == "QS" and state.hands[1][-1].code == "KS" and state.to_move == 0
    assert refusal(GAME, deal(E1), lead(1, "10D KC")) == "bad_card_count"


def test_3_E3_five_players_32_cards():
    state = deal("AS AH 9H JC JD QH 7D 10H JS 10C 9C 8C 7S 9S KD 10D 8H 7C AC 10S QS QC 7H 8S KC AD 8D "
                 "JH KS KH QD 9D", players=5, dealer=4, deck=32)
    assert [codes(h) for h in state.hands] == [s.split() for s in (
        "AS QH 9C 10D", "AH 7D 8C 8H", "9H 10H 7S 7C", "JC JS 9S AC", "JD 10C KD 10S")]
    assert state.trump == "S" and codes(state.stock) == ["QC", "7H", "8S", "KC", "AD", "8D", "JH", "KS", "KH", "QD", "9D", "QS"]
    assert state.leader == 0


def test_5_1_E4_three_players_beat_the_current_winner():
    state = position(GAME, DECK36, hands=["6C 7S", "9H 8S", "AH 8D"], trump_card="7C", leader=1, rest_to=2)
    state = at(state, lead(1, "9H"), respond(2, "AH"), respond(0, "6C"))
    assert state.last_taker == 0 and state.points(0) == 11


def test_10_E5_triple_lead_and_draw_order():
    hands = ["AD 10D 8D 7C", "KD 9D 7D 6C"]
    rest = [c for c in DECK36 if c not in " ".join(hands).split()]
    stock = " ".join([*[c for c in rest if c != "6S"][:10], "6S"])
    state = position(GAME, DECK36, hands=hands, stock=stock, trump_card="6S", leader=1, options=TRIPLE,
                     won=["", " ".join(c for c in rest if c not in stock.split())])
    after, events = GAME.apply(state, lead(1, "KD 9D 7D"))
    after, events = GAME.apply(after, respond(0, "AD 10D 8D"))
    assert after.points(0) == 25 and after.to_move == 0
    assert [e.seat for e in events if e.type == "card_drawn"] == [0, 1, 0, 1, 0, 1]
    without = position(GAME, DECK36, hands=hands, stock=stock, trump_card="6S", leader=1,
                       won=["", " ".join(c for c in rest if c not in stock.split())])
    assert refusal(GAME, without, lead(1, "KD 9D 7D")) == "bad_card_count"


def family(hands, trump="7C", leader=0, **kw):
    return position(GAME, DECK36, hands=hands, trump_card=trump, leader=leader, **kw)


ROWS = [
    ("4.2a-one_card", family(["AH", "AS"]), lead(0, "AH"), None),
    ("4.2a-two_cards", family(["AH KH", "AS KS"]), lead(0, "AH KH"), "bad_card_count"),
    ("4.2a-three_mixed", family(["AH KH QS", "AS KS QD"], options=TRIPLE), lead(0, "AH KH QS"),
     "lead_mixed_suits"),
    ("4.2a-three_one_suit", family(["AH KH QH", "AS KS QD"], options=TRIPLE), lead(0, "AH KH QH"), None),
    ("4.2a-not_your_turn", family(["AH", "AS"]), lead(1, "AS"), "not_your_turn"),
    ("4.2a-card_not_in_hand", family(["AH", "AS"]), lead(0, "AS"), "card_not_in_hand"),
    ("4.2b-E6-molodka", family(["AS 8D 8S", "KD 9D 8H", "QH 9H 7H JC"], leader=0, options=TRIPLE,
                               rest_to=1),
     Molodka(2, cards("QH 9H 7H")), None),
    ("4.2b-E6-molodka_two_suits", family(["AS 8D 8S", "KD 9D 8H", "QH 9H 7H JC"], leader=0,
                                         options=TRIPLE, rest_to=1),
     Molodka(2, cards("QH 9H JC")), "not_a_molodka"),
    ("4.2b-D2-molodka_of_trumps", family(["AS 8D 8S", "KD 9D 8H", "QC 9C 8C JH"], leader=0,
                                         options=TRIPLE, rest_to=1),
     Molodka(2, cards("QC 9C 8C")), None),
    ("4.2b-molodka_needs_triple_lead", family(["AS 8D 8S", "KD 9D 8H", "QH 9H 7H JC"], leader=0,
                                              rest_to=1),
     Molodka(2, cards("QH 9H 7H")), "option_disabled"),
    ("4.2b-molodka_after_the_first_card", family(["8D 8S", "KD 9D 8H", "QH 9H 7H JC"], leader=0,
                                                 options=TRIPLE, rest_to=1, trick=[(0, "AS", True)]),
     Molodka(2, cards("QH 9H 7H")), "wrong_phase"),
    ("4.2c-does_not_beat", family(["KH", "AS"], trick=[(0, "AH", True)], rest_to=1, leader=0),
     respond(1, "AS", "beat"), "does_not_beat"),
    ("4.2c-bad_card_count", family(["", "AS 9S 8S"], trick=[(0, "AH KH QH", True)], rest_to=1,
                                   leader=0, options=TRIPLE),
     respond(1, "AS 9S"), "bad_card_count"),
    ("4.2c-out_of_turn", family(["KH", "AS"], trick=[(0, "AH", True)], rest_to=1, leader=0),
     respond(0, "KH"), "not_your_turn"),
    ("4.2-hand_finished", family(["", ""], phase="over", to_move=None,
                                 ending={"kind": "played_out", "seat": None}),
     lead(0, "AH"), "hand_finished"),
    ("4.2-lead_during_trick", family(["KH", "AS"], trick=[(0, "AH", True)], rest_to=1, leader=0),
     lead(1, "AS"), "wrong_phase"),
]


@pytest.mark.parametrize(("state", "move", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_legality(state, move, expected):
    assert refusal(GAME, state, move) == expected


def test_every_reason_code_has_a_refused_row():
    assert {r[3] for r in ROWS if r[3]} >= set(rules.Reason)


def test_5_3_E7_short_stock():
    stock, hands = cards("AC KC"), [cards(h) for h in ("6H 7H 8H", "6D 7D 8D", "6S 7S 8S")]
    _, after, draws = draw_round(stock, hands, first=1, hand_size=4)
    assert draws == [(1, stock[0]), (2, stock[1])] and [len(h) for h in after] == [3, 4, 4]


def test_6_1_E8_bura_after_the_deal():
    rest = [c for c in DECK36 if c not in ["7D", "AC", "8D", "AD", "9D", "AH", "10D", "AS", "6S"]]
    state = deal("7D AC 8D AD 9D AH 10D AS 6S " + " ".join(rest))
    assert state.phase == "over" and state.ending.kind == "bura" and state.ending.seat == 0
    answer = GAME.score(state, None)
    assert answer["hand"]["penalties"] == [0, 6] and answer["hand"]["reason"] == "bura"


def test_6_2_D9_first_bura_found_clockwise_from_the_taker_wins():
    state = position(GAME, DECK36, hands=["6H 7H 8H 9S", "AS AD AC 6C"], stock="AH 10H",
                     trump_card="10H", leader=0,
                     won=[" ".join(c for c in DECK36 if c not in ["6H", "7H", "8H", "9S", "AS", "AD", "AC", "6C", "AH", "10H"]), ""])
    state = at(state, lead(0, "9S"), respond(1, "6C"))
    # seat 0 takes and draws AH (four hearts = trumps), seat 1 draws 10H: seat 0 is examined first
    assert state.phase == "over" and state.ending.seat == 0


@pytest.mark.parametrize(("points", "tricks", "expected"), [
    ((70, 50), (True, True), (0, 2)),
    ((64, 31, 25), (True, True, True), (0, 2, 4)),
    ((58, 40, 22, 0), (True, True, True, True), (0, 2, 4, 4)),
    ((58, 40, 22, 0), (True, True, True, False), (0, 2, 4, 6)),
], ids=["E9a", "E9b", "E9c", "E9c-no-trick"])
def test_7_2_E9_penalties(points, tricks, expected):
    state = _played_out(points, tricks)
    assert rules.penalties(state, 1) == expected


def _played_out(points, tricks):
    """A finished hand whose won piles hold exactly ``points``; a zero-point pile of four low
    cards stands for a trick with no points."""
    pool = sorted(rules.DECKS[36], key=lambda c: -sets.CARD_VALUES[c.rank])
    piles: list[list] = [[] for _ in points]
    for seat in sorted(range(len(points)), key=lambda s: -points[s]):
        need = points[seat]
        for card in list(pool):
            value = sets.CARD_VALUES[card.rank]
            if 0 < value <= need and (need - value) not in (1,):
                piles[seat].append(card)
                pool.remove(card)
                need -= value
        assert need == 0, (seat, need)
    zeros = [c for c in pool if sets.CARD_VALUES[c.rank] == 0]
    for seat, took in enumerate(tricks):
        if took and not piles[seat]:
            piles[seat] += [zeros.pop() for _ in range(4)]
    piles[next(s for s, t in enumerate(tricks) if t)] += zeros
    won = [" ".join(codes(p)) for p in piles]
    return position(GAME, DECK36, hands=[""] * len(points), trump_card="6C", leader=0, won=won,
                    phase="over", to_move=None, ending={"kind": "played_out", "seat": None})


def test_7_2_E10_eggs_and_the_match():
    eggs = _played_out((60, 60), (True, True))
    match = {"penalties": [8, 10], "multiplier": 1, "over": False, "losers": None, "winner": None,
             "next_dealer": eggs.dealer}
    first = GAME.score(eggs, match)
    assert first["hand"]["reason"] == "eggs" and first["match"]["multiplier"] == 2
    assert first["match"]["penalties"] == [8, 10]
    second_hand = _played_out((75, 45), (True, True))
    match = {**first["match"], "next_dealer": second_hand.dealer}
    second = GAME.score(second_hand, match)["match"]
    assert second["penalties"] == [8, 14] and second["over"] and second["losers"] == [1]
    assert second["winner"] == [0] and second["multiplier"] == 1


GOING_ON = {"penalties": [8, 10], "multiplier": 1, "over": False, "losers": None, "winner": None,
            "next_dealer": 1}


@pytest.mark.parametrize(("changes", "refusal", "pointer", "message"), [
    ({"penalties": [8, 10, 0]}, InvalidState, "/match/penalties", "one entry per seat (2)"),
    ({"over": True}, InvalidMatch, "/match/over", "the match is over: deal a new one without a match"),
    ({"losers": [1]}, InvalidMatch, "/match/over", "the match is over: deal a new one without a match"),
    ({"winner": [0]}, InvalidMatch, "/match/over", "the match is over: deal a new one without a match"),
    ({"next_dealer": 0}, InvalidMatch, "/match/next_dealer", "the match says seat 0 deals this hand"),
])
def test_7_2_a_match_that_cannot_go_on_is_refused(changes, refusal, pointer, message):
    hand = _played_out((70, 50), (True, True))
    assert hand.dealer == 1 and GAME.score(hand, GOING_ON)["match"]["penalties"] == [8, 12]
    assert refused(lambda: GAME.score(hand, {**GOING_ON, **changes})) == (refusal, pointer, message)


def test_7_2_the_match_says_who_deals():
    wrong = refused(lambda: GAME.deal(DealSetup(2, 0, {}, GOING_ON), SeedStream("match")))
    assert wrong == (InvalidMatch, "/dealer", "the match says seat 1 deals this hand")


def test_7_2_egg_compounding():
    eggs = _played_out((60, 60), (True, True))
    eggs = eggs.__class__(**{**{f: getattr(eggs, f) for f in eggs.__dataclass_fields__},
                             "options": rules.Options(egg_compounding=True)})
    match = {"penalties": [0, 0], "multiplier": 2, "over": False, "losers": None, "winner": None,
             "next_dealer": eggs.dealer}
    assert GAME.score(eggs, match)["match"]["multiplier"] == 4


def test_a_six_in_a_32_card_game_is_not_in_its_deck():
    state = GAME.dump_state(GAME.deal(DealSetup(2, None, {"deck": 32}, None), SeedStream("six")))
    state["stock"][0] = "6S"
    with pytest.raises(InvalidState) as error:
        GAME.load_state(state)
    assert error.value.errors[0].pointer == "/stock/0"
    assert str(error.value.errors[0].message) == "the six of spades is not in this deck"


def test_variant_cache_stays_bounded_whatever_options_clients_send():
    for limit in range(1, 1001):
        rules.variant(rules.Options(penalty_limit=limit))
    assert rules.variant.cache_info().currsize <= 256


def test_every_refusal_of_the_shared_engine_has_this_games_rule():
    """The engine refuses through the game's own reasons (``Variant.reasons``), by name."""
    assert {r.name for r in sets.TrickReason} <= {r.name for r in rules.Reason}
    assert all(rules.Reason[r.name].value == r.value for r in sets.TrickReason)


def test_refusals_and_events_speak_to_the_player():
    try:
        GAME.check(deal(E1), lead(1, "10D KC"))
    except IllegalMove as error:
        assert error.message.render("ru", 1) == "Ходить можно только с одной карты"
    else:
        raise AssertionError("a lead of two cards is refused")

    state, events = GAME.apply(deal(E1), lead(1, "10D"))
    more = GAME.apply(state, respond(0, "QC"))[1]
    wire = told(GAME.info.event_types, [*events, *more], EVERY_SEAT)
    assert [e["text"] for e in spoken(GAME.info.event_types, wire, 0, "ru", GAME.info.vocabulary)][:3] == [
        "Место 2 ходит с десятки бубён", "Вы бьёте дамой треф", "Вы берёте взятку: 13 очков"]
    eggs = GAME.info.event_types["hand_over"]
    assert said(eggs, {"type": "hand_over", "seat": None}, 0, "ru", GAME.info.vocabulary) == (
        "Игра окончена: «яйца» — очков поровну, победителя нет")
