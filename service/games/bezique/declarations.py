"""Bezique's declarations ("pokazki"), docs/rules/bezique.md §4.3, §4.5-§4.6 and §7.1: the kinds
and their families, what makes m complete sets, what each is worth, and every legal declaration
of a holding in the canonical form of §4.6.

A kind's set is a few *groups*, each a set of identities and how many cards of them one set takes
(a quint: one each of AT 10T KT QT, and one of JT or BJ). Groups of a kind never share an identity,
so a declaration is m sets exactly when each group holds m times its count and no card is left
over; listing distributes each group's cards over the seat's sources (natural cards in the hand,
wild cards nominated, classes of exposed cards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

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
class _Source:
    identity: Card
    natural: bool = False
    joker: bool = False
    table: TableClass | None = None


def listing(rule: KindRule, naturals: Counter[Card], jokers: int, classes: Sequence[TableClass],
            extra_count: int) -> Iterator[tuple[int, Choice]]:
    """Every legal declaration of one kind, as (multiplicity, canonical cards): the seat's
    concealed natural cards and wild cards, its exposed cards grouped in ``classes``, and for an
    extra the count q of category cards already counted (§4.5 e)."""
    if not jokers and rule.identities.isdisjoint(naturals):
        return  # every declaration puts a card from the hand
    if rule.extra:
        if extra_count >= 4:
            yield from ((1, c) for c in _choices(rule.groups, naturals, jokers, (), 1))
        return
    usable = [c for c in classes if not c.tags & KINDS_OF_FAMILY[rule.family]]
    m = 1
    while all(_available(ids, naturals, jokers, usable) >= m * n for ids, n in rule.groups):
        yield from ((m, c) for c in _choices(rule.groups, naturals, jokers, usable, m))
        m += 1


def _available(ids: frozenset[Card], naturals: Counter[Card], jokers: int,
               classes: Sequence[TableClass]) -> int:
    return sum(naturals[c] for c in ids) + jokers + sum(len(c.ids) for c in classes if c.identity in ids)


def _choices(groups: tuple[Group, ...], naturals: Counter[Card], jokers: int,
             classes: Sequence[TableClass], m: int) -> Iterator[Choice]:
    plan = [(n * m, _sources(ids, naturals, jokers, classes)) for ids, n in groups]
    for picks in _distribute(plan, 0, jokers):
        hand = [(s.identity, None) for s, k in picks if s.natural for _ in range(k)]
        if not hand and not any(s.joker for s, _ in picks):
            continue  # §4.3.6: at least one card from the hand
        hand.sort(key=lambda e: _ORDER[e[0]])
        wild = sorted((s.identity for s, k in picks if s.joker for _ in range(k)), key=_ORDER.__getitem__)
        table = sorted(i for s, k in picks if s.table is not None for i in s.table.ids[:k])
        yield (*hand, *((JOKER, x) for x in wild)), tuple(table)


def _sources(ids: frozenset[Card], naturals: Counter[Card], jokers: int,
             classes: Sequence[TableClass]) -> list[tuple[_Source, int]]:
    """Where a group's cards may come from, each with how many it can give (the wild cards'
    nominations share one budget, kept by ``_distribute``)."""
    ordered = sorted(ids, key=_ORDER.__getitem__)
    found = [(_Source(c, natural=True), naturals[c]) for c in ordered if naturals[c]]
    if jokers:
        found += [(_Source(c, joker=True), jokers) for c in ordered]
    found += [(_Source(c.identity, table=c), len(c.ids)) for c in classes if c.identity in ids]
    return found


def _distribute(plan: list[tuple[int, list[tuple[_Source, int]]]], group: int,
                jokers: int) -> Iterator[list[tuple[_Source, int]]]:
    """Every way to fill the groups from ``group`` on, each group exactly, with at most
    ``jokers`` wild cards in all."""
    if group == len(plan):
        yield []
        return
    need, sources = plan[group]
    for picks, jokers_left in _fill(sources, 0, need, jokers):
        for rest in _distribute(plan, group + 1, jokers_left):
            yield picks + rest


def _fill(sources: list[tuple[_Source, int]], index: int, need: int,
          jokers: int) -> Iterator[tuple[list[tuple[_Source, int]], int]]:
    if need == 0:
        yield [], jokers
        return
    if index == len(sources):
        return
    source, limit = sources[index]
    most = min(need, jokers if source.joker else limit)
    for take in range(most, -1, -1):
        left = jokers - take if source.joker else jokers
        for picks, jokers_left in _fill(sources, index + 1, need - take, left):
            yield ([(source, take), *picks] if take else picks), jokers_left
