"""Sixty-six rule table: one row per rule sentence, decision and worked example of
docs/rules/sixty-six.md; test ids are the rule ids."""

from __future__ import annotations

import random
from functools import partial

import pytest

from service.api.events import EVERY_SEAT, redacted, spoken, told
from service.cards import CARDS, SeedStream, cards, codes
from service.errors import IllegalMove, InvalidMatch, InvalidState
from service.games.base import DealSetup
from service.games.sixty_six import rules, scoring, wire
from service.games.sixty_six.game import SixtySix
from service.games.sixty_six.play import apply
from service.games.sixty_six.rules import Claim, Close, ExchangeTrump, Play, State
from service.games.tricks import beats
from service.i18n.cards import Vocabulary
from tests.games import steps
from tests.test_sentences import faults

GAME = SixtySix()
DECK_A = cards("AH 10C KS 9D QH JC KH 9S AD 10H QS JD 9H AC KC QC JH 10S AS KD 10D QD 9C JS")
DECK_E5 = cards("AS 10S KS 9S AC 10C QS AH 10H KC QD JD JS KH 9C QH AD JC 9H 10D QC KD JH 9D")


def position(
    *,
    hands: tuple[str, str],
    stock: str = "",
    trump: str = "9H",
    trick: str = "",
    leader: int = 1,
    won: tuple[str, str] | None = None,
    closed_by: int | None = None,
    snapshot: tuple[int, int] | None = None,
    marriages: tuple[list[dict], list[dict]] = ([], []),
    options: dict | None = None,
    claimed_by: int | None = None,
) -> State:
    """A checked position. Cards not placed anywhere become tricks of seat ``1 - leader``
    unless ``won`` places them; the last card of ``stock`` must be the trump card."""
    placed = [*hands[0].split(), *hands[1].split(), *stock.split(), *trick.split()]
    if won is None:
        rest = [c for c in codes(rules.DECK) if c not in placed]
        won = ("", "") if not rest else (" ".join(rest), "") if leader == 1 else ("", " ".join(rest))
    tricks = [list(zip(w.split()[::2], w.split()[1::2], strict=True)) for w in won]
    finished = claimed_by is not None or (not hands[0].split() and not hands[1].split())
    lead = trick.split()
    state = {
        "game": "sixty-six", "seats": 2, "dealer": 0,
        "to_move": None if finished else (1 - leader if lead else leader),
        "options": options or {},
        "trump_card": trump, "stock": stock.split(),
        "stock_closed_by": closed_by,
        "closed_snapshot": None if snapshot is None else {
            "opponent_points": snapshot[0], "opponent_tricks": snapshot[1]},
        "hands": [hands[0].split(), hands[1].split()],
        "leader": leader,
        "trick": [{"seat": leader, "card": c} for c in lead],
        "tricks_won": [[list(t) for t in tricks[0]], [list(t) for t in tricks[1]]],
        "marriages": [list(marriages[0]), list(marriages[1])],
        "claimed_by": claimed_by,
    }
    return wire.load_state(state)


def play(seat: int, card: str, *, marriage: bool = False) -> Play:
    return Play(seat, CARDS[card], marriage)


refusal = partial(steps.refusal, rules)


# An open position: trump H, stock of 12 (trump card 9H last), seat 1 on lead (deck A, E1).
OPEN = rules.deal_from(DECK_A, 0, rules.Options())
# Strict positions: stock exhausted; seat 1 has led JC (E4) and seat 0 replies.
STRICT_HANDS = {
    "follow": "QC 9H AS",
    "trump": "9H AS KD",
    "free": "AS KD QD",
}


def strict(follower_hand: str, lead: str = "JC", leader_hand: str = "AD KD", **kw) -> State:
    return position(hands=(follower_hand, leader_hand), trick=lead, leader=1, **kw)


