"""Constructed positions at the limits of a game's rules, timed in process and over HTTP.

Bezique (docs/rules/bezique.md §4.6): the longest listing the rules file names, eight jacks in
the hand with both wild cards and eight exposed jacks, in a declaration window of a ten-pack deal.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from typing import Any

from service.cards import SeedStream
from service.games import GAMES
from service.games.base import DealSetup

Body = dict[str, Any]


def bezique_jacks() -> Body:
    """Hearts trumps (the bezique jack is JD). Seat 1 has won the first trick and holds 17: in
    the hand JC JC JS JD JD JH, both JK and 9H; on the table eight jacks in four classes (JD
    from beziques, JD from a bezique and a quint, JD and JH from quints). Every other card is in
    seat 0's hand, the stock (AH turned) or the trick seat 1 won."""
    game = GAMES["bezique"]
    options = {"packs": 10}
    dealt = game.dump_state(game.deal(DealSetup(2, None, options, None), SeedStream("limits")))
    deck = Counter(c for pile in (dealt["stock"], *dealt["hands"]) for c in pile)
    hand = ["JC", "JC", "JS", "JD", "JD", "JH", "JK", "JK", "9H"]
    tags = [["bezique"], ["bezique"], ["bezique", "trump_quint"], ["bezique", "trump_quint"],
            ["trump_quint"], ["trump_quint"], ["trump_quint"], ["trump_quint"]]
    table = ["JD", "JD", "JD", "JD", "JD", "JD", "JH", "JH"]
    exposed = [{"id": i + 1, "card": c, "as": c, "tags": t}
               for i, (c, t) in enumerate(zip(table, tags, strict=True))]
    rest = deck - Counter(hand) - Counter(table) - Counter(["AH", "KS", "QS"])
    ordered = sorted(rest.elements(), key=lambda c: (c == "JK", c.endswith("H")))  # hearts last, no JK
    other, stock = ordered[:17], [*ordered[17:], "AH"]
    return {"state": {
        **dealt, "trump_suit": "H", "stock": stock, "hands": [other, hand], "exposed": [[], exposed],
        "next_exposed_id": 9, "phase": "declare", "leader": 1, "to_move": 1, "trick": [], "trick_winner": 1,
        "declared_in_window": False, "tricks_played": 1, "won_cards": [[], ["KS", "QS"]],
        "trump_card": "AH", "bezique_jack": "JD", "status": "in_progress", "active": [1, 0], "result": None,
    }}


POSITIONS: dict[str, dict[str, Callable[[], Body]]] = {
    "bezique": {"legal-moves, eight jacks in hand (both JK) and eight exposed": bezique_jacks},
}


def _listing(game: Any, body: Body) -> list[Any]:
    state = game.load_state(body["state"])
    return [game.dump_move(m) for m in game.legal_moves(state, game.to_move(state))]


def in_process() -> list[dict[str, Any]]:
    """Each position's listing: its length and the microseconds to load, list and dump it."""
    rows = []
    for game_id, positions in POSITIONS.items():
        game = GAMES[game_id]
        for what, build in positions.items():
            body = build()
            entries = len(_listing(game, body))
            start = time.perf_counter()
            for _ in range(5):
                _listing(game, body)
            rows.append({"game": game_id, "what": what, "entries": entries,
                         "us": round((time.perf_counter() - start) / 5 * 1e6, 1)})
    return rows


def over_http(base_url: str) -> list[dict[str, Any]]:
    """Each position's listing answered by the live service: status, entries, answer size and
    the median of five requests' wall time."""
    rows = []
    for game_id, positions in POSITIONS.items():
        for what, build in positions.items():
            data = json.dumps(build()).encode()
            times, status, answer = [], 0, b""
            for _ in range(6):  # the first warms the worker's compiled schemas
                request = urllib.request.Request(f"{base_url}/v1/games/{game_id}/legal-moves", data=data,
                                                 headers={"Content-Type": "application/json"})
                start = time.perf_counter()
                with urllib.request.urlopen(request, timeout=60) as response:
                    status, answer = response.status, response.read()
                times.append(time.perf_counter() - start)
            rows.append({"game": game_id, "what": what, "status": status,
                         "entries": len(json.loads(answer)["moves"]), "bytes": len(answer),
                         "ms": round(sorted(times[1:])[2] * 1000, 1)})
    return rows
