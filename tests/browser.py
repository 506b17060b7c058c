"""Real headless Chromium for the page's tests (Debian's ``chromium`` and ``chromium-driver``,
driven by Selenium), and what those tests read of it: the table's state, and every answer the
page received, through the DevTools protocol."""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def chromium(*flags: str) -> Iterator[Any]:
    """A headless Chromium session (``flags``: more of Chromium's switches), logging the console
    and the network."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    driver_path = shutil.which("chromedriver")
    assert driver_path, "Debian's chromium-driver is needed: `make test` installs it"
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run",
                 "--window-size=1280,1000", *flags):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.execute_cdp_cmd("Network.enable", {})
    try:
        yield driver
    finally:
        driver.quit()


def table_state(browser: Any) -> str:
    return str(browser.execute_script("return document.getElementById('table').dataset.state || ''"))


def wait(browser: Any, states: set[str], timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while (state := table_state(browser)) not in states:
        assert time.monotonic() < deadline, f"the table stayed {state!r}"
        time.sleep(0.01)
    return state


def responses(browser: Any) -> tuple[list[tuple[str, int]], list[str], dict[str, Any]]:
    """Every response the page received since the last call: (url, status), the failed requests,
    and the bodies of the service's answers by URL order."""
    answered, failed, bodies = [], [], {}
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        method, params = message["method"], message["params"]
        if method == "Network.responseReceived" and "/v1/" in params["response"]["url"]:
            answered.append((params["response"]["url"], params["response"]["status"]))
            try:
                body = browser.execute_cdp_cmd("Network.getResponseBody", {"requestId": params["requestId"]})
                bodies[params["requestId"]] = (params["response"]["url"], json.loads(body["body"]))
            except Exception:  # a body the browser no longer holds: not an answer to check
                pass
        elif method == "Network.loadingFailed":
            failed.append(f"{params.get('errorText')} {params.get('type')}")
    return answered, failed, bodies




CARD_FACES = "svg.card"
"""How the page draws a card: an SVG of class ``card`` (clients/web/src/cards.ts), whose face may show a
rank's code (10♥). The language switch (#language) names the other language in its own words."""


def visible_text(browser: Any) -> str:
    """What a person reads on the page (``document.body.innerText``), without the card faces and
    the language switch."""
    # through the CSSOM, as the page's Content-Security-Policy refuses a <style> put in
    return str(browser.execute_script("""
        const hidden = [...document.querySelectorAll(arguments[0] + ', #language')];
        const kept = hidden.map((node) => node.style.getPropertyValue('display'));
        hidden.forEach((node) => node.style.setProperty('display', 'none', 'important'));
        try { return document.body.innerText; } finally {
          hidden.forEach((node, n) => node.style.setProperty('display', kept[n]));
        }
    """, CARD_FACES))


LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*")
ZERO_BASED = re.compile(r"\b(?:[Мм]ест[оаеу]|[Кк]оманд[аыеу]|[Ss]eat|[Tt]eam) 0\b")


def not_russian(text: str) -> list[str]:
    """What a Russian page must not show: a Latin word (a code, an English word), a seat or a team
    counted from 0, a code's marks (an underscore, a backtick, §), a placeholder left unfilled."""
    found = LATIN.findall(text) + ZERO_BASED.findall(text)
    found += [line for line in text.splitlines() if re.search(r"[_`§{}]", line)]
    return found
