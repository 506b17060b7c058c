"""Kozel rule table: every numbered rule, decision and worked example of docs/rules/kozel.md."""

from __future__ import annotations

from functools import partial

import pytest

from service.api.events import EVERY_SEAT, redacted, spoken, told
from service.cards import CARDS, SeedStream, cards, codes
from service.errors import IllegalMove, InvalidMatch, InvalidState
from service.games.base import Event
from service.games.kozel import rules, scoring, wire
from service.games.kozel.game import Kozel
from service.games.kozel.rules import GiveBack, GiveTrump, NameTrump, Options, Pass, Play
from service.games.seating import clockwise
from service.i18n.cards import Vocabulary
from tests.games import steps

GAME = Kozel()
DECK = codes(rules.DECK)
E1 = cards("QH JC 9S 7C 8C 9C 10C QC KC AC 7D 8D 9D 10D JD QD KD AD 7H 8H 9H 10H JH KH AH 7S 8S 10S "
           "JS QS KS AS")


refusal = partial(steps.refusal, rules)


at = partial(steps.play_out, rules)  # moves that must all be legal


def playing(trump, follower_hand, *, lead, leader=0, options=None):
    """Seat ``leader`` has led ``lead``; the next seat holds ``follower_hand``; the other hands are
    filled from the remaining cards; all other cards are taken by team 0."""
    n = len(follower_hand.split())
    order = clockwise(leader, 4)
    follower = order[1]
    pool = [c for c in DECK if c not in [*follower_hand.split(), lead]]
    hands = [[] for _ in range(4)]
    hands[follower] = follower_hand.split()
    for seat in (*order[2:], leader):
        size = n - 1 if seat == leader else n
        hands[seat], pool = pool[:size], pool[size:]
    state = {"game": "kozel", "seats": 4, "dealer": 3, "to_move": follower, "trump": trump,
             "phase": "play", "first_leader": 0, "hands": hands,
             "trick": [{"seat": leader, "card": lead}], "won": [pool, []], "options": options or {}}
    return wire.load_state(state)


ROWS = [
    ("4.1-E3-QH_is_no_heart", playing("S", "QH 7H KC", lead="AH"), Play(1, CARDS["QH"]), "must_follow_suit"),
    ("4.1-E3-follow_7H", playing("S", "QH 7H KC", lead="AH"), Play(1, CARDS["7H"]), None),
    ("4.1-E3-KC_refused", playing("S", "QH 7H KC", lead="AH"), Play(1, CARDS["KC"]), "must_follow_suit"),
    ("4.1-E3-void_must_trump", playing("S", "QH KC", lead="AH"), Play(1, CARDS["KC"]), "must_trump"),
    ("4.1-E3-void_trump_QH", playing("S", "QH KC", lead="AH"), Play(1, CARDS["QH"]), None),
    ("4.1-E3-no_trump_any_card", playing("S", "KC 9D", lead="AH"), Play(1, CARDS["9D"]), None),
    ("4.1-E4-clubs_without_7C", playing("D", "7C KC 8H", lead="AC"), Play(1, CARDS["7C"]),
     "must_follow_suit"),
    ("4.1-E4-KC", playing("D", "7C KC 8H", lead="AC"), Play(1, CARDS["KC"]), None),
    ("4.1-E4-7C_is_the_only_trump", playing("D", "7C 8H", lead="AC"), Play(1, CARDS["8H"]), "must_trump"),
    ("4.1-E4-7C", playing("D", "7C 8H", lead="AC"), Play(1, CARDS["7C"]), None),
    ("4.1-E5-trump_led", playing("H", "9H AS", lead="JD"), Play(1, CARDS["AS"]), "must_trump"),
    ("4.1-E5-9H", playing("H", "9H AS", lead="JD"), Play(1, CARDS["9H"]), None),
    ("4.1-E5-QS", playing("H", "QS AS", lead="JD"), Play(1, CARDS["AS"]), "must_trump"),
    ("4.1-E5-either", playing("H", "AS KC", lead="JD"), Play(1, CARDS["KC"]), None),
    ("4.1-no_duty_to_beat", playing("H", "7H AH", lead="KH"), Play(1, CARDS["7H"]), None),
    ("4-not_your_turn", playing("H", "7H AH", lead="KH"), Play(2, CARDS["7H"]), "not_your_turn"),
    ("4-card_not_in_hand", playing("H", "7H AH", lead="KH"), Play(1, CARDS["QC"]), "card_not_in_hand"),
    ("4-wrong_phase", playing("H", "7H AH", lead="KH"), Pass(1), "wrong_phase"),
]


