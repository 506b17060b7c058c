"""Bezique's legal moves, docs/rules/bezique.md §4.6: every move a seat may make now, in canonical
form, one by one, but the declarations of a kind and multiplicity that are too many to list, which
are answered as one family each (``declarations``' ``Choices``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from service.cards import JOKER, Card
from service.games.base import accepts
from service.games.bezique import declarations as decl
from service.games.bezique.declarations import IDENTITIES, KINDS, TableClass
from service.games.bezique.rules import (
    Declare,
    ExchangeTrump,
    Exposed,
    Move,
    Pass,
    Phase,
    Play,
    State,
    check,
    extra_count,
)

LISTED_MOST = 48
"""§4.6: the declarations of a kind and multiplicity are listed one by one up to this many, and
answered as one family beyond, so that a declaration window lists at most 2 + 23 × 48 + 12 =
1,118 entries (about 250 KB) whatever the holding."""


@dataclass(frozen=True, slots=True)
class DeclareFamily:
    """The declarations of one kind and multiplicity, too many to list one by one (§4.6)."""

    kind: ClassVar[str] = "declare"
    seat: int
    choices: decl.Choices


def listing(state: State, seat: int) -> tuple[list[Move], list[DeclareFamily]]:
    """Every legal move of ``seat`` in the canonical form of §4.6: one by one, but for the
    declarations of a kind and multiplicity more than ``LISTED_MOST``, a family each."""
    if state.finished or seat != state.to_move:
        return [], []
    moves: list[Move] = [] if state.phase == Phase.DECLARE else _plays(state, seat)
    if accepts(check, state, ExchangeTrump(seat)):
        moves.append(ExchangeTrump(seat))
    if state.phase != Phase.DECLARE:
        return moves, []
    moves.append(Pass(seat))
    if state.options.declaration_spacing == "not_consecutive" and (
            state.last_declared_after_trick[seat] == state.tricks_played - 1):
        return moves, []
    families: list[DeclareFamily] = []
    for found in declarations(state, seat):
        if found.count > LISTED_MOST:
            families.append(DeclareFamily(seat, found))
        else:
            moves += [Declare(seat, found.kind, found.multiplicity, hand, table)
                      for hand, table in decl.expand(found)]
    return moves, families


def _plays(state: State, seat: int) -> list[Move]:
    hand = sorted(set(state.hands[seat]) - {JOKER}, key=decl.canonical_key)
    plays: list[Move] = [Play(seat, card) for card in hand]
    if JOKER in state.hands[seat]:
        plays += [Play(seat, JOKER, as_) for as_ in IDENTITIES]
    plays += [Play(seat, exposed_id=e.id) for e in sorted(state.exposed[seat], key=lambda e: e.id)]
    return plays


def table_classes(exposed: tuple[Exposed, ...]) -> list[TableClass]:
    """The seat's exposed cards alike in (card, as, tags), each class by its ids ascending."""
    classes: dict[tuple[Card, Card, frozenset[str]], list[int]] = {}
    for e in sorted(exposed, key=lambda e: e.id):
        classes.setdefault((e.card, e.as_, e.tags), []).append(e.id)
    return [TableClass(as_, tags, tuple(ids)) for (_, as_, tags), ids in classes.items()]


def declarations(state: State, seat: int) -> Iterator[decl.Choices]:
    """The seat's declarations, one ``Choices`` a kind and multiplicity, in the order of ``KINDS``."""
    kinds = decl.rules_for(state.trump_suit)
    classes = table_classes(state.exposed[seat])
    naturals = Counter(c for c in state.hands[seat] if c is not JOKER)
    jokers = state.hands[seat].count(JOKER)
    for kind in KINDS:
        q = extra_count(state, seat, kind) if kind in decl.EXTRA_OF else 0
        yield from decl.choices(kinds[kind], naturals, jokers, classes, q)
