"""Bezique's declarations ("pokazki"), docs/rules/bezique.md §4.3, §4.5-§4.6 and §7.1: the kinds
and their families, what makes m complete sets, what each is worth, and every legal declaration
of a holding in the canonical form of §4.6.

A kind's set is a few *groups*, each a set of identities and how many cards of them one set takes
(a quint: one each of AT 10T KT QT, and one of JT or BJ). Groups of a kind never share an identity,
so a declaration is m sets exactly when each group holds m times its count and no card is left
over. The declarations of a kind and multiplicity are therefore the ways to fill one *slot* per
group from the seat's sources (natural cards in the hand, wild cards nominated, classes of exposed
cards): ``Choices`` says so, counts them by combinatorics without building them, and ``expand``
builds them when they are few enough to list (§4.6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain, combinations_with_replacement, product
from math import comb, prod

from service.cards import CARDS, JOKER, SUITS, Card

RANKS = ("A", "10", "K", "Q", "J", "9")
"""The canonical order of §4.6 (suits C D H S, ranks A 10 K Q J 9), also used for sorting."""
IDENTITIES: tuple[Card, ...] = tuple(CARDS[r + s] for s in SUITS for r in RANKS)
"""The 24 real cards a wild card may stand for (§4.2)."""
_ORDER = {card: index for index, card in enumerate(IDENTITIES)}
BEZIQUE_JACK = {"H": "JD", "D": "JH", "C": "JS", "S": "JC"}
"""§2.4: the jack of the other suit of trump's colour."""

LADDERED = ("bezique", "trump_quint", "trump_marriage")
"""The kinds whose value doubles with each earlier declaration (``decl_counts`` order)."""
LADDER_BASE = {"bezique": 25, "trump_quint": 50, "trump_marriage": 4}
FOUR_RANKS = {"aces": "A", "tens": "10", "kings": "K", "queens": "Q", "jacks": "J"}
PLAIN_FOURS = {"four_aces": 10, "four_kings": 8, "four_queens": 6, "four_jacks": 4}
TRUMP_FOURS = {"four_trump_aces": 110, "four_trump_tens": 90, "four_trump_kings": 88,
               "four_trump_queens": 176, "four_trump_jacks": 44}
FOUR_VALUES = {**PLAIN_FOURS, **TRUMP_FOURS, "four_bezique_jacks": 164}
_HIGH_EXTRAS = (100, 200, 400, 1152)
_LOW_EXTRAS = (50, 100, 200, 576)
EXTRA_VALUES = {"extra_trump_ace": _LOW_EXTRAS, "extra_trump_ten": _LOW_EXTRAS,
                "extra_trump_king": _LOW_EXTRAS, "extra_trump_queen": _HIGH_EXTRAS,
                "extra_trump_jack": _LOW_EXTRAS, "extra_bezique_jack": _HIGH_EXTRAS}
"""§7.1: the fifth, sixth, seventh and eighth card of a category."""
EXTRA_OF = {"extra_trump_ace": "four_trump_aces", "extra_trump_ten": "four_trump_tens",
            "extra_trump_king": "four_trump_kings", "extra_trump_queen": "four_trump_queens",
            "extra_trump_jack": "four_trump_jacks", "extra_bezique_jack": "four_bezique_jacks"}
"""Each extra kind and the four it extends (§4.5 e)."""

KINDS: tuple[str, ...] = (*LADDERED, *PLAIN_FOURS, *TRUMP_FOURS, "four_bezique_jacks", *EXTRA_OF)
FAMILY = {
    "bezique": "bezique", "trump_marriage": "royal", "trump_quint": "royal",
    "four_aces": "fourA", "four_trump_aces": "fourA", "extra_trump_ace": "fourA",
    "four_trump_tens": "four10", "extra_trump_ten": "four10",
    "four_kings": "fourK", "four_trump_kings": "fourK", "extra_trump_king": "fourK",
    "four_queens": "fourQ", "four_trump_queens": "fourQ", "extra_trump_queen": "fourQ",
    "four_jacks": "fourJ", "four_trump_jacks": "fourJ", "four_bezique_jacks": "fourJ",
    "extra_trump_jack": "fourJ", "extra_bezique_jack": "fourJ",
}
"""§4.5: a card scores at most once in a family."""
KINDS_OF_FAMILY = {f: frozenset(k for k in KINDS if FAMILY[k] == f) for f in set(FAMILY.values())}


