"""The computer player as it was before its second round (issue 39), kept unchanged as a baseline
for `make strength` ("today's player"): sampling only, no exact endgames, no inference.

The computer player: a move for one seat, chosen only from what that seat may see.

It searches by determinization (perfect-information Monte Carlo, as the Schnapsen engines and
OpenSpiel's samplers do): each sample deals the cards the seat cannot see again at random (the
game's ``Advice.redeal``), plays every candidate move on that deal, and plays the hand on with the
game's greedy policy, a random move one time in ``EXPLORE``, up to the game's horizon, where the
game values it for the seat. The candidate with the best mean over the samples is the answer,
when it beats the greedy player's own choice by more than the samples' noise (``Tally``).

Each sample draws from its own generator, seeded from the request's seed and the sample's index
(and every candidate's playout on it from the same one), so the same seed and sample count give
the same answer; a time budget decides only how many samples there are, and a sample is counted
only once every candidate has been played on it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from service.errors import NoMove
from service.games.advice import Advice
from service.games.base import Game

S = TypeVar("S")
M = TypeVar("M")

EXPLORE = 0.1
"""The share of playout moves chosen at random rather than greedily: a playout of greedy moves
alone repeats itself on every sample, one of random moves alone plays too badly to tell good
candidates from bad."""


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


@dataclass(frozen=True, slots=True)
class Effort:
    """How long the search may go on: ``samples`` deals at most, until ``deadline`` (a
    ``time.perf_counter`` value) at the latest."""

    samples: int
    deadline: float


def suggest(game: Game[S, M], state: S, seat: int, *, seed: str, effort: Effort) -> Suggestion[M]:
    """The move ``seat`` should make now; raises ``NoMove`` when it has none."""
    legal = game.legal_moves(state, seat)
    if not legal:
        raise NoMove("/seat", "seat {seat} has no move now", seat=seat)
    if len(legal) == 1:
        return Suggestion(legal[0], [Weighed(legal[0], None)], 0)
    advice: Advice[S, M] = game.advice
    greedy = advice.greedy(state, seat, legal)
    candidates = _shortlist(advice.shortlist, legal, greedy, random.Random(f"{seed}/shortlist"))
    tally = Tally(len(candidates), candidates.index(greedy))
    while tally.samples < effort.samples:
        values = _sample(game, state, seat, candidates, f"{seed}/{tally.samples}", effort.deadline)
        if values is None:
            break
        tally.add(values)
    weighed = [Weighed(m, tally.mean(i)) for i, m in enumerate(candidates)]
    chosen = candidates[tally.chosen()]
    weighed.sort(key=lambda w: (w.move != chosen, -(w.value or 0.0)))  # stable: the listing's order
    return Suggestion(chosen, weighed, tally.samples)


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


def _shortlist(most: int, legal: list[M], greedy: M, rng: random.Random) -> list[M]:
    """At most ``most`` candidates: the greedy choice and others drawn at random, in the
    listing's order."""
    if len(legal) <= most:
        return legal
    others = [m for m in legal if m != greedy]
    kept = {id(m) for m in rng.sample(others, most - 1)} | {id(greedy)}
    return [m for m in legal if id(m) in kept]


def _sample(game: Game[S, M], state: S, seat: int, candidates: Sequence[M], stream: str,
            deadline: float) -> list[float] | None:
    """Each candidate's value on one deal of the unseen cards; None when time ran out first.
    Every candidate's playout draws the same random numbers, so that their values differ by the
    move more than by the playouts' chance."""
    advice: Advice[S, M] = game.advice
    dealt = advice.redeal(state, seat, random.Random(stream))
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
    """The hand played on to its end or the game's horizon: greedily, but one move in ``EXPLORE``
    drawn at random among the moves of the kind the greedy player chose (another card, not a
    claim or a close that would end the playout on a whim). None once past ``deadline``: the
    clock is read before every move, so that a budget is overrun by one move at most (a move of
    a 150-card Canasta hand lists and weighs some 10 ms; a whole playout of it, 150)."""
    for _ in range(advice.horizon):
        if time.perf_counter() > deadline:
            return None
        seat = game.to_move(state)
        if seat is None:
            break
        moves = game.legal_moves(state, seat)
        move = advice.greedy(state, seat, moves)
        if rng.random() < EXPLORE:
            move = rng.choice([m for m in moves if type(m) is type(move)])
        state, _ = game.apply(state, move)
    return state
