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


# Two schemathesis processes of one worker each, the sealed operations in one and the rest in
# the other: schemathesis's workers are threads, and two threads describing hypothesis lambdas at
# once trip CPython 3.11's ast.parse ("AST constructor recursion depth mismatch").
HALVES = {"sealed": "--include-path-regex", "open": "--exclude-path-regex"}


def test_schemathesis_finds_nothing(tmp_path: Path):
    st = Path(sys.executable).with_name("st")
    # Two search slots for the two processes: each sends one request at a time, so a third
    # search past the slots (a 503 by design, tests/api/test_computer_guard.py) cannot arise.
    with gunicorn(SEARCH_SLOTS="2") as url:
        runs = {
            half: subprocess.Popen(
                [str(st), "run", str(ROOT / "openapi.yaml"), "--url", url, "--checks", "all",
                 choose, "/sealed/", "--max-examples", MAX_EXAMPLES, "--seed", "20261129",
                 "--generation-deterministic", "--workers", "1", "--max-time", "140",
                 "--request-timeout", "10", "--no-color", "--report-dir", str(tmp_path / half)],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
            )
            for half, choose in HALVES.items()
        }
        outputs = {half: run.communicate(timeout=600)[0] for half, run in runs.items()}
    for half, run in runs.items():
        assert run.returncode == 0, f"{half}: " + outputs[half][-8000:]
