"""Play one whole hand against a running service, with nothing but Python's standard library.

    python3 examples/play_hand.py                       # Sixty-six at http://127.0.0.1:8000
    python3 examples/play_hand.py --game bura --seed 7  # any game of GET /v1/games
    python3 examples/play_hand.py --url http://cards.example.com   # a service elsewhere

Each seat plays the first move that ``legal-moves`` lists: deal, then legal-moves and validate in
turn until nobody is to move, then score. The client keeps the state; the service checks it.
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


def play(base: str, game: str, seed: str) -> dict[str, Any]:
    url = f"{base}/v1/games/{game}"
    state = post(f"{url}/deal", {"seed": seed})["state"]
    print(f"dealt {game}, seed {seed!r}; seat {state['to_move']} to move")
    moves = 0
    while True:
        listing = post(f"{url}/legal-moves", {"state": state})
        if listing["to_move"] is None:
            break
        move = listing["moves"][0]
        answer = post(f"{url}/validate", {"state": state, "move": move})
        assert answer["legal"], answer["reason"]
        state, moves = answer["state"], moves + 1
        events = ", ".join(e["type"] for e in answer["events"])
        print(f"{moves:3}. seat {move['seat']} {move['type']} {' '.join(move.get('cards', []))}: {events}")
    score = post(f"{url}/score", {"state": state})
    print(f"hand over after {moves} moves")
    print("hand:", json.dumps(score["hand"]))
    print("match:", json.dumps(score["match"]))
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="sixty-six")
    parser.add_argument("--seed", default="walk-through")
    args = parser.parse_args()
    try:
        play(args.url, args.game, args.seed)
    except (urllib.error.URLError, ConnectionError):  # refused, reset, or no such host
        raise SystemExit(nothing_answers(args.url)) from None


if __name__ == "__main__":
    main()
