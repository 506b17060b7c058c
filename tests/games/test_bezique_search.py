"""What Bezique gives the search (service/games/bezique/advice.py) beyond the playouts' policy:
the promise weighed by the time left to make it good (``kept``), and the cheap test that spares
the playout a declaration it cannot fill (``_enough``)."""

from __future__ import annotations

import pytest

from service.cards import CARDS
from service.games.bezique import advice
from service.games.bezique.advice import kept, value
from service.games.bezique.greedy import Holding, Odds
from tests.games.bezique_positions import position


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
        promise = Holding.of(state, 0).promise(odds) - Holding.of(state, 1).promise(odds)
        assert promise > 100
        assert value(state, 0) == pytest.approx(share * promise)
        assert value(state, 1) == pytest.approx(-share * promise)


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
