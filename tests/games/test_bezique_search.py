"""What Bezique gives the search (service/games/bezique/advice.py) beyond the playouts' policy:
the promise weighed by the time left to make it good (``kept``), the trump quints it adds to the
greedy player's promise (``quint_promise``), the cheap test that spares the playout a
declaration it cannot fill (``_enough``), and the order in which the search takes its candidates
(``ranked``)."""

from __future__ import annotations

import time

import pytest

from service.cards import CARDS
from service.games.bezique import advice
from service.games.bezique.advice import ADVICE, kept, value
from service.games.bezique.greedy import READY, Holding, Odds, greedy, ranked
from service.games.bezique.rules import Declare, Move, Pass, Play, State
from service.player import Effort, suggest
from tests.games.bezique_positions import GAME, position, shown


def test_the_promise_is_kept_whole_while_there_is_time() -> None:
    assert kept(69) == kept(12) == 1.0
    assert kept(0) == pytest.approx(0.4) and kept(1) == pytest.approx(0.455)
    assert all(kept(d) <= kept(d + 1) for d in range(69))


def test_a_ready_four_counts_less_with_one_draw_left() -> None:
    """Four trump queens in hand, one trick before the stock runs out (138 - 2 × 68 = 2 cards):
    the seat may not win a trick to show them (§4.3.2), and they count for nothing after (§5.3)."""
    late = position(hands={0: "QH QH QH QH"}, tricks_played=68)
    early = position(hands={0: "QH QH QH QH"}, tricks_played=10)
    for state, share in ((late, 0.455), (early, 1.0)):
        odds = Odds.of(state)
        promise = advice.promise(state, 0, odds) - advice.promise(state, 1, odds)
        assert promise > 100
        assert value(state, 0) == pytest.approx(share * promise)
        assert value(state, 1) == pytest.approx(-share * promise)


def test_a_trump_quint_in_hand_counts_up_its_ladder() -> None:
    """A trump quint held (the bezique jack ends it as well as the trump jack) adds its points to
    the seat's value, 50 then 100 once one is declared (§7.1), by ``kept`` of them: the greedy
    player's promise leaves it out. One draw left: no other quint is likely to be completed."""
    for hand in ("AH 10H KH QH JH", "AH 10H KH QH JD"):
        for declared, points in ((0, 50), (1, 100)):
            state = position(hands={0: hand}, tricks_played=68, decl_counts={0: {"trump_quint": declared}})
            odds = Odds.of(state)
            beyond = value(state, 0) - kept(odds.draws) * (
                Holding.of(state, 0).promise(odds) - Holding.of(state, 1).promise(odds))
            assert kept(odds.draws) * READY * points <= beyond < kept(odds.draws) * READY * points * 1.1


def test_a_quint_short_of_a_card_counts_by_the_chance_to_draw_it() -> None:
    """Four of a quint's five cards: worth more with the whole stock to draw from than with a
    single draw left, and the exposed cards of a trump marriage (the royal family, §4.3.7) fill
    none of it, while a card shown in a bezique does."""
    early = position(hands={0: "AH 10H KH QH"}, tricks_played=10)
    late = position(hands={0: "AH 10H KH QH"}, tricks_played=68)
    assert advice.quint_promise(early, 0, Odds.of(early)) > 0.8 * READY * 50
    assert advice.quint_promise(late, 0, Odds.of(late)) < 0.1 * READY * 50
    married = position(hands={0: "AH 10H JH"}, exposed={0: [shown("KH", "trump_marriage"),
                                                            shown("QH", "trump_marriage")]},
                       tricks_played=68)
    in_a_bezique = position(hands={0: "AH 10H KH JH"}, exposed={0: [shown("QH", "bezique"), shown("JD", "bezique")]},
                            tricks_played=68)
    assert advice.quint_promise(married, 0, Odds.of(married)) < 0.1 * READY * 50
    assert advice.quint_promise(in_a_bezique, 0, Odds.of(in_a_bezique)) >= READY * 50


def _groups(kind: str) -> advice.Groups:
    return next(groups for name, _, groups in advice._kinds("H") if name == kind)


def test_a_set_is_enough_with_wild_cards_or_exposed_cards_to_fill_it() -> None:
    queens = _groups("four_trump_queens")
    qh, jd = CARDS["QH"], CARDS["JD"]
    assert not advice._enough(queens, {qh: 3}, 0)
    assert advice._enough(queens, {qh: 3}, 1)
    assert not advice._enough(queens, {qh: 2, jd: 2}, 1)
    quint = _groups("trump_quint")
    four = {CARDS[c]: 1 for c in ("AH", "10H", "KH", "QH")}
    assert not advice._enough(quint, four, 0)
    assert advice._enough(quint, {**four, jd: 1}, 0)  # the bezique jack ends it too
    assert advice._enough(quint, four, 1)


def _ranked(state: State, seat: int) -> list[Move]:
    moves = GAME.legal_moves(state, seat)
    first = greedy(state, seat, moves)
    return ranked(state, seat, [first, *(m for m in moves if m != first)])


def _played(moves: list[Move]) -> list[str]:
    return [m.card.code for m in moves if isinstance(m, Play) and m.card is not None]


def test_the_first_candidates_take_the_trick_and_throw_a_card_alike() -> None:
    """Hearts trumps, the ace of clubs led: a plain card thrown and the trump nine that covers
    (greedy's) first, then the next of each choice: the other plain card and the next trump."""
    state = position(hands={0: "KH AH JH 9H" + " 10D" * 7 + " 10S" * 7}, trick=["AC"], phase="follow",
                     trump_suit="H")
    assert _played(_ranked(state, 0)) == ["10D", "9H", "10S", "JH", "KH", "AH"]


def test_the_ranked_declarations_put_what_scores_before_the_pass() -> None:
    """Four trump queens (176) first, then the bezique, before the pass; four plain queens,
    which would spoil the trump queens (§4.3.7), after it."""
    state = position(hands={1: "QH QH QH QH JD QS QC"}, phase="declare", trump_suit="H")
    order = _ranked(state, 1)
    kinds = [m.declaration if isinstance(m, Declare) else "pass" for m in order if isinstance(m, (Declare, Pass))]
    assert kinds[0] == "four_trump_queens"
    assert kinds.index("bezique") < kinds.index("pass") < kinds.index("four_queens")


def test_cards_alike_are_ranked_once() -> None:
    """Two exposed trump queens shown in the same declaration cost the holding alike: one of them
    is ranked."""
    state = position(hands={1: "10D"}, exposed={1: [shown("QH", "bezique"), shown("QH", "bezique"),
                                                   shown("JD", "bezique"), shown("JD", "bezique")]},
                     trump_suit="H")
    plays = [m for m in _ranked(state, 1) if isinstance(m, Play) and m.exposed_id is not None]
    assert len(GAME.legal_moves(state, 1)) == len(_ranked(state, 1)) + 2
    assert len(plays) == 2


def test_the_candidates_are_the_ranked_ones_whatever_the_seed() -> None:
    """Past the shortlist the search weighs greedy's move and the first others ranked, on any
    seed."""
    state = position(hands={0: "KH AH JH 9H QS KC AC JS" + " 10D" * 5 + " 10S" * 5}, trick=["AD"], phase="follow",
                     trump_suit="H")
    assert len(GAME.legal_moves(state, 0)) > ADVICE.shortlist
    weighed = [{w.move for w in suggest(GAME, state, 0, seed=seed, effort=Effort(2, time.perf_counter() + 5)).weighed}
               for seed in ("a", "b")]
    assert weighed[0] == weighed[1] == set(_ranked(state, 0)[:ADVICE.shortlist])
