"""A live gunicorn process started with exactly the command line the Dockerfile runs, and Debian's
nginx running deploy/nginx.conf with its placeholders filled as compose.yaml fills them (in front
of one instance, or of several)."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def dockerfile_command() -> list[str]:
    """The Dockerfile's CMD, as a list, with the venv's gunicorn in place of the image's."""
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(), re.M)
    assert cmd, "the Dockerfile has an exec-form CMD"
    argv = json.loads(cmd.group(1))
    return [str(Path(sys.executable).with_name(argv[0])), *argv[1:]]


def _worker_ports() -> Iterator[int]:
    """Ports below Linux's ephemeral range (32768-60999), so no outgoing connection holds one,
    and a block of its own for each xdist worker, so two workers never pick the same one. A port
    the kernel hands out (bind to 0) can be handed to another worker's server in the moment
    between its check and the server's bind: the other server then answers this one's /health."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    first = 20000 + 1500 * (worker % 8)
    while True:
        yield from range(first, first + 1500)


_PORTS = _worker_ports()


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port() -> int:
    """A port of this worker's block that nothing listens on now."""
    return next(port for port in _PORTS if _bindable(port))


@contextmanager
def gunicorn(*, log_path: str | os.PathLike[str] | None = None, **env: str) -> Iterator[str]:
    """The server on a free port, yielding its URL. ``log_path``: a file to write its standard
    error to (gunicorn's log, and with LOG_LEVEL=INFO the service's JSON line per request),
    to read while it runs; by default the log is kept only to explain a failed start."""
    with served(dockerfile_command(), free_port(), env, log_path=log_path) as url:
        yield url


@contextmanager
def served(argv: list[str], port: int, env: dict[str, str], *,
           log_path: str | os.PathLike[str] | None = None) -> Iterator[str]:
    """``argv`` (a gunicorn command) serving on ``port``, once its /health answers: its URL."""
    # GRACEFUL_TIMEOUT under the 20 s the end waits: a stream left open (a table's events) holds
    # a worker for all of it, and gunicorn's 30 s outlasted the wait once in a full run.
    environment = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "WORKERS": "2",
                   "LOG_LEVEL": "WARNING", "GRACEFUL_TIMEOUT": "5", **env}
    log = tempfile.TemporaryFile() if log_path is None else open(log_path, "w+b")
    process = subprocess.Popen(argv, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/health", timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(log.read().decode()) from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    assert found, "Debian's nginx is needed: `make test` installs it (apt-get install nginx-light)"
    return found


def nginx_conf(upstream: str | Sequence[str], listen: str, tables: str | Sequence[str] | None = None) -> str:
    """deploy/nginx.conf with only its placeholders filled, as compose.yaml and `make soak` do:
    ``upstream`` is one host:port or several (the replicas), a ``server`` line each in place of
    the line that is only @SERVERS@; ``tables`` the same for the table host's instances, in place
    of @TABLES@, by default ``upstream`` again (an instance of `host:create_site()` serves both;
    a rules-only one answers /v1/tables 404)."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    for placeholder, servers in (("@SERVERS@", upstream), ("@TABLES@", upstream if tables is None else tables)):
        addresses = [servers] if isinstance(servers, str) else list(servers)
        assert addresses, f"at least one server for {placeholder}"
        conf, filled = re.subn(rf"^([ \t]*){placeholder}[ \t]*$", lambda line, addresses=addresses: "\n".join(
            f"{line.group(1)}server {address} max_fails=1 fail_timeout=2s;" for address in addresses), conf, flags=re.M)
        assert filled == 1, f"deploy/nginx.conf has its placeholder {placeholder}"
    assert "@LISTEN@" in conf, "deploy/nginx.conf has its placeholders"
    return conf.replace("@LISTEN@", listen)


def stop_nginx(process: subprocess.Popen[bytes]) -> None:
    """Fast shutdown (SIGTERM): a graceful one (SIGQUIT) waits for every open connection, and a
    browser's speculative connections, which send nothing, hold it until nginx's header timeout."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def nginx(upstream: str | Sequence[str], listen: str | None = None,
          tables: str | Sequence[str] | None = None) -> Iterator[str]:
    """nginx in front of ``upstream`` (host:port, or a list of them: one upstream server each,
    round-robin), and of ``tables`` for /v1/tables (by default ``upstream``), on ``listen`` (a
    free loopback port if not given); yields its URL. A start that fails raises with nginx's
    messages."""
    listen = listen or f"127.0.0.1:{free_port()}"
    host, port = listen.rsplit(":", 1)
    with tempfile.TemporaryDirectory() as prefix, Path(prefix, "stderr").open("wb") as stderr:
        Path(prefix, "nginx.conf").write_text(nginx_conf(upstream, listen, tables))
        user = "user root;" if os.geteuid() == 0 else ""
        process = subprocess.Popen(
            [nginx_binary(), "-p", prefix, "-c", "nginx.conf",
             "-g", f"daemon off; {user} pid {prefix}/nginx.pid; error_log {prefix}/error.log;"],
            stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            deadline = time.monotonic() + 15
            while True:
                try:
                    with socket.create_connection((host, int(port)), timeout=1):
                        break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        logs = [Path(prefix, name) for name in ("stderr", "error.log")]
                        raise RuntimeError("".join(p.read_text() for p in logs if p.exists())) from None
                    time.sleep(0.05)
            yield f"http://{listen}"
        finally:
            stop_nginx(process)
