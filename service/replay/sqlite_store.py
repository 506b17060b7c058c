"""The replay store of one machine: a SQLite file every worker (and every instance) on the machine
shares, the default (``REPLAY_STORE=sqlite:////tmp/card-rules/replay.sqlite3``).

WAL mode, so a read never waits for a write and a write commits without an fsync
(``synchronous=NORMAL``: a commit survives the process, and the machine unless it loses power in
the second after). Writers take turns: a move holds the write lock for one row's read and write
(tens of microseconds); a writer that waits longer than the timeout (a process stopped while it
held the lock) fails, and the guard treats the store as down. Each worker process opens its own
connection, after gunicorn forks it.
"""

from __future__ import annotations

import os
import random
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from service.replay.store import LOST, TAKEN, Entry, StoreUnavailable, verdict

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS hands (
    hand_id TEXT PRIMARY KEY,
    latest INTEGER NOT NULL,
    digest TEXT NOT NULL,
    computer_move TEXT NOT NULL,
    expires REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS hands_expiring ON hands (expires);
"""
TAKE = """UPDATE hands SET latest = ?, digest = ?, computer_move = ?, expires = ?
WHERE hand_id = ? AND expires >= ? AND (latest < ? OR (latest = ? AND digest = ?))"""
"""``store.verdict``'s TAKEN, as the update it makes."""
SWEEP = 16
"""One deal in SWEEP deletes up to SWEEP expired entries, so that the table shrinks as hands
end, at no cost to the others."""


class SqliteStore:
    def __init__(self, path: str, *, keep_s: int, timeout_s: float) -> None:
        self.path, self.keep_s, self.timeout_s = Path(path), keep_s, timeout_s
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()  # one connection a process, its threads take turns
        self.pid, self.epoch = 0, ""
        self.connection: sqlite3.Connection | None = None
        self._open().close()  # a wrong path fails at the start, not at the first move

    def dealt(self, hand_id: str) -> str:
        now = time.time()
        with self._writing() as db:
            if random.random() < 1 / SWEEP:  # a deal in SWEEP clears up to SWEEP expired entries
                db.execute("DELETE FROM hands WHERE hand_id IN "
                           "(SELECT hand_id FROM hands WHERE expires < ? LIMIT ?)", (now, SWEEP))
            db.execute("INSERT OR REPLACE INTO hands VALUES (?, 0, '', '', ?)", (hand_id, now + self.keep_s))
        return self.epoch

    def advance(self, hand_id: str, epoch: str, number: int, digest: str, computer_move: str) -> int:
        if epoch != self.epoch:
            return LOST
        now = time.time()
        with self._writing() as db:
            # verdict's rule as the update's condition: a move taken costs one statement, the read
            # only a refusal (the commit dominates: 60-80 µs a move here, measured, either way)
            taken = db.execute(TAKE, (number + 1, digest, computer_move, now + self.keep_s, hand_id, now,
                                      number + 1, number + 1, digest)).rowcount
            return TAKEN if taken else verdict(self._read(db, hand_id), number, digest)

    def entry(self, hand_id: str, epoch: str) -> Entry | None:
        with self.lock:
            try:
                db = self._connected()
                return self._read(db, hand_id) if epoch == self.epoch else None
            except sqlite3.Error as error:
                raise StoreUnavailable(f"SQLite: {error}") from error

    def _read(self, db: sqlite3.Connection, hand_id: str) -> Entry | None:
        row = db.execute("SELECT latest, digest, computer_move FROM hands WHERE hand_id = ? AND expires >= ?",
                         (hand_id, time.time())).fetchone()
        return None if row is None else Entry(*row)

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """The connection in a write transaction, taken at once (``BEGIN IMMEDIATE``), so that
        two moves on one hand are judged one after the other."""
        with self.lock:
            try:
                db = self._connected()
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            except sqlite3.Error as error:
                raise StoreUnavailable(f"SQLite: {error}") from error

    def _connected(self) -> sqlite3.Connection:
        """This process's connection: a forked worker opens its own (a connection must not
        cross a fork)."""
        if self.connection is None or self.pid != os.getpid():
            self.connection, self.pid = self._open(), os.getpid()
        return self.connection

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self.timeout_s, isolation_level=None, check_same_thread=False)
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":  # switching takes the file alone
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.executescript(SCHEMA)
        epoch = "SELECT value FROM meta WHERE name = 'epoch'"
        if db.execute(epoch).fetchone() is None:  # a new file: its epoch made once, by one process
            db.execute("INSERT OR IGNORE INTO meta VALUES ('epoch', ?)", (secrets.token_hex(8),))
        self.epoch = db.execute(epoch).fetchone()[0]
        return db
