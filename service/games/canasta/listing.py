"""Canasta's legal-moves list, docs/rules/canasta.md §4.13.

A group is named by its counts (key, a naturals, b twos, j jokers) and its codes are filled by
one rule: a key's first ``a`` naturals in suit order, the next ``b`` twos (after those of earlier
groups of the move, ``top_cards`` first), ``j`` jokers. The list is the canonical subset of melds
and takes that is complete up to splitting, each entry kept only if ``check`` accepts it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain

from service.cards import JOKER, Card
from service.errors import IllegalMove
from service.games.base import accepts
from service.games.canasta import melds as m
from service.games.canasta import moves as mv
from service.games.canasta.check import check
from service.games.canasta.families import Family, families, top_choice, witness
from service.games.canasta.melds import SEED_108, THREE, WILD_KEY
from service.games.canasta.rules import Group, Melds, Phase, Reason, State, frozen_for, min_req

Counts = tuple[int, int, int]
"""A group's naturals, twos and jokers."""
Plan = tuple[tuple[str, Counts], ...]
"""Groups by key and counts, in key order."""


@dataclass(frozen=True, slots=True)
class Pool:
    """A hand as the listing sees it: each key's naturals in suit order, the twos in suit order,
    the number of jokers."""

    variant: str
    naturals: dict[str, tuple[Card, ...]]
    twos: tuple[Card, ...]
    jokers: int

    @staticmethod
    def of(hand: Sequence[Card], variant: str) -> Pool:
        naturals: dict[str, list[Card]] = {}
        twos, jokers = [], 0
        for card in sorted(hand, key=m.sort_key):
            if card is JOKER:
                jokers += 1
            elif card.rank == "2":
                twos.append(card)
            else:
                naturals.setdefault(card.rank, []).append(card)
        return Pool(variant, {k: tuple(v) for k, v in naturals.items()}, tuple(twos), jokers)

    def count(self, key: str) -> int:
        return 0 if key == WILD_KEY else len(self.naturals.get(key, ()))

    def takes_wild(self, key: str) -> bool:
        return key != THREE or not m.threes_special(self.variant)

    def points(self, key: str, counts: Counts) -> int:
        a, b, j = counts
        natural = m.value(self.naturals[key][0], self.variant) if a else 0
        return a * natural + b * m.value(m.TWO, self.variant) + j * m.value(JOKER, self.variant)

    def group(self, key: str, counts: Counts, twos_used: int = 0) -> Group:
        """The group's codes by §4.13's rule, after ``twos_used`` twos of earlier groups."""
        a, b, j = counts
        naturals = self.naturals.get(key, ())[:a]
        return Group(key, (*naturals, *self.twos[twos_used:twos_used + b], *(JOKER,) * j))

    def after(self, key: str, counts: Counts) -> Pool:
        """The pool once a group of ``key`` took ``counts``: no more naturals of that key."""
        return Pool(self.variant, {**self.naturals, key: ()}, self.twos[counts[1]:], self.jokers - counts[2])

    def groups(self, plan: Plan) -> tuple[Group, ...]:
        found, twos_used = [], 0
        for key, counts in plan:
            found.append(self.group(key, counts, twos_used))
            twos_used += counts[1]
        return tuple(found)


SEARCH_STEPS = 1_000
"""Steps the search of rules (2) and (3) may take in one listing before the moves it has not
listed are answered as families (§4.13): about 5 ms. In 9,244 listings of random play the most
any took was 252 steps, and 99 % took 22 or fewer."""
LISTED_PLANS = 200
"""Multi-group moves one listing lists at most; past them, families."""


class _TooMany(Exception):
    """The search passed its bound: families answer for what it would have listed."""


@dataclass
class Search:
    """The bound of rules (2) and (3) for one listing, and the families it gave way to."""

    steps: int = SEARCH_STEPS
    plans: int = LISTED_PLANS
    families: list[Family] = field(default_factory=list)

    def step(self) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise _TooMany

    def collect(self, found: Iterator[Plan]) -> list[Plan]:
        """Every plan ``found`` yields, or ``_TooMany`` once the bound is passed."""
        plans: set[Plan] = set()
        for plan in found:
            plans.add(plan)
            if len(plans) > self.plans:
                raise _TooMany
        self.plans -= len(plans)
        return sorted(plans)


