"""Play a hand yourself against the service's computer player, with nothing but Python's standard
library.

    python3 examples/against_computer.py                 # Sixty-six at http://127.0.0.1:8000
    python3 examples/against_computer.py --game kozel    # any game of GET /v1/games

The hand is sealed: you are seat 0 and see only your own cards. Every other seat is the computer
player, asked with its own seat key (``sealed/suggest``), so it sees no more than you do. On your
turn the script lists your legal moves with the value the computer player gives each (its hint);
type a move's number, or just Enter to take the hint. At the end, the score.
"""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.request
from typing import Any


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)  # type: ignore[no-any-return]
    except urllib.error.HTTPError as error:  # a problem document says what was wrong, and where
        raise SystemExit(f"{error.code} from {url}: {error.read().decode()}") from None


def nothing_answers(base: str) -> str:
    """The one line printed, instead of a traceback, when no service answers at ``base``."""
    return f"nothing answers at {base}: start the service with `make run`, or pass --url"


def shown(move: dict[str, Any]) -> str:
    extras = " ".join(f"{k}={v}" for k, v in move.items() if k not in ("seat", "type", "cards") and v)
    return " ".join(filter(None, [move["type"], " ".join(move.get("cards", [])), extras]))


def your_move(url: str, token: str, key: str, budget_ms: int) -> dict[str, Any]:
    """Your hand, your moves and the hint; your choice (Enter: the hint)."""
    view = post(f"{url}/sealed/view", {"token": token, "seat_key": key})["view"]
    print(f"  your hand: {' '.join(view['hand'])}")
    moves = post(f"{url}/sealed/legal-moves", {"token": token, "seat_key": key})["moves"]
    hint = post(f"{url}/sealed/suggest", {"token": token, "seat_key": key, "budget_ms": budget_ms})
    values = {json.dumps(c["move"], sort_keys=True): c["value"] for c in hint["candidates"]}
    for number, move in enumerate(moves, 1):
        value = values.get(json.dumps(move, sort_keys=True))
        worth = "" if value is None else f"  (worth about {value:+.2f})"
        print(f"  {number:3}. {shown(move)}{worth}{'  <- hint' if move == hint['move'] else ''}")
    try:
        typed = input("  your move (Enter: the hint): ").strip()
    except EOFError:
        typed = ""
    return moves[int(typed) - 1] if typed.isdigit() and 0 < int(typed) <= len(moves) else hint["move"]


def play(base: str, game: str, budget_ms: int) -> dict[str, Any]:
    url = f"{base}/v1/games/{game}"
    hand = post(f"{url}/sealed/deal", {})
    token, keys, to_move = hand["token"], hand["seat_keys"], hand["to_move"]
    print(f"dealt a sealed {game} hand for {len(keys)}; you are seat 0")
    moves = 0
    while to_move is not None:
        key = keys[to_move]
        if to_move == 0:
            move = your_move(url, token, key, budget_ms)
        else:
            asked = {"token": token, "seat_key": key, "budget_ms": budget_ms}
            move = post(f"{url}/sealed/suggest", asked)["move"]
        answer = post(f"{url}/sealed/validate", {"token": token, "seat_key": key, "move": move})
        assert answer["legal"], answer["reason"]
        token, to_move, moves = answer["token"], answer["to_move"], moves + 1
        events = ", ".join(e["type"] for e in answer["public_events"])
        print(f"{moves:3}. seat {move['seat']} {shown(move)}: {events}")
    score = post(f"{url}/sealed/score", {"token": token})
    print(f"hand over after {moves} moves")
    print("hand:", json.dumps(score["hand"]))
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="sixty-six")
    parser.add_argument("--budget-ms", type=int, default=100, help="the computer player's time a move")
    args = parser.parse_args()
    try:
        play(args.url, args.game, args.budget_ms)
    except (urllib.error.URLError, ConnectionError):  # refused, reset, or no such host
        raise SystemExit(nothing_answers(args.url)) from None


if __name__ == "__main__":
    main()