ROWS = [
    # (rule id, state, move, expected refusal or None for legal)
    ("4.2.1-hand_finished", position(hands=("", ""), leader=0), play(0, "AS"), "hand_finished"),
    ("4.2.2-not_your_turn", OPEN, play(0, "9D"), "not_your_turn"),
    ("4.2.2-your_turn", OPEN, play(1, "AH"), None),
    ("4.2.3-card_not_in_hand", OPEN, play(1, "9D"), "card_not_in_hand"),
    ("4.2.4-marriage_legal_on_lead", OPEN, play(1, "KS", marriage=True), "marriage_partner_missing"),
    ("4.2.4-marriage_wrong_rank-E7", OPEN, play(1, "AH", marriage=True), "marriage_wrong_rank"),
    ("4.2.4-marriage_wrong_rank-JD-E7",
     position(hands=("9D QH 10H QS AC KC", "JD KD QD AH 10C KS"), stock="JC 9S AD JH 10S AS 10D QC 9C JS KH 9H",
              won=("", "")),
     play(1, "JD", marriage=True), "marriage_wrong_rank"),
    ("4.2.4-marriage_partner_present",
     position(hands=("9D QH 10H QS AC KC", "JD KD QD AH 10C KS"), stock="JC 9S AD JH 10S AS 10D QC 9C JS KH 9H",
              won=("", "")),
     play(1, "QD", marriage=True), None),
    ("4.2.4-marriage_not_on_lead-E7",
     position(hands=("KD QD 9S", "AS 10S"), trick="JS", leader=1), play(0, "KD", marriage=True),
     "marriage_not_on_lead"),
    ("4.2.4-marriage_after_stock_default_on",
     position(hands=("KD QD 9S", "AS 10S JS"), leader=0), play(0, "KD", marriage=True), None),
    ("4.2.4-marriage_not_allowed_now",
     position(hands=("KD QD 9S", "AS 10S JS"), leader=0,
              options={"marriages_after_stock": False}),
     play(0, "KD", marriage=True), "marriage_not_allowed_now"),
    ("4.2.5-E4-must_follow_suit", strict("QC 9H AS"), play(0, "9H"), "must_follow_suit"),
    ("4.2.5-E4-follow", strict("QC 9H AS"), play(0, "QC"), None),
    ("4.2.5-E4-must_trump", strict("9H AS", leader_hand="AD"), play(0, "AS"), "must_trump"),
    ("4.2.5-E4-trump", strict("9H AS", leader_hand="AD"), play(0, "9H"), None),
    ("4.2.5-E4-free-AS", strict("AS KD", leader_hand="QD"), play(0, "AS"), None),
    ("4.2.5-E4-free-KD", strict("AS KD", leader_hand="QD"), play(0, "KD"), None),
    ("4.2.5-E4-trump_led_must_trump", strict("JH 9H 10H AS", lead="KH", leader_hand="AD KD QD"),
     play(0, "AS"), "must_follow_suit"),
    ("4.2.5-E4-trump_led_any_trump", strict("JH 9H 10H AS", lead="KH", leader_hand="AD KD QD"),
     play(0, "JH"), None),
    ("4.2.5-E4-must_head_trick", strict("JH 9H 10H AS", lead="KH", leader_hand="AD KD QD",
                                        options={"must_head_trick": True}),
     play(0, "JH"), "must_win_trick"),
    ("4.2.5-E4-must_head_trick-10H", strict("JH 9H 10H AS", lead="KH", leader_hand="AD KD QD",
                                            options={"must_head_trick": True}),
     play(0, "10H"), None),
    ("4.2.5-must_head_trick-cannot_head", strict("JH 9H AS", lead="AH", leader_hand="AD KD",
                                                 options={"must_head_trick": True}),
     play(0, "9H"), None),
    ("4.2.6-E3-open_any_card",
     apply(OPEN, play(1, "KS"))[0], play(0, "JD"), None),
    ("4.3-close_at_12", OPEN, Close(1), None),
    ("4.3-E6-not_on_lead", OPEN, Close(0), "not_on_lead"),
    ("4.3-not_on_lead_after_lead", apply(OPEN, play(1, "KS"))[0], Close(1), "not_on_lead"),
    ("4.3-E6-close_at_4",
     position(hands=("9D QH JC 10H QS JD", "AH 10C KS KH 9S AD"), stock="AC KC QC 9H"),
     Close(1), None),
    ("4.3-E6-stock_too_small_at_2",
     position(hands=("9D QH JC 10H QS JD", "AH 10C KS KH 9S AD"), stock="AC 9H"),
     Close(1), "stock_too_small"),
    ("4.3-min_stock_to_close_option",
     position(hands=("9D QH JC 10H QS JD", "AH 10C KS KH 9S AD"), stock="AC KC QC 9H",
              options={"min_stock_to_close": 5}),
     Close(1), "stock_too_small"),
    ("4.3-stock_closed",
     position(hands=("9D QH JC 10H QS JD", "AH 10C KS KH 9S AD"), stock="AC KC QC 9H",
              closed_by=1, snapshot=(0, 0), won=("", "JH 10S AS KD 10D QD 9C JS")),
     Close(1), "stock_closed"),
    ("4.3-stock_exhausted", position(hands=("9D QH", "AH 10C")), Close(1), "stock_exhausted"),
    ("4.4-option_disabled", OPEN, ExchangeTrump(1), "option_disabled"),
]

