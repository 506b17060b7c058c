"""A live gunicorn process started with exactly the command line the Dockerfile runs."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def dockerfile_command() -> list[str]:
    """The Dockerfile's CMD, as a list, with the venv's gunicorn in place of the image's."""
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(), re.M)
    assert cmd, "the Dockerfile has an exec-form CMD"
    argv = json.loads(cmd.group(1))
    return [str(Path(sys.executable).with_name(argv[0])), *argv[1:]]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def gunicorn(**env: str) -> Iterator[str]:
    port = free_port()
    environment = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "WORKERS": "2",
                   "LOG_LEVEL": "WARNING", **env}
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(dockerfile_command(), cwd=ROOT, env=environment,
                               stdout=subprocess.DEVNULL, stderr=log)
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
        process.wait(timeout=15)
        log.close()
