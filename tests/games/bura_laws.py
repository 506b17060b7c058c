"""Bura's laws for the all-games suite (tests/test_conformance.py): what a view hides, what a
finished hand's score satisfies, and every move of every shape."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from service.cards import CARDS
from service.games.bura import rules as bura
from service.games.tricks import sets
from tests.games.family_laws import _all_unplayed, _hidden_in_family, _trick_family_universe

OUT_OF_TURN = ("molodka",)
"""The move types a seat other than the one to move may make (§4.2(b), the molodka)."""


def hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    """The codes ``seat`` must not see: the stock under the trump card, the other hands, face-down
    plays of others, and (unless ``open_play``) the others' won piles."""
    return _hidden_in_family(state, seat, face_down=not state["options"]["open_play"])


def check_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    """Points add up to 120; claims and voids name the right winners and losers; the match
    scores add up to the hand's value per winner."""
    hand, points = answer["hand"], state["points"]
    assert not set(hand["winners"]) & set(hand["losers"])
    assert sum(points) + sum(sets.CARD_VALUES[CARDS[c].rank] for c in _all_unplayed(state)) == 120
    if hand["reason"] == "claim_correct":
        assert points[hand["seat"]] >= state["options"]["winning_points"] and hand["winners"] == [hand["seat"]]
    if hand["reason"] == "claim_false":
        assert points[hand["seat"]] < state["options"]["winning_points"] and hand["losers"] == [hand["seat"]]
    if hand["reason"] == "void":
        assert hand["winners"] == hand["losers"] == [] and answer["match"]["void_streak"] >= 1
    assert sum(answer["match"]["match_scores"]) == hand["value"] * len(hand["winners"])


def universe(state: Any) -> Iterator[Any]:
    """Every trick move of every card combination, and for every seat a claim, a pass and both
    declarations."""
    yield from _trick_family_universe(state)
    for seat in range(state.seats):
        yield from (bura.Claim(seat), bura.Pass(seat), bura.Declare(seat, "bura"), bura.Declare(seat, "moscow"))