EXCHANGE = {"allow_trump_nine_exchange": True}
ROWS += [
    ("4.4-exchange_legal",
     position(hands=("AH 10C KS KH 9H AD", "9D QH JC 10H QS JD"), stock="AC KC QC JH",
              trump="JH", won=("9S 10S AS KD 10D QD 9C JS", ""), leader=0, options=EXCHANGE),
     ExchangeTrump(0), None),
    ("4.4-no_trick_won",
     position(hands=("AH 10C KS KH 9H AD", "9D QH JC 10H QS JD"), stock="AC KC QC JH",
              trump="JH", won=("", "9S 10S AS KD 10D QD 9C JS"), leader=0, options=EXCHANGE),
     ExchangeTrump(0), "no_trick_won"),
    ("4.4-no_trump_nine",
     position(hands=("AH 10C KS KH 9S AD", "9D QH JC 10H QS JD"), stock="AC KC QC 9H",
              trump="9H", won=("JH 10S AS KD 10D QD 9C JS", ""), leader=0, options=EXCHANGE),
     ExchangeTrump(0), "no_trump_nine"),
    ("4.4-stock_too_small",
     position(hands=("AH 10C KS KH 9H AD", "9D QH JC 10H QS JD"), stock="AC JH",
              trump="JH", won=("9S 10S AS KD 10D QD 9C JS KC QC", ""), leader=0, options=EXCHANGE),
     ExchangeTrump(0), "stock_too_small"),
    ("4.4-stock_closed",
     position(hands=("AH 10C KS KH 9H AD", "9D QH JC 10H QS JD"), stock="AC KC QC JH",
              trump="JH", won=("9S 10S AS KD 10D QD 9C JS", ""), leader=0, options=EXCHANGE,
              closed_by=0, snapshot=(0, 0)),
     ExchangeTrump(0), "stock_closed"),
    ("4.4-not_on_lead",
     position(hands=("AH 10C KS KH 9H AD", "9D QH JC 10H QS JD"), stock="AC KC QC JH",
              trump="JH", won=("9S 10S AS KD 10D QD 9C JS", ""), leader=0, options=EXCHANGE),
     ExchangeTrump(1), "not_on_lead"),
    ("4.5-option_disabled", OPEN, Claim(1), "option_disabled"),
    ("4.5-option_checked_before_finished", position(hands=("", ""), leader=0), Claim(0), "option_disabled"),
    ("4.4-option_checked_before_finished", position(hands=("", ""), leader=0), ExchangeTrump(0),
     "option_disabled"),
    ("4.5-claim_on_lead", position(hands=("9D QH", "AH 10C"), options={"allow_claim": True}),
     Claim(1), None),
    ("4.5-claim_not_on_lead", position(hands=("9D QH", "AH 10C"), options={"allow_claim": True}),
     Claim(0), "not_on_lead"),
    ("4.5-claim_marriage_partner_missing",
     position(hands=("9D QH", "AH KH"), options={"allow_claim": True}), Claim(1, "H"),
     "marriage_partner_missing"),
]