def listing(state: State, seat: int, *, steps: int = SEARCH_STEPS,
            plans: int = LISTED_PLANS) -> tuple[list[mv.Move], list[Family]]:
    """The moves of §4.13 one by one, and the families that stand for the multi-group moves of
    rules (2) and (3) that a bounded search could not list (``steps`` and ``plans``: its bound)."""
    if state.phase == Phase.HAND_OVER or seat != state.to_move:
        return [], []
    search = Search(steps, plans)
    if state.phase == Phase.AWAIT_ANSWER:
        found: list[mv.Move] = [mv.AnswerGoOut(seat, True), mv.AnswerGoOut(seat, False)]
    elif state.phase == Phase.DRAW:
        found = [mv.Draw(seat), *upcard_takes(state, seat), *pile_takes(state, seat, search),
                 mv.DeclinePile(seat)]
    else:
        found = [*meld_moves(state, seat, search), *exchanges(state, seat), mv.AskGoOut(seat),
                 *(mv.Discard(seat, c) for c in _distinct(state.hands[seat]))]
    inhabited = [family for family in search.families if witness(state, family)]
    return [move for move in found if accepts(check, state, move)], inhabited


def _distinct(hand: Sequence[Card]) -> list[Card]:
    return sorted(set(hand), key=lambda c: (RANK_ORDER.get(str(c.rank), 99), m.sort_key(c)))


RANK_ORDER = {rank: i for i, rank in enumerate(("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
                                                 "2", "JK"))}


def upcard_takes(state: State, seat: int) -> Iterator[mv.Move]:
    """§4.13: the first k naturals of the upcard's rank, k = 2 .. all of them."""
    if state.variant != SEED_108 or state.turn_index or not state.pile:
        return
    naturals = Pool.of(state.hands[seat], state.variant).naturals.get(str(state.pile[0].rank), ())
    yield from (mv.TakeUpcard(seat, naturals[:k]) for k in range(2, len(naturals) + 1))


def exchanges(state: State, seat: int) -> Iterator[mv.Move]:
    """One per opponent's meld with a joker and distinct natural code of its rank in the hand."""
    if state.variant != SEED_108:
        return
    mine = state.side_of(seat)
    for side, melds in enumerate(state.melds):
        for key, cards in melds.items():
            if side != mine and JOKER in cards:
                codes = {c.code: c for c in state.hands[seat] if c.rank == key}
                yield from (mv.ExchangeJoker(seat, side, key, codes[code]) for code in sorted(codes))


# --- meld (§4.13 rules 1-4) ------------------------------------------------------------------


def meld_moves(state: State, seat: int, search: Search) -> Iterator[mv.Move]:
    hand, side_melds = state.hands[seat], state.melds[state.side_of(seat)]
    pool = Pool.of(hand, state.variant)
    wild = len(pool.twos) + pool.jokers
    # Only keys a group can go to: the hand's naturals, or its wild cards onto a meld (or the
    # wild meld). A one-card hand's listing took 26 µs, 18 of them trying every key.
    for key in (k for k in m.keys(state.variant)
                if pool.count(k) or (wild and (k in side_melds or k == WILD_KEY))):
        for counts in _fitting(pool, side_melds.get(key, ()), key, twos=len(pool.twos), jokers=pool.jokers):
            yield mv.Meld(seat, (pool.group(key, counts),))
    if not side_melds:
        minimum = min_req(state, state.side_of(seat))
        try:
            plans = search.collect(chain(_needed(pool, minimum, search, keys=_starters(pool), total=0),
                                         _going_out(pool, len(hand), search, gain=0, keys=_starters(pool))))
        except _TooMany:
            search.families += families(state, seat, pool, cards=len(hand))
            return
        yield from (mv.Meld(seat, pool.groups(plan)) for plan in plans if len(plan) >= 2)
    elif len(hand) == 2:
        plans = sorted(set(_last_two(pool, hand, side_melds)))
        yield from (mv.Meld(seat, pool.groups(plan)) for plan in plans)


