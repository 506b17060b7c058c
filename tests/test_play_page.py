"""/play as a person uses it: real headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
driven by Selenium) plays a whole hand of every game at every table size by clicking the page,
in English and in Russian, against the live server. It fails on a console error, a failed
request, or a card of another seat in what the page received before the score.

Each game is played in both languages: its table sizes alternate between them, and a game with
one table size is played twice. With ``pause=0`` the page fast-forwards the computer's moves: each
is logged, and the table drawn once the person is to move."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from service.cards import CARDS
from service.games.registry import GAMES
from tests.browser import chromium, not_russian, responses, table_state, visible_text, wait
from tests.live import gunicorn
from tools.screenshots import SIZES, shoot_every_game

pytestmark = pytest.mark.xdist_group("browser")
"""The hands on one test worker: Chromium's load would otherwise fall on the timing tests of both."""


def _tables() -> list[tuple[str, int, str]]:
    tables = []
    for game_id, game in GAMES.items():
        sizes = list(game.info.player_counts)
        langs = ["en", "ru"] * len(sizes)
        if len(sizes) == 1:
            sizes = sizes * 2
        tables += [(game_id, players, langs[n]) for n, players in enumerate(sizes)]
    return tables


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with gunicorn() as url:
        yield url


def _click_a_move(browser: Any) -> None:
    """What a person does: click a card that can be played (and the first of its moves, if it
    has several), else the first move offered."""
    from selenium.webdriver.common.by import By

    cards = browser.find_elements(By.CSS_SELECTOR, "#hand .card-button:not([disabled])")
    if not cards:
        browser.find_elements(By.CSS_SELECTOR, "#moves .move")[0].click()
        return
    cards[0].click()
    if browser.find_elements(By.CSS_SELECTOR, "#hand [aria-pressed=true]"):  # its moves are offered
        browser.find_elements(By.CSS_SELECTOR, "#moves .move")[0].click()


def _codes(value: Any) -> set[str]:
    found, pending = set(), [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str) and item in CARDS:
            found.add(item)
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(v for k, v in item.items() if k not in ("options", "card_names", "card_values",
                                                                   "deck_cards", "deck"))
    return found


@pytest.mark.parametrize(("game_id", "players", "lang"), _tables())
def test_a_person_plays_a_whole_hand_by_clicking(browser, server, game_id, players, lang):
    from selenium.webdriver.common.by import By

    browser.get(f"{server}/play?lang={lang}&game={game_id}&players={players}&budget=1&pause=0")
    responses(browser)  # the page's own files and the game's description
    _wait_for_deal_button(browser)
    if lang == "ru":
        _speaks_russian(browser, "the setup")
    browser.find_element(By.ID, "deal").click()
    for n in range(2000):
        if wait(browser, {"your-turn", "over"}) == "over":
            break
        if lang == "ru" and n % 5 == 0:
            _speaks_russian(browser, f"move {n}")
        _click_a_move(browser)
    assert table_state(browser) == "over"
    if lang == "ru":
        _speaks_russian(browser, "the hand's end")
    result = browser.find_element(By.ID, "result")
    assert result.get_attribute("data-finished") == "verified", result.text
    answered, failed, bodies = responses(browser)
    assert not failed and all(status == 200 for _, status in answered), (failed, [a for a in answered if a[1] != 200])
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    _no_other_seats_cards(server, game_id, bodies)
    text = browser.find_element(By.TAG_NAME, "body").text
    assert ("Ваш ход" in text or "Игра окончена" in text) if lang == "ru" else "The hand is over" in text


def _speaks_russian(browser: Any, when: str) -> None:
    """The page in Russian: no Latin word outside the card faces, no seat or team counted from 0;
    the log (once it has lines) written in the service's sentences, the table's seats named."""
    from selenium.webdriver.common.by import By

    text = visible_text(browser)
    assert not not_russian(text), (when, not_russian(text), text[:3000])
    assert "Место 0" not in text and "Команда 0" not in text
    lines = browser.find_elements(By.CSS_SELECTOR, "#log li")
    assert all(line.text.strip() for line in lines), f"{when}: a log line without its sentence"


def test_every_game_in_russian_at_desktop_and_phone_width(browser, server, tmp_path):
    """Screenshots of every game at every table size, in Russian, at a desktop's width and a
    phone's (tools/screenshots.py, saved under a temporary directory): each page speaks Russian,
    places every seat around the table once (the person at the bottom) and fits the phone's width."""
    checked: list[str] = []

    def check(driver: Any) -> None:
        _speaks_russian(driver, driver.current_url)
        places = driver.execute_script(
            "return [...document.querySelectorAll('#felt > .seat')].map((seat) => seat.dataset.place)")
        players = int(driver.execute_script("return document.getElementById('felt').dataset.seats"))
        assert len(places) == players == len(set(places)) and "b" in places, places
        mine = driver.execute_script("return document.querySelector('#felt > .seat.mine')?.dataset.place")
        assert mine == "b", mine
        width = driver.execute_script("return window.innerWidth")
        wide = driver.execute_script("return document.documentElement.scrollWidth")
        assert wide <= width, f"{driver.current_url}: {wide} px wide at {width} px"
        checked.append(driver.current_url)

    shots = shoot_every_game(browser, server, tmp_path, "ru", check)
    expected = sum(len(game.info.player_counts) for game in GAMES.values()) * len(SIZES)
    assert len(shots) == len(checked) == expected
    assert all(shot.stat().st_size > 10_000 for shot in shots), shots
    print(f"{len(shots)} screenshots in {tmp_path}")


def _wait_for_deal_button(browser: Any) -> None:
    deadline = time.monotonic() + 30
    while not browser.execute_script("return document.querySelectorAll('#players option').length"):
        assert time.monotonic() < deadline, "the page did not load the game"
        time.sleep(0.05)


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def _no_other_seats_cards(server: str, game_id: str, bodies: dict[str, Any]) -> None:
    """Before the score, the page received its own cards, the cards every seat saw, and the cards
    that came to its seat: never another card dealt to another seat."""
    answers = list(bodies.values())
    path = lambda url: url.split("?")[0]  # noqa: E731
    scored = next(body for url, body in answers if path(url).endswith("/sealed/score"))
    dealt = next(body for url, body in answers if path(url).endswith("/deal-against-computer"))
    moved = [body["token"] for url, body in answers
             if path(url).endswith(("/sealed/validate", "/sealed/computer-move")) and "token" in body]
    final = moved[-1] if moved else dealt["token"]  # a hand the deal ends (a bura dealt) has no move
    seat, start = dealt["seat"], scored["record"]["start"]
    base = f"{server}/v1/games/{game_id}/sealed/events"
    public = _codes(_post(base, {"token": final, "since": 0}))
    own = _post(base, {"token": final, "seat_key": dealt["seat_key"], "since": 0})
    came = set().union(*(_codes(event) for move in own["moves"] for event in move["events"]
                         if seat in (event.get("seat"), event.get("to"))))
    others = {code for other, hand in enumerate(start["hands"]) if other != seat for code in hand}
    received = set().union(*(_codes(body) for url, body in answers
                             if not path(url).endswith(("/sealed/score", "/score"))))
    leaked = (received & others) - set(start["hands"][seat]) - public - came
    assert not leaked, f"cards of other seats reached the page: {sorted(leaked)}"
