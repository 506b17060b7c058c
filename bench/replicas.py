"""`make soak`'s replica phases (bench/soak.py runs them after its own): three instances of the
service, each the Dockerfile's gunicorn command with one sync worker (3 workers on this 2-core
machine), all with one STATE_KEYS and one REPLAY_STORE (Debian's redis-server, without
persistence), behind one nginx running deploy/nginx.conf with a server line per instance. Each
instance runs in a process group of its own, so that master and worker die together.

- ``sealed``: 16 clients play whole sealed Sixty-six and Bura hands, each request to a random
  instance directly or through nginx: a token sealed by one instance is opened by another.
- ``replica-killed``: 64 connections through nginx (48 sending open and sealed validates, 16
  playing sealed hands), and one whole instance killed with SIGKILL a third of the way in, then
  started again at once; meanwhile another instance's /metrics is scraped every second.
- ``rolling``: the same connections, paced (about half what the instances serve, so that an
  instance starts in seconds), while each instance is stopped with SIGTERM (gracefully) and
  started again, one at a time, the next once the last answers /health.
- ``rotation``: a new state key rolled across the instances under continuous sealed play, in the
  order that refuses no token: ``old,new`` everywhere (seals with old, opens both), then
  ``new,old`` (seals with new), then ``new``, once no hand in play was dealt under old (its seat
  keys are made with the key it was dealt under) or has its latest token sealed with it.
- ``replay``: the replay guard under load: two requests at once on the same token, to two
  instances, with two different legal moves (exactly one 200, the other a 409 ``replayed``) or
  with the same move (both 200, the retry case).

No client retries: every failure a client sees is counted, by what it was. Only an answer cut
short after its header (which nginx cannot retry) is then sent again, to see that a retry is a 200.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.load import dumps
from bench.replica_clients import (
    CONNECTIONS,
    GAMES,
    LOAD_PLAYERS,
    TIMEOUT,
    Client,
    Failed,
    Load,
    Tally,
    joined,
    play_hands,
    summed,
    validate_bodies,
)
from bench.replica_stack import WORKERS, Stack, stack

PHASES = ("sealed", "replica-killed", "rolling", "rotation", "replay")
CLIENTS = 16
"""Clients playing sealed hands in the ``sealed`` and ``rotation`` phases."""
PACED = 0.2
"""Seconds each connection of the rolling restart's load waits after an answer, and
PLAYER_PAUSE each player of the key rotation: about half of what the three instances serve here,
so that an instance starts in about 5 s (under the full load of ``replica-killed``, 12-14 s)."""
PLAYER_PAUSE = 0.05
SLOW_PLAYERS, SLOW_PAUSE = 4, 0.25
"""Of the key rotation's players, these take 0.25 s a request, so that their hands (15-25 s)
outlast an instance's restart: hands dealt under the old key still in play when the new one
seals everywhere, as a table whose players think would have."""
RACERS = 8
"""Hands raced at a time in ``replay``."""
REPLAYED = "urn:card-rules:problem:replayed"

Row = tuple[str, str, str, bool | None]
DESCRIPTION = (
    "Then three instances (bench/replicas.py), each the same gunicorn command with one sync worker "
    "(three workers on the two cores), behind one nginx (deploy/nginx.conf with a server line each: "
    "round-robin; a request that finds an instance down or dying goes to the next, at most 3 tries "
    "in 10 s; a failed instance is skipped for 2 s), with one STATE_KEYS and one replay guard store "
    "(REPLAY_STORE: Debian's redis-server, without persistence), all on loopback, the clients "
    "(Python, none retrying) on the same cores. The targets: no failure for sealed hands played "
    "across the instances (each request to a random instance, or through nginx); none when an "
    "instance (master and worker) is killed with SIGKILL under 64 connections, but the one request "
    "nginx cannot send elsewhere: the answer the killed worker had begun, its header already passed "
    "on, which the client may send again (a 200: a sealed validate is the same move on the same "
    "token); none through a rolling restart (SIGTERM, start, /health, the next), and none, no token "
    "or seat key refused, through a state key rotation rolled across the instances (old,new "
    "everywhere, then new,old, then new once the last hand dealt under old is over: a hand's seat "
    "keys are made with the key it was dealt under, and checked with it until its end); under the "
    "replay guard, of two requests at once on one token to two instances, exactly one 200 when "
    "their moves differ (the other a 409 replayed) and two when the move is the same (a retry); and "
    "every scrape of an instance's /metrics answered. An instance starts in about 4 s here, 12-14 s "
    "under the full load, so the rolling restart's load and the rotation's players are paced (about "
    "half what the instances serve), and the rotation's nine restarts take about a minute."
)
"""docs/soak.md's paragraph on these phases (bench/soak.py writes it)."""



