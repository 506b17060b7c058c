"""The table host as it is deployed: gunicorn with gevent workers running ``host:create_app()``
(or ``make run``'s ``host:create_site()``), and a client of it over real HTTP, event streams
included."""

from __future__ import annotations

import http.client
import json
import os
import queue
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.live import free_port, served

GUNICORN = str(Path(sys.executable).with_name("gunicorn"))


@contextmanager
def host_server(store: str, *, app: str = "host:create_app()", port: int | None = None,
                log_path: str | os.PathLike[str] | None = None, **env: str) -> Iterator[str]:
    """The host on ``port`` (a free one by default), its tables in ``store``; its log written to
    ``log_path`` when one is given."""
    settings = {"WORKER_CLASS": "gevent", "TABLE_STORE": store, "TABLES_PER_MINUTE": "100000", **env}
    with served([GUNICORN, "--config", "gunicorn.conf.py", app], port or free_port(), settings,
                log_path=log_path) as url:
        yield url


def call(url: str, method: str, path: str, body: Any = None, key: str | None = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def opened(url: str, game: str, **body: Any) -> tuple[str, list[str | None], str]:
    status, answer = call(url, "POST", "/v1/tables", {"game": game, **body})
    assert status == 201, answer
    keys: list[str | None] = [None] * answer["players"]
    for invite in answer["invites"]:
        status, joined = call(url, "POST", f"/v1/tables/{answer['table_id']}/join", {"invite": invite["invite"]})
        assert status == 200, joined
        keys[invite["seat"]] = joined["seat_key"]
    return answer["table_id"], keys, answer["spectator_key"]


class Stream:
    """An open event stream, read on a thread of its own: ``events`` receives each event with
    the time it arrived."""

    def __init__(self, url: str, table_id: str, key: str, after: int | None = None) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        headers = {"Authorization": f"Bearer {key}"}
        if after is not None:
            headers["Last-Event-ID"] = str(after)
        self.connection.request("GET", f"/v1/tables/{table_id}/events", headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()
        self.events: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self.comments = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("data: "):
                    self.events.put((time.monotonic(), json.loads(line[6:])))
                elif line.startswith(":"):
                    self.comments += 1
        except (OSError, ValueError, AttributeError, http.client.HTTPException):  # closed under it
            return

    def next(self, timeout: float = 5.0) -> dict[str, Any]:
        return self.events.get(timeout=timeout)[1]

    def until(self, kind: str, timeout: float = 5.0) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            arrived, event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            if event["type"] == kind:
                return arrived, event

    def drained(self, quiet: float = 0.3) -> list[dict[str, Any]]:
        found = []
        while True:
            try:
                found.append(self.events.get(timeout=quiet)[1])
            except queue.Empty:
                return found

    def close(self) -> None:
        """Closed as a browser closes it: the socket shut, which also ends the reading thread's
        wait (closing the connection alone waits for the reader's next line)."""
        if self.connection.sock is not None:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()
