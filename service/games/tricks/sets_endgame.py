"""Exact endgames of the Bura family (``tricks.sets``) once the stock is exhausted, and the listing
of every deal a seat cannot tell apart that Kozel shares.

``deals`` lists every way to deal a pool of unseen cards into piles of known sizes that keeps to
what is known (cards a pile lacks, cards it holds), in a canonical order of the pool (by code), so
two states that differ only in where a hidden card lies list the same deals; it stops, and
answers None, past ``most`` deals or past ``DEAL_STEPS`` steps of its search, so that a request's
cost is bounded whatever the pool.

``Solver`` is a paranoid alpha-beta search over the perfect-information position (every card
known): the seat it solves for maximises its own ``value`` (the game's ``Advice.value`` of the
finished hand, in hand-score units), every other seat minimises it, as if they played together
against it: exact at two seats, a safe bound beyond (the others do not in truth conspire). It plays
the rules' own moves (``candidate_moves`` and ``apply``), so it follows them wherever they go:
claims, declarations, the final claim round, the automatic bura. A seat's molodka out of turn
(bura.md §4.2b, kozel-bura.md §4.2b) is offered before every lead: the seats after the leader,
clockwise, each choose in turn to seize the lead with one or to let the lead be. A transposition
table holds each position's bounds (hands, trick, seat to move, points, who took a trick, the
phase); moves are tried the greedy player's first. The clock is read every ``TIME_CHECK`` + 1
nodes: past the deadline the solve answers None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb
from typing import Any

from service.cards import Card
from service.games.advice import Known
from service.games.base import evolve
from service.games.seating import clockwise
from service.games.tricks import card_points
from service.games.tricks.search import INFINITY, Bounds, OutOfTime
from service.games.tricks.sets import POINTS, Molodka, Phase, State

MOST_CARDS = 7
"""The most cards in all hands for which ``worlds`` lists the deals and ``solve`` searches.
Measured (bench/endgame.py, this machine, 40 positions a row, the seat on lead knowing what
``infer`` finds; ms per world, mean and p95): Bura at two seats, 6 cards (the stock just
exhausted), one world, 2.2 and 3.9 ms; open Bura at three seats, 6 cards, 6 worlds, 2.3 and 4.8
ms; Kozel-bura at two seats, 6 cards, one world, 4.1 and 5.7 ms; at three seats, 6 cards, 6
worlds, 1.7 and 2.8 ms. Past it a world costs too much: Kozel-bura at two seats with 8 cards
21 and 35 ms (52 at worst), at three seats with 9 cards 34 ms for each of 17 worlds, 12 cards
650 ms; open Bura at three seats with 9 cards 12 ms for each of 19: the first world alone would
spend much of the player's budget, or all of it."""
DEAL_STEPS = 20_000
"""The most combinations ``deals`` tries before it gives up: each is a pass over one pile."""


def deals(pool: Sequence[Card], sizes: Sequence[int], *, most: int,
          held: Sequence[Sequence[Card]] = (), lacking: Sequence[frozenset[Card]] = ()
          ) -> list[tuple[tuple[Card, ...], ...]] | None:
    """Every deal of ``pool`` into piles of ``sizes`` (the pool's size in all), pile ``i`` with
    every card of ``held[i]`` that is in the pool and none of ``lacking[i]``, each once, in a
    canonical order of the pool; None past ``most`` deals or ``DEAL_STEPS`` steps."""
    cards = sorted(pool, key=lambda c: c.code)
    if sum(sizes) != len(cards):
        return None
    found: list[tuple[tuple[Card, ...], ...]] = []
    steps = 0

    def deal(pile: int, left: list[Card], dealt: tuple[tuple[Card, ...], ...]) -> bool:
        nonlocal steps
        if pile == len(sizes):
            found.append(dealt)
            return len(found) <= most
        must = [c for c in (held[pile] if pile < len(held) else ()) if c in left]
        barred = lacking[pile] if pile < len(lacking) else frozenset()
        free = [c for c in left if c not in barred and c not in must]
        room = sizes[pile] - len(must)
        if room < 0 or room > len(free):
            return True
        if pile == len(sizes) - 1 and len(left) != sizes[pile]:
            return True
        for chosen in combinations(free, room):
            steps += 1
            if steps > DEAL_STEPS:
                return False
            hand = tuple(sorted((*must, *chosen), key=lambda c: c.code))
            rest = [c for c in left if c not in hand]
            if not deal(pile + 1, rest, (*dealt, hand)):
                return False
        return True

    return found if deal(0, cards, ()) and len(found) <= most else None


def most_deals(pool: int, sizes: Sequence[int]) -> int:
    """The deals of ``pool`` cards into piles of ``sizes`` when nothing is known: a multinomial."""
    count, left = 1, pool
    for size in sizes:
        count *= comb(left, size)
        left -= size
    return count


