"""The computer player: a move for one seat, chosen only from what that seat may see.

It searches by determinization (perfect-information Monte Carlo, as the Schnapsen engines and
OpenSpiel's samplers do): each sample deals the cards the seat cannot see again at random (the
game's ``Advice.redeal``), plays every candidate move on that deal, and plays the hand on with the
game's playout policy (the greedy player's move, or where the game gives one its own: Bura's sees
each trick through, every hand of the deal read), a random move one time in ``EXPLORE``, up to the
game's horizon, where the game values it for the seat. The candidate with the best mean over the
samples is the answer, when it beats the greedy player's own choice by more than the samples' noise
(``Tally``). The candidates are the legal moves, or past the game's ``Advice.shortlist`` the greedy
player's choice and the first others of the game's ``Advice.rank`` (a cheap order of the likeliest
best: Bezique weighs one card of each choice, taking the trick or not, trump or not, before a
second one of any), or where it ranks none, others drawn at random.

Each sample draws from its own generator, seeded from the request's seed and the sample's index
(and every candidate's playout on it from the same one), so the same seed and sample count give
the same answer; a time budget decides only how many samples there are, and a sample is counted
only once every candidate has been played on it.

History in, inference out: given the hand's history (every move with the state it was made in),
the game's ``Advice.infer`` says what the seat learnt from the play it saw (``Known``: voids shown
by a failure to follow, cards it saw go into a hand), and every redeal and world keeps to it.

Exact where it is cheap: when the game lists every deal the seat cannot tell apart
(``Advice.worlds``), ``MOST_WORLDS`` of them at most, and solves a deal exactly (``Advice.solve``:
alpha-beta over the perfect-information position), no deal is sampled: each legal move is valued
at its mean exact value over all the worlds, each world weighed alike, and the best mean is the
answer (the greedy choice among equals, then the listing's order). That is Sixty-six once the
stock is exhausted (one world: the other hand is what is left) or closed late enough (C(n, k)
worlds: any k of the n unseen cards in the other hand). The worlds are solved in their listed
order; after each one the time taken so far is projected over the rest, and when the projection
or the clock passes the deadline the exact search stops and the sampled search above runs in the
time left. The worlds are read in a canonical order of the unseen cards, so the exact answer is
the same for every seed and never reads where a hidden card lies. Measured on this machine (one
core, bench/endgame.py): a Sixty-six world solves in about 3 ms at six cards a side, 1 ms at
five, 0.4 ms at four, 0.1-0.2 ms at three. Once the stock is exhausted that is the whole answer.
After a close, the worlds number some 1,800 at six cards a side, 760 at five, 300 at four, 100 at
three (C(n, k)), so with ``MOST_WORLDS`` 200 at a 50 ms budget the player answers exactly in 159
of 200 random closed positions at three cards a side, 52 at four, 12 at five, none at six (97, 39
and 1 at 100 ms), and samples in the others. Where the game's solver is that quick on any
position it answers (``Advice.solves_samples``: Sixty-six), each sampled deal is solved exactly
too rather than played out, wherever ``solve`` answers for it (Sixty-six: once the stock is
exhausted or closed): a sample is then a world drawn at random, valued exactly.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from service.errors import NoMove
from service.games.advice import EXPLORE, NOTHING_KNOWN, Advice, Known
from service.games.base import Game

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Weighed(Generic[M]):
    move: M
    value: float | None
    """The mean value for the seat over the samples; None for a move that was not weighed."""


@dataclass(frozen=True, slots=True)
class Suggestion(Generic[M]):
    move: M
    weighed: list[Weighed[M]]
    """Every candidate weighed: the move chosen first, then the others from the best."""
    samples: int
    """The deals weighed: the samples played out, or the worlds solved for an exact answer."""


@dataclass(frozen=True, slots=True)
class Effort:
    """How long the search may go on: ``samples`` deals at most, until ``deadline`` (a
    ``time.perf_counter`` value) at the latest. An exact answer solves every world whatever
    ``samples`` says, but ``samples`` 0 asks for no search at all: the greedy player's move."""

    samples: int
    deadline: float


