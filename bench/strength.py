"""`make strength`: the computer player against baselines, for every game and table size.

Each match plays hands from seeded deals, the dealer turning, with the computer player's side
turning too: in the hands of even index it holds seat 0's side, in the others seat 1's. It plays
against a random-legal player, the game's greedy player (``Advice.greedy``) and itself at a
quarter of the budget. A hand is won, drawn or lost by the sign of ``Advice.value`` for a seat of
the computer player's side; a table of more than two sides also gives the mean value with its
95 % confidence interval. Results go to docs/strength.md.

STRENGTH_HANDS (hands per match, default 60; a game may play fewer, ``HANDS``),
STRENGTH_BUDGET_CHECK=1 (as `make strength` sets it) first measures the budget (bench/suggest.py).
STRENGTH_BUDGET_MS (default 100), STRENGTH_GAMES and STRENGTH_AGAINST (comma lists),
STRENGTH_JOBS (processes, default 2), STRENGTH_SAMPLES (a cap on the samples per move besides the
budget, for trials on a busy machine), STRENGTH_OUT (another file than docs/strength.md).
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import suggest as budget
from service.cards import SeedStream
from service.games import GAMES
from service.games.base import DealSetup, Game
from service.player import Effort, suggest

Player = Callable[[Game[Any, Any], Any, int, random.Random], Any]
OUT = Path("docs/strength.md")
BUDGET_RUN = os.environ.get("STRENGTH_BUDGET_CHECK") == "1"
HANDS: dict[str, int] = {"bezique": 20, "canasta": 20}
"""Hands per match of the games whose hands are long (a hand of Bezique is some 200 moves)."""


def computer(budget_ms: float, samples: int = 10_000) -> Player:
    def play(game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
        effort = Effort(samples, time.perf_counter() + budget_ms / 1000)
        return suggest(game, state, seat, seed=str(rng.random()), effort=effort).move
    return play


def random_player(game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
    return rng.choice(game.legal_moves(state, seat))


def greedy_player(game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
    return game.advice.greedy(state, seat, game.legal_moves(state, seat))


@dataclass(frozen=True)
class Match:
    game: str
    players: int
    opponent: str
    hands: int
    budget_ms: float
    samples: int


@dataclass(frozen=True)
class Outcome:
    match: Match
    wins: int
    draws: int
    losses: int
    values: tuple[float, ...]
    seconds: float


def play_match(match: Match) -> Outcome:
    game = GAMES[match.game]
    bot = computer(match.budget_ms, match.samples)
    other = {"random": random_player, "greedy": greedy_player,
             "smaller budget": computer(match.budget_ms / 4, max(1, match.samples // 4))}[match.opponent]
    wins = draws = losses = 0
    values = []
    start = time.perf_counter()
    for index in range(match.hands):
        rng = random.Random(f"{match.game}/{match.players}/{match.opponent}/{index}")
        state = game.deal(DealSetup(match.players, index % match.players, {}, None),
                          SeedStream(f"strength-{index}"))
        ours = game.advice.side(state, index % 2)
        while (seat := game.to_move(state)) is not None:
            player = bot if game.advice.side(state, seat) == ours else other
            state, _ = game.apply(state, player(game, state, seat, rng))
        value = game.advice.value(state, index % 2)
        values.append(value)
        wins, draws, losses = wins + (value > 0), draws + (value == 0), losses + (value < 0)
    return Outcome(match, wins, draws, losses, tuple(values), time.perf_counter() - start)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(values: tuple[float, ...]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


def row(outcome: Outcome) -> str:
    m = outcome.match
    score = outcome.wins + outcome.draws / 2
    low, high = wilson(score, m.hands)
    mean, vlow, vhigh = mean_interval(outcome.values)
    return (f"| {m.game} | {m.players} | {m.opponent} | {m.hands} | {outcome.wins}/{outcome.draws}/"
            f"{outcome.losses} | {score / m.hands:.0%} ({low:.0%}–{high:.0%}) | "
            f"{mean:+.2f} ({vlow:+.2f} to {vhigh:+.2f}) | {verdict(m, score / m.hands, vlow, vhigh)} | "
            f"{outcome.seconds:.0f} s |")


def verdict(match: Match, share: float, low: float, high: float) -> str:
    """The issue's bar for the row: two seats, a score share of 75 % against random and 60 %
    against greedy; more, a mean value above 0 with 95 % confidence; against itself at a quarter
    of the budget, not worse with 95 % confidence."""
    if match.opponent == "smaller budget":
        return "met" if high >= 0 else "not met"
    if match.players == 2:
        return "met" if share >= (0.75 if match.opponent == "random" else 0.60) else "not met"
    return "met" if low > 0 else "not met"


def matches(games: list[str], hands: int, budget_ms: float, samples: int) -> list[Match]:
    return [Match(g, players, opponent, HANDS.get(g, hands), budget_ms, samples)
            for g in games for players in GAMES[g].info.player_counts
            for opponent in ("random", "greedy", "smaller budget")]


def main() -> None:
    games = [g for g in os.environ.get("STRENGTH_GAMES", ",".join(GAMES)).split(",") if g]
    timings = budget.measure(games, int(os.environ.get("SUGGEST_COUNT", "1000"))) if BUDGET_RUN else []
    hands = int(os.environ.get("STRENGTH_HANDS", "60"))
    budget_ms = float(os.environ.get("STRENGTH_BUDGET_MS", "100"))
    jobs = int(os.environ.get("STRENGTH_JOBS", "2"))
    samples = int(os.environ.get("STRENGTH_SAMPLES", "10000"))
    opponents = os.environ.get("STRENGTH_AGAINST", "random,greedy,smaller budget").split(",")
    lines = []
    with ProcessPoolExecutor(jobs) as pool:
        chosen = [m for m in matches(games, hands, budget_ms, samples) if m.opponent in opponents]
        for outcome in pool.map(play_match, chosen):
            lines.append(row(outcome))
            print(lines[-1], file=sys.stderr, flush=True)
    Path(os.environ.get("STRENGTH_OUT", OUT)).write_text(report(timings, lines, budget_ms, jobs))


def report(timings: list[str], lines: list[str], budget_ms: float, jobs: int) -> str:
    head = ("| game | players | against | hands | won/drawn/lost | score share (95 % CI) | "
            "mean value (95 % CI) | bar | time |\n|---|---:|---|---:|---|---|---|---|---:|\n")
    held = "" if not timings else (
        "## The budget\n\n" + budget.__doc__.split(chr(10) * 2)[0] + "\n\n" + budget.HEAD
        + "\n".join(timings) + "\n\n")
    return (f"# The computer player\n\n{held}## Strength\n\n{__doc__.split(chr(10) * 2)[1]}\n\n"
            f"Budget {budget_ms:.0f} ms a move, {jobs} matches at a time on this machine.\n\n"
            + head + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