def _fitting(pool: Pool, meld: Sequence[Card], key: str, *, twos: int, jokers: int) -> Iterator[Counts]:
    """The counts of the groups that, laid on the side's meld ``key`` (empty for a new one), keep
    it within the limits of §4.1.3, decided from counts alone (``check`` still decides each move;
    building every group to test it cost 0.7 ms a listing of a 30-card hand)."""
    wild = sum(map(m.WILD.__contains__, meld))
    naturals = len(meld) - wild
    if key == WILD_KEY:
        low_natural, most_wild = 0, twos + jokers
    elif not pool.takes_wild(key):
        low_natural, most_wild = 0, 0
    else:
        low_natural, most_wild = max(0, 2 - naturals), 3 - wild
    for a in range(low_natural, pool.count(key) + 1):
        for b in range(min(twos, most_wild) + 1):
            for j in range(min(jokers, most_wild - b) + 1):
                if a + b + j and len(meld) + a + b + j >= 3:
                    yield a, b, j


def _starters(pool: Pool) -> list[str]:
    """The keys a side without melds can start a meld of (two naturals, or three wild cards)."""
    keys = [k for k in m.keys(pool.variant) if k != WILD_KEY and pool.count(k) >= 2]
    if pool.variant == m.SEED_13 and len(pool.twos) + pool.jokers >= 3:
        keys.append(WILD_KEY)
    return keys


def _new_groups(pool: Pool, key: str, twos: int, jokers: int) -> Iterator[Counts]:
    return _fitting(pool, (), key, twos=twos, jokers=jokers)


def _needed(pool: Pool, minimum: int, search: Search, *, keys: list[str], total: int, twos_used: int = 0,
            plan: Plan = (), least: int | None = None) -> Iterator[Plan]:
    """Rule 2: every set of new groups each needed for the minimum (dropping any one leaves less).
    ``total`` counts what the move lays besides them (a take's top card and ``top_cards``)."""
    search.step()
    if plan and least is not None and total - least >= minimum:
        return  # some group is not needed, and more groups only add to the total
    if plan and total >= minimum:
        yield plan
    for index, key in enumerate(keys):
        for counts in _new_groups(pool, key, len(pool.twos) - twos_used, pool.jokers - _jokers(plan)):
            worth = pool.points(key, counts)
            yield from _needed(pool, minimum, search, keys=keys[index + 1:], total=total + worth,
                               twos_used=twos_used + counts[1], plan=(*plan, (key, counts)),
                               least=worth if least is None else min(least, worth))


def _jokers(plan: Plan) -> int:
    return sum(counts[2] for _, counts in plan)


def _going_out(pool: Pool, hand: int, search: Search, *, gain: int, keys: list[str], used: int = 0,
               twos_used: int = 0, plan: Plan = ()) -> Iterator[Plan]:
    """Rule 3: every set of new groups that leaves at most one card (``gain``: cards a take adds
    to the hand); only worth searching when a canasta can be made."""
    search.step()
    left = hand + gain - used
    if plan and left <= 1:
        yield plan
    if not keys:
        return
    most = sum(pool.count(k) for k in keys) + len(pool.twos) - twos_used + pool.jokers - _jokers(plan)
    if left - most > 1:
        return  # even laying everything left would keep two cards
    key, rest = keys[0], keys[1:]
    yield from _going_out(pool, hand, search, gain=gain, keys=rest, used=used, twos_used=twos_used, plan=plan)
    for counts in _new_groups(pool, key, len(pool.twos) - twos_used, pool.jokers - _jokers(plan)):
        yield from _going_out(pool, hand, search, gain=gain, keys=rest, used=used + sum(counts),
                              twos_used=twos_used + counts[1], plan=(*plan, (key, counts)))


def _last_two(pool: Pool, hand: Sequence[Card], melds: Melds) -> Iterator[Plan]:
    """Rule 4: both of the last two cards laid off, each onto its own meld."""
    def homes(card: Card) -> list[tuple[str, Counts]]:
        if not m.is_wild(card):
            return [(str(card.rank), (1, 0, 0))] if card.rank in melds else []
        counts = (0, 1, 0) if card.rank == "2" else (0, 0, 1)
        return [(key, counts) for key in melds]

    first, second = hand
    for one in homes(first):
        for two in homes(second):
            if one[0] != two[0]:
                yield tuple(sorted((one, two), key=lambda g: m.KEY_ORDER.index(g[0])))


# --- take_pile (§4.13 rules 1-4) -------------------------------------------------------------


