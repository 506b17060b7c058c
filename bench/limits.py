"""The costliest listings we know (bench/hostile.py's legal-moves bodies: Canasta's largest hands,
Bezique's longest declaration holdings), timed in process and over HTTP, with their sizes."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from bench.hostile import hostile
from service.games.registry import GAMES

Body = dict[str, Any]


def positions() -> list[tuple[str, str, Body]]:
    """(game, what, body) of every legal-moves body of bench/hostile.py."""
    return [(path.split("/")[3], name, body) for name, path, body in hostile()
            if path.endswith("/legal-moves") and isinstance(body, dict)]


def _listing(game: Any, body: Body) -> tuple[list[Any], list[Any]]:
    state = game.load_state(body["state"])
    listing = game.listing(state, game.to_move(state))
    return [game.dump_move(m) for m in listing.moves], listing.families


def in_process() -> list[dict[str, Any]]:
    """Each position's listing: its entries and the microseconds to load, list and dump it."""
    rows = []
    for game_id, what, body in positions():
        game = GAMES[game_id]
        moves, families = _listing(game, body)
        start = time.perf_counter()
        for _ in range(5):
            _listing(game, body)
        rows.append({"game": game_id, "what": what, "entries": len(moves) + len(families),
                     "us": round((time.perf_counter() - start) / 5 * 1e6, 1)})
    return rows


def over_http(base_url: str) -> list[dict[str, Any]]:
    """Each position's listing answered by the live service: status, entries, answer size and
    the median of five requests' wall time."""
    rows = []
    for game_id, what, body in positions():
        data = json.dumps(body).encode()
        times, status, answer = [], 0, b""
        for _ in range(6):  # the first warms the worker's compiled schemas
            request = urllib.request.Request(f"{base_url}/v1/games/{game_id}/legal-moves", data=data,
                                             headers={"Content-Type": "application/json"})
            start = time.perf_counter()
            with urllib.request.urlopen(request, timeout=60) as response:
                status, answer = response.status, response.read()
            times.append(time.perf_counter() - start)
        listed = json.loads(answer)
        rows.append({"game": game_id, "what": what, "status": status,
                     "entries": len(listed["moves"]) + len(listed.get("families", [])), "bytes": len(answer),
                     "ms": round(sorted(times[1:])[2] * 1000, 1)})
    return rows