def suggest(game: Game[S, M], state: S, seat: int, *, seed: str, effort: Effort,
            history: Sequence[tuple[S, M]] = ()) -> Suggestion[M]:
    """The move ``seat`` should make now, from ``state`` and, when it is given, the ``history``
    that led to it (each move with the state it was made in); raises ``NoMove`` when it has
    none."""
    legal = game.legal_moves(state, seat)
    if not legal:
        raise NoMove("/seat", "seat {seat} has no move now", seat=seat)
    if len(legal) == 1:
        return Suggestion(legal[0], [Weighed(legal[0], None)], 0)
    advice: Advice[S, M] = game.advice
    greedy = advice.greedy(state, seat, legal)
    known = advice.infer(history, seat) if history and advice.infer else NOTHING_KNOWN
    if effort.samples > 0:
        exact = _exact(advice, state, seat, known, legal, greedy, effort.deadline)
        if exact is not None:
            return exact
    ranked = None
    if advice.rank is not None and len(legal) > advice.shortlist:
        # greedy's move first: of moves alike, rank keeps the first, so greedy's is the one kept
        ranked = advice.rank(state, seat, [greedy, *(m for m in legal if m != greedy)])
    candidates = _shortlist(advice.shortlist, legal, greedy, random.Random(f"{seed}/shortlist"), ranked)
    tally = Tally(len(candidates), candidates.index(greedy))
    while tally.samples < effort.samples:
        values = _sample(game, state, seat, known, candidates, f"{seed}/{tally.samples}", effort.deadline)
        if values is None:
            break
        tally.add(values)
    weighed = [Weighed(m, tally.mean(i)) for i, m in enumerate(candidates)]
    chosen = candidates[tally.chosen()]
    weighed.sort(key=lambda w: (w.move != chosen, -(w.value or 0.0)))  # stable: the listing's order
    return Suggestion(chosen, weighed, tally.samples)


def history_of(game: Game[S, M], start: S, moves: Iterable[M]) -> list[tuple[S, M]]:
    """Each of ``moves`` with the state it was made in, from ``start``: a hand's history as the
    search takes it. The moves are applied unchecked: they are a record the caller has checked
    (a sealed token's, a table's)."""
    history, state = [], start
    for move in moves:
        history.append((state, move))
        state, _ = game.apply(state, move)
    return history


MOST_WORLDS = 200
"""The most worlds the player solves exactly (``Advice.worlds``); past it, it samples. Measured
on this machine (bench/endgame.py): Sixty-six after a close solves every world of three cards a
side (220 at most) in 13 ms on average, 19 at p95; at four cards a world takes some 0.4 ms, so
200 fit 100 ms; at five or six cards (1-3 ms a world) the projection in ``_exact`` gives up after
a world or two and the sampled search has the rest of the budget."""


def _exact(advice: Advice[S, M], state: S, seat: int, known: Known, legal: list[M], greedy: M,
           deadline: float) -> Suggestion[M] | None:
    """The move of the best mean exact value over every world ``seat`` cannot tell apart; None
    when the game lists no worlds here (too many, or none it can say), or when the deadline
    passes, or would (the time per world so far, projected over the worlds left) before all are
    solved."""
    if advice.worlds is None or advice.solve is None:
        return None
    every = advice.worlds(state, seat, MOST_WORLDS, known)
    if not every:
        return None
    totals = dict.fromkeys(legal, 0.0)
    start = time.perf_counter()
    for done, world in enumerate(every, 1):
        if time.perf_counter() > deadline:
            return None
        values = advice.solve(world, seat, deadline)
        if values is None or values.keys() != totals.keys():
            return None
        for move, value in values.items():
            totals[move] += value
        now, left = time.perf_counter(), len(every) - done
        if left and now + (now - start) / done * left > deadline:
            return None
    chosen = max(legal, key=lambda m: (totals[m], m == greedy))  # equals: greedy's, the first
    weighed = [Weighed(m, totals[m] / len(every)) for m in legal]
    weighed.sort(key=lambda w: (w.move != chosen, -(w.value or 0.0)))
    return Suggestion(chosen, weighed, len(every))


