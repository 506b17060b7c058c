"""Sixty-six's exact endgame solver (``service.games.sixty_six.endgame``), timed in process:
`.venv/bin/python -m bench.endgame` (not part of `make test`; ENDGAME_POSITIONS, default 200,
sets the positions per row).

Positions come from random play of random deals at the default options (no claim, no close,
unless a row asks for one): once the stock is exhausted, at 6, 5 and 4 cards a side, the seat on
lead to move; every root move is solved with a full window, as ``Advice.solve`` does. Then, after
a close at a random trick (1 to 5 tricks played, when the rules allow it), the worlds the seat to
move cannot tell apart (``Advice.worlds``), how many there are, and the time to solve them all,
as the computer player does (timed on the first ENDGAME_WORLDS_TIMED, default 10, of each row).
Last, the computer player itself at budgets of 50 and 100 ms after a close: how often it answers
exactly, and its time. Prints one table row per case: mean and worst.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from functools import partial

from service.games.sixty_six import SixtySix, rules
from service.games.sixty_six.advice import worlds
from service.games.sixty_six.endgame import Solver
from service.games.sixty_six.rules import Claim, Close, Move, State

GAME = SixtySix()
COUNT = int(os.environ.get("ENDGAME_POSITIONS", "200"))
WORLDS_TIMED = int(os.environ.get("ENDGAME_WORLDS_TIMED", "10"))
"""Positions per row whose worlds are all solved and timed (six cards a side after a close:
some 2,000 worlds, ten seconds)."""


def positions(cards: int, *, close: bool, rng: random.Random) -> Iterator[State]:
    """Positions on lead with ``cards`` cards in the leader's hand, the stock exhausted, or closed
    (when ``close``: at a random trick, then played on to ``cards`` cards)."""
    while True:
        deck = list(rules.DECK)
        rng.shuffle(deck)
        state = rules.deal_from(tuple(deck), rng.randrange(2), rules.Options())
        close_at = rng.randint(1, 5)
        while (seat := state.to_move) is not None:
            if state.strict and not state.trick and len(state.hands[seat]) == cards \
                    and (state.stock_closed_by is not None) == close:
                yield state
                break
            legal = GAME.legal_moves(state, seat)
            closes = [m for m in legal if isinstance(m, Close)]
            if close and closes and state.tricks_played >= close_at:
                move: Move = closes[0]
            else:
                move = rng.choice([m for m in legal if not isinstance(m, (Close, Claim))])
            state, _ = GAME.apply(state, move)


def timed(call: Callable[[], int]) -> tuple[float, int]:
    start = time.perf_counter()
    count = call()
    return (time.perf_counter() - start) * 1000, count


def solved(state: State) -> int:
    """Nodes to solve every root move of ``state``."""
    solver = Solver(state)
    seat = state.to_move
    assert seat is not None
    solver.values(state, seat)
    return solver.nodes


def every_world(every: list[State]) -> int:
    """Solves every world; their count."""
    for world in every:
        solved(world)
    return len(every)


def row(name: str, figures: list[tuple[float, int]], unit: str) -> str:
    ms = [f[0] for f in figures if f[0] == f[0]]  # the timed ones
    counts = [f[1] for f in figures]
    return (f"{name:<28} {unit} mean {statistics.mean(counts):>9,.0f} max {max(counts):>9,}"
            f"   ms mean {statistics.mean(ms):>8.1f} p95 {sorted(ms)[int(0.95 * len(ms))]:>8.1f}"
            f" max {max(ms):>8.1f}")


def player(budget_ms: int, rng: random.Random) -> None:
    """The computer player at ``budget_ms`` in closed positions of 6 to 2 cards a side: how
    often it answers exactly (``samples`` is the worlds' count), and its time."""
    from service.player import MOST_WORLDS, Effort, suggest
    for cards in (6, 5, 4, 3, 2):
        found = positions(cards, close=True, rng=rng)
        exact = listed = 0
        times = []
        for index in range(COUNT):
            state = next(found)
            seat = state.to_move
            assert seat is not None
            every = worlds(state, seat, MOST_WORLDS)
            start = time.perf_counter()
            answer = suggest(GAME, state, seat, seed=f"bench/{index}",
                             effort=Effort(10_000, start + budget_ms / 1000))
            times.append(((time.perf_counter() - start) * 1000, answer.samples))
            listed += every is not None
            exact += every is not None and answer.samples == len(every)
        print(row(f"player {budget_ms} ms, {cards} a side", times, "deals") +
              f"   listed {listed}/{COUNT} exact {exact}/{COUNT}")


def main() -> None:
    rng = random.Random("bench/endgame")
    for cards in (6, 5, 4, 3):
        found = positions(cards, close=False, rng=rng)
        figures = [timed(partial(solved, next(found))) for _ in range(COUNT)]
        print(row(f"exhausted, {cards} cards a side", figures, "nodes"))
    for cards in (6, 5, 4, 3):
        found = positions(cards, close=True, rng=rng)
        figures = [timed(partial(solved, next(found))) for _ in range(COUNT)]
        print(row(f"closed, {cards} cards a side", figures, "nodes"))
        each = []
        for index in range(COUNT):
            state = next(found)
            seat = state.to_move
            assert seat is not None
            every = worlds(state, seat, 100_000) or []
            if index < WORLDS_TIMED:
                each.append(timed(partial(every_world, every)))
            else:
                each.append((float("nan"), len(every)))
        print(row(f"  all worlds, {cards} a side", each, "worlds"))
    for budget_ms in (50, 100):
        player(budget_ms, rng)


if __name__ == "__main__":
    main()