@pytest.mark.parametrize(("state", "move", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_legality(state, move, expected):
    assert refusal(state, move) == expected
    listed = list(rules.candidate_moves(state, move.seat))
    if expected is None:
        assert move in listed, "a legal move is listed by legal-moves"


def _refused(state: State, move) -> IllegalMove:
    with pytest.raises(IllegalMove) as refused:
        rules.check(state, move)
    return refused.value


@pytest.mark.parametrize(("state", "move"), [r[1:3] for r in ROWS if r[3]], ids=[r[0] for r in ROWS if r[3]])
def test_a_refusal_is_said_to_its_mover_without_codes(state, move):
    message = _refused(state, move).message
    for lang in ("en", "ru"):
        text = message.render(lang, move.seat)
        assert not faults(text, lang), text


@pytest.mark.parametrize(("state", "move", "english", "russian"), [
    (OPEN, play(0, "9D"), "It is seat 2's turn", "Сейчас ходит место 2"),
    (OPEN, play(1, "9D"), "The nine of diamonds is not in your hand", "У вас на руке нет девятки бубён"),
    (OPEN, play(1, "KS", marriage=True), "You do not hold the queen of spades for the marriage",
     "У вас нет дамы пик для марьяжа"),
    (strict("QC 9H AS"), play(0, "9H"), "You must follow suit: clubs", "Надо давать карту в масть: трефы"),
    (strict("9H AS", leader_hand="AD"), play(0, "AS"), "You have no clubs, so you must play a trump",
     "У вас нет треф, значит, надо бить козырем"),
    (position(hands=("9D QH JC 10H QS JD", "AH 10C KS KH 9S AD"), stock="AC KC QC 9H",
              options={"min_stock_to_close": 5}), Close(1),
     "You can close the stock only while it holds at least 5 cards, the face-up trump included",
     "Закрыть колоду можно, только пока в ней не меньше пяти карт, считая открытый козырь"),
    (OPEN, ExchangeTrump(1), "This table plays without exchanging the trump nine",
     "За этим столом козырную девятку не меняют"),
], ids=["not_your_turn", "card_not_in_hand", "marriage_partner_missing", "must_follow_suit", "must_trump",
        "stock_too_small", "option_disabled"])
def test_a_refusal_speaks_to_the_player_who_tried_the_move(state, move, english, russian):
    message = _refused(state, move).message
    assert (message.render("en", move.seat), message.render("ru", move.seat)) == (english, russian)


def test_the_stock_too_small_refusal_agrees_with_its_count():
    hands = ("9D QH JC 10H QS JD", "AH 10C KS KH 9S AD")
    said = {n: _refused(position(hands=hands, stock="AC 9H", options={"min_stock_to_close": n}),
                        Close(1)).message.render("ru", 1) for n in (3, 5)}
    assert "не меньше трёх карт" in said[3] and "не меньше пяти карт" in said[5]


def test_every_event_is_told_in_a_sentence_to_its_seat_and_to_the_others():
    state = OPEN
    rng = random.Random("sayings")
    texts: dict[tuple[str, int | None], str] = {}
    while (seat := GAME.to_move(state)) is not None:
        state, events = GAME.apply(state, rng.choice(GAME.legal_moves(state, seat)))
        every = told(wire.EVENTS, events, EVERY_SEAT)
        for reader in (None, 0, 1):
            for event in spoken(wire.EVENTS, redacted(wire.EVENTS, every, reader), reader, "ru", Vocabulary()):
                texts.setdefault((event["type"], reader), event["text"])
    assert all(not faults(text, "ru") for text in texts.values()), texts
    drawn = [text for (kind, reader), text in texts.items() if kind == "card_drawn" and reader is None]
    assert drawn and drawn[0].endswith("берёт карту из колоды")
    assert any(text.startswith("Вы берёте взятку: ") for (kind, _), text in texts.items() if kind == "trick_won")
    assert all(event.says is not None for event in wire.EVENTS.values())


def test_every_reason_code_has_a_refused_row():
    refused = {r[3] for r in ROWS if r[3]}
    assert refused >= {r.value for r in rules.Reason}


# --- §3 deal -----------------------------------------------------------------------------------


def test_3_E1_deal():
    state = rules.deal_from(DECK_A, 0, rules.Options())
    assert codes(state.hands[1]) == ["AH", "10C", "KS", "KH", "9S", "AD"]
    assert codes(state.hands[0]) == ["9D", "QH", "JC", "10H", "QS", "JD"]
    assert state.trump_card.code == "9H" and state.trump_suit == "H"
    assert codes(state.stock) == ["AC", "KC", "QC", "JH", "10S", "AS", "KD", "10D", "QD", "9C", "JS", "9H"]
    assert state.to_move == 1 == state.leader


def test_3_dealer_1_gives_seat_0_the_first_packet():
    state = rules.deal_from(DECK_A, 1, rules.Options())
    assert codes(state.hands[0]) == ["AH", "10C", "KS", "KH", "9S", "AD"]
    assert state.to_move == 0


# --- §5 tricks ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("lead", "reply", "leader_wins"), [
    ("KS", "QS", True), ("QC", "KC", False), ("10S", "9H", False),
    ("AS", "KD", True), ("9H", "AS", True), ("KH", "10H", False),
], ids=lambda v: str(v))
def test_5_E2_trick_winner(lead, reply, leader_wins):
    follower_wins = beats(CARDS[reply], CARDS[lead], trump_suit="H", order=rules.RANK_ORDER)
    assert follower_wins is not leader_wins


