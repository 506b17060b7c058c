"""bench/replicas.py's instances: each the Dockerfile's gunicorn command on a port of its own, in a
process group of its own (so that master and worker die together), all with one STATE_KEYS and
one REPLAY_STORE (Debian's redis-server), behind one nginx running deploy/nginx.conf."""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from service.sealing import StateKey
from tests.live import dockerfile_command, nginx
from tests.live_redis import redis_server

ROOT = Path(__file__).resolve().parent.parent
PROXY_PORT = 18750
REPLICA_PORTS = (18751, 18752, 18753)
WORKERS = 1
"""Sync workers per instance: three instances of one share the machine's two cores."""


def key_text(key: StateKey) -> str:
    return f"{key.id}:{base64.urlsafe_b64encode(key.secret).decode().rstrip('=')}"


# --- the processes --------------------------------------------------------------------------

def _wait_health(url: str, process: subprocess.Popen[bytes], log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url + "/health", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.1)


class Replica:
    """One instance: the Dockerfile's gunicorn command on its own port, in its own session
    (process group), its standard error in ``log_dir``."""

    def __init__(self, number: int, port: int, env: dict[str, str], log_dir: Path) -> None:
        self.number, self.port, self.env, self.log_dir = number, port, env, log_dir
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, wait: bool = True) -> None:
        log = self.log_dir / f"replica-{self.number}.log"
        metrics = self.log_dir / f"metrics-{self.number}"
        metrics.mkdir(exist_ok=True)
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), "WORKERS": str(WORKERS),
               "LOG_LEVEL": "WARNING", "PROMETHEUS_MULTIPROC_DIR": str(metrics), **self.env}
        with log.open("ab") as stderr:
            self.process = subprocess.Popen(dockerfile_command(), cwd=ROOT, env=env, start_new_session=True,
                                            stdout=subprocess.DEVNULL, stderr=stderr)
        if wait:
            self.wait()

    def wait(self) -> None:
        assert self.process
        _wait_health(self.url, self.process, self.log_dir / f"replica-{self.number}.log")

    def kill(self) -> None:
        """SIGKILL to the whole process group: the master and its workers at once."""
        assert self.process
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=15)

    def stop(self) -> None:
        """SIGTERM to the master, as `docker stop` sends: it stops listening and lets its workers
        finish their requests."""
        assert self.process
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
        else:  # its workers may outlive a master that died
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)

    def restart(self, **env: str) -> float:
        """Stopped gracefully and started again (with ``env`` changed): seconds until healthy."""
        began = time.monotonic()
        self.stop()
        self.env.update(env)
        self.start()
        return time.monotonic() - began


@dataclass
class Stack:
    replicas: list[Replica]
    proxy: str
    old: StateKey
    new: StateKey
    redis: str

    def keys(self, *which: StateKey) -> str:
        return ",".join(key_text(k) for k in which)


@contextmanager
def stack() -> Iterator[Stack]:
    old, new = StateKey.generate("old"), StateKey.generate("new")
    with tempfile.TemporaryDirectory(prefix="soak-replicas-") as tmp, ExitStack() as stack_:
        log_dir = Path(tmp)
        redis = stack_.enter_context(redis_server())  # on a free port
        env = {"STATE_KEYS": key_text(old), "REPLAY_STORE": redis}
        replicas = [Replica(n, port, dict(env), log_dir) for n, port in enumerate(REPLICA_PORTS)]

        def stop_all() -> None:
            for replica in replicas:
                if replica.process:
                    replica.stop()

        stack_.callback(stop_all)
        for replica in replicas:  # booting together: the app's start is seconds of one core
            replica.start(wait=False)
        for replica in replicas:
            replica.wait()
        proxy = stack_.enter_context(nginx([f"127.0.0.1:{p}" for p in REPLICA_PORTS], f"127.0.0.1:{PROXY_PORT}"))
        yield Stack(replicas, proxy, old, new, redis)
