"""`make soak`'s ``computer`` phase's clients (bench/soak.py runs the phase): one address asking
the computer player for the longest searches the service allows, as fast as it gets answers,
while normal players play sealed hands, each from an address of its own.

- The searchers: ``SEARCHERS`` threads, in a process of their own (bench/soak.py starts it), each
  sending one request after another, a new connection each, from one source address: an open
  ``suggest`` at the largest ``budget_ms`` (SUGGEST_MAX_BUDGET_MS), an open ``suggest`` at the
  most ``samples`` (SUGGEST_MAX_SAMPLES), a ``sealed/suggest`` and a ``sealed/computer-move``, both
  at the largest budget, in turn, over Sixty-six, Bura, Bezique and Canasta. They ignore
  Retry-After; after a refusal (nginx's 429, the service's 503 ``computer-busy``) they wait
  ``REFUSED_PAUSE`` and send again. The suggests' positions have more than one legal move, so
  that none is a forced move, answered without a search. A ``computer-move`` answered 200 moves
  the hand on, and asked again on its token would be answered from the replay guard's store
  without a search: each searcher's table therefore plays on, the person's moves
  (``sealed/legal-moves``, then ``sealed/validate`` of the first) sent from the same address and
  sent again after a 429 like the rest, and a new hand dealt (``sealed/deal-against-computer``)
  when one ends. (The person cannot see whether the computer's seat has a choice: a forced move
  there is answered at once, and counted with the searches answered.)
- The players: ``PLAYERS`` threads, each on a kept-alive connection from an address of its own
  (127.0.0.3 on), playing whole sealed Sixty-six and Bura hands with random legal moves
  (``sealed/legal-moves``, ``sealed/validate``, then ``sealed/view`` for the seat to move next),
  ``PLAYER_PAUSE`` seconds before each request: a few requests a second each, well inside nginx's
  limits for an address. Every answer but the one expected, or none, is a failure.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bench import replica_clients
from bench.load import dumps
from service.cards import SeedStream
from service.config import Settings
from service.games.base import DealSetup
from service.games.registry import GAMES

SEARCHERS = 8
SEARCH_GAMES = ("sixty-six", "bura", "bezique", "canasta")
KINDS = ("suggest", "suggest samples", "sealed/suggest", "sealed/computer-move")
BUDGET_MS = Settings.suggest_max_budget_ms
"""The largest budget a request may ask for (SUGGEST_MAX_BUDGET_MS's default), and the most
samples (SUGGEST_MAX_SAMPLES's): each such search runs for the whole budget."""
SAMPLES = Settings.suggest_max_samples
BUSY = "urn:card-rules:problem:computer-busy"
REFUSED_PAUSE = 0.05
"""Seconds a searcher waits after a refusal (it ignores Retry-After, as a hostile client would)."""
POSITIONS = 6
"""Open positions per game, and sealed hands per game for ``sealed/suggest``."""
PLAYERS = 6
PLAYER_PAUSE = 0.2
"""Seconds a player waits before each request: about 4 requests a second each."""
PLAYER_GAMES = ("sixty-six", "bura")
TIMEOUT = 40.0
"""Past nginx's proxy_read_timeout (35 s): a search never answered shows as nginx's 504."""

Post = Callable[..., tuple[int, bytes, dict[str, str]]]
"""bench/soak.py's ``_post``: (port, path, body, timeout=, source=) to (status, body, headers)."""


def player_source(number: int) -> str:
    return f"127.0.0.{3 + number}"


# --- the positions --------------------------------------------------------------------------------

def open_positions(game_id: str, count: int = POSITIONS) -> Iterator[dict[str, Any]]:
    """``count`` positions of random hands at the game's default table, each with more than one
    legal move for the seat to move, as open suggest bodies without a budget."""
    game, rng = GAMES[game_id], random.Random(game_id)
    made, hand = 0, 0
    while made < count:
        players = game.info.player_counts[0]
        state = game.deal(DealSetup(players, None, {}, None), SeedStream(f"computer-{hand}"))
        hand += 1
        while (seat := game.to_move(state)) is not None:
            moves = game.legal_moves(state, seat)
            if len(moves) > 1 and rng.random() < 0.2:
                yield {"state": game.dump_state(state), "seat": seat}
                made += 1
                break
            state, _ = game.apply(state, rng.choice(moves))


def sealed_positions(client: replica_clients.Client, game: str, count: int = POSITIONS) -> list[dict[str, Any]]:
    """``count`` sealed hands, each played on (first legal moves) until the seat to move has more
    than one move: ``sealed/suggest`` bodies without a budget. ``sealed/suggest`` does not move the
    hand, so each may be asked again and again, a search each time."""
    url, found = f"/v1/games/{game}/sealed", []
    for _ in range(count):
        dealt = client.post(f"{url}/deal", {})
        token, keys, to_move = dealt["token"], dealt["seat_keys"], dealt["to_move"]
        while True:
            moves = client.post(f"{url}/legal-moves", {"token": token, "seat_key": keys[to_move]})["moves"]
            if len(moves) > 1:
                break
            answer = client.post(f"{url}/validate", {"token": token, "seat_key": keys[to_move], "move": moves[0]})
            token, to_move = answer["token"], answer["to_move"]
        found.append({"token": token, "seat_key": keys[to_move]})
    return found


# --- the searchers --------------------------------------------------------------------------------

@dataclass
class Searches:
    """What the searchers saw: answers by kind, refusals (the time from sending to the answer of
    each), every other answer by what it was, and the requests that set up a table's positions."""

    answered: Counter[str] = field(default_factory=Counter)
    answered_ms: list[float] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    """``429`` (nginx) or ``503`` (the service's computer-busy): how many."""
    refused_ms: list[float] = field(default_factory=list)
    slowest_refusal: str = ""
    other: Counter[str] = field(default_factory=Counter)
    setup: Counter[str] = field(default_factory=Counter)
    """The tables' own requests (deals, the person's moves): ``sent``, ``429``, and failures."""

    def add(self, other: Searches) -> Searches:
        self.answered.update(other.answered)
        self.answered_ms += other.answered_ms
        self.refused.update(other.refused)
        if other.refused_ms and max(other.refused_ms) > max(self.refused_ms, default=-1.0):
            self.slowest_refusal = other.slowest_refusal
        self.refused_ms += other.refused_ms
        self.other.update(other.other)
        self.setup.update(other.setup)
        return self

    @property
    def slowest_refusal_ms(self) -> float:
        return max(self.refused_ms, default=0.0)

    def refusal_ms(self, quantile: float) -> float:
        ordered = sorted(self.refused_ms)
        return ordered[max(0, int(len(ordered) * quantile) - 1)] if ordered else float("nan")

    def refusals_over(self, ms: float) -> int:
        return sum(1 for t in self.refused_ms if t >= ms)

    @property
    def failed(self) -> int:
        """Answers that are neither a 200 nor a refusal (429, 503 computer-busy): 5xx, none, 4xx."""
        return sum(self.other.values())


class Table:
    """A searcher's hand against the computer player, from ``sealed/deal-against-computer``, the
    person at seat 0: played on until a computer seat is to move (``Searcher._ready``)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.token: str | None = None
        self.seat_key = self.computer_key = ""
        self.seat, self.to_move = 0, None


class Searcher:
    """One searcher: requests from ``source`` through nginx at ``port``, one after another."""

    def __init__(self, post: Post, port: int, source: str | None, number: int,
                 positions: dict[str, list[dict[str, Any]]], sealed: dict[str, list[dict[str, Any]]]) -> None:
        self.post, self.port, self.source, self.number = post, port, source, number
        self.bodies = {(kind, game): [dumps({**body, **limit}).encode() for body in bodies[game]]
                       for kind, bodies, limit in (("suggest", positions, {"budget_ms": BUDGET_MS}),
                                                   ("suggest samples", positions, {"samples": SAMPLES}),
                                                   ("sealed/suggest", sealed, {"budget_ms": BUDGET_MS}))
                       for game in SEARCH_GAMES}
        self.tables = {game: Table(game) for game in SEARCH_GAMES}
        self.searches = Searches()

    def _send(self, path: str, body: dict[str, Any] | bytes) -> tuple[int, Any, float]:
        """The status, the answer's JSON (None: none, or not JSON) and the milliseconds from sending
        to the whole answer (the body encoded before the clock starts)."""
        data = body if isinstance(body, bytes) else dumps(body).encode()
        start = time.perf_counter()
        try:
            status, data, _ = self.post(self.port, path, data, timeout=TIMEOUT, source=self.source)
        except (OSError, http.client.HTTPException):
            return 0, None, (time.perf_counter() - start) * 1000
        elapsed = (time.perf_counter() - start) * 1000
        try:
            return status, json.loads(data), elapsed
        except ValueError:
            return status, None, elapsed

    def _setup(self, path: str, body: dict[str, Any], stop: float) -> dict[str, Any] | None:
        """A table's own request, sent again after each 429 until answered (None: the phase is over,
        or a failure, counted)."""
        while time.monotonic() < stop:
            self.searches.setup["sent"] += 1
            status, answer, _ = self._send(path, body)
            if status == 200:
                return answer  # type: ignore[no-any-return]
            if status == 429:
                self.searches.setup["429"] += 1
                time.sleep(REFUSED_PAUSE)
                continue
            self.searches.setup[f"{path.rsplit('/', 1)[-1]}: {status or 'no answer'} {_kind(answer)}".rstrip()] += 1
            return None
        return None

    def _ready(self, table: Table, stop: float) -> bool:
        """Whether ``table`` has a computer seat to move with a choice (dealing and playing the
        person's moves until it has)."""
        url = f"/v1/games/{table.game}/sealed"
        while time.monotonic() < stop:
            if table.token is None or table.to_move is None:
                dealt = self._setup(f"{url}/deal-against-computer", {"seed": f"computer {random.random()}"},
                                    stop)
                if dealt is None:
                    return False
                table.token, table.seat_key, table.computer_key = dealt["token"], dealt["seat_key"], dealt["computer_key"]
                table.seat, table.to_move = dealt["seat"], dealt["to_move"]
                continue
            if table.to_move != table.seat:
                return True
            listed = self._setup(f"{url}/legal-moves", {"token": table.token, "seat_key": table.seat_key},
                                 stop)
            if listed is None:
                table.token = None
                return False
            answer = self._setup(f"{url}/validate", {"token": table.token, "seat_key": table.seat_key,
                                                     "move": listed["moves"][0]}, stop)
            if answer is None or not answer["legal"]:
                table.token = None
                return False
            table.token, table.to_move = answer["token"], answer["to_move"]
        return False

    def run(self, stop: float) -> None:
        i = self.number
        while time.monotonic() < stop:
            kind, game = KINDS[i % len(KINDS)], SEARCH_GAMES[(i // len(KINDS)) % len(SEARCH_GAMES)]
            i += 1
            table = self.tables[game]
            if kind == "sealed/computer-move":
                if not self._ready(table, stop):
                    continue
                encoded = dumps({"token": table.token, "computer_key": table.computer_key,
                                 "budget_ms": BUDGET_MS}).encode()
            else:
                bodies = self.bodies[kind, game]
                encoded = bodies[i % len(bodies)]
            path = f"/v1/games/{game}/{kind.split()[0]}"
            status, answer, elapsed = self._send(path, encoded)
            if status == 200:
                self.searches.answered[kind] += 1
                self.searches.answered_ms.append(elapsed)
                if kind == "sealed/computer-move":
                    table.token, table.to_move = answer["token"], answer["to_move"]
            elif status == 429 or (status == 503 and _kind(answer) == "computer-busy"):
                self.searches.refused[str(status)] += 1
                if elapsed > self.searches.slowest_refusal_ms:
                    self.searches.slowest_refusal = f"{status} to {game} {kind}"
                self.searches.refused_ms.append(elapsed)
                time.sleep(REFUSED_PAUSE)
            else:
                self.searches.other[f"{kind}: {status or 'no answer'} {_kind(answer)}".rstrip()] += 1
                if kind == "sealed/computer-move":
                    table.token = None
                time.sleep(REFUSED_PAUSE)


def _kind(answer: Any) -> str:
    """A problem document's type, its last part (``computer-busy``); '' for anything else."""
    kind = answer.get("type", "") if isinstance(answer, dict) else ""
    return str(kind).rsplit(":", 1)[-1] if kind != "about:blank" else ""


def search(post: Post, port: int, source: str | None, stop: float, positions: dict[str, list[dict[str, Any]]],
           sealed: dict[str, list[dict[str, Any]]]) -> Searches:
    """``SEARCHERS`` searchers from ``source`` until ``stop`` (time.monotonic()); what they saw."""
    searchers = [Searcher(post, port, source, n, positions, sealed) for n in range(SEARCHERS)]
    replica_clients.joined([threading.Thread(target=s.run, args=(stop,)) for s in searchers])
    total = Searches()
    for searcher in searchers:
        total.add(searcher.searches)
    return total


# --- the players ----------------------------------------------------------------------------------

class Player(replica_clients.Client):
    """bench/replica_clients.py's client, its connections from ``source`` (its own address)."""

    def __init__(self, tally: replica_clients.Tally, proxy: str, source: str) -> None:
        super().__init__(tally, lambda: ("nginx", proxy), PLAYER_PAUSE)
        self.source = source

    def _send(self, base: str, path: str, data: bytes) -> tuple[int, bytes]:
        if base not in self.connections:
            host, port = base.removeprefix("http://").split(":")
            self.connections[base] = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT,
                                                                source_address=(self.source, 0))
        return super()._send(base, path, data)


def play(tally: replica_clients.Tally, proxy: str, source: str, seconds: float, number: int) -> None:
    """Whole sealed hands for ``seconds``: deal, then per move legal-moves, validate and the view of
    the seat to move next; the score at the end."""
    client, stop, n = Player(tally, proxy, source), time.monotonic() + seconds, number
    rng = random.Random(number)
    while time.monotonic() < stop:
        game = PLAYER_GAMES[n % len(PLAYER_GAMES)]
        n += 1
        url = f"/v1/games/{game}/sealed"
        try:
            dealt = client.post(f"{url}/deal", {})
            token, keys, to_move = dealt["token"], dealt["seat_keys"], dealt["to_move"]
            while to_move is not None and time.monotonic() < stop:
                moves = client.post(f"{url}/legal-moves", {"token": token, "seat_key": keys[to_move]})["moves"]
                answer = client.post(f"{url}/validate", {"token": token, "seat_key": keys[to_move],
                                                         "move": rng.choice(moves)})
                if not answer["legal"]:
                    tally.failures[f"{game} validate: a legal move refused"] += 1
                    break
                token, to_move = answer["token"], answer["to_move"]
                client.post(f"{url}/view", {"token": token, "seat_key": keys[to_move or 0]})
            if to_move is None:
                client.post(f"{url}/score", {"token": token})
                tally.hands[game] += 1
        except replica_clients.Failed:
            pass
    client.close()


def players(proxy: str, seconds: float) -> replica_clients.Tally:
    """``PLAYERS`` players, each from its own address, for ``seconds``: what they saw together."""
    tallies = [replica_clients.Tally() for _ in range(PLAYERS)]
    replica_clients.joined([threading.Thread(target=play, args=(tallies[n], proxy, player_source(n), seconds, n))
                     for n in range(PLAYERS)])
    return replica_clients.summed(tallies)