CONFIDENCE = 1.0
"""Standard errors by which a move's mean must beat the greedy choice's to be chosen over it."""


class Tally:
    """The candidates' values summed over the samples, and each one's paired differences with
    the greedy choice's (squared), which tell a real lead from the samples' noise: the greedy
    player is a fair player, and a move that beats it by less than the noise is no better."""

    def __init__(self, candidates: int, greedy: int) -> None:
        self.greedy, self.samples = greedy, 0
        self.totals = [0.0] * candidates
        self.squares = [0.0] * candidates

    def add(self, values: list[float]) -> None:
        base = values[self.greedy]
        for i, value in enumerate(values):
            self.totals[i] += value
            self.squares[i] += (value - base) ** 2
        self.samples += 1

    def mean(self, index: int) -> float | None:
        return self.totals[index] / self.samples if self.samples else None

    def chosen(self) -> int:
        """The best mean, when its lead over the greedy choice passes ``CONFIDENCE`` standard
        errors of their paired differences; else the greedy choice."""
        n = self.samples
        if n < 2:
            return self.greedy
        best = max(range(len(self.totals)), key=lambda i: (self.totals[i], i == self.greedy))
        lead = (self.totals[best] - self.totals[self.greedy]) / n
        variance = max(0.0, self.squares[best] / n - lead * lead) * n / (n - 1)
        return best if lead > CONFIDENCE * math.sqrt(variance / n) else self.greedy


def _shortlist(most: int, legal: list[M], greedy: M, rng: random.Random,
               ranked: list[M] | None = None) -> list[M]:
    """At most ``most`` candidates, in the listing's order: the greedy choice and the first others
    of ``ranked`` (the game's ``Advice.rank``), or others drawn at random."""
    if len(legal) <= most:
        return legal
    if ranked is not None:
        chosen = [m for m in ranked if m != greedy][:most - 1]
    else:
        chosen = rng.sample([m for m in legal if m != greedy], most - 1)
    kept = {id(m) for m in chosen} | {id(greedy)}
    return [m for m in legal if id(m) in kept]


def _sample(game: Game[S, M], state: S, seat: int, known: Known, candidates: Sequence[M], stream: str,
            deadline: float) -> list[float] | None:
    """Each candidate's value on one deal of the unseen cards; None when time ran out first.
    Every candidate's playout draws the same random numbers, so that their values differ by the
    move more than by the playouts' chance."""
    advice: Advice[S, M] = game.advice
    dealt = advice.redeal(state, seat, random.Random(stream), known)
    if advice.solves_samples and advice.solve is not None:
        if time.perf_counter() > deadline:  # a solve reads the clock only every so many nodes
            return None
        solved = advice.solve(dealt, seat, deadline)
        if solved is not None and all(move in solved for move in candidates):
            return [solved[move] for move in candidates]
    values = []
    for move in candidates:
        after, _ = game.apply(dealt, move)
        played = play_out(game, advice, after, random.Random(f"{stream}/play"), deadline)
        if played is None:
            return None
        values.append(advice.value(played, seat))
    return values


def play_out(game: Game[S, M], advice: Advice[S, M], state: S, rng: random.Random,
             deadline: float) -> S | None:
    """The hand played on to its end or the game's horizon: by the game's own ``playout`` policy
    where it has one (a move built without listing them all), else greedily, but one move in
    ``EXPLORE`` drawn at random among the moves of the kind the greedy player chose (another card,
    not a claim or a close that would end the playout on a whim). None once past ``deadline``: the
    clock is read before every move, so that a budget is overrun by one move at most."""
    depth = advice.horizon * game.seats(state) // 2 if advice.horizon_grows else advice.horizon
    for _ in range(depth):
        if time.perf_counter() > deadline:
            return None
        seat = game.to_move(state)
        if seat is None:
            break
        if advice.playout is not None:
            move = advice.playout(state, seat, rng)
        else:
            moves = game.legal_moves(state, seat)
            move = advice.greedy(state, seat, moves)
            if rng.random() < EXPLORE:
                move = rng.choice([m for m in moves if type(m) is type(move)])
        state, _ = game.apply(state, move)
    return state