def test_5_E3_winner_draws_first():
    state, _ = apply(OPEN, play(1, "KS"))
    state, events = apply(state, play(0, "QS"))
    assert rules.trick_card_points(state, 1) == 7
    assert "AC" in codes(state.hands[1]) and "KC" in codes(state.hands[0])
    assert len(state.stock) == 10 and state.to_move == 1
    assert [e.type for e in events][-2:] == ["card_drawn", "card_drawn"]


def test_5_2_D2_loser_of_trick_6_draws_the_trump_card():
    state = position(hands=("9D QH JC 10H QS JD", "AH 10C KS KH 9S AD"), stock="AC 9H", leader=1)
    state, _ = apply(state, play(1, "AH"))
    state, _ = apply(state, play(0, "9D"))
    assert "9H" in codes(state.hands[0]) and "AC" in codes(state.hands[1])
    assert state.stock == () and state.strict


def test_5_3_last_trick_bonus():
    rest = [c for c in codes(rules.DECK) if c not in ("9D", "AH")]
    for bonus_on in (True, False):
        state = position(hands=("9D", "AH"), won=(" ".join(rest[:12]), " ".join(rest[12:])),
                         options={"last_trick_bonus": bonus_on})
        state, _ = apply(state, play(1, "AH"))
        state, _ = apply(state, play(0, "9D"))
        assert state.finished and state.bonus_points == ((0, 10) if bonus_on else (0, 0))


def test_5_totals_closed_hand_has_tricks_played_plus_6():
    state = rules.deal_from(DECK_E5, 0, rules.Options())
    state, _ = apply(state, Close(1))
    for _ in range(6):
        seat = state.to_move
        state, _ = apply(state, next(m for m in rules.candidate_moves(state, seat)
                                           if isinstance(m, Play) and refusal(state, m) is None))
        state, _ = apply(state, next(m for m in rules.candidate_moves(state, 1 - seat)
                                           if isinstance(m, Play) and refusal(state, m) is None))
    assert state.finished and state.tricks_played == 6 and len(state.stock) == 12


# --- §4.2 marriages, §6 first to 66 ------------------------------------------------------------


def test_4_2_D3_marriage_pending_until_first_trick():
    deal = position(hands=("9D QH JC 10H QS JD", "AH 10C KS KD QD AD"),
                    stock="AC KC QC JH 10S AS KH 10D 9S 9C JS 9H", won=("", ""))
    state, events = apply(deal, play(1, "QD", marriage=True))
    assert state.marriages[1] == (rules.Marriage("D", 20, False),)
    assert rules.points(state, 1) == 0
    state, _ = apply(state, play(0, "9D"))
    assert state.marriages[1][0].credited and rules.points(state, 1) == 20 + 3
    assert any(e.type == "marriage_declared" and e.points == 20 for e in events)


def test_4_2_trump_marriage_is_40_and_credited_at_once_after_a_trick():
    rest = " ".join(c for c in codes(rules.DECK) if c not in ("9D", "QS", "KH", "QH"))
    state = position(hands=("9D QS", "KH QH"), won=("", rest), leader=1)
    state, _ = apply(state, play(1, "KH", marriage=True))
    assert state.marriages[1] == (rules.Marriage("H", 40, True),)


def test_8_marriage_requires_trick_off_credits_at_once():
    state = rules.deal_from(DECK_E5, 0, rules.Options(marriage_requires_trick=False))
    state, _ = apply(state, play(1, "KS", marriage=True))
    assert state.marriages[1][0].credited and rules.points(state, 1) == 40


def test_6_first_to_66_is_kept_by_the_first():
    rest = [c for c in codes(rules.DECK) if c not in ("KS", "QS", "9D", "JD")]
    # Seat 1 wins a trick bringing it to 66 or more; seat 0 cannot take the title later.
    state = position(hands=("9D JD", "KS QS"), won=("", " ".join(rest)), leader=1)
    assert state.first_to_66 == 1
    state, _ = apply(state, play(1, "KS"))
    state, _ = apply(state, play(0, "9D"))
    assert state.first_to_66 == 1


