"""Bura rule table: every numbered rule, decision and worked example of docs/rules/bura.md."""

from __future__ import annotations

import pytest

from service.api.events import EVERY_SEAT, redacted, spoken, told
from service.cards import SeedStream, cards, codes
from service.errors import IllegalMove, InvalidMatch, InvalidState
from service.games.base import DealSetup
from service.games.bura import rules
from service.games.bura.game import Bura
from service.games.bura.rules import Claim, Declare, Pass
from service.games.tricks import beats_set, draw_round, sets
from service.games.tricks.sets import Lead, Molodka, Respond
from tests.games.family import lead, position, refused, respond
from tests.games.steps import play_out, refusal

GAME = Bura()
DECK = codes(rules.DECK)
E1_DECK = cards("QD 7D 7H AC 6H 8C 8D KD JC QC AS 9D 8H 10S 6S 10D JD AH JS QH KS 8S JH 7S 10H QS AD "
                "9C 10C 7C 9H 6D KH KC 9S 6C")


def at(state, *moves):
    return play_out(GAME, state, *moves)


def e1():
    return sets.deal(E1_DECK, seats=2, dealer=0, hand_size=3, options=rules.Options())


def test_3_E1_deal():
    state = e1()
    assert codes(state.hands[1]) == ["QD", "7H", "6H"] and codes(state.hands[0]) == ["7D", "AC", "8C"]
    assert state.trump_card.code == "8D" and state.trump == "D" and len(state.stock) == 30
    assert codes(state.stock)[:3] == ["KD", "JC", "QC"] and state.stock[-1].code == "8D"
    assert state.to_move == state.leader == 1


def test_3_deal_every_player_count_leaves_36_minus_3n():
    for n in range(2, 7):
        state = sets.deal(rules.DECK, seats=n, dealer=n - 1, hand_size=3, options=rules.Options(players=n))
        assert len(state.stock) == 36 - 3 * n and state.leader == 0
        assert [len(h) for h in state.hands] == [3] * n


def test_10_E2_first_trick_and_draw():
    state = at(e1(), lead(1, "6H"), respond(0, "8C"))
    assert state.won[1] == cards("6H 8C") and state.points(1) == 0
    assert codes(state.hands[1]) == ["QD", "7H", "KD"] and codes(state.hands[0]) == ["7D", "AC", "JC"]
    assert state.to_move == 1


def test_10_E3_two_card_trump_lead():
    state = at(e1(), lead(1, "6H"), respond(0, "8C"), lead(1, "QD KD"))
    assert refusal(GAME, state, respond(0, "7D AC", "beat")) == "does_not_beat"
    state = at(state, respond(0, "7D AC"))
    assert state.points(1) == 18 and state.points(0) == 0 and len(state.stock) == 24
    assert cards("QC 9D") == state.hands[1][-2:] and cards("AS 8H") == state.hands[0][-2:]


def three_player_trick(answer):
    """E4: trump H; seat 1 led KC 9C, seat 2 beat with 10C 7H; seat 0 holds AC 8H JC."""
    state = position(GAME, DECK, hands=["AC 8H JC", "QS", "QD"], trump_card="6H", leader=1,
                     trick=[(1, "KC 9C", True), (2, "10C 7H", True)], rest_to=1)
    return at(state, respond(0, answer))


def test_5_3_E4_beating_the_last_beater():
    state = three_player_trick("AC 8H")
    assert state.last_taker == 0 and state.points(0) == 25


def test_5_3_E4_a_discard_leaves_the_trick_to_the_last_beater():
    state = three_player_trick("AC JC")
    assert state.last_taker == 2 and state.points(2) == 27


def test_5_2_sets_are_matched_one_to_one_not_greedily():
    assert beats_set(cards("8D 6H"), cards("KD 7D"), trump_suit="H", order=sets.RANK_ORDER)
    assert not beats_set(cards("8D 6C"), cards("KD 7D"), trump_suit="H", order=sets.RANK_ORDER)


def test_5_1_a_lower_trump_never_beats_a_higher_one():
    assert not beats_set(cards("KS"), cards("10S"), trump_suit="S", order=sets.RANK_ORDER)


def strict(hands, trump="6S", leader=0, **kw):
    return position(GAME, DECK, hands=hands, trump_card=trump, leader=leader, **kw)


