"""schemathesis, every check but one, positive and negative data, against the host under
gunicorn's gevent workers serving host/openapi.yaml. Left out: that every schema-valid request is
accepted, which a table's state decides (a table id that is no table is a 404, a key that is not
its key a 401), as the rules' contract test allows its 422s; and the stateful phase, as the
document has no links to follow. One worker: schemathesis's workers are threads, and two
threads describing hypothesis lambdas at once trip CPython 3.11's ast.parse ("AST constructor
recursion depth mismatch")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.host.live import host_server
from tests.live import ROOT


def test_schemathesis_finds_nothing_in_the_host(tmp_path: Path) -> None:
    st = Path(sys.executable).with_name("st")
    log = tmp_path / "host.log"
    with host_server(f"sqlite:///{tmp_path}/tables.sqlite3", log_path=log) as url:
        run = subprocess.run(
            [str(st), "run", str(ROOT / "host" / "openapi.yaml"), "--url", url, "--checks", "all",
             "--exclude-checks", "positive_data_acceptance", "--phases", "examples,coverage,fuzzing",
             "--max-examples", "25", "--seed", "20261205",
             "--generation-deterministic", "--workers", "1", "--request-timeout", "10",
             "--no-color", "--report-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=300, cwd=ROOT,
        )
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:] + log.read_text()[-4000:]
