"""The host's own hands at its tables: the computer's moves at its seats (and at a person's seat
given to it) and the moves of a seat whose time ran out, made as soon as they are due, and idle
tables closed. One croupier thread per process; a due move is claimed in the store first (its
deadline moved on by ``LEASE_SECONDS``), so of several processes or replicas exactly one makes
it, and another takes it over if that one dies before it is made."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from gevent import get_hub
from gevent.monkey import is_module_patched

from host.errors import StaleMove, StoreDown, TableOver
from host.store import TableStore
from host.tables import Event, Rules, Table, close, due, play
from service.errors import ServiceError
from service.player import history_of
from service.player.levels import BY_NUMBER, played

T = TypeVar("T")
TICK_SECONDS = 0.1
LEASE_SECONDS = 10.0
log = logging.getLogger("host")


class Croupier:
    def __init__(self, store: TableStore, rules: dict[str, Rules], *, sweep_seconds: float) -> None:
        self.store, self.rules, self.sweep_seconds = store, rules, sweep_seconds
        self.nudged = threading.Event()
        self.started = 0

    def nudge(self) -> None:
        """A move may be due now (a person moved, and a computer's seat is next)."""
        self.nudged.set()

    def start(self) -> None:
        threading.Thread(target=self._run, daemon=True, name="croupier").start()

    def _run(self) -> None:
        swept = 0.0
        while True:
            self.nudged.wait(TICK_SECONDS)
            self.nudged.clear()
            now = time.time()
            try:
                for table_id in self.store.due(now, 32):
                    self.deal_with(table_id, now)
                if now - swept > self.sweep_seconds:
                    swept = now
                    self.close_idle(now)
            except StoreDown:
                time.sleep(1)  # the store logged why; the tables wait for it
            except Exception:  # the croupier outlives any one table's failure
                log.exception("croupier")

    def deal_with(self, table_id: str, now: float) -> None:
        table = self.store.get(table_id)
        if table is None:  # gone (Redis let it expire): its deadline goes too
            self.store.delete(table_id)
            return
        rules = self.rules[table.game]
        work = due(rules, table, now)
        if work is None or table.deadline is None:
            return
        if not self.store.claim(table_id, table.deadline, now + LEASE_SECONDS):
            return  # another process has it
        seat, why = work
        move = offloaded(lambda: computer_move(rules, table, seat))
        told: list[Event] = [{"type": "timer_expired", "seat": seat}] if why == "timer" else []

        def played(current: Table) -> tuple[Table, list[Event]]:
            result = play(rules, current, seat, move, table.move_number, time.time(), by=why)
            return result.table, told + result.events

        try:
            self.store.change(table_id, played)
        except (StaleMove, TableOver):
            pass  # a person moved first
        except ServiceError:
            log.exception("croupier: table %s", table_id)

    def close_idle(self, now: float) -> None:
        for table_id in self.store.expired(now, 64):
            table = self.store.get(table_id)
            if table is None or table.closed:
                self.store.delete(table_id)
            else:
                self.store.change(table_id, lambda t: close(self.rules[t.game], t, time.time()))


def computer_move(rules: Rules, table: Table, seat: int) -> Any:
    """The computer player's move for ``seat``, at the table's level (``service.player.levels``),
    from what the hand's moves so far showed it."""
    game = rules.game
    state = game.load_state(table.state)
    history = history_of(game, game.load_state(table.start), map(game.load_move, table.moves))
    found = played(game, state, seat, seed=f"{table.id}/{table.hand_number}/{table.move_number}/"
                                           f"{random.random()}", at=BY_NUMBER[table.level], history=history)
    return game.dump_move(found.move)


def offloaded(work: Callable[[], T]) -> T:
    """``work`` (a search: tens of milliseconds of Python) on a thread of its own under gevent,
    so that the streams of this process are served meanwhile; as it is otherwise."""
    if is_module_patched("threading"):
        return get_hub().threadpool.apply(work)  # type: ignore[no-any-return]
    return work()
