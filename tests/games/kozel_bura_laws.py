"""Kozel-Bura's laws for the all-games suite (tests/test_conformance.py): what a view hides, what
a finished hand's score satisfies, and every move of every shape."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from service.cards import CARDS
from service.games.tricks import sets
from tests.games.family_laws import _all_unplayed, _hidden_in_family, _trick_family_universe

OUT_OF_TURN = ("molodka",)
"""The move types a seat other than the one to move may make (§4.2(b), the molodka)."""


def hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    """The codes ``seat`` must not see: the stock under the trump card and the other hands."""
    return _hidden_in_family(state, seat, face_down=False)  # every card is played face up


def check_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    """Points add up to 120; a played-out hand has one top scorer, eggs double the match, and
    otherwise the winner pays nothing and every other seat 2, 4 or 6."""
    hand, points = answer["hand"], state["points"]
    assert sum(points) + sum(sets.CARD_VALUES[CARDS[c].rank] for c in _all_unplayed(state)) == 120
    if hand["reason"] == "played_out":
        assert sum(points) == 120 and points[hand["winner"]] == max(points)
        assert points.count(max(points)) == 1
    if hand["reason"] == "eggs":
        assert hand["penalties"] == [0] * len(points) and answer["match"]["multiplier"] == 2
    else:
        assert hand["penalties"][hand["winner"]] == 0
        assert all(p in (2, 4, 6) for s, p in enumerate(hand["penalties"]) if s != hand["winner"])
    assert answer["match"]["penalties"] == hand["penalties"]


def universe(state: Any) -> Iterator[Any]:
    """Every trick move (lead, molodka, beat, discard) of every card combination of every hand."""
    yield from _trick_family_universe(state)