@dataclass
class Scrapes:
    latencies: list[float] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def run(self, url: str, stop: threading.Event) -> None:
        """GET /metrics once a second, as Prometheus scrapes an instance."""
        while not stop.wait(1.0):
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(url + "/metrics", timeout=10) as answer:
                    text = answer.read()
                if b"card_rules_requests_total" not in text:
                    self.failed.append("no card_rules_requests_total")
                    continue
            except OSError as error:
                self.failed.append(str(error))
                continue
            self.latencies.append((time.perf_counter() - start) * 1000)

    def row(self, number: int) -> Row:
        answered = len(self.latencies)
        ok = answered > 0 and not self.failed
        detail = (f"p50 {statistics.median(self.latencies):.1f} ms, max {max(self.latencies):.1f} ms"
                  if self.latencies else "")
        failed = f"; failed: {'; '.join(sorted(set(self.failed)))}" if self.failed else ""
        return (f"/metrics of instance {number} scraped every second during the kill",
                f"{answered} of {answered + len(self.failed)} answered", detail + failed, ok)



# --- the phases -----------------------------------------------------------------------------

def sealed_across(s: Stack, seconds: float) -> Row:
    """CLIENTS clients play whole hands, each request to a random instance or to nginx."""
    targets = [(f"instance {r.number}", r.url) for r in s.replicas] + [("nginx", s.proxy)]
    stop = time.monotonic() + seconds
    tallies = [Tally() for _ in range(CLIENTS)]
    live: dict[int, tuple[str, str] | None] = {}
    threads = [threading.Thread(target=play_hands, args=(tallies[n], lambda: random.choice(targets),
                                                         lambda: time.monotonic() >= stop, live, n))
               for n in range(CLIENTS)]
    joined(threads)
    total = summed(tallies)
    hands = ", ".join(f"{n} {game}" for game, n in sorted(total.hands.items()))
    spread = ", ".join(f"{n} to {name}" for name, n in sorted(total.requests.items()))
    return (f"sealed hands across {len(s.replicas)} instances ({CLIENTS} clients, each request to a "
            "random instance or through nginx)",
            f"{total.failed} failures; {sum(total.hands.values())} hands scored ({hands})",
            f"{sum(total.requests.values())} requests: {spread}; failures: {total.failure_list()}",
            total.failed == 0 and sum(total.hands.values()) > 0)


def replica_killed(s: Stack, seconds: float) -> list[Row]:
    victim, scraped = s.replicas[0], s.replicas[-1]
    entries = validate_bodies(s.proxy)
    scrapes, scraping = Scrapes(), threading.Event()
    with Load(s.proxy, entries) as load:
        scraper = threading.Thread(target=scrapes.run, args=(scraped.url, scraping))
        scraper.start()
        time.sleep(seconds / 3)
        victim.kill()
        killed = time.monotonic()
        killed_at = killed - load.started
        victim.start(wait=False)  # at once, as a supervisor would, under the load
        time.sleep(max(0.0, seconds - (time.monotonic() - load.started)))
        tally = load.stop()
        scraping.set()
        scraper.join()
    victim.wait()
    back = time.monotonic() - killed
    # The one failure nginx cannot hide: the killed worker's answer, if its header had passed
    # nginx (gunicorn writes the header and the body in two writes), is cut short; sent again by
    # the client it is a 200 (a sealed validate: the same move on the same token).
    retryable = tally.failed - tally.cut_short
    row = (f"instance {victim.number} (master and worker) killed with SIGKILL under load "
           f"({CONNECTIONS} connections through nginx)",
           f"{tally.failed} failed of {sum(tally.requests.values())} requests",
           f"killed at {killed_at:.1f} s of {load.seconds:.1f} s; {CONNECTIONS - LOAD_PLAYERS} connections "
           f"sending validates (open, and sealed on the same token again), {LOAD_PLAYERS} playing "
           f"{sum(tally.hands.values())} sealed hands; p99 {tally.p99():.1f} ms; failures: "
           f"{tally.failure_list()}{_resent(tally)}; started again at once, answering /health "
           f"{back:.1f} s after the kill",
           retryable == 0 and tally.cut_short <= WORKERS and tally.resent == tally.cut_short)
    return [row, scrapes.row(scraped.number)]


def _resent(tally: Tally) -> str:
    if not tally.cut_short:
        return ""
    return (f" (nginx had passed its header on when the worker died, and retries only before "
            f"that; sent again by the client: {tally.resent} of {tally.cut_short} a 200)")


