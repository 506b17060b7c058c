"""Where tables live: one interface (``TableStore``), a SQLite file for one machine (the
default) and Redis for several (``TABLE_STORE``). A change of a table is atomic: the store reads
the table, applies the change and writes the table and its events, or nothing; two changes of
one table are applied one after the other, so of two moves racing on one move number exactly
one plays (the other sees the move number passed)."""

from __future__ import annotations

from typing import Protocol

from host.tables import Change, Event, Table


class TableStore(Protocol):
    def create(self, table: Table, events: list[Event], address: str, now: float) -> None:
        """A new table, its first events, and one opening counted for ``address``."""

    def get(self, table_id: str) -> Table | None: ...

    def change(self, table_id: str, change: Change) -> tuple[Table, list[tuple[int, Event]]]:
        """The table changed, and its new events with their ids; what ``change`` raises passes."""

    def events(self, table_id: str, after: int, most: int) -> list[tuple[int, Event]]:
        """The table's events after id ``after``, in order, ``most`` at most."""

    def due(self, now: float, most: int) -> list[str]:
        """Tables whose deadline has come (a computer's move, or a timer run out)."""

    def claim(self, table_id: str, deadline: float, until: float) -> bool:
        """Move the table's deadline from ``deadline`` to ``until``, unless another worker did:
        the one that does makes the move that was due."""

    def expired(self, now: float, most: int) -> list[str]: ...

    def delete(self, table_id: str) -> None: ...

    def openings(self, address: str, since: float) -> int:
        """Tables ``address`` opened since ``since``."""

    def open_tables(self) -> int: ...

    def secret(self) -> bytes:
        """The host's key for stream tickets, made once per store and shared by every worker."""

    def wake_all(self) -> None:
        """End every wait of this process now (it is stopping)."""

    def wait(self, table_id: str, after: int, timeout: float) -> bool:
        """Wait until the table has an event after id ``after`` (True), or ``timeout`` seconds."""


def open_store(url: str, *, idle_seconds: int) -> TableStore:
    """The store a ``TABLE_STORE`` URL names: ``sqlite:///path`` or ``redis://``."""
    if url.startswith("sqlite:///"):
        from host.store.sqlite import SqliteTables
        return SqliteTables(url.removeprefix("sqlite:///"))
    from host.store.redis import RedisTables
    return RedisTables(url, idle_seconds=idle_seconds)