# --- §4.3 close, §4.4 exchange, §4.5 claim effects ---------------------------------------------


def test_4_3_close_snapshot_and_no_drawing():
    state, _ = apply(OPEN, play(1, "AH"))
    state, _ = apply(state, play(0, "9D"))
    state, events = apply(state, Close(1))
    assert state.stock_closed_by == 1 and state.closed_snapshot == rules.ClosedSnapshot(0, 0)
    assert state.strict and events[0].type == "stock_closed" and state.to_move == 1
    stock = state.stock
    state, _ = apply(state, play(1, state.hands[1][0].code))
    reply = next(m for m in rules.candidate_moves(state, 0)
                 if isinstance(m, Play) and refusal(state, m) is None)
    state, _ = apply(state, reply)
    assert state.stock == stock and len(state.hands[0]) == 5


def test_4_4_exchange_swaps_nine_and_face_up_card():
    state = position(hands=("AH 10C KS KH 9H AD", "9D QH JC 10H QS JD"), stock="AC KC QC JH",
                     trump="JH", won=("9S 10S AS KD 10D QD 9C JS", ""), leader=0,
                     options=EXCHANGE)
    state, _ = apply(state, ExchangeTrump(0))
    assert state.trump_card.code == "9H" and codes(state.stock) == ["AC", "KC", "QC", "9H"]
    assert "JH" in codes(state.hands[0]) and state.to_move == 0


# --- §7 scoring --------------------------------------------------------------------------------


NINES_STOCK = "9C 9S 9D 9H"  # a closed stock of zero-point cards keeps the trick total at 120


def _split(points0: int, *, seat1_tricks: bool = True, exclude: str = "") -> tuple[str, str]:
    """Distribute the deck's tricks so that seat 0 takes ``points0`` card points."""
    pool = [c for c in rules.DECK if c.code not in exclude.split()]
    best: dict[tuple[int, int], list] = {(0, 0): []}
    for card in sorted(pool, key=lambda c: -rules.CARD_VALUES[c.rank]):
        for (pts, n), chosen in list(best.items()):
            best.setdefault((pts + rules.CARD_VALUES[card.rank], n + 1), [*chosen, card])
    sizes = range(2, len(pool), 2) if seat1_tricks else [len(pool)]
    n = next(n for n in sizes if (points0, n) in best)
    mine = best[(points0, n)]
    return " ".join(codes(mine)), " ".join(c.code for c in pool if c not in mine)


def finished(points0: int, *, seat1_tricks: bool = True, **kw) -> State:
    stock = NINES_STOCK if kw.get("closed_by") is not None else ""
    won0, won1 = _split(points0, seat1_tricks=seat1_tricks, exclude=stock)
    return position(hands=("", ""), won=(won0, won1), leader=0, stock=stock, **kw)


@pytest.mark.parametrize(("points0", "seat1_tricks", "winner", "game_points", "reason"), [
    (70, True, 0, (1, 0), "reached_66"),
    (88, True, 0, (2, 0), "reached_66"),
    (87, True, 0, (1, 0), "reached_66"),
    (120, False, 0, (3, 0), "reached_66"),
    (60, True, None, (0, 0), "no_66_draw"),
    (65, True, None, (0, 0), "no_66_draw"),
    (30, True, 1, (0, 2), "reached_66"),
], ids=["E8-70-50", "E8-88-32", "E8-87-33-D11", "E8-120-0", "E8-60-60-D12", "E8-65-55", "E8-30-90"])
def test_7_2_E8_scoring(points0, seat1_tricks, winner, game_points, reason):
    result = scoring.result(finished(points0, seat1_tricks=seat1_tricks))
    assert (result.winner, result.game_points, result.reason.value) == (winner, game_points, reason)
    assert sum(result.points) == 120


def test_7_2_E9_failed_close_after_a_trick_scores_2():
    state = finished(30, closed_by=0, snapshot=(7, 1))
    result = scoring.result(state)
    assert (result.winner, result.game_points, result.reason.value) == (1, (0, 2), "closer_failed")


