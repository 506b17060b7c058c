"""The README's walk-through, run as written: examples/play_hand.py plays a whole hand of every
game against the live server and prints the score; and with no server, each example says so in one
line, not a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from service.games.registry import GAMES
from tests.live import ROOT, free_port, gunicorn

pytestmark = pytest.mark.xdist_group("live")


def example(script: str, url: str, game_id: str) -> list[str]:
    run = subprocess.run([sys.executable, f"examples/{script}", "--url", url, "--game", game_id],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_the_walk_through_plays_a_whole_hand_of_every_game_and_prints_the_score():
    with gunicorn() as url:
        for game_id in sorted(GAMES):
            lines = example("play_hand.py", url, game_id)
            assert lines[0].startswith(f"dealt {game_id}") and "hand over after" in lines[-3]
            hand = json.loads(lines[-2].removeprefix("hand: "))
            match = json.loads(lines[-1].removeprefix("match: "))
            assert hand and match, lines


def test_the_sealed_walk_through_plays_and_verifies_a_hand_of_every_game():
    with gunicorn() as url:
        for game_id in sorted(GAMES):
            lines = example("sealed_hand.py", url, game_id)
            assert lines[0].startswith(f"dealt a sealed {game_id} hand"), lines
            assert lines[-1].startswith("verified: SHA-256(server_seed) is the commitment"), lines


def test_a_person_plays_a_hand_against_the_computer_player():
    """examples/against_computer.py with no one typing: seat 0 takes every hint."""
    with gunicorn() as url:
        for game_id in sorted(GAMES):
            run = subprocess.run([sys.executable, "examples/against_computer.py", "--url", url, "--game", game_id,
                                  "--budget-ms", "5"], capture_output=True, text=True, timeout=300, cwd=ROOT,
                                 stdin=subprocess.DEVNULL)
            assert run.returncode == 0, run.stderr
            lines = run.stdout.splitlines()
            assert lines[0].startswith(f"dealt a sealed {game_id} hand"), lines
            assert "<- hint" in run.stdout and lines[-2].startswith("hand over after"), lines[-3:]
            assert json.loads(lines[-1].removeprefix("hand: "))


@pytest.mark.parametrize("script", ["play_hand.py", "sealed_hand.py", "against_computer.py"])
def test_an_example_with_nothing_listening_says_so_in_one_line(script):
    """A new user runs an example before `make run`, or at the wrong port: one line naming the
    address, `make run` and --url, status 1, and no traceback."""
    url = f"http://127.0.0.1:{free_port()}"
    run = subprocess.run([sys.executable, f"examples/{script}", "--url", url], capture_output=True, text=True,
                         timeout=60, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert run.returncode == 1, run.stderr
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        f"nothing answers at {url}: start the service with `make run`, or pass --url"], run.stderr
    # The README runs it, and its examples paragraph names --url.
    readme = (ROOT / "README.md").read_text()
    assert f"python3 examples/{script}" in readme
    walk_through = readme[readme.index("## Play a whole hand"):]
    assert "`--url" in walk_through[:walk_through.index("\n## ")]
