"""The computer player's levels: what a front end offers a person, from a beginner's opponent to
the strongest this server plays. A level sets how long the player thinks (its search budget, and
the samples it weighs at most within it), how often it plays a legal move at random instead (its
slips), and whether it infers from the hand's record; level 1 and 2 do not search at all, they
play the game's greedy player's move (``Advice.greedy``), with slips.

Each level is meant to beat the one below it, and level 1 to lose to the greedy player, so that a
beginner can win: ``make strength`` measures it (docs/strength.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from service.games.base import Game
from service.player import Effort, Suggestion, Weighed, suggest

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Level:
    number: int
    name: str
    budget_ms: int
    """Milliseconds of search; 0: the greedy player's move, at once."""
    samples: int
    """The most samples (deals weighed) its search takes within the budget: what sets a searching
    level's strength, so that a level plays as well on a busy server as on an idle one; the budget
    only bounds the time. Set where ``make strength`` measures the levels, at Sixty-six: there 6
    samples take some 20 ms, and a level with its budget alone gained little on the one below."""
    slips: float
    """The share of moves played at random among the legal ones."""
    infers: bool
    """Whether it reads the hand's record (voids shown, cards seen go into a hand) or only the
    position as its seat sees it now."""


LEVELS = (
    Level(1, "beginner", 0, 0, 0.4, infers=False),
    Level(2, "easy", 0, 0, 0.1, infers=False),
    Level(3, "medium", 15, 2, 0.1, infers=False),
    Level(4, "hard", 60, 6, 0.0, infers=True),
    Level(5, "expert", 150, 10_000, 0.0, infers=True),
)
BY_NAME = {level.name: level for level in LEVELS}
BY_NUMBER = {level.number: level for level in LEVELS}
NAMES: tuple[Any, ...] = (*BY_NUMBER, *BY_NAME)
"""What ``level`` takes on the wire: a number from 1 or a name."""


def level(value: int | str) -> Level:
    """The level a request names, by its number or its name (the schema allows no other)."""
    return BY_NUMBER[value] if isinstance(value, int) else BY_NAME[value]


def played(game: Game[S, M], state: S, seat: int, *, seed: str, at: Level,
           history: Sequence[tuple[S, M]] = ()) -> Suggestion[M]:
    """``seat``'s move at level ``at``: a slip (a random legal move), or the search's move within
    the level's budget, from the ``history`` too when the level infers; the same seed gives the
    same move."""
    rng = random.Random(f"{seed}/level")
    legal = game.legal_moves(state, seat)
    if legal and at.slips and rng.random() < at.slips:
        move = rng.choice(legal)
        return Suggestion(move, [Weighed(move, None)], 0)
    effort = Effort(samples=at.samples, deadline=time.perf_counter() + at.budget_ms / 1000)
    return suggest(game, state, seat, seed=seed, effort=effort, history=history if at.infers else ())
