"""Canasta's families of moves, docs/rules/canasta.md §4.13: the multi-group melds and takes of a
side without melds, when there are too many to list one by one.

A family names the new groups a move may lay (each a key, the hand's naturals of it, how many of
them at least, how many wild cards at most; for a take, the group of the pile's top card), the
wild cards they share, and what the move as a whole must reach: the first meld's minimum, the
cards it leaves in the hand, the canastas it makes. Every move built from a family is legal: each
condition ``check`` puts on such a move (§4.12) is one of the family's, decided from counts alone.

``witness`` finds a move of a family, or shows it has none, by dynamic programming over the
groups: a listing names only families that have moves, and ``any_take`` (§4.11) asks the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from service.cards import JOKER, Card
from service.games.base import accepts, evolve
from service.games.canasta import melds as m
from service.games.canasta import moves as mv
from service.games.canasta.check import check
from service.games.canasta.melds import THREE, WILD_KEY
from service.games.canasta.rules import Group, State, min_req

KEEPING, GOING_OUT = (2, None), (0, 1)


@dataclass(frozen=True, slots=True)
class GroupChoice:
    """One group a family's move may lay: ``least`` or more of ``naturals`` (alike for the rules)
    and at most ``most_wild`` wild cards, three cards at least with the pile's top card where it
    leads the group (``top``)."""

    key: str
    naturals: tuple[Card, ...]
    least: int
    most_wild: int
    natural_points: int
    top: bool = False


@dataclass(frozen=True, slots=True)
class Family:
    """A ``meld``, or a ``take_pile`` whose ``top`` group holds the pile's top card, that lays one
    or more of ``groups``; see the module's docstring and the wire schema for the rule."""

    seat: int
    top: GroupChoice | None
    groups: tuple[GroupChoice, ...]
    twos: tuple[Card, ...]
    jokers: int
    two_points: int
    joker_points: int
    top_card_points: int
    least_points: int | None
    """The first meld's minimum the move must reach, the top card counted; None: exempt."""
    cards: int
    """The mover's hand once the pile (a take's, top card aside) is in it, before any card is laid."""
    cards_left: tuple[int, int | None]
    """The hand after the move, least and most (None: no bound but the cards laid)."""
    least_canastas: int
    """Groups of seven or more cards the move must make, the top group counted (going out)."""

    @property
    def kind(self) -> str:
        return "meld" if self.top is None else "take_pile"


class Holding(Protocol):
    """What a family draws on: the hand's naturals by key (suit order), its 2s, its jokers (the
    listing's ``Pool``)."""

    @property
    def naturals(self) -> dict[str, tuple[Card, ...]]: ...

    @property
    def twos(self) -> tuple[Card, ...]: ...

    @property
    def jokers(self) -> int: ...


def families(state: State, seat: int, holding: Holding, *, cards: int, top: GroupChoice | None = None,
             ) -> Iterator[Family]:
    """A side without melds: the moves that keep two cards or more, and those that go out.
    ``cards``: the mover's hand with a take's pile (top card aside) in it."""
    variant = state.variant
    exclude = top.key if top else None
    keeping = Family(seat, top, _choices(state, holding, exclude=exclude, going_out=False), holding.twos,
                     holding.jokers, m.value(m.TWO, variant), m.value(JOKER, variant),
                     m.value(state.pile[0], variant) if top else 0, min_req(state, state.side_of(seat)),
                     cards, KEEPING, 0)
    yield keeping
    if _may_go_out(state, seat):
        # A concealed going out from the stock is exempt from the minimum (§4.5 M4): it makes a canasta.
        exempt = top is None and state.turn_info.drew == "stock"
        yield evolve(keeping, groups=_choices(state, holding, exclude=exclude, going_out=True),
                     least_points=None if exempt else keeping.least_points, cards_left=GOING_OUT,
                     least_canastas=state.table.canastas_to_go_out)


def top_choice(state: State, holding: Holding) -> GroupChoice:
    """The group of the pile's top card in a take by a side without melds: two naturals of the
    hand at least, since the pile is frozen for such a side (§4.1.5, P6)."""
    key = str(state.pile[0].rank)
    naturals = holding.naturals.get(key, ())
    return GroupChoice(key, naturals, 2, 3, m.value(state.pile[0], state.variant), top=True)


def _choices(state: State, holding: Holding, *, exclude: str | None,
             going_out: bool) -> tuple[GroupChoice, ...]:
    """The new groups a side without melds may start: two naturals (a black-three meld only
    when going out: three of them, no wild card), or in ``seed_13`` three wild cards."""
    variant = state.variant
    found = []
    for key in m.keys(variant):
        if key == exclude:
            continue
        if key == WILD_KEY:
            if len(holding.twos) + holding.jokers >= 3:
                found.append(GroupChoice(key, (), 0, len(holding.twos) + holding.jokers, 0))
            continue
        naturals = holding.naturals.get(key, ())
        if key == THREE and m.threes_special(variant):
            naturals = tuple(c for c in naturals if m.is_black_three(c, variant))
            if going_out and len(naturals) >= 3:
                found.append(GroupChoice(key, naturals, 3, 0, m.value(naturals[0], variant)))
        elif len(naturals) >= 2:
            found.append(GroupChoice(key, naturals, 2, 3, m.value(naturals[0], variant)))
    return tuple(found)