def canonical_key(card: Card) -> int:
    return _ORDER[card]


def points(kind: str, n_prev: int, m: int, c: int = 0) -> int:
    """§7.1: ``n_prev`` earlier declarations of a laddered kind, multiplicity ``m``, and for an
    extra the new exposed count ``c`` (the ninth card starts the run again: c - 4)."""
    if kind in LADDER_BASE:
        return m * LADDER_BASE[kind] << n_prev
    if kind in FOUR_VALUES:
        return m * FOUR_VALUES[kind]
    return EXTRA_VALUES[kind][(c - 5) % 4]


Group = tuple[frozenset[Card], int]


@dataclass(frozen=True, slots=True)
class KindRule:
    """One kind under one trump suit: its groups (identities, cards per set)."""

    kind: str
    family: str
    groups: tuple[Group, ...]
    identities: frozenset[Card]
    """Every identity a card of this kind can have."""

    @property
    def extra(self) -> bool:
        return self.kind in EXTRA_OF


@cache
def rules_for(trump: str) -> dict[str, KindRule]:
    """Every kind's groups once trump is ``trump``."""
    def t(rank: str) -> Card:
        return CARDS[rank + trump]

    bj = CARDS[BEZIQUE_JACK[trump]]

    def one(*cards: Card) -> tuple[Group, ...]:
        return tuple((frozenset([c]), 1) for c in cards)

    groups: dict[str, tuple[Group, ...]] = {
        "bezique": one(t("Q"), bj),
        "trump_marriage": one(t("K"), t("Q")),
        "trump_quint": (*one(t("A"), t("10"), t("K"), t("Q")), (frozenset([t("J"), bj]), 1)),
        "four_bezique_jacks": ((frozenset([bj]), 4),),
        "extra_bezique_jack": ((frozenset([bj]), 1),),
    }
    for plural, rank in FOUR_RANKS.items():
        if rank != "10":
            groups[f"four_{plural}"] = ((frozenset(CARDS[rank + s] for s in SUITS), 4),)
        groups[f"four_trump_{plural}"] = ((frozenset([t(rank)]), 4),)
        groups[f"extra_trump_{plural[:-1]}"] = ((frozenset([t(rank)]), 1),)
    return {kind: KindRule(kind, FAMILY[kind], groups[kind], frozenset().union(*(i for i, _ in groups[kind])))
            for kind in KINDS}


def category(kind: str, trump: str) -> Card:
    """The card an extra kind adds (§4.5 e)."""
    (ids, _), = rules_for(trump)[kind].groups
    (card,) = ids
    return card


def counts_toward_extra(kind: str, tags: frozenset[str]) -> bool:
    """An exposed card of the category counts toward an extra when it scored in the four or in
    an earlier extra of the same kind (§4.5 e)."""
    return kind in tags or EXTRA_OF[kind] in tags


def is_sets(rule: KindRule, identities: Sequence[Card], m: int) -> bool:
    """§4.3.8: the identities make exactly ``m`` complete sets of the kind, nothing left over."""
    found: Counter[int] = Counter()
    for card in identities:
        index = next((i for i, (ids, _) in enumerate(rule.groups) if card in ids), None)
        if index is None:
            return False
        found[index] += 1
    return all(found[i] == m * count for i, (_, count) in enumerate(rule.groups))


# --- listing (§4.6) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableClass:
    """The seat's exposed cards alike in card, identity and tags, lowest id first: interchangeable
    in a declaration (§4.6)."""

    identity: Card
    tags: frozenset[str]
    ids: tuple[int, ...]


HandEntry = tuple[Card, Card | None]
"""A card from the hand and, for a wild card, the identity it is nominated as."""
Choice = tuple[tuple[HandEntry, ...], tuple[int, ...]]
"""A declaration's cards in canonical form: hand entries, table ids."""


@dataclass(frozen=True, slots=True)
class Source:
    """Where cards of a slot may come from, and how many at most: the natural cards of one
    identity in the hand, wild cards nominated as it (``wild``), or one table class (``ids``, its
    lowest ids, as many as ``most``)."""

    identity: Card
    most: int
    wild: bool = False
    ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Slot:
    """One group of the kind (§4.5) for m sets: ``count`` cards from ``sources``."""

    count: int
    sources: tuple[Source, ...]


