"""Sixty-six's laws for the all-games suite (tests/test_conformance.py): what a view hides, what
a finished hand's score satisfies, and every move of every shape."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from service.cards import CARDS
from service.games.sixty_six import rules as sixty_six


def hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    """The codes ``seat`` must not see: the stock under the face-up trump card, the other hand."""
    hidden = Counter(state["stock"][:-1])  # the face-up trump card is public while under the stock
    for other in (0, 1):
        if other != seat:
            hidden.update(state["hands"][other])
    return hidden


def check_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    """Card points add up to 120, game points are 0..3 and go to the winner only, or to no one."""
    hand = answer["hand"]
    unplayed = sum(sixty_six.CARD_VALUES[CARDS[c].rank]
                   for c in state["stock"] + state["hands"][0] + state["hands"][1])
    assert sum(hand["card_points"]) + unplayed == 120
    assert all(0 <= g <= 3 for g in hand["game_points"])
    assert hand["draw"] == (hand["winner"] is None) == (hand["game_points"] == [0, 0])
    if hand["winner"] is not None:
        assert hand["game_points"][1 - hand["winner"]] == 0 < hand["game_points"][hand["winner"]]


def universe(state: Any) -> Iterator[Any]:
    """For both seats: close, exchange the trump, claim (with and without a suit), and every card
    of the hand played plain and as a marriage."""
    for seat in (0, 1):
        yield from (sixty_six.Close(seat), sixty_six.ExchangeTrump(seat))
        yield from (sixty_six.Claim(seat, suit) for suit in (None, *"CDHS"))
        for card in state.hands[seat]:
            yield from (sixty_six.Play(seat, card), sixty_six.Play(seat, card, marriage=True))