UNTAKEABLE = frozenset({Reason.HAND_FINISHED, Reason.WRONG_PHASE, Reason.NOT_YOUR_TURN, Reason.PILE_EMPTY,
                        Reason.PILE_BLOCKED, Reason.SINGLE_CARD_PILE})
"""Refusals of the minimal take that refuse every take (§4.3 P1-P4)."""


def _takeable(state: State, seat: int) -> bool:
    try:
        check(state, mv.TakePile(seat))
    except IllegalMove as refusal:
        return refusal.reason not in UNTAKEABLE
    return True


def pile_takes(state: State, seat: int, search: Search) -> list[mv.Move]:
    """Rules 1-4 of the take. Only the top groups that keep the top card's meld valid are tried,
    with a natural pair when the pile is frozen for the side (P6-P7): trying every count made a
    draw-phase listing take up to 0.9 ms."""
    if not _takeable(state, seat):
        return []
    top, hand = state.pile[0], state.hands[seat]
    key, side = str(top.rank), state.side_of(seat)
    pool = Pool.of(hand, state.variant)
    frozen = frozen_for(state, side)
    if frozen and pool.count(key) < 2:
        return []  # P6: no natural pair, no take
    gain = len(state.pile) - 1 - sum(1 for c in state.pile[1:] if m.is_red_three(c, state.variant))
    meld = (*state.melds[side].get(key, ()), top)
    tops = [(0, 0, 0)] if m.meld_valid(key, meld, state.variant) else []
    tops += [c for c in _fitting(pool, meld, key, twos=len(pool.twos), jokers=pool.jokers)
             if c[0] >= 2 or not frozen]
    found: list[mv.Move] = [mv.TakePile(seat, pool.group(key, counts).cards) for counts in tops]
    if state.melds[side]:
        return found + [mv.TakePile(seat, pool.group(key, counts).cards,
                                    pool.after(key, counts).groups((home,)))
                        for counts in tops if len(hand) - sum(counts) + gain == 1
                        for home in _single_homes(pool.after(key, counts), state.melds[side], exclude=key)]
    try:
        return [*found, *_first_takes(state, seat, pool, tops, gain, search)]
    except _TooMany:
        search.families += families(state, seat, pool.after(key, (0, 0, 0)), cards=len(hand) + gain,
                                    top=top_choice(state, pool))
        return found


def _first_takes(state: State, seat: int, pool: Pool, tops: list[Counts], gain: int,
                 search: Search) -> Iterator[mv.Move]:
    """Rules 2 and 3 of the take, for a side without melds: each top group's further groups."""
    top, hand = state.pile[0], state.hands[seat]
    key = str(top.rank)
    rest = [k for k in _starters(pool) if k != key]
    minimum = min_req(state, state.side_of(seat))
    for counts in tops:
        after_top = pool.after(key, counts)
        worth = m.value(top, state.variant) + (pool.points(key, counts) if any(counts) else 0)
        cards = len(hand) - sum(counts)
        plans = search.collect(chain(_needed(after_top, minimum, search, keys=rest, total=worth),
                                     _going_out(after_top, cards, search, gain=gain, keys=rest)))
        top_cards = pool.group(key, counts).cards
        yield from (mv.TakePile(seat, top_cards, after_top.groups(plan)) for plan in plans)


def _single_homes(pool: Pool, melds: Melds, *, exclude: str) -> Iterator[tuple[str, Counts]]:
    """Rule 4 of the take: one card onto one of the side's melds."""
    for key in melds:
        if key == exclude:
            continue
        if pool.count(key):
            yield key, (1, 0, 0)
        if pool.twos and pool.takes_wild(key):
            yield key, (0, 1, 0)
        if pool.jokers and pool.takes_wild(key):
            yield key, (0, 0, 1)


def any_take(state: State, seat: int) -> bool:
    """Whether ``seat`` has a legal ``take_pile`` (§4.11): a plain one, or a family's. The
    families stand in for the multi-group takes at once (a search bound of 0 steps): each says
    whether it has a move without listing any, so the question costs a few ms on any hand, even
    when a scored record asks it after each of its discards."""
    search = Search(steps=0)
    return (any(accepts(check, state, move) for move in pile_takes(state, seat, search))
            or any(witness(state, family) for family in search.families))