@dataclass(frozen=True, slots=True)
class Choices:
    """Every legal declaration of one kind and multiplicity, in canonical form, factored: fill
    each slot with exactly its count, each source giving at most its ``most``, the wild cards
    together at most ``jokers``, and at least one card from the hand (§4.3.6). ``count`` is how
    many declarations that makes, counted without building them."""

    kind: str
    multiplicity: int
    slots: tuple[Slot, ...]
    jokers: int
    count: int


def choices(rule: KindRule, naturals: Counter[Card], jokers: int, classes: Sequence[TableClass],
            extra_count: int) -> Iterator[Choices]:
    """The legal declarations of one kind, one ``Choices`` a multiplicity: the seat's concealed
    natural cards and wild cards, its exposed cards grouped in ``classes``, and for an extra the
    count q of category cards already counted (§4.5 e). m stops at the first multiplicity with no
    declaration: fewer cards never make more sets."""
    if not jokers and rule.identities.isdisjoint(naturals):
        return  # every declaration puts a card from the hand
    if rule.extra:
        if extra_count >= 4:
            yield _choices(rule, 1, naturals, jokers, ())
        return
    usable = [c for c in classes if not c.tags & KINDS_OF_FAMILY[rule.family]]
    m = 1
    while (found := _choices(rule, m, naturals, jokers, usable)).count:
        yield found
        m += 1


def _choices(rule: KindRule, m: int, naturals: Counter[Card], jokers: int,
             classes: Sequence[TableClass]) -> Choices:
    slots = tuple(Slot(n * m, _sources(ids, n * m, naturals, jokers, classes)) for ids, n in rule.groups)
    fillings = [_Fillings(slot) for slot in slots]
    count = sum(prod(f.count(j, hand) for f, (j, hand) in zip(fillings, shape, strict=True))
                for shape in _shapes(len(slots), jokers))
    return Choices(rule.kind, m, slots, jokers, count)


def _sources(ids: frozenset[Card], need: int, naturals: Counter[Card], jokers: int,
             classes: Sequence[TableClass]) -> tuple[Source, ...]:
    ordered = sorted(ids, key=_ORDER.__getitem__)
    found = [Source(c, min(naturals[c], need)) for c in ordered if naturals[c]]
    if jokers:
        found += [Source(c, min(jokers, need), wild=True) for c in ordered]
    found += [Source(c.identity, min(len(c.ids), need), ids=c.ids[:need])
              for c in classes if c.identity in ids]
    return tuple(found)


Shape = tuple[tuple[int, bool | None], ...]
"""Per slot: how many wild cards it takes, and whether it takes a natural card from the hand
(True), takes no card from the hand at all (False), or either (None)."""


@cache
def _shapes(slots: int, jokers: int) -> tuple[Shape, ...]:
    """Shapes that part a kind's declarations, each declaration in exactly one: without wild
    cards, by the first slot with a natural card from the hand (§4.3.6: there is one); with them,
    by how many each slot takes (at most ``jokers`` in all)."""
    found: list[Shape] = [((0, False),) * first + ((0, True),) + ((0, None),) * (slots - first - 1)
                          for first in range(slots)]
    for j in range(1, jokers + 1):
        found += [tuple((chosen.count(i), None) for i in range(slots))
                  for chosen in combinations_with_replacement(range(slots), j)]
    return tuple(found)