def rolling_restart(s: Stack, seconds: float) -> Row:
    entries = validate_bodies(s.proxy)
    took = []
    with Load(s.proxy, entries, pause=PACED) as load:
        time.sleep(1.0)
        for replica in s.replicas:
            took.append(replica.restart())
        time.sleep(1.0)
        tally = load.stop()
    return (f"rolling restart: each instance stopped with SIGTERM and started again, in turn, under "
            f"load ({CONNECTIONS} connections through nginx, each pausing {PACED * 1000:.0f} ms between requests)",
            f"{tally.failed} failed of {sum(tally.requests.values())} requests",
            f"{load.seconds:.1f} s, {sum(tally.requests.values()) / load.seconds:.0f} requests/s; each "
            f"instance back in {', '.join(f'{t:.1f}' for t in took)} s; "
            f"{sum(tally.hands.values())} sealed hands played; p99 {tally.p99():.1f} ms; failures: "
            f"{tally.failure_list()}",
            tally.failed == 0)


def key_rotation(s: Stack, seconds: float) -> Row:
    """old → old,new → new,old → new, rolled across the instances while CLIENTS clients play
    sealed hands through nginx. Before the last step: no hand in play was dealt under old (its
    seat keys are made with the deal's key, and checked with it at every move) or has its latest
    token sealed with old."""
    done = threading.Event()
    tallies = [Tally() for _ in range(CLIENTS)]
    live: dict[int, tuple[str, str] | None] = {}
    threads = [threading.Thread(target=play_hands, args=(tallies[n], lambda: ("nginx", s.proxy), done.is_set,
                                                         live, n, SLOW_PAUSE if n < SLOW_PLAYERS else PLAYER_PAUSE))
               for n in range(CLIENTS)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    for keys in ((s.old, s.new), (s.new, s.old)):
        for replica in s.replicas:
            replica.restart(STATE_KEYS=s.keys(*keys))
    # New seals everywhere now. The hands in play dealt under old: their seat keys need old even
    # once their latest token is sealed with new, so old stays until they are over.
    in_play = [v for v in list(live.values()) if v]
    dealt_old = sum(v[0] == "old" for v in in_play)
    resealed = sum(v == ("old", "new") for v in in_play)
    waited = time.monotonic()
    while not all(v is None or v == ("new", "new") for v in list(live.values())):
        if time.monotonic() - waited > 60:
            break
        time.sleep(0.01)
    waited = time.monotonic() - waited
    for replica in s.replicas:
        replica.restart(STATE_KEYS=s.keys(s.new))
    time.sleep(1.0)
    done.set()
    for thread in threads:
        thread.join()
    total = summed(tallies)
    return ("state key rotation rolled across the instances (old → old,new → new,old → new, 9 "
            f"restarts) under sealed play ({CLIENTS} clients through nginx, pausing "
            f"{PLAYER_PAUSE * 1000:.0f} ms between requests, {SLOW_PLAYERS} of them {SLOW_PAUSE * 1000:.0f} ms)",
            f"{total.refused_tokens} tokens refused, {total.failed} failures",
            f"{time.monotonic() - began:.1f} s; {sum(total.hands.values())} hands scored, {total.crossed} "
            f"of them dealt under old and scored under new; once new sealed everywhere, {dealt_old} of "
            f"{len(in_play)} hands in play had been dealt under old ({resealed} of them with their latest "
            f"token sealed with new already): old dropped {waited:.1f} s later, when the last was over; "
            f"failures: {total.failure_list()}",
            total.failed == 0 and total.refused_tokens == 0 and total.crossed > 0)


@dataclass
class Races:
    different: int = 0
    one_winner: int = 0
    same: int = 0
    both_answered: int = 0
    retries: int = 0
    retries_answered: int = 0
    other: Counter[str] = field(default_factory=Counter)

    def add(self, other: Races) -> None:
        for name in ("different", "one_winner", "same", "both_answered", "retries", "retries_answered"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.other.update(other.other)


def _at_once(requests: list[tuple[str, str, bytes]]) -> list[tuple[int, dict[str, Any]]]:
    """Each request on its own connection, connected first, then all sent at the same moment."""
    barrier = threading.Barrier(len(requests))
    answers: list[tuple[int, dict[str, Any]]] = [(0, {})] * len(requests)

    def send(n: int) -> None:
        base, path, body = requests[n]
        host, port = base.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
        try:
            connection.connect()
            barrier.wait()
            connection.request("POST", path, body, {"Content-Type": "application/json"})
            answer = connection.getresponse()
            answers[n] = (answer.status, json.loads(answer.read() or b"{}"))
        except (OSError, http.client.HTTPException, ValueError, threading.BrokenBarrierError):
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(n,)) for n in range(len(requests))]
    joined(threads)
    return answers


def _outcome(answers: list[tuple[int, dict[str, Any]]]) -> str:
    """Two answers in a few words: their statuses (0: none), and the problem types of the others."""
    return " + ".join(str(status) + ("" if status in (0, 200) else f" {answer.get('type', '')}")
                      for status, answer in sorted(answers, key=lambda a: a[0]))