def test_7_2_E9_failed_close_before_any_trick_scores_3():
    result = scoring.result(finished(30, closed_by=0, snapshot=(0, 0)))
    assert result.game_points == (0, 3)


def test_7_2_D5_failed_close_is_never_a_draw():
    result = scoring.result(finished(60, closed_by=0, snapshot=(0, 1)))
    assert (result.winner, result.game_points) == (1, (0, 2))


def test_7_2_D6_closer_success_judged_at_the_end():
    result = scoring.result(finished(100, closed_by=0, snapshot=(0, 1)))
    assert (result.winner, result.game_points, result.reason.value) == (0, (2, 0), "closer_succeeded")


def test_7_2_closer_with_66_but_not_first_fails():
    rest = finished(70, closed_by=0, snapshot=(0, 1))
    state = rules.State(**{**{f: getattr(rest, f) for f in rules.State.__dataclass_fields__},
                           "first_to_66": 1,
                           "marriages": ((), (rules.Marriage("C", 20, True), rules.Marriage(
                               "D", 20, True), rules.Marriage("S", 20, True)))})
    assert rules.points(state, 1) >= 66
    assert scoring.result(state).reason.value == "closer_failed"


def test_10_E5_complete_hand_closed_before_first_trick():
    state = rules.deal_from(DECK_E5, 0, rules.Options())
    assert codes(state.hands[1]) == ["AS", "10S", "KS", "QS", "AH", "10H"]
    assert codes(state.hands[0]) == ["9S", "AC", "10C", "KC", "QD", "JD"]
    assert state.trump_suit == "S"
    state, _ = apply(state, Close(1))
    assert state.closed_snapshot == rules.ClosedSnapshot(0, 0)
    moves = [("KS", "9S", True), ("AS", "QD", False), ("10S", "JD", False),
             ("QS", "KC", False), ("AH", "10C", False), ("10H", "AC", False)]
    seat1_points = []
    for lead, reply, marriage in moves:
        state, _ = apply(state, play(1, lead, marriage=marriage))
        state, _ = apply(state, play(0, reply))
        seat1_points.append(rules.points(state, 1))
    assert seat1_points == [44, 58, 70, 77, 98, 119]
    result = scoring.result(state)
    assert state.finished and result.points == (0, 119) and result.tricks == (0, 6)
    assert (result.winner, result.game_points, result.reason.value) == (1, (0, 3), "closer_succeeded")


def test_10_E5_must_follow_spades_after_close():
    state = rules.deal_from(DECK_E5, 0, rules.Options())
    state, _ = apply(state, Close(1))
    state, _ = apply(state, play(1, "KS", marriage=True))
    assert refusal(state, play(0, "QD")) == "must_follow_suit"


def test_10_E10_pending_marriage_never_counts():
    rest = [c for c in codes(rules.DECK) if c not in ("QD", "KD", "AD", "9S")]
    state = position(hands=("AD 9S", "QD KD"), won=(" ".join(rest), ""), leader=1)
    state, _ = apply(state, play(1, "QD", marriage=True))
    state, _ = apply(state, play(0, "AD"))
    state, _ = apply(state, play(0, "9S"))
    state, _ = apply(state, play(1, "KD"))
    result = scoring.result(state)
    assert rules.points(state, 1) == 0 and not state.marriages[1][0].credited
    assert (result.winner, result.game_points) == (0, (3, 0))


@pytest.mark.parametrize(("claimer_points", "closed", "expected"), [
    (70, False, (0, (1, 0), "claim_correct")),
    (40, False, (1, (0, 2), "claim_wrong")),
    (40, True, (1, (0, 3), "claim_wrong")),
])
def test_7_3_claims(claimer_points, closed, expected):
    stock = NINES_STOCK if closed else ""
    won0, won1 = _split(claimer_points, exclude=stock)
    in_hand = won1.split()[:2]
    won1 = " ".join(won1.split()[2:])
    state = position(hands=(in_hand[0], in_hand[1]), won=(won0, won1), leader=0, stock=stock,
                     options={"allow_claim": True}, claimed_by=0,
                     closed_by=0 if closed else None, snapshot=(0, 0) if closed else None)
    result = scoring.result(state)
    assert (result.winner, result.game_points, result.reason.value) == expected


