"""The README's two-person table with curl and jq, run as written against the site `make run`
serves (the rules and the host on one origin, gevent workers)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests.host.live import host_server

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_seats_two_people_and_plays_a_move(tmp_path: Path) -> None:
    block = re.search(r"<!-- readme-tables -->\n```sh\n(.*?)```", README.read_text(), re.S)
    assert block and len(block.group(1).strip().splitlines()) <= 10
    assert shutil.which("jq"), "`make test` installs jq (make system-deps)"
    with host_server(f"sqlite:///{tmp_path}/tables.sqlite3", app="host:create_site()",
                     REPLAY_STORE=f"sqlite:///{tmp_path}/replay.sqlite3") as url:
        script = block.group(1).replace("http://127.0.0.1:8000", url) + "sleep 1; kill %1\n"
        run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert '"legal":true' in out, out
    assert re.search(r'^data: \{"id":\d+,"type":"move"', out, re.M), out
    assert '"type":"joined"' in out and "id: 1\n" in out
