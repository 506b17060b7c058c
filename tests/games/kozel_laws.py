"""Kozel's laws for the all-games suite (tests/test_conformance.py): what a view hides, what a
finished hand's score satisfies, and every move of every shape."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import permutations
from typing import Any

from service.games.kozel import rules as kozel


def hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    """The codes ``seat`` must not see: the undealt cards and the other hands, less the cards
    turned to fix trump and, for the giver's team, the trump card passed."""
    hidden = Counter(state["undealt"])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden.update(hand)
    hidden -= Counter(state["turned"])  # shown to everyone when trump was fixed
    received = state["received_trump"]
    if received and seat is not None and kozel.team_of(seat) == kozel.team_of(state["to_move"]):
        hidden -= Counter([received])  # the giver knows the card it passed
    return hidden


def check_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    """Points add up to 120; without the queen of clubs captured, eggs are 60-60 and otherwise only
    the losing team opens 1 to 3 pairs; the match records the pairs opened."""
    hand = answer["hand"]
    assert sum(hand["points"]) == 120
    if hand["qc_captured_team"] is None:
        assert hand["eggs"] == (hand["points"] == [60, 60])
        if not hand["eggs"]:
            loser = hand["points"].index(min(hand["points"]))
            assert hand["pairs_opened_this_hand"][loser] in (1, 2, 3)
            assert hand["pairs_opened_this_hand"][1 - loser] == 0
    assert answer["match"]["pairs_opened"] == hand["pairs_opened_this_hand"]


def universe(state: Any) -> Iterator[Any]:
    """For every seat: a pass, every card of its hand played, given as trump and given back, and
    every trump naming (every suit or none, by last card or not, every seat order or none)."""
    orders = [None, *permutations(range(kozel.SEATS))]
    for seat, hand in enumerate(state.hands):
        yield kozel.Pass(seat)
        for card in hand:
            yield from (kozel.Play(seat, card), kozel.GiveTrump(seat, card), kozel.GiveBack(seat, card))
        for suit in (None, *"CDHS"):
            for by_last in (False, True):
                yield from (kozel.NameTrump(seat, suit, by_last, order) for order in orders)
