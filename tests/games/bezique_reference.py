"""The enumerator that listed Bezique's declarations one by one before move families (§4.6), kept
as the reference the families are checked against: every legal declaration of one kind, in the
canonical form of §4.6, however many there are. Affordable only on small holdings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from service.cards import JOKER, Card
from service.games.bezique.declarations import (
    KINDS_OF_FAMILY,
    Choice,
    Group,
    KindRule,
    TableClass,
    canonical_key,
)


@dataclass(frozen=True, slots=True)
class _Source:
    identity: Card
    natural: bool = False
    joker: bool = False
    table: TableClass | None = None


def listing(rule: KindRule, naturals: Counter[Card], jokers: int, classes: Sequence[TableClass],
            extra_count: int) -> Iterator[tuple[int, Choice]]:
    """Every legal declaration of one kind, as (multiplicity, canonical cards)."""
    if not jokers and rule.identities.isdisjoint(naturals):
        return
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
            continue
        hand.sort(key=lambda e: canonical_key(e[0]))
        wild = sorted((s.identity for s, k in picks if s.joker for _ in range(k)), key=canonical_key)
        table = sorted(i for s, k in picks if s.table is not None for i in s.table.ids[:k])
        yield (*hand, *((JOKER, x) for x in wild)), tuple(table)


def _sources(ids: frozenset[Card], naturals: Counter[Card], jokers: int,
             classes: Sequence[TableClass]) -> list[tuple[_Source, int]]:
    ordered = sorted(ids, key=canonical_key)
    found = [(_Source(c, natural=True), naturals[c]) for c in ordered if naturals[c]]
    if jokers:
        found += [(_Source(c, joker=True), jokers) for c in ordered]
    found += [(_Source(c.identity, table=c), len(c.ids)) for c in classes if c.identity in ids]
    return found


def _distribute(plan: list[tuple[int, list[tuple[_Source, int]]]], group: int,
                jokers: int) -> Iterator[list[tuple[_Source, int]]]:
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