def race_hands(s: Stack, races: Races, until: Callable[[], bool], me: int) -> None:
    """Hands whose every move is a race: two different legal moves on the same token (exactly one
    200, the other 409 replayed; then the winner's move sent again on that token, a 200), or the
    same move twice (both 200), to two different instances (or both through nginx)."""
    client = Client(Tally(), lambda: ("nginx", s.proxy))
    n = me
    while not until():
        game = GAMES[n % len(GAMES)]
        n += 1
        url = f"/v1/games/{game}/sealed"
        try:
            dealt = client.post(f"{url}/deal", {"seed": f"race {random.random()}"})
            token, keys, to_move = dealt["token"], dealt["seat_keys"], dealt["to_move"]
            while to_move is not None and not until():
                key = keys[to_move]
                moves = client.post(f"{url}/legal-moves", {"token": token, "seat_key": key})["moves"]
                different = len(moves) >= 2 and random.random() < 0.7
                chosen = random.sample(moves, 2) if different else [moves[0], moves[0]]
                if random.random() < 1 / 3:
                    bases = [s.proxy, s.proxy]
                else:
                    bases = [r.url for r in random.sample(s.replicas, 2)]
                sent = [dumps({"token": token, "seat_key": key, "move": m}).encode() for m in chosen]
                answers = _at_once([(base, f"{url}/validate", body) for base, body in zip(bases, sent, strict=True)])
                statuses = sorted(status for status, _ in answers)
                won = [a for status, a in answers if status == 200]
                if different:
                    races.different += 1
                    lost = [a for status, a in answers if status == 409]
                    if (statuses == [200, 409] and lost[0].get("type") == REPLAYED
                            and (lost[0].get("errors") or [{}])[0].get("pointer") == "/token" and won[0]["legal"]):
                        races.one_winner += 1
                        winner = next(i for i, (status, _) in enumerate(answers) if status == 200)
                        races.retries += 1
                        again = _at_once([(random.choice(bases), f"{url}/validate", sent[winner])])
                        if again[0][0] == 200 and again[0][1]["move_number"] == won[0]["move_number"]:
                            races.retries_answered += 1
                        else:
                            races.other[f"retry of the winning move: {again[0][0]} {again[0][1].get('type', '')}"] += 1
                    else:
                        races.other[f"different moves: {_outcome(answers)}"] += 1
                else:
                    races.same += 1
                    if statuses == [200, 200] and won[0]["move_number"] == won[1]["move_number"]:
                        races.both_answered += 1
                    else:
                        races.other[f"the same move twice: {_outcome(answers)}"] += 1
                if not won:
                    break
                token, to_move = won[0]["token"], won[0]["to_move"]
        except Failed:
            races.other.update(client.tally.failures)
            client.tally.failures.clear()
    client.close()


def replay_guard(s: Stack, seconds: float) -> Row:
    entries = validate_bodies(s.proxy)
    stop = time.monotonic() + seconds
    results = [Races() for _ in range(RACERS)]
    with Load(s.proxy, entries, connections=32, players=8) as load:
        threads = [threading.Thread(target=race_hands, args=(s, results[n], lambda: time.monotonic() >= stop, n))
                   for n in range(RACERS)]
        joined(threads)
        tally = load.stop()
    races = Races()
    for result in results:
        races.add(result)
    ok = (races.different > 0 and races.one_winner == races.different and races.same > 0
          and races.both_answered == races.same and races.retries_answered == races.retries
          and not races.other and tally.failed == 0)
    other = "; ".join(f"{n} × {what}" for what, n in races.other.most_common()) or "none other"
    return (f"replay guard: two requests at once on one token, to two instances ({RACERS} hands raced "
            "at a time, under 32 more connections through nginx)",
            f"{races.one_winner} of {races.different} different-move races with exactly one 200 "
            f"(the other 409 replayed); {races.both_answered} of {races.same} same-move races both 200",
            f"the winning move sent again: {races.retries_answered} of {races.retries} a 200; {other}; "
            f"the other load: {tally.failed} failed of {sum(tally.requests.values())} requests "
            f"({tally.failure_list()})",
            ok)


def run_phases(chosen: list[str], seconds: float) -> list[Row]:
    """The chosen replica phases, in their order, on one stack: its rows for the table."""
    rows: list[Row] = []
    with stack() as s:
        if "sealed" in chosen:
            rows.append(sealed_across(s, seconds))
        if "replica-killed" in chosen:
            rows += replica_killed(s, seconds)
        if "rolling" in chosen:
            rows.append(rolling_restart(s, seconds))
        if "rotation" in chosen:
            rows.append(key_rotation(s, seconds))
        if "replay" in chosen:
            rows.append(replay_guard(s, seconds))
    return rows
