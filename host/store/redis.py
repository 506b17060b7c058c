"""Tables of several host replicas: one Redis (``TABLE_STORE=redis://host:6379/1``), which also
carries the fan-out of events between the replicas.

A table is one JSON value, its events a list (an event's id is its place in the list, from 1),
its deadline and expiry two sorted sets. A change is optimistic: WATCH the table, read it,
apply the change, and write the table and its events in one MULTI, which fails if another
replica wrote the table meanwhile (then the change is applied again to what it wrote, so two
racing moves on one move number still end as one move and one ``StaleMove``). Each change
publishes the table's id on one channel; each process's listener wakes its streams of that
table. A replica that was not listening (restarted, partitioned) loses nothing: a stream reads
the list after its ``Last-Event-ID``. Run Redis with persistence and ``noeviction``
(deploy/kubernetes/redis.yaml), or a restart of it closes every table.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import orjson
import redis

from host.errors import StoreDown, TableBusy
from host.store.notify import Notifier
from host.tables import Change, Event, Table, found

PREFIX = "card-tables:"
CHANNEL = PREFIX + "changed"
DUE, EXPIRING, SECRET = PREFIX + "due", PREFIX + "expiring", PREFIX + "ticket-key"
CONNECTIONS = 128
"""Connections to Redis a process keeps at most; a command waits (2 s at most) for a free one
(redis-py's default pool refuses past 100: `make soak` saw streams cut and 503s)."""
RETRIES = 8
"""Times a change is applied again when another replica wrote the table first; past it, 503."""
CLAIM = """
local deadline = redis.call('ZSCORE', KEYS[1], ARGV[1])
if deadline and tonumber(deadline) == tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
"""
"""KEYS: the deadlines; ARGV: the table, the deadline seen, the new one. 1: claimed."""
log = logging.getLogger("host")


class RedisTables:
    def __init__(self, url: str, *, idle_seconds: int) -> None:
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=CONNECTIONS, timeout=2.0,
                                                     socket_timeout=2.0, socket_connect_timeout=2.0)
        self.redis = redis.Redis(connection_pool=pool)
        self.keep = idle_seconds * 2 + 3_600  # past the close, and the close's own idle time
        self.claim_script = self.redis.register_script(CLAIM)
        self.notifier = Notifier(self._listen)
        self.url = url

    def create(self, table: Table, events: list[Event], address: str, now: float) -> None:
        table = replace(table, last_event=len(events))
        with self._talking():
            pipe = self.redis.pipeline()
            self._write(pipe, table, events)
            opened = PREFIX + "opened:" + address
            pipe.zadd(opened, {secrets.token_hex(4): now})
            pipe.zremrangebyscore(opened, "-inf", now - 3_600)
            pipe.expire(opened, 3_600)
            pipe.execute()

    def get(self, table_id: str) -> Table | None:
        with self._talking():
            body = self.redis.get(_table(table_id))
        return None if body is None else Table.read(orjson.loads(body))

    def change(self, table_id: str, change: Change) -> tuple[Table, list[tuple[int, Event]]]:
        with self._talking():
            for _ in range(RETRIES):
                with self.redis.pipeline() as pipe:
                    try:
                        pipe.watch(_table(table_id))
                        body = pipe.get(_table(table_id))
                        table = found(None if body is None else Table.read(orjson.loads(body)))
                        changed, events = change(table)
                        changed = replace(changed, last_event=table.last_event + len(events))
                        pipe.multi()
                        self._write(pipe, changed, events)
                        pipe.execute()
                    except redis.WatchError:
                        continue
                return changed, list(enumerate(events, table.last_event + 1))
        raise TableBusy("this table is changed by many at once: try again")

    def events(self, table_id: str, after: int, most: int) -> list[tuple[int, Event]]:
        with self._talking():
            bodies = self.redis.lrange(_events(table_id), after, after + most - 1)
        return [(number, orjson.loads(body)) for number, body in enumerate(bodies, after + 1)]

    def due(self, now: float, most: int) -> list[str]:
        with self._talking():
            keys = self.redis.zrangebyscore(DUE, "-inf", now, start=0, num=most)
        return [_text(key) for key in keys]

    def claim(self, table_id: str, deadline: float, until: float) -> bool:
        with self._talking():
            return bool(self.claim_script(keys=[DUE], args=[table_id, repr(deadline), repr(until)]))

    def expired(self, now: float, most: int) -> list[str]:
        with self._talking():
            keys = self.redis.zrangebyscore(EXPIRING, "-inf", now, start=0, num=most)
        return [_text(key) for key in keys]

    def delete(self, table_id: str) -> None:
        with self._talking():
            pipe = self.redis.pipeline()
            pipe.delete(_table(table_id), _events(table_id))
            pipe.zrem(DUE, table_id)
            pipe.zrem(EXPIRING, table_id)
            pipe.execute()

    def openings(self, address: str, since: float) -> int:
        with self._talking():
            return int(self.redis.zcount(PREFIX + "opened:" + address, since, "+inf"))

    def open_tables(self) -> int:
        with self._talking():
            return int(self.redis.zcard(EXPIRING))

    def secret(self) -> bytes:
        with self._talking():
            self.redis.set(SECRET, secrets.token_bytes(32), nx=True)
            return bytes(self.redis.get(SECRET))  # type: ignore[arg-type]

    def wake_all(self) -> None:
        self.notifier.wake_all()

    def wait(self, table_id: str, after: int, timeout: float) -> bool:
        event = self.notifier.event(table_id)
        with self._talking():
            if self.redis.llen(_events(table_id)) > after:
                return True
        return event.wait(timeout)

    def _write(self, pipe: redis.client.Pipeline, table: Table, events: list[Event]) -> None:
        pipe.set(_table(table.id), orjson.dumps(table.wire()), ex=self.keep)
        if events:
            pipe.rpush(_events(table.id), *(orjson.dumps(event) for event in events))
        pipe.expire(_events(table.id), self.keep)
        if table.deadline is None:
            pipe.zrem(DUE, table.id)
        else:
            pipe.zadd(DUE, {table.id: table.deadline})
        pipe.zadd(EXPIRING, {table.id: table.expires})
        if events:
            pipe.publish(CHANNEL, table.id)

    def _listen(self, notifier: Notifier) -> None:
        """Wakes this process's streams of every table any replica wrote to; after a lost
        connection, wakes them all, so that each looks at its list again."""
        while True:
            try:
                listener = redis.Redis.from_url(self.url, socket_timeout=None).pubsub(
                    ignore_subscribe_messages=True)
                listener.subscribe(CHANNEL)
                for message in listener.listen():
                    notifier.wake(message["data"].decode())
            except redis.RedisError as error:
                log.warning("table store: listening: %s", error)
                notifier.wake_all()
                time.sleep(0.5)

    @contextmanager
    def _talking(self) -> Iterator[None]:
        try:
            yield
        except redis.RedisError as error:
            log.error("table store: Redis: %s", error)
            raise StoreDown("the table store did not answer: try again") from error


def _text(key: object) -> str:
    """A member of a sorted set: a table id, as bytes (the client does not decode)."""
    assert isinstance(key, bytes)
    return key.decode()


def _table(table_id: str) -> str:
    return PREFIX + "t:" + table_id


def _events(table_id: str) -> str:
    return PREFIX + "e:" + table_id