ROWS = [
    ("4.2a-E5a-lead_mixed_suits", strict(["AH AS 7C", "KD QD JD"]), lead(0, "AH AS"), "lead_mixed_suits"),
    ("4.2a-lead_of_three_one_suit", strict(["AH KH 7H", "KD QD JD"]), lead(0, "AH KH 7H"), None),
    ("4.2a-bad_card_count", strict(["AH KH 7H", "KD QD JD"]), Lead(0, ()), "bad_card_count"),
    ("4.2a-not_your_turn", strict(["AH KH 7H", "KD QD JD"]), lead(1, "KD"), "not_your_turn"),
    ("4.2a-card_not_in_hand", strict(["AH KH 7H", "KD QD JD"]), lead(0, "AS"), "card_not_in_hand"),
    ("4.2a-card_named_twice", strict(["AH KH 7H", "KD QD JD"]), lead(0, "AH AH"), "card_not_in_hand"),
    ("4.2c-E5b-bad_card_count", strict(["AH KH", "KD QD 9S"], trick=[(0, "7H 8H", True)], rest_to=1),
     respond(1, "9S"), "bad_card_count"),
    ("4.2c-any_cards_may_answer", strict(["AH KH", "KD QD 9S"], trick=[(0, "7H 8H", True)], rest_to=1),
     respond(1, "KD 9S"), None),
    ("4.2c-E5c-does_not_beat", strict(["AH", "KS"], trick=[(0, "10S", True)], rest_to=1),
     respond(1, "KS", "beat"), "does_not_beat"),
    ("4.2c-discard_even_when_able_to_beat", strict(["AH", "AS"], trick=[(0, "10S", True)], rest_to=1),
     respond(1, "AS", "discard"), None),
    ("4.2c-short_hand_answers_with_all", strict(["QH", "KD", "9C"], leader=0,
                                                trick=[(0, "AH KH", True)], rest_to=1),
     respond(1, "KD"), None),
    ("4.2c-respond_out_of_turn", strict(["QH", "KD", "9C"], leader=0,
                                        trick=[(0, "AH KH", True)], rest_to=1),
     respond(2, "9C"), "not_your_turn"),
    ("4.2c-lead_during_a_trick", strict(["AH", "AS"], trick=[(0, "10S", True)], rest_to=1),
     lead(1, "AS"), "wrong_phase"),
    ("4.2b-E8-molodka_out_of_turn", strict(["KH 9H 6H", "AD QD JD"], leader=1), Molodka(0, cards("KH 9H 6H")),
     None),
    ("4.2b-E8-molodka_after_the_lead", strict(["KH 9H 6H", "QD JD"], leader=1, trick=[(1, "AD", True)]),
     Molodka(0, cards("KH 9H 6H")), "wrong_phase"),
    ("4.2b-D10-three_trumps_are_no_molodka", strict(["KS 9S 7S", "AD QD JD"], leader=1),
     Molodka(0, cards("KS 9S 7S")), "not_a_molodka"),
    ("4.2b-molodka_of_two_suits", strict(["KH 9H 6D", "AD QD JD"], leader=1),
     Molodka(0, cards("KH 9H 6D")), "not_a_molodka"),
    ("4.2b-molodka_option_disabled", strict(["KH 9H 6H", "AD QD JD"], leader=1,
                                            options={"molodka_out_of_turn": False}),
     Molodka(0, cards("KH 9H 6H")), "option_disabled"),
    ("4.2d-claim_on_turn", strict(["AH", "AS"]), Claim(0), None),
    ("4.2d-claim_out_of_turn", strict(["AH", "AS"]), Claim(1), "not_your_turn"),
    ("4.2e-E7-bura", strict(["6C AC 10C", "AD QD JD"], trump="9C"), Declare(0, "bura"), None),
    ("4.2e-no_bura", strict(["6C AC 10D", "AH QD JD"], trump="9C"), Declare(0, "bura"), "no_combination"),
    ("4.2e-E7-moscow", strict(["AS AH AD", "KD QD JD"]), Declare(0, "moscow"), None),
    ("4.2e-E7-moscow_needs_trump_ace", strict(["AH AD AC", "KD QD JD"]), Declare(0, "moscow"),
     "no_combination"),
    ("4.2e-moscow_any_aces_option", strict(["AH AD AC", "KD QD JD"],
                                           options={"moscow_requires_trump_ace": False}),
     Declare(0, "moscow"), None),
    ("4.2e-moscow_option_disabled", strict(["AS AH AD", "KD QD JD"], options={"moscow": False}),
     Declare(0, "moscow"), "option_disabled"),
    ("4.2e-declare_out_of_turn", strict(["AS AH AD", "KD QD JD"]), Declare(1, "moscow"), "not_your_turn"),
    ("4.2f-pass_during_play", strict(["AH", "AS"]), Pass(0), "wrong_phase"),
    ("4.2f-pass_in_final_round", strict(["", ""], phase="final_claims", to_move=0), Pass(0), None),
    ("4.2f-lead_in_final_round", strict(["", ""], phase="final_claims", to_move=0), Claim(1),
     "not_your_turn"),
    ("4.2-hand_finished", strict(["AH", "AS"], phase="over", to_move=None,
                                 ending={"kind": "claim", "seat": 0}), Claim(0), "hand_finished"),
]