def test_7_3_claim_with_marriage_records_it():
    state = position(hands=("9D 9C", "KH QH"), options={"allow_claim": True})
    state, events = apply(state, Claim(1, "H"))
    assert state.finished and state.claimed_by == 1
    assert state.marriages[1] == (rules.Marriage("H", 40, False),)
    assert events[-1].type == "hand_over"


# --- §7.5 party --------------------------------------------------------------------------------


def test_7_5_E11_party():
    result = scoring.HandResult(0, (2, 0), scoring.ResultReason.REACHED_66, (90, 30), (5, 1))
    party = scoring.party_after(scoring.Party((6, 7), False, None, 1), result, dealer=1, target=8)
    assert party == scoring.Party((8, 7), True, 0, 0)
    draw = scoring.HandResult(None, (0, 0), scoring.ResultReason.NO_66_DRAW, (60, 60), (6, 6))
    party = scoring.party_after(scoring.Party((6, 7), False, None, 1), draw, dealer=1, target=8)
    assert party == scoring.Party((6, 7), False, None, 1)


def test_7_5_score_carries_the_match():
    state = finished(88)
    answer = GAME.score(state, {"party_score": [6, 7], "over": False, "winner": None,
                                "next_dealer": 0})
    assert answer["match"] == {"party_score": [8, 7], "over": True, "winner": 0, "next_dealer": 0}
    assert answer["hand"]["game_points"] == [2, 0]


@pytest.mark.parametrize(("match", "pointer"), [
    ({"party_score": [6, 7], "over": True, "winner": 1, "next_dealer": 0}, "/match/over"),
    ({"party_score": [8, 7], "over": False, "winner": None, "next_dealer": 0}, "/match/party_score"),
    ({"party_score": [6, 7], "over": False, "winner": 0, "next_dealer": 0}, "/match/winner"),
    ({"party_score": [6, 7], "over": False, "winner": None, "next_dealer": 1}, "/match/next_dealer"),
], ids=["over", "target-reached", "winner", "dealer"])
def test_7_5_a_party_that_cannot_go_on_is_refused(match, pointer):
    with pytest.raises(InvalidMatch) as error:
        GAME.score(finished(88), match)
    assert error.value.errors[0].pointer == pointer
    with pytest.raises(InvalidMatch) as error:
        GAME.deal(DealSetup(2, 0, {}, match), SeedStream("party"))
    assert error.value.errors[0].pointer == ("/dealer" if pointer == "/match/next_dealer" else pointer)


def test_7_5_the_party_next_dealer_deals():
    match = {"party_score": [6, 7], "over": False, "winner": None, "next_dealer": 1}
    assert GAME.deal(DealSetup(2, None, {}, match), SeedStream("party")).dealer == 1


# --- consistency of incoming states ------------------------------------------------------------


@pytest.mark.parametrize(("change", "pointer"), [
    (lambda s: s["hands"][0].__setitem__(0, s["hands"][1][0]), "/hands/1/0"),
    (lambda s: s["stock"].pop(0), ""),
    (lambda s: s.__setitem__("to_move", 0), "/to_move"),
    (lambda s: s.__setitem__("trump_suit", "C"), "/trump_suit"),
    (lambda s: s.__setitem__("card_points", [1, 0]), "/card_points"),
    (lambda s: s.__setitem__("stock_closed_by", 1), "/closed_snapshot"),
    (lambda s: s["stock"].reverse(), "/stock/11"),
    (lambda s: s.__setitem__("status", "finished"), "/status"),
    (lambda s: s["marriages"][0].append({"suit": "C", "points": 20, "credited": True}),
     "/marriages/0/0/credited"),
    (lambda s: s["marriages"][0].append({"suit": "H", "points": 20, "credited": False}),
     "/marriages/0/0/points"),
], ids=["duplicate-card", "missing-card", "turn", "trump-suit", "card-points", "closed-no-snapshot",
        "trump-not-last", "status", "marriage-credited", "marriage-points"])
def test_inconsistent_states_are_refused(change, pointer):
    state = GAME.dump_state(OPEN)
    if pointer == "/hands/1/0":  # a card twice: the first hand's copy is seen first
        state["hands"][0][0] = state["hands"][1][0]
    else:
        change(state)
    with pytest.raises(InvalidState) as error:
        wire.load_state(state)
    found = error.value.errors[0].pointer
    assert found == pointer or (pointer == "/hands/1/0" and found.startswith("/hands/1/"))
