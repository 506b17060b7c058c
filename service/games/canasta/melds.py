"""Canasta's cards and melds, docs/rules/canasta.md §2, §4.1 and §7: what is wild, what a card
is worth, which meld a card belongs to, when a meld is valid or a canasta, the initial-meld
minimum, and a side's hand score. Everything depends on the variant, passed as its name."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from service.cards import CARDS, Card

CLASSIC, SEED_108, SEED_13 = "classic", "seed_108", "seed_13"
VARIANTS = (CLASSIC, SEED_108, SEED_13)
KEY_ORDER = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "W")
"""The meld keys in the listing's order (§4.13): a natural rank, ``3`` (black threes, or in
``seed_13`` every three), ``W`` the wild meld of ``seed_13``."""
WILD_KEY, THREE = "W", "3"
SUIT_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3}

_CLASSIC_VALUES = {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
                   "7": 5, "6": 5, "5": 5, "4": 5, "3": 5}
_SEED_13_VALUES = {"JK": 50, "2": 20, "A": 11, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9, "8": 8,
                   "7": 7, "6": 6, "5": 5, "4": 4, "3": 3}
CANASTA_BONUS = {CLASSIC: {"natural": 500, "mixed": 300}, SEED_108: {"natural": 500, "mixed": 300},
                 SEED_13: {"natural": 600, "mixed": 300, "wild": 1200}}


WILD = frozenset(CARDS[code] for code in ("JK", "2C", "2D", "2H", "2S"))
TWO = CARDS["2C"]
"""A 2, for what every 2 is worth."""
RED_THREES = frozenset((CARDS["3D"], CARDS["3H"]))
BLACK_THREES = frozenset((CARDS["3C"], CARDS["3S"]))
FITS_KEY = {rank: frozenset(CARDS[rank + suit] for suit in "CDHS") | WILD for rank in KEY_ORDER[:-1]}
"""The cards a natural meld of each key may hold, as sets, so that a whole meld or hand is tested
in C: loading the bench's states went from 146 to 54 µs on average."""


def threes_special(variant: str) -> bool:
    """Red threes are bonus cards and black threes stop the pile, except in ``seed_13`` (B2)."""
    return variant != SEED_13


def is_wild(card: Card) -> bool:
    return card in WILD


def is_red_three(card: Card, variant: str) -> bool:
    return card in RED_THREES and threes_special(variant)


def is_black_three(card: Card, variant: str) -> bool:
    return card in BLACK_THREES and threes_special(variant)


def _value(card: Card, variant: str) -> int:
    if is_red_three(card, variant):
        return 0
    return (_SEED_13_VALUES if variant == SEED_13 else _CLASSIC_VALUES)[card.rank]


VALUES = {variant: {card: _value(card, variant) for card in CARDS.values()} for variant in VARIANTS}
"""§2.3 by variant and card, a red three worth nothing where it is a bonus card. A table, since
the first meld's minimum sums it over every card of a move: the listing of a 138-card hand checks
1,090 melds, and summing by lookup took its points from 14 to 4 ms."""


def value(card: Card, variant: str) -> int:
    return VALUES[variant][card]


def points(cards: Iterable[Card], variant: str) -> int:
    return sum(map(VALUES[variant].__getitem__, cards))


def keys(variant: str) -> tuple[str, ...]:
    """The meld keys the variant has (§4.1.2)."""
    return KEY_ORDER if variant == SEED_13 else KEY_ORDER[:-1]


KEY_SETS = {variant: frozenset(keys(variant)) for variant in VARIANTS}


def meld_valid(key: str, cards: Sequence[Card], variant: str) -> bool:
    """§4.1.3, the meld as it stands after the move (the black-three meld's going-out condition
    is the move's to check)."""
    present = frozenset(cards)
    if key == WILD_KEY:
        return variant == SEED_13 and present <= WILD and len(cards) >= 3
    if key == THREE and threes_special(variant):
        return present <= BLACK_THREES and len(cards) >= 3
    if not present <= FITS_KEY[key]:
        return False
    wild = sum(map(WILD.__contains__, cards))
    return len(cards) >= 3 and len(cards) - wild >= 2 and wild <= 3


def canasta_kind(key: str, cards: Sequence[Card]) -> str | None:
    """§4.1.4: ``natural``, ``mixed`` or ``wild`` for a meld of seven or more cards, else None."""
    if len(cards) < 7:
        return None
    if key == WILD_KEY:
        return "wild"
    return "mixed" if any(is_wild(c) for c in cards) else "natural"


def canastas(melds: Mapping[str, Sequence[Card]]) -> int:
    return sum(1 for cards in melds.values() if len(cards) >= 7)


def min_req(score: int, variant: str, *, seats: int, base: int) -> int:
    """§4.1.6: the first meld's minimum for a side with ``score`` before this hand."""
    if variant == SEED_108:
        return base + 10 * (max(score, 0) // 1000)
    if variant == CLASSIC and score < 0:
        return 15
    if score < 1500:
        return 50
    if score < 3000:
        return 90
    return 150 if variant == CLASSIC and seats == 6 and score >= 7500 else 120


def red_three_value(count: int, *, big_deck: bool) -> int:
    """§7.1: 100 each, all four 800 (162 cards: five 1000, six 1200)."""
    if big_deck:
        return {5: 1000, 6: 1200}.get(count, 100 * count)
    return 800 if count == 4 else 100 * count


@dataclass(frozen=True, slots=True)
class SideScore:
    """§7.1, one side's hand score by its parts."""

    meld_points: int
    canasta_bonus: int
    red_three_points: int
    going_out_bonus: int
    hand_penalty: int

    @property
    def total(self) -> int:
        return (self.meld_points + self.canasta_bonus + self.red_three_points + self.going_out_bonus
                - self.hand_penalty)


def side_score(melds: Mapping[str, Sequence[Card]], red_threes: int, hands: Iterable[Sequence[Card]],
               *, variant: str, big_deck: bool, going_out_bonus: int) -> SideScore:
    bonus = CANASTA_BONUS[variant]
    kinds = [canasta_kind(key, cards) for key, cards in melds.items()]
    threes = red_three_value(red_threes, big_deck=big_deck) if threes_special(variant) else 0
    return SideScore(
        meld_points=sum(points(cards, variant) for cards in melds.values()),
        canasta_bonus=sum(bonus[k] for k in kinds if k is not None),
        red_three_points=threes if melds else -threes,
        going_out_bonus=going_out_bonus,
        hand_penalty=sum(points(hand, variant) for hand in hands),
    )


def sort_key(card: Card) -> tuple[int, int]:
    """Suits C D H S, a joker last: how the listing orders a key's cards (§4.13)."""
    return (SUIT_ORDER.get(card.suit or "", 4), 0)