Fill = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""One slot's cards: its natural cards and its wild cards' nominations (as places in the
canonical order), and its table ids."""
_AS_NATURAL = tuple((c, None) for c in IDENTITIES)
_AS_WILD = tuple((JOKER, c) for c in IDENTITIES)


class _Fillings:
    """One slot's fillings, counted by how many natural, wild and table cards they take (a wild
    card may be any identity of the slot): counting never builds one, and listing builds only
    those that belong to a declaration."""

    def __init__(self, slot: Slot) -> None:
        self.need = slot.count
        self.naturals = tuple(s for s in slot.sources if not s.wild and not s.ids)
        self.wild = tuple(_ORDER[s.identity] for s in slot.sources if s.wild)
        self.table = tuple(s for s in slot.sources if s.ids)
        self.by_natural, self.by_table = _spread(self.naturals, self.need), _spread(self.table, self.need)
        self.counts: dict[tuple[int, bool | None], int] = {}

    def _naturals(self, j: int, hand: bool | None) -> range:
        """How many natural cards a filling of this shape may take."""
        if hand is False:
            return range(0, 1 if j == 0 else 0)
        return range(1 if hand and not j else 0, self.need - j + 1)

    def count(self, j: int, hand: bool | None) -> int:
        if (j, hand) not in self.counts:  # a slot meets the same few shapes again and again
            rest = self.need - j
            self.counts[j, hand] = _multisets(len(self.wild), j) * sum(
                self.by_natural[k] * self.by_table[rest - k] for k in self._naturals(j, hand))
        return self.counts[j, hand]

    def fills(self, j: int, hand: bool | None) -> list[Fill]:
        """The fillings ``count`` counts."""
        found: list[Fill] = []
        rest = self.need - j
        for k in self._naturals(j, hand):
            if self.by_natural[k] and self.by_table[rest - k]:
                naturals = _takes(self.naturals, k, _natural_items)
                tables = _takes(self.table, rest - k, _table_items)
                found += [(n, w, t) for w in combinations_with_replacement(self.wild, j)
                          for n in naturals for t in tables]
        return found


def _natural_items(source: Source, take: int) -> tuple[int, ...]:
    return (_ORDER[source.identity],) * take


def _table_items(source: Source, take: int) -> tuple[int, ...]:
    return source.ids[:take]


def _multisets(kinds: int, size: int) -> int:
    """Ways to nominate ``size`` wild cards among ``kinds`` identities."""
    return comb(kinds + size - 1, size) if size else 1


def _spread(sources: Sequence[Source], need: int) -> list[int]:
    """ways[k], k = 0 .. need: how many ways to take k cards, each source giving at most its most."""
    ways = [1] + [0] * need
    for source in sources:
        ways = [sum(ways[max(0, k - source.most):k + 1]) for k in range(need + 1)]
    return ways


def _takes(sources: Sequence[Source], total: int,
           items: Callable[[Source, int], tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Each way to take exactly ``total`` cards, each source giving at most its most, as the
    ``items`` taken; a branch is walked only when the sources after it can make up the total."""
    room = [0] * (len(sources) + 1)  # room[i]: the most the sources from i on can give
    for i in range(len(sources) - 1, -1, -1):
        room[i] = room[i + 1] + sources[i].most
    found: list[tuple[int, ...]] = []

    def walk(i: int, left: int, taken: tuple[int, ...]) -> None:
        if i == len(sources):
            found.append(taken)
            return
        for t in range(min(sources[i].most, left), max(0, left - room[i + 1]) - 1, -1):
            walk(i + 1, left - t, taken + items(sources[i], t))

    if total <= room[0]:
        walk(0, total, ())
    return found


def expand(found: Choices) -> Iterator[Choice]:
    """Each declaration of ``found`` in canonical form, shape by shape: the product of the slots'
    fillings of that shape, each of which belongs to some declaration, so the cost follows the
    count."""
    slots = [_Fillings(slot) for slot in found.slots]
    fills = cache(lambda i, j, hand: slots[i].fills(j, hand))  # shapes share their slots' fillings
    for shape in _shapes(len(slots), found.jokers):
        if all(slot.count(j, hand) for slot, (j, hand) in zip(slots, shape, strict=True)):
            yield from map(_canonical, product(*(fills(i, j, hand) for i, (j, hand) in enumerate(shape))))


def _canonical(fills: tuple[Fill, ...]) -> Choice:
    """§4.6: natural cards, then wild cards by nomination, in canonical order; table ids ascending."""
    if len(fills) == 1:  # a four or an extra: its natural and wild cards come in canonical order
        (naturals, wild, table), = fills
    else:
        naturals, wild, table = (tuple(sorted(chain.from_iterable(f[i] for f in fills))) for i in range(3))
    hand = (*map(_AS_NATURAL.__getitem__, naturals), *map(_AS_WILD.__getitem__, wild))
    return hand, tuple(sorted(table))
