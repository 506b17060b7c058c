"""Bezique's laws for the all-games suite (tests/test_conformance.py): what a view hides, what a
finished hand's score satisfies, and every move of every shape.

The declarations of ``universe`` come from the table of docs/rules/bezique.md §4.5 written out
again here, by brute force over the cards that could belong to each kind, in the canonical form
of §4.6, so that the game's own listing is checked against an independent one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement, product
from typing import Any

from service.cards import CARDS, JOKER
from service.games.bezique import rules as bezique

SUITS = "CDHS"
RANKS = ("A", "10", "K", "Q", "J", "9")
ORDER = {CARDS[r + s]: i for i, (s, r) in enumerate(product(SUITS, RANKS))}
IDENTITIES = sorted(ORDER, key=ORDER.__getitem__)
SAME_COLOUR = {"H": "D", "D": "H", "C": "S", "S": "C"}


def hidden(state: dict[str, Any], seat: int | None) -> Counter[str]:
    """The other seats' hands, the stock but its face-up last card, and every card won."""
    hidden = Counter(state["stock"][:-1])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden.update(hand)
    for won in state["won_cards"]:
        hidden.update(won)
    return hidden


def check_score(state: dict[str, Any], answer: dict[str, Any]) -> None:
    """The hand's scores are the state's; the dealer who sits out scores nothing; the winners
    have the top score; the match totals are the scores; the stock ran short (§5.3) after
    floor(S0 / a) tricks; the optional brisques and last trick are in the scores."""
    hand, active, options = answer["hand"], state["active"], state["options"]
    assert hand["scores"] == state["scores"] == answer["match"]["totals"]
    assert all(hand["scores"][s] == 0 for s in range(state["seats"]) if s not in active)
    top = max(hand["scores"][s] for s in active)
    assert hand["hand_winners"] == [s for s in active if hand["scores"][s] == top]
    deck = 20 * options["packs"] + 12 + options["wild_cards"]
    assert hand["tricks_played"] == (deck - 18 * len(active)) // len(active)
    assert len(state["stock"]) < len(active)
    for seat in active:
        brisques = sum(1 for c in state["won_cards"][seat] if c[:-1] in ("A", "10"))
        bonus = options["last_trick_bonus"] if seat == hand["last_trick_winner"] else 0
        assert hand["scores"][seat] >= brisques * options["brisque_value"] + bonus


def kinds(trump: str) -> dict[str, list[tuple[set[Any], int]]]:
    """§4.5: each kind as groups of (identities, cards per set)."""
    def t(rank: str) -> Any:
        return CARDS[rank + trump]
    bj = CARDS["J" + SAME_COLOUR[trump]]
    table: dict[str, list[tuple[set[Any], int]]] = {
        "bezique": [({t("Q")}, 1), ({bj}, 1)],
        "trump_marriage": [({t("K")}, 1), ({t("Q")}, 1)],
        "trump_quint": [({t("A")}, 1), ({t("10")}, 1), ({t("K")}, 1), ({t("Q")}, 1), ({t("J"), bj}, 1)],
        "four_bezique_jacks": [({bj}, 4)],
        "extra_bezique_jack": [({bj}, 1)],
    }
    for word, rank in (("ace", "A"), ("ten", "10"), ("king", "K"), ("queen", "Q"), ("jack", "J")):
        if rank != "10":
            table[f"four_{word}s"] = [({CARDS[rank + s] for s in SUITS}, 4)]
        table[f"four_trump_{word}s"] = [({t(rank)}, 4)]
        table[f"extra_trump_{word}"] = [({t(rank)}, 1)]
    return table


def universe(state: Any) -> Iterator[Any]:
    """For every seat: pass, the exchange, every card of the hand played (a wild card as every
    identity and as none, a natural card with an identity), every exposed card played (with and
    without an identity), and every declaration of every kind, once or twice, from the cards that
    could belong to it."""
    for seat, hand in enumerate(state.hands):
        yield bezique.Pass(seat)
        yield bezique.ExchangeTrump(seat)
        for card in set(hand):
            yield bezique.Play(seat, card)
            yield bezique.Play(seat, card, CARDS["QS"])
            if card is JOKER:
                yield from (bezique.Play(seat, card, x) for x in IDENTITIES)
        for shown in state.exposed[seat]:
            yield bezique.Play(seat, exposed_id=shown.id)
            yield bezique.Play(seat, as_=shown.as_, exposed_id=shown.id)
        for kind, groups in kinds(state.trump_suit).items():
            for m in (1,) if kind.startswith("extra") else (1, 2):
                yield from _declarations(state, seat, kind, groups, m)


def _declarations(state: Any, seat: int, kind: str, groups: list[tuple[set[Any], int]],
                  m: int) -> Iterator[Any]:
    relevant = set().union(*(ids for ids, _ in groups))
    size = m * sum(n for _, n in groups)
    naturals = Counter(c for c in state.hands[seat] if c in relevant)
    jokers = state.hands[seat].count(JOKER)
    classes: dict[Any, list[int]] = {}
    for shown in sorted(state.exposed[seat], key=lambda e: e.id):
        if shown.as_ in relevant:
            classes.setdefault((shown.card, shown.as_, shown.tags), []).append(shown.id)
    natural_codes = sorted(naturals, key=ORDER.__getitem__)
    wild = [w for j in range(min(jokers, size) + 1)
            for w in combinations_with_replacement(sorted(relevant, key=ORDER.__getitem__), j)]
    ranges = [range(min(naturals[c], size) + 1) for c in natural_codes]
    ranges += [range(min(len(ids), size) + 1) for ids in classes.values()]
    for counts in product(*ranges):
        taken = sum(counts)
        for nominated in wild:
            if taken + len(nominated) != size:
                continue
            hand = [(c, None) for c, k in zip(natural_codes, counts, strict=False) for _ in range(k)]
            hand += [(JOKER, x) for x in nominated]
            if not hand:
                continue
            table = counts[len(natural_codes):]
            ids = sorted(i for ids, k in zip(classes.values(), table, strict=True) for i in ids[:k])
            yield bezique.Declare(seat, kind, m, tuple(hand), tuple(ids))
