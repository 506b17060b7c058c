"""bench/replicas.py's clients: each its own connections, none retrying, every failure it sees
counted by what it was (``Tally``); whole sealed hands played, validates sent again and again, and
a load of both from two processes (``Load``)."""

from __future__ import annotations

import base64
import http.client
import json
import multiprocessing
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.bodies import bodies
from bench.load import dumps

GAMES = ("sixty-six", "bura")
CONNECTIONS, LOAD_PLAYERS = 64, 16
"""The load of ``replica-killed`` and ``rolling``: connections through nginx, of which these play
whole sealed hands (the others send validates)."""
TIMEOUT = 40.0
"""A client's socket timeout: past nginx's proxy_read_timeout (35 s)."""


def sealing_key(token: str) -> str:
    """The id of the key that sealed a token, from its readable header (service/sealing.py)."""
    raw = base64.b64decode(token[:120] + "=" * (-len(token[:120]) % 4))
    game_end = 3 + raw[2]
    return raw[game_end + 1:game_end + 1 + raw[game_end]].decode()



# --- the clients ----------------------------------------------------------------------------

@dataclass
class Tally:
    """What a set of clients saw. ``failures``: every answer that was not the one expected, or no
    answer, by what it was (operation, where it went, status or error, problem type, pointer)."""

    requests: Counter[str] = field(default_factory=Counter)
    hands: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    refused_tokens: int = 0
    """Of the failures, 422 at /token and 403: a token or seat key the service would not take."""
    crossed: int = 0
    """Hands dealt under one state key and scored under another."""
    cut_short: int = 0
    """Of the failures, answers cut short after their header (http.client's IncompleteRead):
    nginx had passed the header on when the instance died, and then cannot send the request to
    another (it retries only while nothing has been sent to the client)."""
    resent: int = 0
    """Of those, sent again by the client (the same request, as any client would retry a
    request that got no whole answer) and answered 200."""
    latencies: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> Tally:
        self.requests.update(other.requests)
        self.hands.update(other.hands)
        self.failures.update(other.failures)
        self.refused_tokens += other.refused_tokens
        self.crossed += other.crossed
        self.cut_short += other.cut_short
        self.resent += other.resent
        self.latencies.extend(other.latencies)
        return self

    @property
    def failed(self) -> int:
        return sum(self.failures.values())

    def failure_list(self) -> str:
        return "; ".join(f"{n} × {what}" for what, n in self.failures.most_common()) or "none"

    def p99(self) -> float:
        ordered = sorted(self.latencies)
        return ordered[max(0, int(len(ordered) * 0.99) - 1)] if ordered else float("nan")


def joined(threads: list[threading.Thread]) -> None:
    """Start every thread, then wait for all of them."""
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def summed(tallies: list[Tally]) -> Tally:
    total = Tally()
    for tally in tallies:
        total.add(tally)
    return total


class Failed(Exception):
    """An answer other than the one expected; the client records it and starts a new hand."""


class Client:
    """One client's connections (kept alive where the server keeps them: nginx does, a sync
    gunicorn worker does not), each request to ``choose()``'s base URL, ``pause`` seconds after
    the last answer."""

    def __init__(self, tally: Tally, choose: Callable[[], tuple[str, str]], pause: float = 0.0) -> None:
        self.tally, self.choose, self.pause = tally, choose, pause
        self.connections: dict[str, http.client.HTTPConnection] = {}

    def _send(self, base: str, path: str, data: bytes) -> tuple[int, bytes]:
        connection = self.connections.get(base)
        if connection is None:
            host, port = base.removeprefix("http://").split(":")
            connection = self.connections[base] = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
        try:
            connection.request("POST", path, data, {"Content-Type": "application/json"})
            answer = connection.getresponse()
            return answer.status, answer.read()
        except (OSError, http.client.HTTPException):
            self.connections.pop(base).close()
            raise

    def post(self, path: str, body: dict[str, Any] | bytes, *, expect: int = 200) -> dict[str, Any]:
        name, base = self.choose()
        operation = path.rsplit("/", 2)[-2:] if "/sealed/" in path else path.rsplit("/", 1)[-1:]
        what = f"{'/'.join(operation)} via {name}"
        data = body if isinstance(body, bytes) else dumps(body).encode()
        if self.pause:
            time.sleep(self.pause)
        self.tally.requests[name] += 1
        start = time.perf_counter()
        try:
            status, content = self._send(base, path, data)
        except http.client.IncompleteRead:
            self.tally.failures[f"{what}: answer cut short after its header (IncompleteRead)"] += 1
            self.tally.cut_short += 1
            try:
                status, content = self._send(base, path, data)
            except (OSError, http.client.HTTPException) as error:
                self.tally.failures[f"{what}, sent again: {type(error).__name__}"] += 1
                raise Failed from None
            self.tally.resent += status == expect
        except (OSError, http.client.HTTPException) as error:
            self.tally.failures[f"{what}: {type(error).__name__}"] += 1
            raise Failed from None
        self.tally.latencies.append((time.perf_counter() - start) * 1000)
        if status != expect:
            try:
                problem = json.loads(content)
            except ValueError:
                problem = {}
            pointer = ((problem.get("errors") or [{}])[0]).get("pointer", "")
            self.tally.failures[f"{what}: {status} {problem.get('type', '')} {pointer}".rstrip()] += 1
            if status == 403 or (status == 422 and pointer == "/token"):
                self.tally.refused_tokens += 1
            raise Failed
        return json.loads(content)

    def close(self) -> None:
        for connection in self.connections.values():
            connection.close()


