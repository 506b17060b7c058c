"""Canasta's laws for the all-games suite (tests/test_conformance.py): what a view hides, what a
finished hand's score satisfies, and the moves of every shape that the listing must offer.

Canasta's listing is the canonical subset of docs/rules/canasta.md §4.13 (validate takes any
legal grouping), so ``universe`` builds moves in that canonical form, written out again here: the
codes filled by the rule of §4.13, one-group melds and takes of every count, and the multi-group
moves of rules (2)-(4) with up to two extra groups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from service.cards import JOKER
from service.games.canasta import moves as mv
from service.games.canasta import rules as canasta

KEYS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "W")
SUITS = "CDHS"
VALUES = {"classic": {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
                      "7": 5, "6": 5, "5": 5, "4": 5, "3": 5},
          "seed_13": {"JK": 50, "2": 20, "A": 11, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9, "8": 8,
                      "7": 7, "6": 6, "5": 5, "4": 4, "3": 3}}


def value(code: str, variant: str) -> int:
    rank = "JK" if code == "JK" else code[:-1]
    if variant != "seed_13" and code in ("3D", "3H"):
        return 0
    return VALUES["seed_13" if variant == "seed_13" else "classic"][rank]


def hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    """The other seats' hands and the stock (the pile, the melds and red threes are public)."""
    hidden = Counter(state["stock"])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden.update(hand)
    return hidden


def check_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    """Each side's total is its parts; the parts are the melds' and hands' card values; only the
    side that went out has a going-out bonus; red threes count for a side with melds and against
    one without; the match adds the totals to the state's side scores."""
    hand, variant = answer["hand"], state["options"]["variant"]
    for side, score in enumerate(hand["sides"]):
        parts = ("meld_points", "canasta_bonus", "red_three_points", "going_out_bonus")
        assert score["total"] == sum(score[p] for p in parts) - score["hand_penalty"]
        melds = state["melds"][side]
        assert score["meld_points"] == sum(value(c, variant) for cards in melds.values() for c in cards)
        members = state["teams"][side]
        assert score["hand_penalty"] == sum(value(c, variant) for s in members for c in state["hands"][s])
        threes = sum(len(state["red_threes"][s]) for s in members)
        assert (score["red_three_points"] > 0) == (threes > 0 and bool(melds)) or threes == 0
        went = hand["went_out"]
        assert (score["going_out_bonus"] > 0) == (went is not None and went in members)
    totals = [b + s["total"] for b, s in zip(state["side_scores"], hand["sides"], strict=True)]
    assert answer["match"]["totals"] == totals


def _sorted(cards: list[Any]) -> list[Any]:
    return sorted(cards, key=lambda c: SUITS.index(c.suit))


class Hand:
    """The canonical code filling of §4.13 for one hand."""

    def __init__(self, cards: tuple[Any, ...]) -> None:
        self.naturals = {k: _sorted([c for c in cards if c.rank == k]) for k in KEYS if k != "W"}
        self.twos = _sorted([c for c in cards if c.rank == "2"])
        self.jokers = sum(1 for c in cards if c is JOKER)

    def fill(self, plan: list[tuple[str, tuple[int, int, int]]], twos_used: int = 0) -> tuple[Any, ...]:
        groups = []
        for key, (a, b, j) in plan:
            cards = (*self.naturals.get(key, [])[:a], *self.twos[twos_used:twos_used + b], *(JOKER,) * j)
            twos_used += b
            groups.append(canasta.Group(key, cards))
        return tuple(groups)

    def counts(self, key: str, *, twos: int | None = None, jokers: int | None = None,
               least: int = 1) -> Iterator[tuple[int, int, int]]:
        twos = len(self.twos) if twos is None else twos
        jokers = self.jokers if jokers is None else jokers
        for a in range(len(self.naturals.get(key, [])) + 1):
            for b in range(min(twos, 4) + 1):
                for j in range(min(jokers, 4) + 1):
                    if a + b + j >= least:
                        yield a, b, j


