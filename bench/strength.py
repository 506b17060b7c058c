"""`make strength`: the computer player against baselines, for every game and table size.

Duplicate deals. Each deal (a seed and a dealer, the dealer turning from deal to deal) is played
once for every side of the table, on the same cards: the computer player takes each side in turn
(its seat or, in a team game, its partnership's seats), the opponent every other seat. At two
seats a deal is a pair of hands with the seats swapped, so the luck of the cards cancels; a side
that sits a hand out (Bezique's dealer at three and four) is not played. The players' random
numbers are drawn per move from the deal and the move's number, never from which hand of the pair
it is, so a player against itself plays both hands of a pair alike.

Two seats: the score share, the computer player's part of the net value won, over all deals: in
every hand the side ahead wins the hand's ``Advice.value`` (its standing minus the other's) and
the share is the computer's wins over all wins. In Sixty-six that is its share of the game points
(only a hand's winner scores them), in Bura of the games won, elsewhere of the net points or
penalties. Its 95 % interval takes the deal (the pair of hands) as the unit: a ratio estimate,
Student's t on its linearized per-deal terms (the t interval of the per-deal shares when every
deal has the same total); "±5 needs" is the hands that would give an interval of ±5 points at the
observed per-deal variance. More seats: the computer side's mean ``Advice.value`` per hand, its
95 % t interval by the deals (each deal's mean over its hands is one observation).

The players, each named by a short string: ``random`` (a uniformly random legal move),
``greedy`` (the game's ``Advice.greedy``), ``player`` (the computer player under test,
``service.player.suggest``, given the hand's history to infer from), ``blind`` (the same player
without the history: what the inference is worth is ``player`` against ``blind``), ``today`` (today's player kept as a baseline,
bench/today_player.py, imported as ``today_suggest``; at the same budget), ``rdeep`` (an RdeepBot-style player, bench/rdeep.py: 16
samples, every legal move played out by uniformly random moves to the end of the hand on each
redeal, the best mean value, no inference), and ``level:N`` (the computer player at level N,
service.player.levels). ``player:B``, ``today:B`` set another budget (ms), ``rdeep:N`` another
sample count. The targets are the issue's (39): at two seats against greedy a share of 60 % with
the interval's lower end above 55 %, against today's player 55 %, against the RdeepBot-style
player 60 % at Sixty-six; at more seats against greedy a mean value above 0 with 95 % confidence;
each level 55 % against the level below at Sixty-six, and level 1 below 50 % against greedy.
Against random the earlier round's bars stand: 75 % at two seats, above 0 at more.

STRENGTH_HANDS (hands per match at two seats, default 200, played as 100 deals; at more seats as
many deals; unless it is set, the slow games play fewer, ``HANDS``), STRENGTH_BUDGET_MS (default 100),
STRENGTH_GAMES (a comma list), STRENGTH_SEATS (a comma list of table sizes, default every size
the game seats), STRENGTH_AGAINST (a comma list of opponents, default
random,greedy,today,rdeep), STRENGTH_LEVELS (a comma list of levels, e.g. 1,2,3,4,5: each level
also plays the one below it, and level 1 greedy), STRENGTH_JOBS (processes, default 2),
STRENGTH_SAMPLES (a cap on the computer player's samples per move besides the budget, for trials
on a busy machine), STRENGTH_OUT (another file than docs/strength.md). STRENGTH_BUDGET_CHECK=1
(as `make strength` sets it) first measures the budget (bench/suggest.py).
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import suggest as budget
from bench.rdeep import SAMPLES as RDEEP_SAMPLES
from bench.rdeep import rdeep_move
from bench.today_player import suggest as today_suggest
from service.cards import SeedStream
from service.games.base import DealSetup, Game
from service.games.registry import GAMES
from service.player import Effort, levels
from service.player import suggest as player_suggest

History = Sequence[tuple[Any, Any]]
"""The hand's moves so far, each with the state it was made in."""
Player = Callable[[Game[Any, Any], Any, int, random.Random, History], Any]
OUT = Path("docs/strength.md")
BUDGET_RUN = os.environ.get("STRENGTH_BUDGET_CHECK") == "1"
HANDS: dict[str, int] = {"bezique": 60, "canasta": 60}
"""Hands per match of the games whose hands are long (a hand of Bezique is some 200 moves)."""
CHUNK = 5
"""Deals per unit of work handed to a process."""


# --- the players -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Knobs:
    """What a player is built with besides its name: the harness's budget and sample cap."""

    budget_ms: float = 100.0
    samples: int = 10_000


