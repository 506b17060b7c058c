"""Laws shared by the Bura family (Bura and Kozel-Bura) for the all-games suite: what a seat
may not see, the cards not yet played, and every trick move of every shape."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from service.games.tricks import sets


def _hidden_in_family(state: dict[str, Any], seat: int | None, *, face_down: bool) -> Counter[str]:
    hidden = Counter(state["stock"][:-1])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden.update(hand)
            if face_down:
                hidden.update(state["won"][other])
    for play in (state["trick"] or {"plays": []})["plays"]:
        if play["face_down"] and play["seat"] != seat:
            hidden.update(play["cards"])
    return hidden


def _all_unplayed(state: dict[str, Any]) -> list[str]:
    trick = [c for p in (state["trick"] or {"plays": []})["plays"] for c in p["cards"]]
    return state["stock"] + [c for h in state["hands"] for c in h] + trick


def _trick_family_universe(state: Any) -> Iterator[Any]:
    for seat, hand in enumerate(state.hands):
        for size in (1, 2, 3):
            for cards in dict.fromkeys(combinations(hand, size)):
                yield sets.Lead(seat, cards)
                yield sets.Molodka(seat, cards)
                yield sets.Respond(seat, cards, "beat")
                yield sets.Respond(seat, cards, "discard")
