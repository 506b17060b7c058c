"""Tables on one machine: a SQLite file in WAL mode that every worker of the host shares, so a
restart loses no table (``TABLE_STORE=sqlite:////var/lib/card-rules/tables.sqlite3``).

A change is one ``BEGIN IMMEDIATE`` transaction (read the table, write it and its events), so
changes of a table, from any process, are applied one after the other. Each event row has a
global sequence number besides its id in its table: each process's listener polls the sequence
every ``POLL_SECONDS`` and wakes the streams of the tables that changed, one query a process
whatever the number of streams."""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import orjson

from host.errors import StoreDown
from host.store.notify import Notifier
from host.tables import Change, Event, Table, found

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    body BLOB NOT NULL,
    deadline REAL,
    expires REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tables_due ON tables (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS tables_expiring ON tables (expires);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    id INTEGER NOT NULL,
    body BLOB NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS events_of_table ON events (table_id, id);
CREATE TABLE IF NOT EXISTS openings (address TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS openings_by_address ON openings (address, at);
"""
POLL_SECONDS = 0.02
"""How often each process looks for other processes' events: a stream hears of a move at most
this much later than a stream of the process that played it."""
TIMEOUT_SECONDS = 2.0
SETUP_SECONDS = 30.0
"""How long a starting worker waits for another one setting up the same file."""
BUSY_SLEEP_SECONDS = 0.001
READ_TIMEOUT_SECONDS = 0.2
log = logging.getLogger("host")


class SqliteTables:
    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.pid = 0
        self.connections: dict[str, tuple[threading.Lock, sqlite3.Connection]] = {}
        self.notifier = Notifier(self._listen)
        self._set_up(time.monotonic() + SETUP_SECONDS)  # and a wrong path fails at the start

    def _set_up(self, deadline: float) -> None:
        """The file in WAL mode, with the tables. Every worker sets it up as it starts, and two
        at once find it locked at once, whatever the busy timeout (switching to WAL takes the
        file alone): the loser tries again until ``deadline``. A worker that failed here would
        fail to boot, and gunicorn stops the whole server when one does (measured: 11 of 30
        starts of six processes at once on a new file found it locked)."""
        while True:
            try:
                setup = sqlite3.connect(self.path, timeout=TIMEOUT_SECONDS, isolation_level=None)
                try:
                    if setup.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                        setup.execute("PRAGMA journal_mode = WAL")  # the file's: every connection has it
                    setup.executescript(SCHEMA)
                finally:
                    setup.close()
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(BUSY_SLEEP_SECONDS * 20)

    def create(self, table: Table, events: list[Event], address: str, now: float) -> None:
        with self._writing() as db:
            table = _numbered(table, len(events))
            db.execute("INSERT INTO tables VALUES (?, ?, ?, ?)",
                       (table.id, orjson.dumps(table.wire()), table.deadline, table.expires))
            self._append(db, table.id, 0, events)
            db.execute("INSERT INTO openings VALUES (?, ?)", (address, now))
            db.execute("DELETE FROM openings WHERE at < ?", (now - 3600,))
        self.notifier.wake(table.id)

    def get(self, table_id: str) -> Table | None:
        with self._reading() as db:
            row = db.execute("SELECT body FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else Table.read(orjson.loads(row[0]))

    def change(self, table_id: str, change: Change) -> tuple[Table, list[tuple[int, Event]]]:
        with self._writing() as db:
            row = db.execute("SELECT body FROM tables WHERE id = ?", (table_id,)).fetchone()
            table = found(None if row is None else Table.read(orjson.loads(row[0])))
            changed, events = change(table)
            changed = _numbered(changed, len(events))
            db.execute("UPDATE tables SET body = ?, deadline = ?, expires = ? WHERE id = ?",
                       (orjson.dumps(changed.wire()), changed.deadline, changed.expires, table_id))
            numbered = self._append(db, table_id, table.last_event, events)
        if numbered:
            self.notifier.wake(table_id)
        return changed, numbered

    def events(self, table_id: str, after: int, most: int) -> list[tuple[int, Event]]:
        with self._reading() as db:
            rows = db.execute("SELECT id, body FROM events WHERE table_id = ? AND id > ? ORDER BY id LIMIT ?",
                              (table_id, after, most)).fetchall()
        return [(number, orjson.loads(body)) for number, body in rows]

    def due(self, now: float, most: int) -> list[str]:
        with self._reading() as db:
            rows = db.execute("SELECT id FROM tables WHERE deadline <= ? ORDER BY deadline LIMIT ?",
                              (now, most)).fetchall()
        return [row[0] for row in rows]

    def claim(self, table_id: str, deadline: float, until: float) -> bool:
        with self._writing() as db:
            return db.execute("UPDATE tables SET deadline = ? WHERE id = ? AND deadline = ?",
                              (until, table_id, deadline)).rowcount == 1

    def expired(self, now: float, most: int) -> list[str]:
        with self._reading() as db:
            rows = db.execute("SELECT id FROM tables WHERE expires < ? LIMIT ?", (now, most)).fetchall()
        return [row[0] for row in rows]

    def delete(self, table_id: str) -> None:
        with self._writing() as db:
            db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
            db.execute("DELETE FROM events WHERE table_id = ?", (table_id,))

    def openings(self, address: str, since: float) -> int:
        with self._reading() as db:
            return int(db.execute("SELECT COUNT(*) FROM openings WHERE address = ? AND at >= ?",
                                  (address, since)).fetchone()[0])

    def open_tables(self) -> int:
        with self._reading() as db:
            return int(db.execute("SELECT COUNT(*) FROM tables").fetchone()[0])

    def secret(self) -> bytes:
        with self._writing() as db:
            db.execute("INSERT OR IGNORE INTO meta VALUES ('ticket_key', ?)", (secrets.token_bytes(32),))
            return bytes(db.execute("SELECT value FROM meta WHERE name = 'ticket_key'").fetchone()[0])

    def wake_all(self) -> None:
        self.notifier.wake_all()

    def wait(self, table_id: str, after: int, timeout: float) -> bool:
        event = self.notifier.event(table_id)
        with self._reading() as db:
            if db.execute("SELECT 1 FROM events WHERE table_id = ? AND id > ? LIMIT 1",
                          (table_id, after)).fetchone():
                return True
        return event.wait(timeout)

    def _append(self, db: sqlite3.Connection, table_id: str, last: int,
                events: list[Event]) -> list[tuple[int, Event]]:
        numbered = list(enumerate(events, last + 1))
        db.executemany("INSERT INTO events (table_id, id, body) VALUES (?, ?, ?)",
                       [(table_id, number, orjson.dumps(event)) for number, event in numbered])
        return numbered

    def _listen(self, notifier: Notifier) -> None:
        """Wakes this process's streams of every table another process wrote to."""
        db = self._open(READ_TIMEOUT_SECONDS)
        seq = db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]
        while True:
            time.sleep(POLL_SECONDS)
            try:
                rows = db.execute("SELECT seq, table_id FROM events WHERE seq > ? ORDER BY seq",
                                  (seq,)).fetchall()
            except sqlite3.Error:
                continue
            for seq, table_id in rows:  # noqa: B007 (the last one read is where the next poll starts)
                notifier.wake(table_id)

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._connected("reader") as db:
            yield db

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        with self._connected("writer") as db:
            _begun(db)
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @contextmanager
    def _connected(self, role: str) -> Iterator[sqlite3.Connection]:
        """This process's connection for reading, or for writing (a forked worker opens its
        own), each taken by one thread at a time. Reads do not wait for a write in WAL mode but
        for a moment (a checkpoint); a writer waits for another process's write in Python
        (``_begun``), so its connection has no busy wait of SQLite's."""
        if self.pid != os.getpid():
            self.connections, self.pid = {}, os.getpid()
        if role not in self.connections:
            timeout = READ_TIMEOUT_SECONDS if role == "reader" else 0
            self.connections[role] = (threading.Lock(), self._open(timeout))
        lock, db = self.connections[role]
        with lock:
            try:
                yield db
            except sqlite3.Error as error:
                log.error("table store: SQLite: %s", error)
                raise StoreDown("the table store did not answer: try again") from error

    def _open(self, timeout: float) -> sqlite3.Connection:
        """A connection whose statements wait ``timeout`` for a lock. Its first statement reads the
        schema, which another worker may be setting up as this one starts (``_set_up``: switching
        to WAL takes the file alone), so that one waits up to ``TIMEOUT_SECONDS`` whatever the
        connection's timeout: with none, a worker's first write at boot found the file locked and
        the server stopped (a full test run on a loaded machine)."""
        db = sqlite3.connect(self.path, timeout=TIMEOUT_SECONDS, isolation_level=None,
                             check_same_thread=False)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute(f"PRAGMA busy_timeout = {round(timeout * 1000)}")
        return db


def _begun(db: sqlite3.Connection) -> None:
    """A write transaction taken (``BEGIN IMMEDIATE``), waiting for another process's to end in
    short sleeps: SQLite's own busy wait sleeps inside C, which under gevent stops every stream
    of the process for as long (measured by `make soak`: a stream's p99 went past 100 ms, and a
    read waited up to 1.4 s); ``time.sleep`` lets them run."""
    deadline = time.monotonic() + TIMEOUT_SECONDS
    while True:
        try:
            db.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if ("locked" not in str(error) and "busy" not in str(error)) or time.monotonic() > deadline:
                raise
            time.sleep(BUSY_SLEEP_SECONDS)


def _numbered(table: Table, count: int) -> Table:
    return replace(table, last_event=table.last_event + count)