def play_hand(client: Client, game: str, live: dict[int, tuple[str, str] | None], me: int,
              until: Callable[[], bool]) -> None:
    """One whole sealed hand, random legal moves, then its score (a 200), unless ``until()``
    ends it first. ``live[me]``: the key its seat keys were made with (the deal's) and the key
    of its latest token."""
    url = f"/v1/games/{game}/sealed"
    live[me] = ("?", "?")  # dealing: the orchestrator waits until it knows the key
    try:
        dealt = client.post(f"{url}/deal", {"seed": f"soak {random.random()}"})
        token, keys, to_move = dealt["token"], dealt["seat_keys"], dealt["to_move"]
        dealt_with = sealing_key(token)
        live[me] = (dealt_with, dealt_with)
        while to_move is not None:
            if until():
                return
            moves = client.post(f"{url}/legal-moves", {"token": token, "seat_key": keys[to_move]})["moves"]
            answer = client.post(f"{url}/validate", {"token": token, "seat_key": keys[to_move],
                                                     "move": random.choice(moves)})
            if not answer["legal"]:
                client.tally.failures[f"{game} validate: a legal move refused"] += 1
                return
            token, to_move = answer["token"], answer["to_move"]
            live[me] = (dealt_with, sealing_key(token))
        client.post(f"{url}/score", {"token": token})
        client.tally.hands[game] += 1
        client.tally.crossed += sealing_key(token) != dealt_with
    except Failed:
        pass
    finally:
        live[me] = None


def play_hands(tally: Tally, choose: Callable[[], tuple[str, str]], until: Callable[[], bool],
               live: dict[int, tuple[str, str] | None], me: int, pause: float = 0.0) -> None:
    client = Client(tally, choose, pause)
    n = me
    while not until():
        play_hand(client, GAMES[n % len(GAMES)], live, me, until)
        n += 1
    client.close()


def send_validates(tally: Tally, proxy: str, entries: list[tuple[str, bytes]], until: Callable[[], bool],
                   offset: int, pause: float = 0.0) -> None:
    """Validates through nginx, one after another, on one kept-alive connection."""
    client = Client(tally, lambda: ("nginx", proxy), pause)
    i = offset
    while not until():
        path, body = entries[i % len(entries)]
        i += 1
        try:
            client.post(path, body)
        except Failed:
            time.sleep(0.01)
    client.close()


def validate_bodies(proxy: str, hands: int = 24) -> list[tuple[str, bytes]]:
    """Open Sixty-six validates (bench/bodies.py's legal ones), and the first move of freshly
    dealt sealed hands, Sixty-six and Bura: sent again and again, each the retry case of the
    replay guard (the same move on the same token), always a 200."""
    entries = [("/v1/games/sixty-six/validate", dumps(b).encode()) for b in bodies("sixty-six")["validate-legal"]]
    client = Client(Tally(), lambda: ("nginx", proxy))
    for n in range(hands):
        game = GAMES[n % len(GAMES)]
        dealt = client.post(f"/v1/games/{game}/sealed/deal", {"seed": f"bodies {n}"})
        key = dealt["seat_keys"][dealt["to_move"]]
        moves = client.post(f"/v1/games/{game}/sealed/legal-moves", {"token": dealt["token"], "seat_key": key})
        entries.append((f"/v1/games/{game}/sealed/validate",
                        dumps({"token": dealt["token"], "seat_key": key, "move": moves["moves"][0]}).encode()))
    client.close()
    random.Random(1).shuffle(entries)
    return entries


def _load_process(proxy: str, entries: list[tuple[str, bytes]], senders: int, players: int,
                  pause: float, stop: Any, results: Any) -> None:
    """A share of the load, in a process of its own (the GIL): ``senders`` connections sending
    validates and ``players`` playing sealed hands, all through nginx, until ``stop`` is set."""
    random.seed()
    tallies = [Tally() for _ in range(senders + players)]
    live: dict[int, tuple[str, str] | None] = {}
    threads = [threading.Thread(target=send_validates, args=(tallies[n], proxy, entries, stop.is_set, n * 7,
                                                             pause))
               for n in range(senders)]
    threads += [threading.Thread(target=play_hands, args=(tallies[senders + n], lambda: ("nginx", proxy),
                                                          stop.is_set, live, n, pause))
                for n in range(players)]
    joined(threads)
    total = summed(tallies)
    results.put(total)


class Load:
    """CONNECTIONS connections through nginx from two processes, until stopped."""

    def __init__(self, proxy: str, entries: list[tuple[str, bytes]], connections: int = CONNECTIONS,
                 players: int = LOAD_PLAYERS, pause: float = 0.0) -> None:
        context = multiprocessing.get_context("fork")
        self.stop_event, self.results = context.Event(), context.Queue()
        shares = [(connections - players) // 2, players // 2]
        self.processes = [context.Process(target=_load_process,
                                          args=(proxy, entries, shares[0] + n * ((connections - players) % 2),
                                                shares[1] + n * (players % 2), pause, self.stop_event,
                                                self.results))
                          for n in range(2)]
        self.started = time.monotonic()

    def __enter__(self) -> Load:
        for process in self.processes:
            process.start()
        self.started = time.monotonic()
        return self

    def stop(self) -> Tally:
        self.stop_event.set()
        total = Tally()
        for _ in self.processes:
            total.add(self.results.get(timeout=TIMEOUT + 20))
        for process in self.processes:
            process.join(timeout=10)
        self.seconds = time.monotonic() - self.started
        return total

    def __exit__(self, *_: object) -> None:
        self.stop_event.set()
        for process in self.processes:
            process.join(timeout=TIMEOUT + 20)
