"""Slots shared by the worker processes of one instance: at most ``count`` holders at once,
whichever worker they run in. The computer player takes one for each search (``SEARCH_SLOTS``),
so searches never hold every worker, and one that finds none is refused at once, not queued.

A slot is a lock file, locked with ``flock`` without waiting. The kernel drops a lock when its
holder's file is closed or its process dies, so a worker killed in a search (its timeout, a
SIGKILL) frees its slot. ``flock`` locks belong to an open file, not a process: each taking opens
the file anew, so two threads of one worker take two slots. Taking a slot costs a few
microseconds (an open, a flock and a close per slot tried). No Flask here.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from service.errors import ComputerBusy


class Slots:
    def __init__(self, count: int, directory: Path | None = None) -> None:
        """``count`` slots in ``directory`` (default: a new one, made before gunicorn forks the
        workers, so that they all share it)."""
        if count < 1:
            raise ValueError("at least one slot")
        folder = directory or Path(tempfile.mkdtemp(prefix="card-rules-slots-"))
        self.paths = [folder / f"slot-{number}" for number in range(count)]
        for path in self.paths:
            path.touch()

    @contextmanager
    def held(self) -> Iterator[int]:
        """Hold a free slot (its number) while the block runs; ``ComputerBusy`` when none is free."""
        for number, path in enumerate(self.paths):
            descriptor = os.open(path, os.O_RDWR)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(descriptor)
                continue
            try:
                yield number
            finally:
                os.close(descriptor)  # closing drops the lock
            return
        raise ComputerBusy("the computer player is already thinking for as many tables as this server "
                           "allows at once; try again in a moment")