def universe(state: Any) -> Iterator[Any]:
    """For every seat: the moves without cards, each card discarded, every upcard show and joker
    exchange, one-group melds and plain takes of every count; for the seat to move also the
    multi-group melds and takes of §4.13 rules (2)-(4), up to two extra groups."""
    for seat, cards in enumerate(state.hands):
        hand = Hand(cards)
        yield from (mv.Draw(seat), mv.DeclinePile(seat), mv.AskGoOut(seat))
        yield from (mv.AnswerGoOut(seat, True), mv.AnswerGoOut(seat, False))
        yield from (mv.Discard(seat, c) for c in set(cards))
        if state.pile:
            rank = state.pile[0].rank
            shown = hand.naturals.get(rank, [])
            yield from (mv.TakeUpcard(seat, tuple(shown[:k])) for k in range(2, len(shown) + 1))
            for counts in [(0, 0, 0), *hand.counts(rank)]:
                yield mv.TakePile(seat, hand.fill([(rank, counts)])[0].cards)
        for side, melds in enumerate(state.melds):
            for key in melds:
                for card in {c.code: c for c in cards if c.rank == key}.values():
                    yield mv.ExchangeJoker(seat, side, key, card)
        for key in KEYS:
            for counts in hand.counts(key):
                yield mv.Meld(seat, hand.fill([(key, counts)]))
        if seat == state.to_move:
            yield from _multi_melds(state, seat, hand)
            yield from _multi_takes(state, seat, hand)


def _points(plan: list[tuple[str, tuple[int, int, int]]], variant: str) -> list[int]:
    return [a * (value(key + "C", variant) if a else 0) + 20 * b + 50 * j for key, (a, b, j) in plan]


def _new_groups(hand: Hand) -> list[tuple[str, tuple[int, int, int]]]:
    return [(key, c) for key in KEYS for c in hand.counts(key, least=3)
            if (c[0] >= 2 and c[1] + c[2] <= 3) or (key == "W" and c[0] == 0)]


def _multi_melds(state: Any, seat: int, hand: Hand) -> Iterator[Any]:
    side = state.side_of(seat)
    cards = state.hands[seat]
    if not state.melds[side]:
        minimum = canasta.min_req(state, side)
        for pair in combinations(_new_groups(hand), 2):
            plan = sorted(pair, key=lambda g: KEYS.index(g[0]))
            if plan[0][0] == plan[1][0] or sum(c[1] for _, c in plan) > len(hand.twos) or \
                    sum(c[2] for _, c in plan) > hand.jokers:
                continue
            worth = _points(plan, state.variant)
            used = sum(sum(c) for _, c in plan)
            if sum(worth) - min(worth) < minimum or len(cards) - used <= 1:
                yield mv.Meld(seat, hand.fill(plan))
    elif len(cards) == 2:
        for keys in combinations(KEYS, 2):
            for a, b in ((cards[0], cards[1]), (cards[1], cards[0])):
                plan = [(keys[0], _single(a)), (keys[1], _single(b))]
                if all(plan[i][0] == card.rank or card.rank in ("2", "JK") for i, card in enumerate((a, b))):
                    yield mv.Meld(seat, hand.fill(plan))


def _single(card: Any) -> tuple[int, int, int]:
    return (0, 1, 0) if card.rank == "2" else (0, 0, 1) if card is JOKER else (1, 0, 0)


def _multi_takes(state: Any, seat: int, hand: Hand) -> Iterator[Any]:
    if not state.pile or state.pile[0].rank in ("2", "JK"):
        return
    top, side, cards = state.pile[0], state.side_of(seat), state.hands[seat]
    rank = top.rank
    gain = len(state.pile) - 1 - sum(1 for c in state.pile[1:] if c.code in ("3D", "3H")
                                     and state.variant != "seed_13")
    for counts in [(0, 0, 0), *hand.counts(rank)]:
        top_cards = hand.fill([(rank, counts)])[0].cards
        rest = Hand((*(c for c in cards if c.rank not in (rank, "2") and c is not JOKER),
                     *hand.twos[counts[1]:], *(JOKER,) * (hand.jokers - counts[2])))
        left = len(cards) - sum(counts) + gain
        if not state.melds[side]:
            minimum = canasta.min_req(state, side)
            base = value(top.code, state.variant) + sum(value(c.code, state.variant) for c in top_cards)
            for group in _new_groups(rest):
                if group[0] == rank:
                    continue
                worth = _points([group], state.variant)[0]
                if base + worth >= minimum > base or left - sum(group[1]) <= 1:
                    yield mv.TakePile(seat, top_cards, rest.fill([group]))
        elif left == 1:
            for key in state.melds[side]:
                for single in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
                    if key != rank:
                        yield mv.TakePile(seat, top_cards, rest.fill([(key, single)]))