def test_2_1_D1_fifteen_trumps_fourteen_with_clubs():
    assert sum(rules.is_trump(c, "H") for c in rules.DECK) == 15
    assert sum(rules.is_trump(c, "C") for c in rules.DECK) == 14
    assert not rules.is_trump(CARDS["7H"], "S") and rules.is_trump(CARDS["7C"], "S")


def test_2_2_trump_order():
    order = ["7C", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AH", "10H", "KH", "9H", "8H", "7H"]
    strengths = [rules.trump_strength(CARDS[c], "H") for c in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 15


def test_3_1_E1_turn_to_left():
    state = rules.deal_from(E1, dealer=0, options=Options(), first_deal=False)
    assert [codes(h) for h in state.hands] == [h.split() for h in (
        "AC 7D 8D QD 8H KH 10S AS", "QH JC 9S 9D KD 9H AH JS",
        "7C 8C 9C 10D AD 10H 7S QS", "10C QC KC JD 7H JH 8S KS")]
    assert state.trump == "S" and codes(state.turned) == ["QH", "JC", "9S"]
    assert state.phase == "play" and state.to_move == 1 == state.first_leader  # no lone trump


def test_3_1_2_misdeal_and_a_reproducible_redeal():
    permanent = ["7C", "QC", "QS", "QH", "QD", "JC", "JS", "JH"]
    misdeal = cards(" ".join(permanent + [c for c in DECK if c not in permanent]))
    assert rules.deal_from(misdeal, dealer=0, options=Options(), first_deal=False) is None
    one = rules.deal(dealer=0, options=Options(), first_deal=False, source=SeedStream("s"))
    two = rules.deal(dealer=0, options=Options(), first_deal=False, source=SeedStream("s"))
    assert one == two


def test_3_2_E11_three_cards_by_last():
    state = rules.deal_from(E1, dealer=0, options=Options(trump_method="three_cards"), first_deal=False)
    assert state.phase == "name_trump" and codes(state.hands[1]) == ["QH", "JC", "9S"]
    state = at(state, NameTrump(1, None, True, (3, 0, 1, 2)))
    assert [codes(h) for h in state.hands] == [h.split() for h in (
        "8D 9D 10D JD QD KD AD 7H", "QH JC 9S 8H 9H 10H JH KH",
        "AH 7S 8S 10S JS QS KS AS", "7C 8C 9C 10C QC KC AC 7D")]
    assert state.trump == "H" and state.first_leader == 1


def test_3_2_name_a_suit():
    state = rules.deal_from(E1, dealer=0, options=Options(trump_method="three_cards"), first_deal=False)
    state = at(state, NameTrump(1, "D", False, (1, 2, 3, 0)))
    assert state.trump == "D" and all(len(h) in (7, 8, 9) for h in state.hands)


@pytest.mark.parametrize(("move", "expected"), [
    (NameTrump(1, "D", True, (1, 2, 3, 0)), "bad_trump_naming"),
    (NameTrump(1, None, False, (1, 2, 3, 0)), "bad_trump_naming"),
    (NameTrump(1, "D", False, None), "bad_trump_naming"),
    (NameTrump(1, "D", False, (1, 1, 3, 0)), "bad_trump_naming"),
    (NameTrump(2, "D", False, (1, 2, 3, 0)), "not_your_turn"),
    (Play(1, CARDS["QH"]), "wrong_phase"),
])
def test_3_2_naming_refusals(move, expected):
    state = rules.deal_from(E1, dealer=0, options=Options(trump_method="three_cards"), first_deal=False)
    assert refusal(state, move) == expected


def test_3_3_E12_first_card():
    deck = cards("9S QH JC " + " ".join(c for c in DECK if c not in ("9S", "QH", "JC")))
    state = rules.deal_from(deck, dealer=0, options=Options(trump_method="first_card"), first_deal=False)
    assert state.trump == "S" and state.hands[1][0].code == "9S" and state.first_leader == 1


def test_3_4_jack_of_clubs_names_leads_and_deals_next():
    options = Options(jack_of_clubs_first_deal=True)
    state = rules.deal_from(E1, dealer=0, options=options, first_deal=True)
    holder = next(s for s in range(4) if CARDS["JC"] in state.hands[s])
    assert state.phase == "name_trump" and state.to_move == holder == state.first_leader
    assert refusal(state, NameTrump(holder, None, True, None)) == "bad_trump_naming"
    state = at(state, NameTrump(holder, "D"))
    assert state.trump == "D" and state.first_leader == holder
    assert rules.deal_from(E1, dealer=0, options=options, first_deal=False).phase != "name_trump"


def exchange_e10():
    hands = ["KC QC 9D 8D 7D KD 10C 9C", "AS 10S KS 9S AD 10D 8C 9H",
             "JC JS QS QD QH JH JD 7C", "AC AH 10H KH 8H 7H 8S 7S"]
    state = {"game": "kozel", "seats": 4, "dealer": 0, "to_move": 1, "trump": "H", "phase": "exchange",
             "first_leader": 1, "hands": [h.split() for h in hands], "trick": [], "won": [[], []]}
    return wire.load_state(state)


def test_3_5_E10_lone_trump_exchange():
    state = exchange_e10()
    assert refusal(state, GiveTrump(1, CARDS["AS"])) == "not_lone_trump"
    state = at(state, GiveTrump(1, CARDS["9H"]))
    assert state.to_move == 3 and CARDS["9H"] in state.hands[3]
    assert refusal(state, GiveBack(3, CARDS["9H"])) == "cannot_return_received"
    assert refusal(state, Pass(3)) == "not_your_turn"
    state = at(state, GiveBack(3, CARDS["AC"]))
    assert CARDS["AC"] in state.hands[1] and CARDS["9H"] not in state.hands[1]
    assert state.exchange_done == (False, True)
    # visiting goes on: seat 2 holds many trumps, seat 3's team has exchanged, seat 0 holds QC alone
    assert state.phase == "exchange" and state.to_move == 0
    state = at(state, Pass(0))
    assert state.phase == "play" and state.to_move == 1


def test_3_5_pass_ends_the_visit():
    state = at(exchange_e10(), Pass(1))
    assert state.to_move == 0 and state.exchange_done == (False, False)
    state = at(state, Pass(0))
    assert state.phase == "play" and state.to_move == 1


def test_5_E2_permanent_trumps_win():
    trick = ((1, CARDS["KS"]), (2, CARDS["AS"]), (3, CARDS["QD"]), (0, CARDS["7H"]))
    assert rules.trick_winner(trick, "H") == 3
    assert sum(rules.CARD_VALUES[c.rank] for _, c in trick) == 18


def test_5_plain_trick_goes_to_the_highest_of_the_suit_led():
    trick = ((0, CARDS["9D"]), (1, CARDS["AS"]), (2, CARDS["10D"]), (3, CARDS["AC"]))
    assert rules.trick_winner(trick, "H") == 2


@pytest.mark.parametrize(("state", "move", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_legality(state, move, expected):
    assert refusal(state, move) == expected


def test_every_reason_code_is_refused_somewhere():
    assert {r[3] for r in ROWS if r[3]} | {"hand_finished", "bad_trump_naming", "not_lone_trump",
                                            "cannot_return_received"} >= set(rules.Reason)


def test_4_hand_finished():
    state = finished(70)
    assert refusal(state, Play(0, CARDS["AS"])) == "hand_finished"


def finished(points0, *, capture=None, options=None):
    """A played-out hand in which team 0 took ``points0`` card points."""
    pool = sorted(rules.DECK, key=lambda c: -rules.CARD_VALUES[c.rank])
    team0, need = [], points0
    for card in pool:
        value = rules.CARD_VALUES[card.rank]
        if 0 < value <= need and need - value != 1:
            team0.append(card.code)
            need -= value
    assert need == 0
    zeros = [c.code for c in pool if rules.CARD_VALUES[c.rank] == 0 and c.code not in team0]
    while len(team0) % 4:
        team0.append(zeros.pop())
    team1 = [c for c in DECK if c not in team0]
    state = {"game": "kozel", "seats": 4, "dealer": 0, "to_move": None, "trump": "H", "phase": "over",
             "first_leader": 1, "hands": [[], [], [], []], "trick": [], "won": [team0, team1],
             "qc_captured_team": capture, "options": options or {}}
    return wire.load_state(state)


@pytest.mark.parametrize(("points0", "pairs"), [
    (95, (0, 2)), (120, (0, 3)), (61, (0, 1)), (90, (0, 1)), (91, (0, 2)), (25, (2, 0)), (59, (1, 0)),
], ids=["E6-95", "E6-120", "E6-61", "E6-90", "E6-91", "E6-25", "E6-59"])
def test_7_1_E6_point_results(points0, pairs):
    assert scoring.result(finished(points0), 1).pairs == pairs


def test_7_1_E7_eggs_double_the_next_hand():
    eggs = scoring.result(finished(60), 1)
    assert eggs.eggs and eggs.pairs == (0, 0) and eggs.next_multiplier == 2
    after = scoring.result(finished(70), 2)
    assert after.pairs == (0, 2) and after.next_multiplier == 1


def test_7_1_egg_compounding():
    assert scoring.result(finished(60, options={"egg_compounding": True}), 2).next_multiplier == 4


def test_7_1_E8_queen_of_clubs_captured():
    assert scoring.result(finished(80, capture=0), 1).pairs == (4, 0)
    assert scoring.result(finished(80, capture=0, options={"queen_capture": "add"}), 1).pairs == (4, 1)
    replaced_eggs = scoring.result(finished(60, capture=1), 1)
    assert replaced_eggs.pairs == (0, 4) and not replaced_eggs.eggs


def test_5_capture_needs_opposite_teams_and_order_option():
    state = playing("H", "7C AH", lead="QC", leader=0)
    state = at(state, Play(1, CARDS["7C"]))
    for seat in (2, 3):
        move = next(m for m in rules.candidate_moves(state, seat)
                    if isinstance(m, Play) and refusal(state, m) is None)
        state = at(state, move)
    assert state.qc_captured_team == 0
    ordered = playing("H", "QC AH", lead="7C", leader=0,
                      options={"queen_capture_order": "seven_after_queen"})
    ordered = at(ordered, Play(1, CARDS["QC"]))
    for seat in (2, 3):
        move = next(m for m in rules.candidate_moves(ordered, seat)
                    if isinstance(m, Play) and refusal(ordered, m) is None)
        ordered = at(ordered, move)
    assert ordered.qc_captured_team is None


def test_7_3_E9_match_end():
    state = finished(45)
    match = {"pairs_opened": [5, 2], "multiplier": 1, "over": False, "winner": None, "loser": None,
             "next_dealer": 0}
    answer = GAME.score(state, match)["match"]
    assert answer["pairs_opened"] == [6, 2] and answer["pips_opened"] == [12, 4]
    assert answer["over"] and answer["loser"] == [0, 2] and answer["winner"] == [1, 3]
    assert answer["pairs_left"] == [0, 4] and answer["next_dealer"] == 1


def test_inconsistent_states_are_refused():
    state = wire.STATE.dump(rules.deal_from(E1, dealer=0, options=Options(), first_deal=False))
    state["hands"][0][0] = state["hands"][1][0]
    with pytest.raises(InvalidState):
        wire.load_state(state)


def test_3_1_5_the_turned_cards_are_the_first_leaders_or_its_partners():
    """§3.1.5, §3.5: everyone saw the turned cards go to the first leader, and only a lone trump
    passed in the exchange leaves it, to its partner: a state with one in another hand is refused."""
    state = rules.deal_from(E1, dealer=0, options=Options(), first_deal=False)
    leader, turned = state.first_leader, state.turned[0]
    for seat, accepted in ((rules.partner(leader), True), ((leader + 1) % 4, False)):
        sent = wire.STATE.dump(state)
        taken = sent["hands"][seat][0]
        sent["hands"][leader][sent["hands"][leader].index(turned.code)] = taken
        sent["hands"][seat][0] = turned.code
        if accepted:
            assert wire.load_state(sent).hands[seat][0] == turned
        else:
            with pytest.raises(InvalidState) as error:
                wire.load_state(sent)
            assert error.value.errors[0].pointer == f"/hands/{seat}"


@pytest.mark.parametrize("phase_state", ["naming", "playing"])
def test_a_trump_in_transit_only_during_the_exchange(phase_state):
    state = (rules.deal_from(E1, dealer=0, options=Options(trump_method="three_cards"), first_deal=False)
             if phase_state == "naming" else rules.deal_from(E1, dealer=0, options=Options(), first_deal=False))
    sent = wire.STATE.dump(state)
    sent["received_trump"] = sent["hands"][1][0]
    with pytest.raises(InvalidState) as error:
        wire.load_state(sent)
    assert error.value.errors[0].pointer == "/received_trump"


@pytest.mark.parametrize(("change", "pointer", "message"), [
    ({"over": True}, "/match/over", "the match is over: deal a new one without a match"),
    ({"loser": [0, 2]}, "/match/over", "the match is over: deal a new one without a match"),
    ({"winner": [1, 3]}, "/match/over", "the match is over: deal a new one without a match"),
    ({"pairs_opened": [2, 6]}, "/match/pairs_opened", "a team has opened 6 pairs: the match is over"),
    ({"next_dealer": 1}, "/match/next_dealer", "the match says seat 1 deals this hand"),
])
def test_7_3_a_match_that_cannot_go_on_is_refused(change, pointer, message):
    match = {"pairs_opened": [0, 0], "multiplier": 1, "over": False, "winner": None, "loser": None,
             "next_dealer": 0, **change}
    with pytest.raises(InvalidMatch) as error:
        GAME.score(finished(45), match)
    assert (error.value.errors[0].pointer, str(error.value.errors[0].message)) == (pointer, message)


def test_7_1_the_hand_score():
    hand = GAME.score(finished(60, capture=1), {"pairs_opened": [1, 0], "multiplier": 2, "over": False,
                                                "winner": None, "loser": None, "next_dealer": 0})["hand"]
    assert hand == {"points": [60, 60], "pairs_opened_this_hand": [0, 8], "eggs": False, "qc_captured_team": 1,
                    "multiplier": 2, "next_multiplier": 1}


# --- what a player is told ----------------------------------------------------------------------


def said(state, move, lang):
    """The refusal of ``move`` as its seat reads it."""
    with pytest.raises(IllegalMove) as error:
        rules.check(state, move)
    return error.value.message.render(lang, move.seat)


def test_refusals_speak_to_the_player_who_tried():
    state = exchange_e10()
    assert said(state, GiveTrump(1, CARDS["AS"]), "ru") == "Партнёру можно отдать только свой единственный козырь"
    assert said(state, Pass(2), "ru") == "Сейчас не ваш ход: ходит место 2"
    assert said(state, Pass(2), "en") == "It is not your turn: seat 2 is to move"
    state = at(state, GiveTrump(1, CARDS["9H"]))
    assert said(state, GiveBack(3, CARDS["9H"]), "ru") == (
        "Нельзя вернуть девятку червей: это козырь, который вам только что передали")
    assert said(state, Pass(3), "en") == "Your partner has passed you a trump: give a card back for it"
    follower = playing("S", "QH 7H KC", lead="AH")
    assert said(follower, Play(1, CARDS["KC"]), "ru") == "Нужно класть в масть: черви"
    assert said(follower, Play(1, CARDS["AS"]), "ru") == "У вас нет туза пик"
    assert said(follower, Play(1, CARDS["AS"]), "en") == "You do not hold the ace of spades"
    assert said(playing("S", "QH KC", lead="AH"), Play(1, CARDS["KC"]), "ru") == (
        "У вас нет червей: нужно положить козыря")
    assert said(playing("H", "9H AS", lead="JD"), Play(1, CARDS["AS"]), "en") == (
        "A trump was led: you must play a trump")


def legal_play(state, seat):
    return next(m for m in rules.candidate_moves(state, seat) if refusal(state, m) is None)


def spoken_events(events, reader, lang):
    every = told(wire.EVENTS, events, EVERY_SEAT)
    return [e["text"] for e in spoken(wire.EVENTS, redacted(wire.EVENTS, every, reader), reader, lang,
                                      Vocabulary())]


def test_every_event_is_told_in_a_sentence():
    exchange = exchange_e10()
    given = rules.apply(exchange, GiveTrump(1, CARDS["9H"]))
    assert spoken_events(given[1], 3, "ru") == ["Место 2 передаёт вам свой единственный козырь — девятку червей"]
    assert spoken_events(given[1], 1, "en") == ["You pass your lone trump to seat 4: the nine of hearts"]
    assert spoken_events(given[1], 0, "ru") == ["Место 2 в закрытую передаёт месту 4 свой единственный козырь"]
    back = rules.apply(given[0], GiveBack(3, CARDS["AC"]))[1]
    assert spoken_events(back, 1, "ru") == ["Место 4 отдаёт вам взамен туза треф"]
    assert spoken_events(back, 2, "en") == ["Seat 4 gives seat 2 a card in return"]
    assert spoken_events(rules.apply(exchange, Pass(1))[1], 1, "ru") == ["Вы оставляете козырь себе"]
    three = rules.deal_from(E1, dealer=0, options=Options(trump_method="three_cards"), first_deal=False)
    named = rules.apply(three, NameTrump(1, "S", False, (1, 3, 0, 2)))[1]
    assert spoken_events(named, None, "ru") == ["Месту 2 сдают пять карт", "Месту 4 сдают восемь карт",
                                                "Месту 1 сдают восемь карт", "Месту 3 сдают восемь карт",
                                                "Место 2 назначает козыря: пики"]
    assert spoken_events(named, 0, "ru")[2].startswith("Вам сдают короля бубён, туза бубён, ")
    assert spoken_events(named, 1, "en")[-1] == "You name trump: spades"
    trick = at(playing("S", "QH 7H KC", lead="AH"), Play(1, CARDS["7H"]))
    trick = at(trick, legal_play(trick, 2))
    last = rules.apply(trick, legal_play(trick, 3))[1]
    ru = spoken_events(last, 3, "ru")
    assert ru[0].startswith("Вы кладёте ") and ru[1].startswith(("Вы берёте взятку: ", "Место "))
    assert ru[1].endswith(("очко", "очка", "очков"))
    assert spoken_events([Event("hand_over", None)], None, "ru") == ["Игра окончена"]
    assert spoken_events([Event("hand_over", None)], 2, "en") == ["The hand is over"]