def _may_go_out(state: State, seat: int) -> bool:
    """§4.1.7 before the canastas: no refusal from the partner, and in ``seed_108`` a seat that
    has melded before."""
    if state.turn_info.permission == "no":
        return False
    return state.variant != m.SEED_108 or state.has_melded[seat]


# --- a move of a family ------------------------------------------------------------------------

Laid = tuple[int, int]
"""One group as laid: naturals, wild cards."""
Key = tuple[int, int, int]
"""A partial choice's wild cards used, naturals left in the hand (2 standing for 2 or more) and
canastas made (up to the family's need)."""
Table = dict[Key, tuple[int, tuple[Laid | None, ...]]]
"""For each key, the most natural points a partial choice reaches, and that choice."""


def witness(state: State, family: Family) -> mv.Move | None:
    """A legal move of ``family``, the one worth most, or None if it has none.

    Dynamic programming over the groups, keeping for each ``Key`` the most natural points. Each
    group lays none of its naturals, or all but at most two: leaving more never helps, since the
    hand needs at most two cards left to keep (and none or one to go out). So the table has at
    most (wild cards + 1) x 3 x 3 entries, and the work grows with the groups and the wild cards,
    never with the ways to combine them (a 90-card hand: under 10 ms)."""
    wild = len(family.twos) + family.jokers
    chosen = (*((family.top,) if family.top else ()), *family.groups)
    other = family.cards - sum(len(g.naturals) for g in chosen) - wild
    low, high = family.cards_left
    # Naturals left in the hand only add up: past the most cards a move may leave, a choice is dead.
    most_left = 2 if high is None else high - other
    table: Table = {(0, 0, 0): (0, ())}
    for group in chosen:
        table = _extend(table, group, wild, family.least_canastas, most_left)
    best: tuple[int, tuple[Laid | None, ...]] | None = None
    for (used, left_naturals, canastas), (points, plan) in table.items():
        left = other + left_naturals + wild - used
        if all(laid is None for laid in plan) or canastas < family.least_canastas or left < low:
            continue
        if high is not None and left > high:
            continue
        total = points + _wild_points(family, used) + family.top_card_points
        if family.least_points is not None and total < family.least_points:
            continue
        if best is None or total > best[0]:
            best = (total, plan)
    if best is None:
        return None
    move = _move(family, chosen, best[1])
    return move if accepts(check, state, move) else None


def _extend(table: Table, group: GroupChoice, wild: int, need: int, most_left: int) -> Table:
    """The table once ``group`` is laid in each way worth trying, or kept in the hand."""
    held, fixed = len(group.naturals), int(group.top)
    ways = [(naturals, extra, held - naturals, naturals * group.natural_points, fixed + naturals + extra >= 7)
            for naturals in range(max(group.least, held - 2), held + 1)
            for extra in range(max(0, 3 - fixed - naturals), min(group.most_wild, wild) + 1)]
    found: Table = {}
    for (used, left, canastas), (points, plan) in table.items():
        options: list[tuple[Laid | None, int, int, int, int]] = []
        if not group.top:  # every group but the top one may stay in the hand
            options.append((None, used, left + held, canastas, points))
        options += [((naturals, extra), used + extra, left + kept, canastas + canasta, points + worth)
                    for naturals, extra, kept, worth, canasta in ways if used + extra <= wild]
        for laid, now_used, now_left, made, now_points in options:
            if now_left > most_left:
                continue
            key = (now_used, min(2, now_left), min(need, made))
            if key not in found or found[key][0] < now_points:
                found[key] = (now_points, (*plan, laid))
    return found


def _wild_points(family: Family, used: int) -> int:
    """The most ``used`` wild cards can be worth: jokers first."""
    jokers = min(used, family.jokers)
    return jokers * family.joker_points + (used - jokers) * family.two_points


def _move(family: Family, chosen: tuple[GroupChoice, ...], plan: tuple[Laid | None, ...]) -> mv.Move:
    """The cards of a plan: each group's first naturals, the jokers first, then the 2s in order."""
    wild = [*(JOKER,) * family.jokers, *family.twos]
    groups = []
    for group, laid in zip(chosen, plan, strict=True):
        if laid is not None:
            naturals, extra = laid
            groups.append(Group(group.key, (*group.naturals[:naturals], *wild[:extra])))
            del wild[:extra]
    if family.top is None:
        return mv.Meld(family.seat, tuple(groups))
    return mv.TakePile(family.seat, groups[0].cards, tuple(groups[1:]))
