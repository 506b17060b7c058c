"""schemathesis, every check, positive and negative data, against a live gunicorn process
serving the committed openapi.yaml; bounded so that `make test` stays well under 10 minutes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.live import ROOT, gunicorn

pytestmark = pytest.mark.xdist_group("live")
MAX_EXAMPLES = "25"


def test_schemathesis_finds_nothing(tmp_path: Path):
    st = Path(sys.executable).with_name("st")
    # Two search slots for its two workers: schemathesis sends two requests at once, and a third
    # search past the slots (a 503 by design, tests/api/test_computer_guard.py) cannot arise.
    with gunicorn(SEARCH_SLOTS="2") as url:
        run = subprocess.run(
            [str(st), "run", str(ROOT / "openapi.yaml"), "--url", url, "--checks", "all",
             "--max-examples", MAX_EXAMPLES, "--seed", "20261129", "--generation-deterministic",
             "--workers", "2", "--max-time", "140", "--request-timeout", "10",
             "--no-color", "--report-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=600, cwd=ROOT,
        )
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:]
