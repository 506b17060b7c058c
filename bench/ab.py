"""`make bench REF=<commit>`: this checkout (B) against another commit (A), each row's ratio to the
bare-Flask ceiling for both, and B's gain with its spread over rounds.

The other commit is checked out in a temporary git worktree whose ``.venv`` is a symlink to this
checkout's (the dependencies are the same; a commit that changed them needs its own run of
``make bench``); REF may also name a directory holding another checkout, used as it is. Three
servers run side by side under the same gunicorn configuration: the ceiling, A and B. Each round
loads every selected row three times, ceiling, A and B on the same bodies, in the order
``schedule`` gives (mirrored every other round, so that a drift of the machine weighs on the
three alike), and each side's ratio is taken against the ceiling of the same round: the ratio of
requests per second, and the ratio of server CPU per request (the ceiling's over the side's).
On a machine shared with other work the second is the steadier: another process takes cores
from wrk and the servers alike, but hardly changes what a request costs.

AB_GAMES (default sixty-six), AB_ENDPOINTS (default validate-legal,validate-sealed), AB_ROUNDS
(default 6), AB_SECONDS (default 3 per run) and AB_CONNS (default 16) size a run: the defaults
take about two minutes. Writes bench/results/ab.json.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench import report
from bench.bodies import STATE_KEYS, bodies
from bench.load import ROOT, Run, dumps, gunicorn, run

SIDES = ("ceiling", "A", "B")
PORTS = {"ceiling": 18752, "A": 18753, "B": 18754}
RESULTS = report.RESULTS.with_name("ab.json")
SERVICE_ENV = {"STATE_KEYS": STATE_KEYS, "REPLAY_STORE": "off"}
"""The sealed rows send each token many times: the replay guard would refuse all but the first."""
T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086)
"""Student's t, two-sided 95 %, for 1 to 20 degrees of freedom."""
SEALED_BY = """import json, sys
from bench.bodies import bodies
from bench.load import dumps
rows = json.loads(sys.argv[1])
print(json.dumps([[dumps(b) for b in bodies(game)[endpoint]] for game, endpoint in rows]))"""
"""The bodies of the sealed rows as a checkout makes them: each side opens tokens of its own
format (the same positions; the ceiling echoes B's)."""


def schedule(rows: int, rounds: int) -> list[tuple[int, int, str]]:
    """(round, row, side) in the order they run: every row each round, its three runs back to back,
    ceiling A B in even rounds and B A ceiling in odd ones, so that over two rounds every side
    has the same mean place and a steady drift favours none."""
    order = []
    for round_ in range(rounds):
        sides = SIDES if round_ % 2 == 0 else SIDES[::-1]
        order += [(round_, row, side) for row in range(rows) for side in sides]
    return order


def t_quantile(freedom: int) -> float:
    """Student's t at 0.975 (1.96 past the table)."""
    return T_975[freedom - 1] if freedom <= len(T_975) else 1.96


@dataclass(frozen=True)
class Spread:
    """Values measured once a round: their median and range, their mean and its 95 % t interval."""

    median: float
    low: float
    high: float
    mean: float
    half_width: float
    """Half the 95 % confidence interval of the mean (0 for one value)."""


def spread(values: Sequence[float]) -> Spread:
    if not values:
        raise ValueError("no values")
    mean = statistics.fmean(values)
    half = (t_quantile(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
            if len(values) > 1 else 0.0)
    return Spread(statistics.median(values), min(values), max(values), mean, half)


@dataclass(frozen=True)
class Comparison:
    """One row: each side's ratio to the ceiling of its round, and B's ratio less A's."""

    a: Spread
    b: Spread
    gain: Spread


def compared(rps: Sequence[dict[str, float]]) -> Comparison:
    """``rps``: one round each, the requests per second of every side."""
    a = [r["A"] / r["ceiling"] for r in rps]
    b = [r["B"] / r["ceiling"] for r in rps]
    return Comparison(spread(a), spread(b), spread([y - x for x, y in zip(a, b, strict=True)]))


@contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """The code of ``ref``: a directory as it is, or a commit in a temporary git worktree."""
    if Path(ref).is_dir():
        yield Path(ref).resolve()
        return
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.strip()
    place = Path(tempfile.mkdtemp(prefix="bench-ab-")) / "checkout"
    subprocess.run(["git", "worktree", "add", "--quiet", "--detach", str(place), commit], cwd=ROOT, check=True)
    try:
        (place / ".venv").symlink_to((ROOT / ".venv").resolve())
        yield place
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(place)], cwd=ROOT, check=False)


def url(side: str, game: str, endpoint: str) -> str:
    if side == "ceiling":
        return f"http://127.0.0.1:{PORTS[side]}/echo"
    path = next(p for p in ("validate", "legal-moves", "view", "deal", "score", "events") if endpoint.startswith(p))
    path = f"sealed/{path}" if endpoint.endswith("-sealed") else path
    return f"http://127.0.0.1:{PORTS[side]}/v1/games/{game}/{path}"


