"""The targets checked against a bench result, and the result as Markdown for the README.

``python -m bench.report`` renders bench/results/latest.json again without rerunning anything.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).with_name("results") / "latest.json"
VALIDATE_RATIO, ENDPOINT_RATIO, P99_FACTOR = 0.85, 0.70, 2.0
"""The same targets for every registered game: validate at 0.85 of the ceiling, every other
endpoint at 0.70, p99 under twice the ceiling's."""
IN_PROCESS_US = {("sixty-six", "validate"): 50.0, ("sixty-six", "random hand"): 2000.0,
                 ("bezique", "validate, largest state"): 100.0}
"""In-process limits by game and the start of the timing's name: Sixty-six's from its first release,
Bezique's for a 214-card state."""


LISTING_MS, LISTING_BYTES = 100.0, 512 * 1024
"""The costliest listing over HTTP: the median request's wall time and the answer's size."""


def misses(result: dict[str, Any]) -> list[str]:
    """Every target a row or an in-process timing misses; empty when all are met."""
    found = []
    for row in result["rows"]:
        name = f"{row['game']} {row['endpoint']} at {row['conns']} connections"
        floor = VALIDATE_RATIO if row["endpoint"].startswith("validate") else ENDPOINT_RATIO
        if row["ratio"] < floor:
            found.append(f"{name}: ratio {row['ratio']} < {floor}")
        if row["errors"]:
            found.append(f"{name}: {row['errors']} errors")
        if row["p99_ms"] >= P99_FACTOR * row["ceiling_p99_ms"]:
            found.append(f"{name}: p99 {row['p99_ms']} ms >= {P99_FACTOR} x ceiling {row['ceiling_p99_ms']} ms")
    for item in result["in_process"]:
        for (game, prefix), limit in IN_PROCESS_US.items():
            if item["game"] == game and item["what"].startswith(prefix) and item["us"] >= limit:
                if prefix == "validate" and item["what"].startswith("validate,"):
                    continue  # "validate" limits the mean over the bodies, not the largest
                found.append(f"{game} in-process {item['what']}: {item['us']} µs >= {limit} µs")
    for item in result.get("limits_http", []):
        if item["status"] != 200:
            found.append(f"{item['game']} {item['what']}: HTTP {item['status']}")
        if item["ms"] >= LISTING_MS or item["bytes"] > LISTING_BYTES:
            found.append(f"{item['game']} {item['what']}: {item['ms']} ms, {item['bytes']} bytes "
                         f"(limits {LISTING_MS} ms, {LISTING_BYTES} bytes)")
    return found


def markdown(result: dict[str, Any]) -> str:
    lines = [
        "| game | endpoint | conns | rps | ceiling rps | ratio | p99 ms | ceiling p99 ms | CPU µs/req "
        "| ceiling CPU µs/req | errors |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines += [
        f"| {r['game']} | {r['endpoint']} | {r['conns']} | {r['rps']:.0f} | {r['ceiling_rps']:.0f} "
        f"| {r['ratio']:.2f} | {r['p99_ms']} | {r['ceiling_p99_ms']} | {r['cpu_us']:.0f} "
        f"| {r['ceiling_cpu_us']:.0f} | {r['errors']} |"
        for r in result["rows"]
    ]
    if result["in_process"]:
        lines += ["", "| game | in process | µs |", "| --- | --- | --- |"]
        lines += [f"| {i['game']} | {i['what']} | {i['us']} |" for i in result["in_process"]]
    if result.get("limits_http"):
        lines += ["", "| game | constructed position | entries | in process ms | HTTP ms | answer bytes |",
                  "| --- | --- | --- | --- | --- | --- |"]
        timed = {(i["game"], i["what"]): i["us"] for i in result.get("limits", [])}
        lines += [f"| {i['game']} | {i['what']} | {i['entries']} | "
                  f"{timed.get((i['game'], i['what']), 0) / 1000:.1f} | {i['ms']} | {i['bytes']} |"
                  for i in result["limits_http"]]
    return "\n".join(lines)


def summary(result: dict[str, Any]) -> str:
    found = misses(result)
    if not found:
        return "Every target is met."
    return f"{len(found)} target(s) missed:\n" + "\n".join(f"- {m}" for m in found)


if __name__ == "__main__":
    result = json.loads(RESULTS.read_text())
    print(markdown(result))
    print()
    print(summary(result))
    sys.exit(0)
