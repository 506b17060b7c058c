"""/docs as a user sees it: the page rendered by real headless Chromium (Debian's ``chromium``;
``make test`` installs it when it is missing) against the live server, offline, listing every
operation of the OpenAPI document."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import urllib.request

import pytest

from tests.live import gunicorn

pytestmark = pytest.mark.xdist_group("live")

# Chromium reaches for Google's services at start; this machine (and CI) has no such network.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "Debian's chromium is needed: `make test` installs it (apt-get install chromium)"
    return found


def render(url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [chromium(), *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=20000", *extra, url],
            capture_output=True, text=True, timeout=120)


def test_docs_page_renders_every_operation_in_headless_chromium():
    with gunicorn() as url:
        with urllib.request.urlopen(url + "/openapi.json") as answer:
            spec = json.load(answer)
        dom = render(url + "/docs", "--dump-dom").stdout
    operations = {(method.upper(), path) for path, item in spec["paths"].items() for method in item}
    shown = set(re.findall(r'data-path="([^"]+)"', dom))
    assert "Unable to render this definition" not in dom and "version field" not in dom
    assert {path for _, path in operations} <= shown, sorted({p for _, p in operations} - shown)
    methods = re.findall(r'opblock-summary-method">(\w+)<', dom)
    assert len(methods) == len(operations), (len(methods), len(operations))
    assert spec["info"]["title"] in dom


def test_screenshot_of_the_docs_page(tmp_path):
    """The README's picture of /docs is made the same way (``--screenshot``)."""
    shot = tmp_path / "docs.png"
    with gunicorn() as url:
        render(url + "/docs", f"--screenshot={shot}", "--window-size=1280,1600")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
