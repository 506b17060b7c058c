"""Waking the streams of a table when it has new events, in one process: each stream waits on
its table's ``threading.Event`` (a greenlet's, under gevent's patching), which a writer in this
process sets at once, and one listener per process sets for writes of any other process or
replica (SQLite: it polls the events' sequence; Redis: it listens on a channel)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable


class Notifier:
    def __init__(self, listen: Callable[[Notifier], None]) -> None:
        self.listen = listen
        self.lock = threading.Lock()
        self.events: dict[str, threading.Event] = {}
        self.pid = 0

    def event(self, table_id: str) -> threading.Event:
        """The event the next change of ``table_id`` sets: taken before looking for new events,
        so that a change between the look and the wait is not missed."""
        self._listening()
        with self.lock:
            event = self.events.get(table_id)
            if event is None:
                event = self.events[table_id] = threading.Event()
            return event

    def wake(self, table_id: str) -> None:
        with self.lock:
            event = self.events.pop(table_id, None)
        if event is not None:
            event.set()

    def wake_all(self) -> None:
        with self.lock:
            events, self.events = list(self.events.values()), {}
        for event in events:
            event.set()

    def _listening(self) -> None:
        """The listener of this process, started at its first wait (after gunicorn's fork)."""
        if self.pid != os.getpid():
            self.pid = os.getpid()
            threading.Thread(target=self.listen, args=(self,), daemon=True, name="table-events").start()