def selected_rows() -> list[tuple[str, str]]:
    games = [g for g in os.environ.get("AB_GAMES", "sixty-six").split(",") if g]
    endpoints = [e for e in os.environ.get("AB_ENDPOINTS", "validate-legal,validate-sealed").split(",") if e]
    return [(game, endpoint) for game in games for endpoint in endpoints]


def main(ref: str) -> None:
    rows = selected_rows()
    rounds, seconds = int(os.environ.get("AB_ROUNDS", "6")), float(os.environ.get("AB_SECONDS", "3"))
    conns = int(os.environ.get("AB_CONNS", "16"))
    made = {row: [dumps(b) for b in bodies(row[0])[row[1]]] for row in rows}
    payloads = {(side, *row): made[row] for side in SIDES for row in rows}  # A's sealed ones: below
    print(f"A = {ref}, B = this checkout ({ROOT}); {len(rows)} rows x {rounds} rounds x 3 runs of {seconds:g} s "
          f"(about {len(rows) * rounds * 3 * (seconds + 0.5) / 60:.1f} min)", flush=True)
    runs: dict[tuple[int, int, str], Run] = {}
    with ExitStack() as stack:
        root_a = stack.enter_context(checkout(ref))
        roots = {"A": root_a, "B": ROOT}
        payloads.update(_sealed_payloads(root_a, [row for row in rows if row[1].endswith("-sealed")]))
        pids = {"ceiling": stack.enter_context(gunicorn("bench.ceiling:create_app()", PORTS["ceiling"]))}
        for side in ("A", "B"):
            pids[side] = stack.enter_context(gunicorn("service:create_app()", PORTS[side], SERVICE_ENV,
                                                      root=roots[side]))
        for round_, row, side in schedule(len(rows), rounds):
            game, endpoint = rows[row]
            runs[round_, row, side] = run(url(side, game, endpoint), payloads[side, game, endpoint],
                                          conns=conns, seconds=seconds, pids=pids[side])
    results = [_row(game, endpoint, [runs[r, n, s] for r in range(rounds) for s in SIDES], rounds)
               for n, (game, endpoint) in enumerate(rows)]
    print(_table(results))
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"ref": ref, "rounds": rounds, "seconds": seconds, "conns": conns,
                                   "rows": results}, indent=1))


def _sealed_payloads(root: Path, rows: list[tuple[str, str]]) -> dict[tuple[str, str, str], list[str]]:
    """A's bodies of the sealed ``rows``, made by A's own code (``SEALED_BY``)."""
    if not rows:
        return {}
    made = subprocess.run([sys.executable, "-c", SEALED_BY, json.dumps(rows)], cwd=root, check=True,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(root)})
    return {("A", game, endpoint): found for (game, endpoint), found in zip(rows, json.loads(made.stdout),
                                                                          strict=True)}


def _row(game: str, endpoint: str, flat: list[Run], rounds: int) -> dict[str, Any]:
    by_round = [dict(zip(SIDES, flat[3 * r:3 * r + 3], strict=True)) for r in range(rounds)]
    throughput = compared([{side: ran.rps for side, ran in sides.items()} for sides in by_round])
    cpu = compared([{side: 1 / ran.cpu_us for side, ran in sides.items()} for sides in by_round])
    return {"game": game, "endpoint": endpoint, **asdict(throughput), "cpu": asdict(cpu),
            "cpu_us": {side: statistics.median(sides[side].cpu_us for sides in by_round) for side in SIDES},
            "errors": {side: sum(sides[side].errors for sides in by_round) for side in SIDES}}


def _table(results: list[dict[str, Any]]) -> str:
    """Per row, two lines: the ratio of requests per second, and the ratio of server CPU per
    request (the ceiling's over the side's), which another load on the machine disturbs less."""
    lines = [f"{'game':<11}{'endpoint':<17}{'ratio':<6}{'A (min-max)':>22}{'B (min-max)':>22}"
             f"{'B - A median (min, max)':>29}{'mean ± 95 %':>17}{'CPU µs A/B/ceil':>17}{'err':>5}"]
    for row in results:
        cpu, errors = row["cpu_us"], sum(row["errors"].values())
        for kind, figures in (("rps", row), ("cpu", row["cpu"])):
            a, b, gain = figures["a"], figures["b"], figures["gain"]
            lines.append(
                f"{row['game']:<11}{row['endpoint']:<17}{kind:<6}"
                f"{a['median']:>8.3f} ({a['low']:.3f}-{a['high']:.3f})"
                f"{b['median']:>8.3f} ({b['low']:.3f}-{b['high']:.3f})"
                f"{gain['median']:>+11.3f} ({gain['low']:+.3f}, {gain['high']:+.3f})"
                f"{gain['mean']:>+10.3f} ± {gain['half_width']:.3f}"
                + (f"{cpu['A']:>7.0f}/{cpu['B']:.0f}/{cpu['ceiling']:.0f}{errors:>5}" if kind == "rps" else ""))
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m bench.ab <commit, or a directory holding another checkout>")
    main(sys.argv[1])
