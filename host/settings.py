"""The table host's settings, read from the environment (README, "Tables for several people")."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class HostSettings:
    table_store: str = "sqlite:////tmp/card-rules/tables.sqlite3"
    """Where tables live: a SQLite file every worker of one machine shares, or a Redis
    (``redis://host:6379/0``) that several replicas share, with the events' fan-out."""
    idle_seconds: int = 3_600
    """A table nobody has changed for this long is closed (its streams are told)."""
    tables_per_minute: int = 10
    """Tables one address may open in a minute."""
    max_tables: int = 10_000
    """Tables this host keeps open at once."""
    streams_per_seat: int = 4
    """Event streams one seat may have open at once."""
    spectator_streams: int = 64
    """Event streams the spectators of one table may have open at once, together."""
    stream_seconds: int = 300
    """A stream ends after this long; the client reopens it with ``Last-Event-ID``, so that no
    connection outlives a deploy or pins a replica."""
    heartbeat_seconds: float = 15.0
    """A comment line on an idle stream this often keeps proxies from closing it."""
    ticket_seconds: int = 60
    """How long a stream ticket may be used to open a stream."""
    trusted_proxies: int = 0
    """Proxies in front of the host, each setting ``X-Forwarded-For``: the client's address is
    read from it (``TABLES_PER_MINUTE`` counts a client's tables, not the proxy's). 0: the
    address the host sees, the only one a client cannot forge when nothing stands in front."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> HostSettings:
        store = env.get("TABLE_STORE", cls.table_store).strip()
        if not store.startswith(("sqlite:///", "redis://", "rediss://", "unix://")):
            raise ValueError("TABLE_STORE is sqlite:///path, redis://host:port/db, rediss:// or unix://")
        return cls(
            table_store=store,
            idle_seconds=int(env.get("TABLE_IDLE_SECONDS", cls.idle_seconds)),
            tables_per_minute=int(env.get("TABLES_PER_MINUTE", cls.tables_per_minute)),
            max_tables=int(env.get("MAX_TABLES", cls.max_tables)),
            streams_per_seat=int(env.get("STREAMS_PER_SEAT", cls.streams_per_seat)),
            spectator_streams=int(env.get("SPECTATOR_STREAMS", cls.spectator_streams)),
            stream_seconds=int(env.get("STREAM_SECONDS", cls.stream_seconds)),
            heartbeat_seconds=float(env.get("HEARTBEAT_SECONDS", cls.heartbeat_seconds)),
            ticket_seconds=int(env.get("TICKET_SECONDS", cls.ticket_seconds)),
            trusted_proxies=int(env.get("TRUSTED_PROXIES", cls.trusted_proxies)),
        )
