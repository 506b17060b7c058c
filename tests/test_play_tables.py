"""/play's "Play with friends" as people use it: real headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium), four separate browsers at one table of the live site,
started with the Makefile's own `make run` command (the rules and the table host on one origin,
gevent workers).

The first browser opens a Sixty-six table from the setup (in Russian, with a turn timer) and
takes seat 1; the second opens the invitation to seat 2 the first one shows; a third watches with
the spectators' link (in English); a fourth opens the first seat's own link mid-hand and plays
on, and the first is closed. They play the whole hand by clicking; each move is asserted on the
other seat's page, and the spectator's, within a second. The host ends every stream after a few
seconds here (``STREAM_SECONDS``), so the pages reconnect with a new ticket over and over while
they play. It fails on a console error, a failed request, or a key of the table in a URL the
pages requested."""

from __future__ import annotations

import json
import re
import shlex
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, TypeVar

import pytest

from tests.browser import chromium
from tests.live import ROOT, free_port, served

pytestmark = pytest.mark.xdist_group("browser")
"""On one test worker with the other Chromium tests: their load would otherwise fall on the timing tests."""

T = TypeVar("T")
SEEN_WITHIN = 1.0
"""Seconds a move may take to show on the other pages."""
STREAM_SECONDS = 6
"""The host ends each event stream after this long (300 s deployed): the pages reopen theirs."""


def make_run_command() -> list[str]:
    """The recipe of the Makefile's `run` target, as a command line: its environment assignments
    apart, ``$(BIN)`` the venv's bin directory."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^run:.*\n\t(.+)$", makefile, re.M)
    assert recipe, "the Makefile has a run target"
    return shlex.split(recipe.group(1).replace("$(BIN)", str(ROOT / ".venv" / "bin")))


@contextmanager
def site(**env: str) -> Iterator[str]:
    """`make run`'s server on a free port, its tables and replays in a directory of its own;
    yields its URL."""
    with tempfile.TemporaryDirectory() as directory:
        argv = make_run_command()
        assigned = dict(word.split("=", 1) for word in argv if re.match(r"^[A-Z_]+=", word))
        command = [word for word in argv if not re.match(r"^[A-Z_]+=", word)]
        stores = {"TABLE_STORE": f"sqlite:///{directory}/tables.sqlite3",
                  "REPLAY_STORE": f"sqlite:///{directory}/replay.sqlite3"}
        with served(command, free_port(), {**assigned, **stores, **env}) as url:
            yield url


def until(check: Callable[[], T | None], timeout: float, what: str) -> T:
    """``check``'s first answer that is not None, False or an empty list (elements not found yet),
    asked every 20 ms for ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        answer = check()
        if answer is not None and answer is not False and answer != []:
            return answer
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.02)


def table(browser: Any) -> dict[str, str]:
    """What the page says of its table on #table: its seat, state, hand and move number, stream."""
    return dict(browser.execute_script("return {...document.getElementById('table').dataset}"))


def position(browser: Any) -> tuple[int, int] | None:
    data = table(browser)
    if "hand" not in data:
        return None
    return int(data["hand"]), int(data["moveNumber"])


def moves_logged(browser: Any) -> int:
    """The moves in the page's log (a move's events are its lines of one table event)."""
    return int(browser.execute_script(
        "return new Set([...document.querySelectorAll('#log li[data-move]')].map((line) => line.dataset.id)).size"))


def click_a_move(browser: Any) -> None:
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


def played_and_seen(mover: Any, other: Any, watcher: Any, number: int) -> tuple[tuple[int, int], float]:
    """A move clicked on ``mover``'s page, then seen on the other seat's, the spectator's (with no
    move to click there) and the mover's own, each within ``SEEN_WITHIN`` seconds: where the table
    is then, and how long the other seat's page took."""
    from selenium.webdriver.common.by import By

    before, logged = position(other), moves_logged(other)
    click_a_move(mover)
    clicked = time.monotonic()
    after = until(lambda: position(other) != before and position(other), SEEN_WITHIN,
                  f"move {number} on the other seat's page")
    delay = time.monotonic() - clicked
    assert moves_logged(other) > logged, "the move is in the other seat's log"
    until(lambda: position(watcher) == after, SEEN_WITHIN, f"move {number} on the spectator's page")
    assert not watcher.find_elements(By.CSS_SELECTOR, "#hand .card-button:not([disabled]), #moves .move, #away")
    until(lambda: position(mover) == after, SEEN_WITHIN, f"move {number} on the mover's own page")
    return after, delay


def resumed(browser: Any, own: str, at: tuple[int, int]) -> None:
    """The first seat's own link opened on ``browser``: the seat, at the hand's move ``at``."""
    browser.get(own)
    until(lambda: position(browser) == at and table(browser).get("seat") == "0", 15, "the first seat's link")


def link(browser: Any, name: str) -> str:
    from selenium.webdriver.common.by import By

    return until(lambda: next((field.get_attribute("value") for field in
                                browser.find_elements(By.CSS_SELECTOR, f"[data-link='{name}']")), None),
                 15, f"the page's {name} link")