class Solver:
    """One perfect-information position's paranoid search for ``seat``. ``moves(state, seat)``
    are the rules' candidate moves of ``seat`` (molodkas included when it is not to move),
    ``apply`` the rules', ``value`` the game's ``Advice.value`` of a finished hand and ``greedy``
    its greedy choice (tried first); ``bounds`` counts the positions searched."""

    def __init__(self, seat: int, *, moves: Callable[[State, int], list[Any]],
                 apply: Callable[[State, Any], tuple[State, Any]],
                 value: Callable[[State, int], float], greedy: Callable[[State, int, Sequence[Any]], Any],
                 deadline: float = INFINITY) -> None:
        self.seat, self.moves, self.apply, self.value, self.greedy = seat, moves, apply, value, greedy
        self.bounds = Bounds(deadline)

    def values(self, state: State, legal: Sequence[Any]) -> dict[Any, float]:
        """Each of ``legal`` (the seat's legal moves) with its exact value; raises ``OutOfTime``."""
        return {move: self.node(self.apply(state, move)[0], -INFINITY, INFINITY) for move in legal}

    def node(self, state: State, alpha: float, beta: float) -> float:
        """The seat's value of ``state``, fail-soft within (``alpha``, ``beta``)."""
        if state.finished:
            return self.value(state, self.seat)
        key = _key(state)
        alpha, beta, known = self.bounds.window(key, alpha, beta)
        if known is not None:
            return known
        mover = state.to_move
        assert mover is not None
        if state.trick is None and state.phase is Phase.PLAY:
            rivals = [s for s in clockwise(mover, state.seats)[1:] if state.hands[s]]
            best = self.seizing(state, rivals, alpha, beta)
        else:
            best = self.choose(state, mover, self.moves(state, mover), alpha, beta)
        self.bounds.keep(key, best, alpha, beta)
        return best

    def seizing(self, state: State, rivals: list[int], alpha: float, beta: float) -> float:
        """Before a lead: the first of ``rivals`` may lead a molodka out of turn or let the lead
        be (to the next rival, and last to the leader)."""
        if not rivals:
            mover = state.to_move
            assert mover is not None
            return self.choose(state, mover, self.moves(state, mover), alpha, beta)
        rival, later = rivals[0], rivals[1:]
        molodkas = [m for m in self.moves(state, rival) if isinstance(m, Molodka)]
        if not molodkas:
            return self.seizing(state, later, alpha, beta)
        return self.choose(state, rival, [None, *molodkas], alpha, beta, later)

    def choose(self, state: State, mover: int, moves: list[Any], alpha: float, beta: float,
               later: list[int] | None = None) -> float:
        """The best of ``moves`` for ``mover``: the seat maximises, the others minimise. None in
        ``moves`` is letting the lead be (then ``later`` are the rivals still to choose)."""
        maximize = mover == self.seat
        plays = [m for m in moves if m is not None]
        if len(plays) > 1 and not isinstance(plays[0], Molodka):
            first = self.greedy(state, mover, plays)
            moves = [first, *(m for m in moves if m != first)]
        best = -INFINITY if maximize else INFINITY
        for move in moves:
            if move is None:
                value = self.seizing(state, later or [], alpha, beta)
            else:
                value = self.node(self.apply(state, move)[0], alpha, beta)
            if maximize:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best


def _key(state: State) -> tuple[Any, ...]:
    """What decides the rest of the hand: the hands (as sets), the trick, who is to move and
    leads, the phase and passes, each seat's points and whether it took a trick."""
    return (tuple(frozenset(hand) for hand in state.hands), state.trick, state.to_move, state.leader,
            state.phase, state.passes, state.card_points, tuple(bool(pile) for pile in state.won))


def exhausted(state: State) -> bool:
    """No card is drawn any more: the stock, trump card and all, is taken."""
    return not state.stock and not state.finished


def solve(state: State, seat: int, deadline: float, *, legal: Sequence[Any],
          moves: Callable[[State, int], list[Any]], apply: Callable[[State, Any], tuple[State, Any]],
          value: Callable[[State, int], float], greedy: Callable[[State, int, Sequence[Any]], Any]
          ) -> dict[Any, float] | None:
    """``Advice.solve`` for a game of the family: each of ``legal`` with its value for ``seat``;
    None while the stock is open, past ``MOST_CARDS`` cards in hands, or once ``deadline``
    passes."""
    if not exhausted(state) or sum(map(len, state.hands)) > MOST_CARDS:
        return None
    try:
        return Solver(seat, moves=moves, apply=apply, value=value, greedy=greedy,
                      deadline=deadline).values(state, legal)
    except OutOfTime:
        return None


def worlds(state: State, seat: int, most: int, known: Known, *, won_hidden: bool,
           keep: Callable[[State], bool] = lambda world: True) -> list[State] | None:
    """Once the stock is exhausted, every deal ``seat`` cannot tell from ``state``: the other
    hands any deal of the cards in them, kept to ``known``, and, when ``won_hidden`` (discards
    face down), the other seat's won pile whatever is left, its points counted anew. That is
    listed at two seats only: beyond, the cards seen played may lie in any of the others' won
    piles (``Known`` says in none of the hands, not in which pile), so the deals would range over
    the piles too; None then, as past ``most`` deals. A world ``keep`` refuses (Kozel-bura: a
    four-card hand that is a bura, §6.1, which would have ended the hand) is none."""
    if not exhausted(state) or (won_hidden and state.seats > 2) or sum(map(len, state.hands)) > MOST_CARDS:
        return None
    others = [s for s in range(state.seats) if s != seat]
    piles = [state.hands[s] for s in others] + ([state.won[s] for s in others] if won_hidden else [])
    found = deals([c for pile in piles for c in pile], [len(pile) for pile in piles], most=most,
                  held=[known.held.get(s, ()) for s in others],
                  lacking=[known.lacking.get(s, frozenset()) for s in others])
    if found is None:
        return None
    every = []
    for dealt in found:
        hands, won = list(state.hands), list(state.won)
        for s, cards in zip(others, dealt, strict=False):
            hands[s] = cards
        for s, cards in zip(others, dealt[len(others):], strict=False):
            won[s] = cards
        world = evolve(state, hands=tuple(hands), won=tuple(won),
                       card_points=tuple(card_points(pile, POINTS) for pile in won))
        if keep(world):
            every.append(world)
    return every or None