@pytest.mark.parametrize(("state", "move", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_legality(state, move, expected):
    assert refusal(GAME, state, move) == expected
    if expected is None:
        assert move in GAME.candidate_moves(state, move.seat) or isinstance(move, Respond)


def test_every_reason_code_has_a_refused_row():
    assert {r[3] for r in ROWS if r[3]} >= set(rules.Reason)


def test_4_2b_E8_molodka_takes_the_lead():
    state = at(strict(["KH 9H 6H", "AD QD JD"], leader=1), Molodka(0, cards("KH 9H 6H")))
    assert state.trick.leader == 0 and state.leader == 0 and state.to_move == 1


def test_4_2d_E6_claims():
    false = strict(["AH", "7C"], won=["AS 10H KD QC JS 9C", " ".join(
        c for c in DECK if c not in ["AS", "10H", "KD", "QC", "JS", "9C", "AH", "7C"])])
    assert false.points(0) == 30
    ended = at(false, Claim(0))
    assert rules.result(ended) == rules.HandResult("claim_false", 0, (1,), (0,), (30, 79))
    right = strict(["AH", "7C"], won=["AS 10H 10D 6C", " ".join(
        c for c in DECK if c not in ["AS", "10H", "10D", "6C", "AH", "7C"])])
    assert rules.result(at(right, Claim(0))) == rules.HandResult("claim_correct", 0, (0,), (1,), (31, 78))


def test_7_2_false_claim_with_three_players_makes_every_other_seat_a_winner():
    state = strict(["AH", "7C", "8C"], rest_to=2)
    assert rules.result(at(state, Claim(0))) == rules.HandResult("claim_false", 0, (1, 2), (0,), (0, 0, 109))


def test_4_2e_E7_bura_wins_regardless_of_points():
    state = at(strict(["6C AC 10C", "AD QD JD"], trump="9C", rest_to=1), Declare(0, "bura"))
    assert rules.result(state).winners == (0,) and state.phase == "over"


def test_5_4_E10_five_player_draw():
    stock = cards("AC KC QC JC 10C 9C")
    hands = [cards(c) for c in ("6H", "7H", "8H", "9H", "10H")]
    _, after, draws = draw_round(stock, hands, first=3, hand_size=3)
    assert [s for s, _ in draws] == [3, 4, 0, 1, 2, 3]
    assert [len(h) for h in after] == [2, 2, 2, 3, 2]


def test_6_final_claim_round_and_void_hand():
    state = strict(["AH", "7C"], leader=0, rest_to=1)
    state = at(state, lead(0, "AH"), respond(1, "7C"))
    assert state.phase == "final_claims" and state.to_move == 0
    state = at(state, Pass(0))
    assert state.to_move == 1
    state = at(state, Pass(1))
    assert state.phase == "over" and rules.result(state).reason == "void"


def test_6_reaching_31_does_not_end_the_hand():
    state = strict(["AH KH", "7C 8C"], rest_to=0)
    assert state.points(0) >= 31
    state = at(state, lead(0, "AH"), respond(1, "7C"))
    assert state.phase == "play"


def test_7_3_E9_void_hand_value_carries():
    void = at(strict(["", ""], phase="final_claims", to_move=0), Pass(0), Pass(1))
    first = GAME.score(void, None)["match"]
    assert first == {"match_scores": [0, 0], "void_streak": 1, "over": False, "winner": None,
                     "next_dealer": 0 if void.dealer == 1 else 1, "next_leader": first["next_leader"]}
    claimed = at(strict(["AH", "7C"], rest_to=0), Claim(0))
    match = {**first, "next_dealer": claimed.dealer}
    second = GAME.score(claimed, match)
    assert second["hand"]["value"] == 2
    assert second["match"]["match_scores"] == [2, 0] and second["match"]["void_streak"] == 0
    assert second["match"]["next_dealer"] == 0


def test_7_3_match_over_at_target():
    claimed = at(strict(["AH", "7C"], rest_to=0), Claim(0))
    match = {"match_scores": [10, 3], "void_streak": 0, "over": False, "winner": None,
             "next_dealer": claimed.dealer, "next_leader": 0}
    answer = GAME.score(claimed, match)["match"]
    assert answer["over"] and answer["winner"] == [0] and answer["match_scores"] == [11, 3]


GOING_ON = {"match_scores": [3, 4], "void_streak": 0, "over": False, "winner": None, "next_dealer": 1,
            "next_leader": 0}


@pytest.mark.parametrize(("changes", "refusal", "pointer", "message"), [
    ({"match_scores": [3, 4, 0]}, InvalidState, "/match/match_scores", "one entry per seat (2)"),
    ({"over": True}, InvalidMatch, "/match/over", "the match is over: deal a new one without a match"),
    ({"match_scores": [11, 4]}, InvalidMatch, "/match/match_scores", "a seat has 11 games: the match is over"),
    ({"winner": [1]}, InvalidMatch, "/match/winner", "a match that is not over has no winner"),
    ({"next_leader": 2}, InvalidMatch, "/match/next_leader", "seats are 0..1"),
    ({"next_dealer": 0}, InvalidMatch, "/match/next_dealer", "the match says seat 0 deals this hand"),
])
def test_7_3_a_match_that_cannot_go_on_is_refused(changes, refusal, pointer, message):
    claimed = at(strict(["AH", "7C"], rest_to=0), Claim(0))
    assert claimed.dealer == 1 and GAME.score(claimed, GOING_ON)["match"]["match_scores"] == [4, 4]
    assert refused(lambda: GAME.score(claimed, {**GOING_ON, **changes})) == (refusal, pointer, message)


def test_7_3_the_match_says_who_deals_and_who_leads():
    wrong = refused(lambda: GAME.deal(DealSetup(2, 0, {}, GOING_ON), SeedStream("match")))
    assert wrong == (InvalidMatch, "/dealer", "the match says seat 1 deals this hand")
    assert GAME.deal(DealSetup(2, 1, {}, {**GOING_ON, "next_leader": 1}), SeedStream("match")).to_move == 1


def test_7_3_next_leader_last_trick_winner_option():
    state = strict(["AH", "7C"], leader=0, rest_to=1, options={"next_leader": "last_trick_winner"})
    state = at(state, lead(0, "AH"), respond(1, "7C"), Claim(0))
    assert GAME.score(state, None)["match"]["next_leader"] == 0


@pytest.mark.parametrize(("open_play", "face_down"), [(False, True), (True, False)])
def test_4_2c_seed_40a_open_play_turns_discards_face_up(open_play, face_down):
    state = strict(["AH", "7C"], options={"open_play": open_play}, rest_to=1)
    state = at(state, lead(0, "AH"))
    _, events = GAME.apply(state, respond(1, "7C"))
    assert events[0].type == ("discard_face_down" if face_down else "discard")
    assert GAME.info.event_types[events[0].type].private is face_down
    view = GAME.view(state, 0)
    assert view["won"][1] is None if face_down else view["won"][1] is not None


def test_8_winning_points_option():
    state = strict(["AH", "7C"], won=["AS 10H 10D 6C", " ".join(
        c for c in DECK if c not in ["AS", "10H", "10D", "6C", "AH", "7C"])], options={"winning_points": 40})
    assert rules.result(at(state, Claim(0))).reason == "claim_false"


def test_7_3_void_carry_off_keeps_the_value_at_1():
    claimed = at(strict(["AH", "7C"], rest_to=0, options={"void_carry": False}), Claim(0))
    match = {"match_scores": [0, 0], "void_streak": 2, "over": False, "winner": None,
             "next_dealer": claimed.dealer, "next_leader": 0}
    answer = GAME.score(claimed, match)
    assert answer["hand"]["value"] == 1 and answer["match"]["match_scores"] == [1, 0]


def test_variant_cache_stays_bounded_whatever_options_clients_send():
    for target in range(1, 1001):
        rules.variant(rules.Options(target_games=target))
    assert rules.variant.cache_info().currsize <= 256


def _scored_from_the_wire(state, match=None):
    """Score the state as a client would send it back: dumped, loaded, then scored."""
    return GAME.score(GAME.load_state(GAME.dump_state(state)), match)


def test_6_void_hand_is_scored_from_the_state_validate_returned():
    state = at(strict(["AH", "7C"], leader=0, rest_to=1), lead(0, "AH"), respond(1, "7C"), Pass(0), Pass(1))
    assert state.passes == 2 and state.ending.kind == "void"
    answer = _scored_from_the_wire(state)
    assert answer["hand"]["reason"] == "void" and answer["hand"]["winners"] == []
    assert answer["match"]["void_streak"] == 1 and answer["match"]["match_scores"] == [0, 0]


@pytest.mark.parametrize("seats", [2, 3])
def test_4_2f_claim_after_a_pass_is_scored_from_the_state_validate_returned(seats):
    hands = ["AH", "7C", "8C"][:seats]
    state = strict(hands, leader=0, rest_to=1) if seats == 2 else position(
        GAME, DECK, hands=hands, trump_card="6H", leader=0, rest_to=1)
    state = at(state, lead(0, "AH"), *[respond(s, hands[s]) for s in range(1, seats)])
    assert state.phase == "final_claims" and state.to_move == 0
    state = at(state, Pass(0), Claim(1))
    assert state.passes == 1 and state.ending.seat == 1
    answer = _scored_from_the_wire(state)
    assert answer["hand"]["reason"] == ("claim_correct" if state.points(1) >= 31 else "claim_false")
    assert answer["hand"]["seat"] == 1


def test_6_a_finished_final_round_must_add_up():
    state = at(strict(["AH", "7C"], leader=0, rest_to=1), lead(0, "AH"), respond(1, "7C"), Pass(0), Claim(1))
    wire = GAME.dump_state(state)
    for changes, pointer in [({"passes": 2}, "/ending/seat"), ({"passes": 3}, "/passes"),
                             ({"ending": {"kind": "claim", "seat": 0}}, "/ending/seat"),
                             ({"ending": {"kind": "void", "seat": None}, "result": None}, "/ending")]:
        with pytest.raises(InvalidState) as error:
            GAME.load_state({**wire, **changes})
        assert error.value.errors[0].pointer == pointer, changes


def test_every_refusal_of_the_shared_engine_has_this_games_rule():
    """The engine refuses through the game's own reasons (``Variant.reasons``), by name."""
    assert {r.name for r in sets.TrickReason} <= {r.name for r in rules.Reason}
    assert all(rules.Reason[r.name].value == r.value for r in sets.TrickReason)


def _said(state, move, reader):
    """The refusal of ``move`` as ``reader`` is told it, in Russian and in English."""
    try:
        GAME.check(state, move)
    except IllegalMove as error:
        return error.message.render("ru", reader), error.message.render("en", reader)
    raise AssertionError(f"{move} is legal")


def test_refusals_speak_to_the_player_who_tried():
    state = at(e1(), lead(1, "6H"), respond(0, "8C"), lead(1, "QD KD"))
    assert _said(state, respond(0, "7D"), 0) == ("Ответить надо двумя картами", "You must answer with 2 cards")
    assert _said(state, respond(0, "7D AC", "beat"), 0) == (
        "Этими картами не побить даму бубён и короля бубён",
        "These cards do not beat the queen of diamonds and the king of diamonds")
    assert _said(state, respond(0, "7D QS"), 0) == ("У вас нет дамы пик", "You do not hold the queen of spades")
    assert _said(state, Claim(1), 1) == ("Сейчас ходит место 1", "It is seat 1's turn")
    assert _said(e1(), lead(0, "7D"), 0) == ("Первым ходит место 2", "It is seat 2's lead")
    no_bura = strict(["6C AC 10D", "AH QD JD"], trump="9C")
    assert _said(no_bura, Declare(0, "bura"), 0)[0] == "У вас нет буры: бура — это три козыря"


def test_every_event_is_told_in_a_sentence():
    """A face-down discard, its trick and a draw are told to the others without their cards."""
    state = e1()
    moves = [lead(1, "6H"), respond(0, "8C")]
    events = []
    for move in moves:
        state, new = GAME.apply(state, move)
        events += new
    every = told(GAME.info.event_types, events, EVERY_SEAT)
    texts = [e["text"] for e in spoken(GAME.info.event_types, redacted(GAME.info.event_types, every, 1), 1, "ru",
                                       GAME.info.vocabulary)]
    assert texts == ["Вы ходите с шестёрки червей", "Место 1 сбрасывает в закрытую одну карту",
                     "Вы берёте взятку: шестёрка червей и восьмёрка треф", "Вы берёте из колоды короля бубён",
                     "Место 1 берёт карту из колоды"]