def fragment(url: str) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in url.split("#", 1)[1].split("&"))


def requested(browser: Any) -> list[str]:
    """Every URL the page requested (the performance log read since the last call)."""
    urls = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def checked(browser: Any, keys: set[str]) -> None:
    """No console error, and none of the table's keys in a URL the page requested."""
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors
    leaked = [url for url in requested(browser) for key in keys if key in url]
    assert not leaked, leaked


def test_friends_play_a_whole_hand_of_sixty_six_by_clicking():
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    assert (ROOT / "service" / "play" / "app.js").exists(), "the page is built by `make web`"
    started = time.monotonic()
    with ExitStack() as stack:
        url = stack.enter_context(site(STREAM_SECONDS=str(STREAM_SECONDS)))
        first, second, watcher = (stack.enter_context(chromium()) for _ in range(3))

        # the first person opens a table in Russian, with five minutes a move, and takes seat 1
        first.get(f"{url}/play?lang=ru&game=sixty-six")
        until(lambda: first.find_elements(By.CSS_SELECTOR, "#computer-seats select[data-seat='1']"), 15, "the seats offered")
        assert Select(first.find_element(By.CSS_SELECTOR, "#computer-seats select")).first_selected_option.text == "друг"
        Select(first.find_element(By.ID, "timer")).select_by_value("300")
        first.find_element(By.ID, "create").click()
        invite, watch, own = link(first, "invite-1"), link(first, "watch"), link(first, "seat")
        assert fragment(invite).keys() == {"table", "invite"} and fragment(watch).keys() == {"table", "watch"}
        assert first.execute_script("return location.hash") == "#" + own.split("#", 1)[1]
        assert fragment(own).keys() == {"table", "seat_key"}
        until(lambda: table(first).get("state") in ("your-turn", "waiting"), 15, "the first seat at its table")

        # the second opens the invitation (the table's language, Russian), the third watches in English
        second.get(invite)
        until(lambda: table(second).get("seat") == "1" and table(second).get("stream") == "open", 15, "the second seat")
        seat_link = second.execute_script("return location.hash")
        assert "seat_key=" in seat_link and "invite=" not in seat_link, seat_link
        watcher.get(watch.replace("/play#", "/play?lang=en#"))
        until(lambda: table(watcher).get("state") == "watching", 15, "the spectator's page")
        assert "Место 2" in second.find_element(By.ID, "seats").text
        assert "You are watching" in watcher.find_element(By.ID, "status").text
        keys = {fragment(invite)["invite"], fragment(watch)["watch"], fragment(own)["seat_key"],
                fragment(seat_link)["seat_key"]}

        # they play the hand by clicking; each move is on the other pages within a second
        seats, fourth, moved, clocked, delays = {0: first, 1: second}, None, 0, False, []
        while (position(seats[1]) or (0, 0))[0] == 1:
            mover = until(lambda: next((seat for seat, page in seats.items() if table(page).get("state") == "your-turn"), None),
                          10, "a seat to move")
            other = seats[1 - mover]
            clock = seats[mover].find_element(By.ID, "clock")
            if clock.text:
                clocked = True
                assert 0 < int(clock.get_attribute("data-seconds")) <= 300, clock.text
            after, delay = played_and_seen(seats[mover], other, watcher, moved + 1)
            delays.append(delay)
            moved += 1
            if moved == 5:  # the first seat on another device: its own link; the first browser closes
                fourth = stack.enter_context(chromium())
                resumed(fourth, own, after)
                # the log fills from the stream's replay, a moment after the state shows the move
                until(lambda page=fourth, count=moved: moves_logged(page) == count, 10, "the fourth page's log with the hand's moves")
                checked(first, keys)
                first.get("about:blank")  # the first browser leaves the table
                seats[0] = fourth

        # the hand is over: scored and checked on every page, and the next one dealt
        assert moved >= 12 and position(seats[0])[0] == 2, (moved, position(seats[0]))
        assert clocked, "a seat's clock ran"
        for page in (seats[0], seats[1], watcher):
            until(lambda page=page: page.find_elements(By.CSS_SELECTOR, "#result[data-hand='1'][data-finished]"), 10, "the score")
            result = page.find_element(By.ID, "result")
            assert result.get_attribute("data-finished") == "verified", result.text
            assert page.find_elements(By.CSS_SELECTOR, "#log li[data-event='dealt']"), "the next deal is logged"
        assert "Сдача 1 сыграна" in seats[1].find_element(By.ID, "log").text
        assert "Hand 1 is over" in watcher.find_element(By.ID, "log").text
        for page in (seats[1], watcher):  # there the whole hand: every few seconds the host ends a stream, and the page opens it again
            until(lambda page=page: int(page.find_element(By.TAG_NAME, "body").get_attribute("data-streams") or 0) >= 2,
                  STREAM_SECONDS + 5, "the stream reopened")
        for page in (seats[0], seats[1], watcher):
            checked(page, keys)
        print(f"{moved} moves; each on the other page within {max(delays):.3f} s "
              f"(median {sorted(delays)[len(delays) // 2]:.3f} s); {time.monotonic() - started:.1f} s in all")
