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

ENDGAME_GAMES=family times the Bura family's and Kozel's endgames instead (``tricks.sets_endgame``,
``kozel.endgame``): positions from random play once the stock is exhausted (Kozel: at two and
three cards a hand), the seat on lead knowing what ``Advice.infer`` finds in the history; the
worlds it cannot tell apart (``MOST``, default 200, at most; positions past it not listed) and
the time per world (on the first ENDGAME_WORLDS_TIMED of each), then the computer player at 50
and 100 ms, given the history.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from service.games.sixty_six import rules
from service.games.sixty_six.advice import worlds
from service.games.sixty_six.endgame import Solver
from service.games.sixty_six.game import SixtySix
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
    if os.environ.get("ENDGAME_GAMES", "sixty-six") != "sixty-six":
        family()
        for budget_ms in (50, 100):
            family_player(budget_ms)
        return
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




# --- the Bura family and Kozel (``tricks.sets_endgame``, ``kozel.endgame``) -----------------------


def family_positions(game: Any, players: int, cards: int, rng: random.Random, **options: Any
                     ) -> Iterator[tuple[Any, int, list[tuple[Any, Any]]]]:
    """Bura or Kozel-bura: the first lead with ``cards`` cards in all hands once the stock is
    exhausted, from random trick play, with its history."""
    from service.cards import SeedStream
    from service.games.base import DealSetup
    from service.games.tricks.sets import Lead, Molodka, Phase, Respond
    index = 0
    while True:
        index += 1
        state = game.deal(DealSetup(players, index % players, dict(options), None),
                          SeedStream(f"bench-{rng.random()}"))
        history: list[tuple[Any, Any]] = []
        while (seat := game.to_move(state)) is not None:
            if not state.stock and state.trick is None and state.phase is Phase.PLAY \
                    and sum(map(len, state.hands)) == cards:
                yield state, seat, history
                break
            moves = [m for m in game.legal_moves(state, seat) if isinstance(m, Lead | Molodka | Respond)]
            if not moves:
                break
            move = rng.choice(moves)
            history.append((state, move))
            state, _ = game.apply(state, move)


def kozel_positions(cards: int, rng: random.Random) -> Iterator[tuple[Any, int, list[tuple[Any, Any]]]]:
    """Kozel: the first lead with ``cards`` cards a hand, from random play, with its history."""
    from service.cards import SeedStream
    from service.games.base import DealSetup
    from service.games.kozel.game import Kozel
    from service.games.kozel.rules import Phase as KozelPhase
    game = Kozel()
    while True:
        state = game.deal(DealSetup(4, rng.randrange(4), {}, None), SeedStream(f"bench-{rng.random()}"))
        history: list[tuple[Any, Any]] = []
        while (seat := game.to_move(state)) is not None:
            if state.phase is KozelPhase.PLAY and not state.trick and len(state.hands[seat]) == cards:
                yield state, seat, history
                break
            move = rng.choice(game.legal_moves(state, seat))
            history.append((state, move))
            state, _ = game.apply(state, move)


def world_times(advice: Any, found: Iterator[tuple[Any, int, list[tuple[Any, Any]]]], name: str) -> None:
    """The worlds the seat to move cannot tell apart, knowing what ``infer`` finds (``None``: too
    many, counted 0), and the time to solve them all; a row each for the count and the time per
    world."""
    counts, each, listed = [], [], 0
    for _ in range(COUNT):
        state, seat, history = next(found)
        known = advice.infer(history, seat)
        every = advice.worlds(state, seat, MOST, known)
        counts.append((float("nan"), len(every or ())))
        if every:
            listed += 1
            start = time.perf_counter()
            for world in every[:WORLDS_TIMED]:
                advice.solve(world, seat, float("inf"))
            each.append(((time.perf_counter() - start) * 1000 / len(every[:WORLDS_TIMED]), len(every)))
    if each:
        print(row(f"{name}", each, "worlds") + f"   listed {listed}/{COUNT} (ms: per world)")
    else:
        print(f"{name:<28} no worlds listed")


MOST = int(os.environ.get("ENDGAME_MOST", "200"))
"""The worlds listed at most (``service.player.MOST_WORLDS``)."""


def family() -> None:
    """The rows of the family's and Kozel's worlds; the games' limits (``MOST_CARDS``) raised for
    them, so that the rows past the limits time what the limits spare."""
    from service.games.bura.game import Bura
    from service.games.kozel import advice as kozel_advice
    from service.games.kozel.advice import ADVICE as KOZEL
    from service.games.kozel_bura.game import KozelBura
    from service.games.tricks import sets_endgame
    limits = sets_endgame.MOST_CARDS, kozel_advice.MOST_CARDS
    sets_endgame.MOST_CARDS, kozel_advice.MOST_CARDS = 12, 3
    rng = random.Random("bench/family")
    bura, kozel_bura = Bura(), KozelBura()
    for cards in (6, 4):
        world_times(bura.advice, family_positions(bura, 2, cards, rng), f"bura 2, {cards} cards")
    for cards in (9, 6):
        world_times(bura.advice, family_positions(bura, 3, cards, rng, open_play=True),
                    f"bura 3 open, {cards} cards")
    for cards in (8, 6, 4):
        world_times(kozel_bura.advice, family_positions(kozel_bura, 2, cards, rng), f"kozel-bura 2, {cards} cards")
    for cards in (12, 9, 6):
        world_times(kozel_bura.advice, family_positions(kozel_bura, 3, cards, rng), f"kozel-bura 3, {cards} cards")
    for cards in (3, 2):
        world_times(KOZEL, kozel_positions(cards, rng), f"kozel, {cards} a hand")
    sets_endgame.MOST_CARDS, kozel_advice.MOST_CARDS = limits


def family_player(budget_ms: int) -> None:
    """The computer player at ``budget_ms`` in the family's and Kozel's endgames, given the
    history: how often it answers exactly (``samples`` is the worlds' count), and its time."""
    from service.games.bura.game import Bura
    from service.games.kozel.game import Kozel
    from service.games.kozel_bura.game import KozelBura
    from service.player import MOST_WORLDS, Effort, suggest
    rng = random.Random("bench/family player")
    bura, kozel_bura, kozel = Bura(), KozelBura(), Kozel()
    tables = [(bura, family_positions(bura, 2, 6, rng), "bura 2, 6 cards"),
              (bura, family_positions(bura, 3, 6, rng, open_play=True), "bura 3 open, 6 cards"),
              (kozel_bura, family_positions(kozel_bura, 2, 6, rng), "kozel-bura 2, 6 cards"),
              (kozel_bura, family_positions(kozel_bura, 3, 6, rng), "kozel-bura 3, 6 cards"),
              (kozel, kozel_positions(2, rng), "kozel, 2 a hand")]
    for game, found, name in tables:
        exact = listed = 0
        times = []
        for index in range(COUNT):
            state, seat, history = next(found)
            every = game.advice.worlds(state, seat, MOST_WORLDS, game.advice.infer(history, seat))
            start = time.perf_counter()
            answer = suggest(game, state, seat, seed=f"bench/{index}", history=history,
                             effort=Effort(10_000, start + budget_ms / 1000))
            times.append(((time.perf_counter() - start) * 1000, answer.samples))
            listed += every is not None
            exact += every is not None and answer.samples == len(every)
        print(row(f"player {budget_ms} ms, {name}", times, "deals") + f"   listed {listed}/{COUNT} exact {exact}/{COUNT}")


if __name__ == "__main__":
    main()
