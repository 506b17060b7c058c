"""A real Redis for the tests of the replay guard: Debian's ``redis-server`` (``make test`` installs
it when missing), on a free loopback port, keeping nothing on disk."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import redis

from tests.live import free_port


def redis_binary() -> str:
    found = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin:/usr/sbin")
    assert found, "Debian's redis-server is needed: `make test` installs it (apt-get install redis-server)"
    return found


@contextmanager
def redis_server() -> Iterator[str]:
    """A redis-server of its own, yielding its URL (``redis://127.0.0.1:port/0``)."""
    with redis_process(free_port()) as (url, _):
        yield url


@contextmanager
def redis_process(port: int, options: dict[str, str] | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server on ``port`` (started again on the same port, it is a Redis restarted without
    its data), yielding its URL and its process (to stop with SIGSTOP). ``options``: its
    configuration (``{"appendonly": "yes"}``), by default nothing kept on disk."""
    chosen = options if options is not None else {"save": "", "appendonly": "no", "enable-debug-command": "local"}
    with tempfile.TemporaryDirectory() as workdir:
        here = {**chosen, "port": str(port), "bind": "127.0.0.1", "dir": workdir}
        argv = [word for name, value in here.items() for word in (f"--{name}", value)]
        process = subprocess.Popen([redis_binary(), *argv], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        url = f"redis://127.0.0.1:{port}/0"
        client = redis.Redis.from_url(url)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("redis-server did not start") from None
                    time.sleep(0.05)
            yield url, process
        finally:
            client.close()
            process.terminate()
            process.wait(timeout=10)
