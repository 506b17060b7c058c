"""`make screenshots`: the /play table of every game, at a desktop's size and a phone's (360 px
wide), a few moves into a hand, in docs/play/ (the README shows them). Headless Chromium through
Selenium, against the server `make run` starts, as tests/test_play_page.py drives it."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from service.games import GAMES
from tests.live import gunicorn

OUT = Path(__file__).resolve().parent.parent / "docs" / "play"
SIZES = {"desktop": (1280, 900, False), "phone": (360, 780, True)}
MOVES = 3
"""The person's moves before the picture: a hand under way, with a trick or a pile on the table."""


def browser() -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--hide-scrollbars", "--window-size=1280,900"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "chromedriver"))


STATE = "return document.getElementById('table').dataset.state || ''"


def wait(driver: Any, states: set[str]) -> str:
    deadline = time.monotonic() + 60
    while (state := driver.execute_script(STATE)) not in states:
        if time.monotonic() > deadline:
            raise TimeoutError(state)
        time.sleep(0.05)
    return str(state)


def shoot(driver: Any, url: str, game_id: str, lang: str, size: str) -> Path:
    width, height, mobile = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.get(f"{url}/play?lang={lang}&game={game_id}&budget=50&pause=0")
    while not driver.execute_script("return document.querySelectorAll('#players option').length"):
        time.sleep(0.05)
    driver.find_element(By.ID, "deal").click()
    for _ in range(MOVES):
        if wait(driver, {"your-turn", "over"}) == "over":
            break
        cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card-button:not([disabled])")
        (cards or driver.find_elements(By.CSS_SELECTOR, "#moves .move"))[0].click()
        if cards and driver.find_elements(By.CSS_SELECTOR, "#hand [aria-pressed=true]"):  # its moves offered
            driver.find_elements(By.CSS_SELECTOR, "#moves .move")[0].click()
    wait(driver, {"your-turn", "over"})
    path = OUT / f"{game_id}-{size}.png"
    full = min(int(driver.execute_script("return document.documentElement.scrollHeight")), 2400)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": full, "deviceScaleFactor": 1, "mobile": mobile})
    driver.save_screenshot(str(path))
    return path


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    driver = browser()
    try:
        with gunicorn() as url:
            for n, game_id in enumerate(GAMES):
                for size in SIZES:
                    lang = "ru" if (n + (size == "phone")) % 2 else "en"
                    shot = shoot(driver, url, game_id, lang, size)
                    print(shot.relative_to(OUT.parent.parent), file=sys.stderr)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
