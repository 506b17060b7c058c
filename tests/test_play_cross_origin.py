"""/play hosted on another origin than the service's, as an integrator may host it: nginx serves
the built page (service/play/) with its own Content-Security-Policy, whose ``connect-src`` names
the service's origin, and the service allows that origin (``CORS_ORIGINS``). Real headless
Chromium plays a whole hand there by clicking, every call cross-origin (JSON bodies, so every
POST is preflighted). The same page on an origin the service does not allow gets no answer the
browser lets it read, and says so."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.browser import chromium, responses, wait
from tests.live import ROOT, free_port, gunicorn, nginx_binary, stop_nginx

pytestmark = pytest.mark.xdist_group("browser")

PAGE = ROOT / "service" / "play"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src {api}; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


@contextmanager
def static_host(port: int, api: str) -> Iterator[str]:
    """nginx serving the built page at /play/ on loopback ``port``, with the CSP a host of the
    page sets: scripts and styles from itself, calls to the service at ``api`` only."""
    assert (PAGE / "index.html").exists(), "`make web` builds the page"
    with tempfile.TemporaryDirectory() as prefix:
        Path(prefix, "nginx.conf").write_text(f"""
events {{}}
http {{
  types {{ text/html html; text/css css; text/javascript js; image/svg+xml svg; }}
  access_log off;
  server {{
    listen 127.0.0.1:{port};
    location /play/ {{
      alias {PAGE}/;
      add_header Content-Security-Policy "{CSP.format(api=api)}" always;
      add_header X-Content-Type-Options nosniff always;
    }}
  }}
}}
""")
        user = "user root;" if os.geteuid() == 0 else ""
        process = subprocess.Popen([nginx_binary(), "-p", prefix, "-c", "nginx.conf", "-g",
                                    f"daemon off; {user} pid {prefix}/nginx.pid; error_log {prefix}/error.log;"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 15
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/play/index.html", timeout=1):
                        break
                except OSError:
                    assert process.poll() is None and time.monotonic() < deadline, "nginx did not start"
                    time.sleep(0.05)
            yield url
        finally:
            stop_nginx(process)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def hosts() -> Iterator[tuple[str, str, str]]:
    """The service, a host of the page it allows, and one it does not."""
    allowed, other = free_port(), free_port()
    with (gunicorn(CORS_ORIGINS=f"http://127.0.0.1:{allowed}") as api,
          static_host(allowed, api) as page, static_host(other, api) as elsewhere):
        yield api, page, elsewhere


def test_a_hand_is_played_from_a_page_on_another_origin(browser, hosts):
    from selenium.webdriver.common.by import By

    api, page, _ = hosts
    browser.get(f"{page}/play/index.html?api={api}&lang=ru&game=sixty-six&budget=1&pause=0")
    deadline = time.monotonic() + 30
    while not browser.execute_script("return document.querySelectorAll('#players option').length"):
        assert time.monotonic() < deadline, browser.find_element(By.ID, "refusal").text
        time.sleep(0.05)
    browser.find_element(By.ID, "deal").click()
    while wait(browser, {"your-turn", "over"}) == "your-turn":
        playable = browser.find_elements(By.CSS_SELECTOR, "#hand .card-button:not([disabled])")
        (playable or browser.find_elements(By.CSS_SELECTOR, "#moves .move"))[0].click()
        if browser.find_elements(By.CSS_SELECTOR, "#hand [aria-pressed=true]"):
            browser.find_elements(By.CSS_SELECTOR, "#moves .move")[0].click()
    result = browser.find_element(By.ID, "result")
    assert result.get_attribute("data-finished") == "verified", result.text
    answered, failed, _ = responses(browser)
    assert answered and all(url.startswith(api) for url, _ in answered)
    assert not failed and all(status == 200 for _, status in answered), (failed, answered)
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def test_a_page_on_an_origin_the_service_does_not_allow_reads_no_answer(browser, hosts):
    from selenium.webdriver.common.by import By

    api, _, elsewhere = hosts
    browser.get(f"{elsewhere}/play/index.html?api={api}&lang=en")
    deadline = time.monotonic() + 30
    while not browser.find_element(By.ID, "refusal").text:
        assert time.monotonic() < deadline, "the page said nothing"
        time.sleep(0.05)
    assert "The service did not answer as expected" in browser.find_element(By.ID, "refusal").text
    assert not browser.execute_script("return document.querySelectorAll('#game option').length")
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert any("CORS" in message for message in errors), errors