def searching(suggest: Callable[..., Any], budget_ms: float, samples: int, *, inferring: bool) -> Player:
    """A player of ``suggest`` at ``budget_ms``; ``inferring``: given the hand's history."""
    def play(game: Game[Any, Any], state: Any, seat: int, rng: random.Random, history: History) -> Any:
        effort = Effort(samples, time.perf_counter() + budget_ms / 1000)
        told = {"history": history} if inferring else {}
        return suggest(game, state, seat, seed=str(rng.random()), effort=effort, **told).move
    return play


def random_player(game: Game[Any, Any], state: Any, seat: int, rng: random.Random, history: History) -> Any:
    return rng.choice(game.legal_moves(state, seat))


def greedy_player(game: Game[Any, Any], state: Any, seat: int, rng: random.Random, history: History) -> Any:
    return game.advice.greedy(state, seat, game.legal_moves(state, seat))


def _player(arg: str, knobs: Knobs) -> Player:
    return searching(player_suggest, float(arg or knobs.budget_ms), knobs.samples, inferring=True)


def _blind(arg: str, knobs: Knobs) -> Player:
    return searching(player_suggest, float(arg or knobs.budget_ms), knobs.samples, inferring=False)


def _today(arg: str, knobs: Knobs) -> Player:
    return searching(today_suggest, float(arg or knobs.budget_ms), knobs.samples, inferring=False)


def _rdeep(arg: str, knobs: Knobs) -> Player:
    samples = int(arg or RDEEP_SAMPLES)

    def play(game: Game[Any, Any], state: Any, seat: int, rng: random.Random, history: History) -> Any:
        return rdeep_move(game, state, seat, rng, samples)
    return play


def _level(arg: str, knobs: Knobs) -> Player:
    at = levels.level(int(arg) if arg.isdigit() else arg)

    def play(game: Game[Any, Any], state: Any, seat: int, rng: random.Random, history: History) -> Any:
        return levels.played(game, state, seat, seed=str(rng.random()), at=at, history=history).move
    return play


KINDS: dict[str, Callable[[str, Knobs], Player]] = {
    "random": lambda arg, knobs: random_player,
    "greedy": lambda arg, knobs: greedy_player,
    "player": _player,
    "blind": _blind,
    "today": _today,
    "rdeep": _rdeep,
    "level": _level,
}
"""The kinds of player, each built from the argument after its name's colon (``rdeep:32``)."""


def build(name: str, knobs: Knobs) -> Player:
    kind, _, arg = name.partition(":")
    if kind not in KINDS:
        raise SystemExit(f"strength: no player {name!r}; the kinds are {', '.join(KINDS)}")
    return KINDS[kind](arg, knobs)


# --- playing duplicate deals -------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    game: str
    players: int
    player: str
    opponent: str
    deals: int
    knobs: Knobs = field(default_factory=Knobs)


@dataclass(frozen=True)
class Hand:
    ours: int
    """The side the measured player held."""
    cast: tuple[str, ...]
    """The player at each seat."""
    value: float
    """``Advice.value`` for a seat of the measured player's side."""
    start: Any = None
    """The dealt state, when asked for (the tests compare the hands of a deal)."""


@dataclass(frozen=True)
class Deal:
    index: int
    hands: tuple[Hand, ...]
    seconds: float


def play_deal(match: Match, index: int, keep: bool = False) -> Deal:
    """Deal ``index`` of ``match``, played once for every side that plays the hand, the measured
    player at that side's seats and the opponent at the others."""
    game = GAMES[match.game]
    advice = game.advice
    mine, other = build(match.player, match.knobs), build(match.opponent, match.knobs)
    started = time.perf_counter()

    def dealt() -> Any:
        return game.deal(DealSetup(match.players, index % match.players, {}, None),
                         SeedStream(f"strength-{index}"))

    first = dealt()
    active = getattr(first, "active", range(match.players))
    sides = sorted({advice.side(first, seat) for seat in active})
    hands = []
    for ours in sides:
        state = start = dealt()
        cast = tuple(match.player if advice.side(start, s) == ours else match.opponent
                     for s in range(match.players))
        history: list[tuple[Any, Any]] = []
        while (seat := game.to_move(state)) is not None:
            rng = random.Random(f"{match.game}/{match.players}/{index}/{len(history)}")
            player = mine if advice.side(state, seat) == ours else other
            move = player(game, state, seat, rng, history)
            history.append((state, move))
            state, _ = game.apply(state, move)
        judged = next(s for s in active if advice.side(start, s) == ours)
        hands.append(Hand(ours, cast, advice.value(state, judged), start if keep else None))
    return Deal(index, tuple(hands), time.perf_counter() - started)


