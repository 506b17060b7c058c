"""`make screenshots`: the /play table of every game, at a desktop's size and a phone's (360 px
wide), a few moves into a hand, in docs/play/ (the README shows them); and the builder of a move
the listing answers as a family, for Canasta (desktop) and Bezique (phone), in the positions
tests/test_play_families.py plays. Headless Chromium through Selenium, against the server `make
run` starts, as the page's tests drive it."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By

from service.games.registry import GAMES
from tests.browser import chromium, wait
from tests.kept_tables import STATE_KEYS, family_positions, kept
from tests.live import gunicorn

OUT = Path(__file__).resolve().parent.parent / "docs" / "play"
SIZES = {"desktop": (1280, 900, False), "phone": (360, 780, True)}
MOVES = 3
"""The person's moves before the picture: a hand under way, with a trick or a pile on the table."""


def metrics(driver: Any, size: str, height: int | None = None) -> None:
    width, screen, mobile = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height or screen, "deviceScaleFactor": 1, "mobile": mobile})


def save(driver: Any, size: str, name: str, out: Path = OUT) -> Path:
    """The whole page (up to 2,400 px high)."""
    path = out / f"{name}-{size}.png"
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    metrics(driver, size, min(height, 2400))
    time.sleep(0.3)  # the page laid out again at its new height
    driver.save_screenshot(str(path))
    return path


def shoot(driver: Any, url: str, game_id: str, lang: str, size: str, out: Path = OUT,
          players: int | None = None, check: Callable[[Any], None] | None = None) -> Path:
    """``game_id``'s table a few moves into a hand (``players`` seats, else the game's default),
    saved in ``out`` as ``<game>[-<players>]-<size>.png``; ``check``: called on the page first."""
    metrics(driver, size)
    driver.get(f"{url}/play?lang={lang}")
    driver.execute_script("sessionStorage.clear()")  # the hand of the last picture, unfinished
    seats = "" if players is None else f"&players={players}"
    driver.get(f"{url}/play?lang={lang}&game={game_id}{seats}&budget=50&pause=0")
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
    if check is not None:
        check(driver)
    return save(driver, size, game_id if players is None else f"{game_id}-{players}", out)


def shoot_family(driver: Any, url: str, case: int, size: str) -> Path:
    """The builder, scrolled into view: the page resumes a kept table whose listing has families."""
    game_id, lang, state, _, _ = family_positions()[case]
    metrics(driver, size)
    driver.get(f"{url}/play?lang={lang}")
    table = json.dumps(kept(game_id, state, 1))
    driver.execute_script("sessionStorage.setItem('card-table', arguments[0])", table)
    driver.get(f"{url}/play?lang={lang}&game={game_id}&budget=50&pause=0")
    wait(driver, {"your-turn"})
    driver.execute_script("document.getElementById('families').scrollIntoView()")
    path = OUT / f"{game_id}-family-{size}.png"
    driver.save_screenshot(str(path))
    driver.get("about:blank")
    return path


def shoot_every_game(driver: Any, url: str, out: Path, lang: str = "ru",
                     check: Callable[[Any], None] | None = None) -> list[Path]:
    """Every game's table at every table size, at a desktop's size and a phone's, in ``lang``,
    saved in ``out``; ``check``: called on each page before its picture."""
    return [shoot(driver, url, game_id, lang, size, out, players, check)
            for game_id, game in GAMES.items() for players in game.info.player_counts for size in SIZES]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with chromium("--hide-scrollbars") as driver, gunicorn(STATE_KEYS=STATE_KEYS, REPLAY_STORE="off") as url:
        shots = [shoot(driver, url, game_id, "ru" if (n + (size == "phone")) % 2 else "en", size)
                 for n, game_id in enumerate(GAMES) for size in SIZES]
        shots += [shoot_family(driver, url, 0, "desktop"), shoot_family(driver, url, 1, "phone")]
    for shot in shots:
        print(shot.relative_to(OUT.parent.parent), file=sys.stderr)


if __name__ == "__main__":
    main()
