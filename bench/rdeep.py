"""An RdeepBot-style player: the baseline of the Schnapsen teaching platform, rebuilt on the
games' ``Advice``, for `make strength` (bench/strength.py) to measure the computer player against.

For each of ``samples`` (16) samples it deals the cards the seat cannot see again at random
(``Advice.redeal``: no inference, only what the state shows the seat), plays every legal move on
that deal, and plays the hand on to its end by uniformly random legal moves, where it values it
for the seat (``Advice.value``). The move with the best mean over the samples is its answer, the
first in the listing among equals. Every move is played on the same deals, and on each deal with
the same random numbers (common random numbers), so that moves differ by the move more than by
the playouts' chance. It has no time budget: its cost is its sample count.

The platform's own RdeepBot draws a fresh sample per move and stops its playouts at a depth,
valued by a points heuristic; this one plays to the end of the hand and asks the game's value,
as the issue describes the player to measure against (16 samples, random playouts to the end).
"""

from __future__ import annotations

import random
from typing import Any

from service.games.base import Game

SAMPLES = 16
LIMIT = 10_000
"""Moves a playout plays at most: a safety stop, far beyond any hand's length."""


def rdeep_move(game: Game[Any, Any], state: Any, seat: int, rng: random.Random,
               samples: int = SAMPLES) -> Any:
    """``seat``'s move: the legal move whose random playouts on ``samples`` redeals score best."""
    legal = game.legal_moves(state, seat)
    if len(legal) == 1:
        return legal[0]
    advice = game.advice
    totals = [0.0] * len(legal)
    for _ in range(samples):
        world = advice.redeal(state, seat, rng)
        stream = rng.random()
        for index, move in enumerate(legal):
            after, _ = game.apply(world, move)
            end = random_playout(game, after, random.Random(stream))
            totals[index] += advice.value(end, seat)
    best = max(range(len(legal)), key=lambda i: (totals[i], -i))
    return legal[best]


def random_playout(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
    """The hand played on to its end by uniformly random legal moves."""
    for _ in range(LIMIT):
        seat = game.to_move(state)
        if seat is None:
            break
        state, _ = game.apply(state, rng.choice(game.legal_moves(state, seat)))
    return state
