"""Play one sealed hand against a running service, then check the deal, with nothing but Python's
standard library.

    python3 examples/sealed_hand.py                  # Sixty-six at http://127.0.0.1:8000
    python3 examples/sealed_hand.py --game canasta   # any game of GET /v1/games

The host deals and gives each seat its own key; here one process plays every seat, but each
request carries only the key of the seat that makes it, and each seat follows the hand by its own
events. At the end ``score`` reveals the seeds and the hand's record: the commitment is checked,
the deal is made again in the open from the joined seed, each seat's first view is compared with
the one it was shown, and the record is scored in the open, which checks every move.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import urllib.error
from typing import Any

from play_hand import nothing_answers, post  # the same helpers (this script's folder is on the path)


def play(base: str, game: str, seed: str) -> dict[str, Any]:
    url = f"{base}/v1/games/{game}"
    dealt = post(f"{url}/sealed/deal", {"seed": seed})
    token, keys = dealt["token"], dealt["seat_keys"]
    print(f"dealt a sealed {game} hand {dealt['hand_id']}: {len(token)}-character token, "
          f"{len(keys)} seat keys, commitment {dealt['seed_commitment'][:16]}...")
    first_views = [post(f"{url}/sealed/view", {"token": token, "seat_key": key})["view"] for key in keys]
    print(f"seat 0 sees its hand {' '.join(first_views[0].get('hand', []))}")
    to_move = dealt["to_move"]
    while to_move is not None:
        key = keys[to_move]  # only the mover's key travels with its requests
        move = post(f"{url}/sealed/legal-moves", {"token": token, "seat_key": key})["moves"][0]
        answer = post(f"{url}/sealed/validate", {"token": token, "seat_key": key, "move": move})
        assert answer["legal"], answer["reason"]
        token, to_move = answer["token"], answer["to_move"]
        print(f"{answer['move_number']:3}. seat {move['seat']} {move['type']} "
              f"{' '.join(move.get('cards', []))}: {told(answer['events'])}")
    for seat, key in enumerate(keys):  # each seat, catching up at the end, hears every move
        moves = post(f"{url}/sealed/events", {"token": token, "seat_key": key, "since": 0})["moves"]
        assert [m["move_number"] for m in moves] == list(range(1, len(moves) + 1))
        print(f"seat {seat} heard {sum(len(m['events']) for m in moves)} events over {len(moves)} moves")
    score = post(f"{url}/sealed/score", {"token": token})
    print("hand:", json.dumps(score["hand"]))
    verify(url, dealt, score, first_views, keys)
    return score


def told(events: list[dict[str, Any]]) -> str:
    """A seat's events in a few words: another seat's hidden cards are only their number."""
    return ", ".join(e["type"] + (f" ({e['count']} hidden)" if "count" in e and "cards" not in e else "")
                     for e in events)


def verify(url: str, dealt: dict[str, Any], score: dict[str, Any], first_views: list[Any],
           keys: list[str]) -> None:
    """What any seat can check once the hand is over: the deal, and every move."""
    assert hashlib.sha256(score["server_seed"].encode()).hexdigest() == dealt["seed_commitment"]
    joined = f"{score['server_seed']}:{score['seed'] or ''}"
    record = score["record"]
    start = record["start"]
    again = post(f"{url}/deal", {"seed": joined, "players": start["seats"], "dealer": start["dealer"],
                                 "options": start["options"]})["state"]
    assert again == start, "the record starts from the deal the seeds make"
    for seat in range(len(keys)):
        assert post(f"{url}/view", {"state": again, "seat": seat})["view"] == first_views[seat], seat
    rescored = post(f"{url}/score", {"record": record})  # each move checked as validate would
    assert rescored["hand"] == score["hand"] and rescored["state"] == score["state"]
    print(f"verified: SHA-256(server_seed) is the commitment, shuffle v1 of '{joined[:12]}...' deals "
          f"what every seat was shown, and all {len(record['moves'])} moves of the record are legal "
          f"and score the same")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="sixty-six")
    parser.add_argument("--seed", default="my table's seed")
    args = parser.parse_args()
    try:
        play(args.url, args.game, args.seed)
    except (urllib.error.URLError, ConnectionError):  # refused, reset, or no such host
        raise SystemExit(nothing_answers(args.url)) from None


if __name__ == "__main__":
    main()