def play_deals(work: tuple[Match, int, int]) -> list[Deal]:
    match, first, stop = work
    return [play_deal(match, index) for index in range(first, stop)]


# --- the statistics ------------------------------------------------------------------------------

T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042)
"""Student's t, two-sided 95 %, for 1 to 30 degrees of freedom."""
Z975 = 1.959964


def t975(df: int) -> float:
    """Student's t quantile of 97.5 % (a two-sided 95 % interval); past 30 degrees of freedom,
    the Cornish-Fisher expansion about the normal quantile (within 0.001)."""
    if df < 1:
        return math.inf
    if df <= len(T975):
        return T975[df - 1]
    z = Z975
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    spread: float
    """The standard deviation of one unit's term (a deal's), for the sample sizes needed."""
    half: float
    """The interval's half width before any cut to the values' range."""


def mean_interval(values: Sequence[float]) -> Estimate:
    """The mean and its 95 % t interval."""
    mean = statistics.fmean(values) if values else math.nan
    if len(values) < 2:
        return Estimate(mean, -math.inf, math.inf, math.nan, math.inf)
    sd = statistics.stdev(values)
    half = t975(len(values) - 1) * sd / math.sqrt(len(values))
    return Estimate(mean, mean - half, mean + half, sd, half)


def ratio_interval(won: Sequence[float], total: Sequence[float]) -> Estimate:
    """``sum(won) / sum(total)`` over the units (the deals) and its 95 % interval: Student's t on
    the linearized terms ``(won - share * total) / mean(total)``, whose mean is 0 and whose
    spread is the share's per unit. When every total is the same this is the t interval of the
    per-unit shares ``won / total``. The interval is cut to 0 and 1, where a share ends."""
    n, all_ = len(won), sum(total)
    if all_ == 0:
        return Estimate(math.nan, -math.inf, math.inf, math.nan, math.inf)
    share = sum(won) / all_
    if n < 2:
        return Estimate(share, 0.0, 1.0, math.nan, math.inf)
    mean_total = all_ / n
    terms = [(w - share * t) / mean_total for w, t in zip(won, total, strict=True)]
    sd = math.sqrt(sum(x * x for x in terms) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return Estimate(share, max(0.0, share - half), min(1.0, share + half), sd, half)


def units_needed(spread: float, half: float = 0.05) -> int | None:
    """Units (deals) that give a 95 % interval of ±``half`` at the per-unit ``spread``."""
    if not math.isfinite(spread):
        return None
    return max(2, math.ceil((Z975 * spread / half) ** 2))


@dataclass(frozen=True)
class Result:
    match: Match
    deals: tuple[Deal, ...]

    @property
    def hands(self) -> int:
        return sum(len(d.hands) for d in self.deals)

    @property
    def seconds(self) -> float:
        return sum(d.seconds for d in self.deals)

    def share(self) -> Estimate:
        """The measured player's share of the net value won, deals as the unit."""
        won = [sum(max(h.value, 0.0) for h in d.hands) for d in self.deals]
        total = [sum(abs(h.value) for h in d.hands) for d in self.deals]
        return ratio_interval(won, total)

    def mean(self) -> Estimate:
        """The measured side's mean value per hand, each deal's mean one observation."""
        return mean_interval([statistics.fmean(h.value for h in d.hands) for d in self.deals if d.hands])


# --- the targets -----------------------------------------------------------------------------------


def target(match: Match) -> tuple[str, Callable[[Result], bool]] | None:
    """The issue's bar for a row, as words and a test; None where it sets none."""
    two, them, me = match.players == 2, match.opponent.partition(":")[0], match.player
    if me.startswith("level:"):
        below = _level_below(me)
        if match.opponent == below and match.game == "sixty-six" and two:
            return "≥ 55 %", lambda r: r.share().value >= 0.55
        if me == "level:1" and them == "greedy" and two:
            return "< 50 % (loses)", lambda r: r.share().value < 0.5
        return None
    if them == "greedy":
        if two:
            return "≥ 60 %, low end > 55 %", lambda r: r.share().value >= 0.60 and r.share().low > 0.55
        return "> 0 (95 %)", lambda r: r.mean().low > 0
    if them == "today" and two:
        return "≥ 55 %", lambda r: r.share().value >= 0.55
    if them == "rdeep" and two and match.game == "sixty-six":
        return "≥ 60 %", lambda r: r.share().value >= 0.60
    if them == "random":
        if two:
            return "≥ 75 % (earlier)", lambda r: r.share().value >= 0.75
        return "> 0 (95 %, earlier)", lambda r: r.mean().low > 0
    return None


def _level_below(name: str) -> str | None:
    arg = name.partition(":")[2]
    return f"level:{int(arg) - 1}" if arg.isdigit() and int(arg) > 1 else None


# --- the run -------------------------------------------------------------------------------------


def matches(games: Iterable[str], hands: int, knobs: Knobs, opponents: Sequence[str],
            levels: Sequence[str] = (), seats: Collection[int] = (),
            caps: Mapping[str, int] = HANDS) -> list[Match]:
    """Every table of ``games`` (of the sizes ``seats``, or all) against each opponent; with
    ``levels``, each level against the one below it (level 1 against greedy). ``caps``: the
    most hands a game plays at two seats."""
    chosen = []
    for g in games:
        deals = max(2, min(hands, caps.get(g, hands)) // 2)
        for players in GAMES[g].info.player_counts:
            if seats and players not in seats:
                continue
            chosen += [Match(g, players, "player", o, deals, knobs) for o in opponents]
            for number in levels:
                me = f"level:{number}"
                chosen.append(Match(g, players, me, _level_below(me) or "greedy", deals, knobs))
    return list(dict.fromkeys(chosen))


def run(chosen: Sequence[Match], jobs: int, chunk: int = CHUNK,
        done: Callable[[Result], None] = lambda r: None) -> list[Result]:
    """The matches played ``jobs`` processes at a time, in chunks of deals; ``done`` is told of
    each match as soon as all its deals are in, in the order of ``chosen``."""
    work = [(m, first, min(m.deals, first + chunk)) for m in chosen for first in range(0, m.deals, chunk)]
    got: dict[Match, list[Deal]] = defaultdict(list)
    left = {m: len(range(0, m.deals, chunk)) for m in chosen}
    results: dict[Match, Result] = {}
    told = 0
    with ProcessPoolExecutor(jobs) as pool:
        for (m, _, _), deals in zip(work, pool.map(play_deals, work), strict=True):
            got[m] += deals
            left[m] -= 1
            print(f"  {m.game} {m.players}, {m.player} against {m.opponent}: {len(got[m])}/{m.deals} deals, "
                  f"{sum(d.seconds for d in got[m]):.0f} s", file=sys.stderr, flush=True)
            if left[m] == 0:
                results[m] = Result(m, tuple(got[m]))
            while told < len(chosen) and chosen[told] in results:
                done(results[chosen[told]])
                told += 1
    return [results[m] for m in chosen]


def main() -> None:
    games = [g for g in os.environ.get("STRENGTH_GAMES", ",".join(GAMES)).split(",") if g]
    timings = budget.measure(games, int(os.environ.get("SUGGEST_COUNT", "1000"))) if BUDGET_RUN else []
    knobs = Knobs(float(os.environ.get("STRENGTH_BUDGET_MS", "100")),
                  int(os.environ.get("STRENGTH_SAMPLES", "10000")))
    hands = int(os.environ.get("STRENGTH_HANDS", "200"))
    caps = {} if "STRENGTH_HANDS" in os.environ else HANDS
    jobs = int(os.environ.get("STRENGTH_JOBS", "2"))
    opponents = [o for o in os.environ.get("STRENGTH_AGAINST", "random,greedy,today,rdeep").split(",") if o]
    levels = [v for v in os.environ.get("STRENGTH_LEVELS", "").split(",") if v]
    seats = {int(n) for n in os.environ.get("STRENGTH_SEATS", "").split(",") if n}
    chosen = matches(games, hands, knobs, opponents, levels, seats, caps)
    for m in chosen:  # a misspelt player stops the run before it starts
        build(m.player, m.knobs), build(m.opponent, m.knobs)
    results = run(chosen, jobs, done=lambda r: print(plain(r), file=sys.stderr, flush=True))
    Path(os.environ.get("STRENGTH_OUT", OUT)).write_text(report(timings, results, knobs, jobs))


# --- the report --------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{x:.0%}" if math.isfinite(x) else "—"


def _signed(x: float) -> str:
    return f"{x:+.2f}" if math.isfinite(x) else "—"


def _interval(e: Estimate, fmt: Callable[[float], str]) -> str:
    return f"{fmt(e.value)} ({fmt(e.low)} to {fmt(e.high)})"


def _bar(result: Result) -> tuple[str, str]:
    bar = target(result.match)
    if bar is None:
        return "—", "—"
    words, test = bar
    return words, "met" if test(result) else "not met"


def row(result: Result) -> str:
    m = result.match
    words, met = _bar(result)
    mean = result.mean()
    if m.players == 2:
        share = result.share()
        needed = units_needed(share.spread)
        return (f"| {m.player} | {m.opponent} | {result.hands} | {_interval(share, _pct)} | "
                f"{'—' if needed is None else 2 * needed} | {_interval(mean, _signed)} | {words} | {met} | "
                f"{result.seconds:.0f} s |")
    return (f"| {m.player} | {m.opponent} | {result.hands} | {_interval(mean, _signed)} | {words} | "
            f"{met} | {result.seconds:.0f} s |")


def plain(result: Result) -> str:
    """A match's line as it finishes, for the terminal."""
    m = result.match
    return f"{m.game} {m.players}: {row(result)}"


HEAD_TWO = ("| player | against | hands | score share (95 % CI) | ±5 needs (hands) | mean value (95 % CI) | "
            "target | met | time |\n|---|---|---:|---|---:|---|---|---|---:|\n")
HEAD_MORE = ("| player | against | hands | mean value (95 % CI) | target | met | time |\n"
             "|---|---|---:|---|---|---|---:|\n")


def tables(results: Sequence[Result]) -> str:
    """A table per game and table size, in the order played."""
    by_table: dict[tuple[str, int], list[Result]] = defaultdict(list)
    for r in results:
        by_table[r.match.game, r.match.players].append(r)
    parts = []
    for (game, players), rows in by_table.items():
        head = HEAD_TWO if players == 2 else HEAD_MORE
        parts.append(f"### {game}, {players} seats\n\n{head}" + "\n".join(row(r) for r in rows) + "\n")
    return "\n".join(parts)


def report(timings: list[str], results: Sequence[Result], knobs: Knobs, jobs: int) -> str:
    held = "" if not timings else (
        "## The budget\n\n" + budget.__doc__.split(chr(10) * 2)[0] + "\n\n" + budget.HEAD
        + "\n".join(timings) + "\n\n")
    method = "\n\n".join(__doc__.split(chr(10) * 2)[1:-1])
    cap = "" if knobs.samples >= 10_000 else f", at most {knobs.samples} samples a move"
    return (f"# The computer player\n\n{held}## How it plays each game\n\n{methods()}\n\n"
            f"## Strength\n\n{method}\n\n"
            f"Budget {knobs.budget_ms:.0f} ms a move{cap}, {jobs} processes at a time on this "
            f"machine.\n\n" + tables(results) + worth(results))


def worth(results: Sequence[Result]) -> str:
    """What each game's inference is worth: each ``player`` against ``blind`` match (the same
    player without the record) gathered in one table; nothing where none was played."""
    rows = [r for r in results if (r.match.player, r.match.opponent) == ("player", "blind")]
    if not rows:
        return ""
    lines = [f"| {r.match.game} | {r.match.players} | {r.hands} | "
             f"{_interval(r.share(), _pct) if r.match.players == 2 else _interval(r.mean(), _signed)} |"
             for r in rows]
    return ("\n## What each inference is worth\n\nThe player against itself without the record "
            "(`blind`): a score share above 50 % (two seats) or a mean value above 0 (more) is what "
            "its inference gains.\n\n| game | seats | hands | share or mean value (95 % CI) |\n"
            "|---|---:|---:|---|\n" + "\n".join(lines) + "\n")


def methods() -> str:
    """Per game, how the player searches it, read from the game's ``Advice`` so that it stays
    true: its playouts (and its candidates, where the game ranks them), whether it solves endgames
    exactly, and what it infers from the record (the first sentence of its ``infer``)."""
    rows = ["| game | playouts | exact endgame | inference from the record |", "|---|---|---|---|"]
    for game_id, game in GAMES.items():
        advice = game.advice
        playouts = "its own policy, no listing" if advice.playout else "greedy over the listing"
        exact = "yes (`Advice.worlds`, `Advice.solve`)" if advice.solve else "no: sampled"
        exact += "; past the worlds listed, each sampled deal solved" if advice.solves_samples else ""
        inferred = _sentence(advice.infer.__doc__) if advice.infer else "none"
        depth = "to the hand's end" if advice.horizon >= 1_000 else f"{advice.horizon} moves deep"
        depth += ", a trick's worth more per seat past two" if advice.horizon_grows else ""
        depth += (f"; past {advice.shortlist} legal moves, greedy's and the first others ranked "
                  "(`Advice.rank`)") if advice.rank else ""
        rows.append(f"| {game_id} | {playouts}, {depth} | {exact} | {inferred} |")
    return "\n".join(rows)


def _sentence(doc: str | None) -> str:
    """A docstring's first sentence, on one line."""
    text = " ".join((doc or "").split())
    return text.split(". ")[0].rstrip(".") + "."


if __name__ == "__main__":
    main()
