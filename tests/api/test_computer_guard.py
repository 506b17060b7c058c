"""A person's table against the computer player, attacked from the person's own browser, which
holds its seat key and the computer key: with the default configuration of `make run` (the
Dockerfile's gunicorn command, the replay guard on its SQLite file), a saved token cannot be
played again once the hand has moved on, and the computer's move cannot be asked again for
another reply. And the computer's searches are bounded per instance (``SEARCH_SLOTS``): a search
past them is refused at once, never queued."""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from service.errors import ComputerBusy
from service.slots import Slots
from tests.api.test_sealed_games import KEY
from tests.live import gunicorn

SECRET = f"{KEY.id}:{base64.urlsafe_b64encode(KEY.secret).decode()}"


def post(url: str, body: dict[str, Any], request_id: str = "") -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json", **({"X-Request-ID": request_id} if request_id else {})}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def served_ms(log: Path, request_id: str) -> float:
    """The time the service took over the request (its JSON log line), not the client's, which a
    busy machine's scheduling adds to."""
    for line in log.read_text().splitlines():
        if line.startswith("{") and json.loads(line).get("request_id") == request_id:
            return float(json.loads(line)["duration_ms"])
    raise AssertionError(f"no log line for {request_id}")


@pytest.mark.xdist_group("live")
def test_a_saved_token_and_a_computer_reply_cannot_be_played_again_by_default(monkeypatch, tmp_path) -> None:
    for name in [n for n in os.environ if n.startswith(("REPLAY_", "SEARCH_"))]:
        monkeypatch.delenv(name)
    log = tmp_path / "log"
    with gunicorn(STATE_KEYS=SECRET, LOG_LEVEL="INFO", log_path=log) as server:
        base = f"{server}/v1/games/sixty-six/sealed"
        _, hand = post(f"{base}/deal-against-computer", {"seat": 0, "seed": "saved"})
        token, key, computer, to_move = hand["token"], hand["seat_key"], hand["computer_key"], hand["to_move"]
        while True:  # on to a move of the person's that hands the turn to the computer
            if to_move == 1:
                status, moved = post(f"{base}/computer-move", {"token": token, "computer_key": computer})
                assert status == 200, moved
                token, to_move = moved["token"], moved["to_move"]
                continue
            saved = token  # the person's turn: the page saves this token
            listed = post(f"{base}/legal-moves", {"token": saved, "seat_key": key})[1]["moves"]
            status, mine = post(f"{base}/validate", {"token": saved, "seat_key": key, "move": listed[0]})
            assert status == 200 and mine["legal"], mine
            token, to_move = mine["token"], mine["to_move"]
            if to_move == 1:
                break
        asked = {"token": mine["token"], "computer_key": computer, "budget_ms": 250}
        status, reply = post(f"{base}/computer-move", asked)
        assert status == 200, reply

        # Asked again on the same token, with another seed: the reply already made, not a new search.
        for seed in ("another", "and another"):
            status, again = post(f"{base}/computer-move", {**asked, "seed": seed}, request_id=f"again-{len(seed)}")
            assert status == 200, again
            assert again["public_events"] == reply["public_events"] and again["move_number"] == reply["move_number"]
            assert served_ms(log, f"again-{len(seed)}") < 50, "searched again (a search takes its 250 ms)"

        # The person moves on; then the saved token is refused, whatever move it carries.
        if reply["to_move"] == 0:
            listed_now = post(f"{base}/legal-moves", {"token": reply["token"], "seat_key": key})[1]["moves"]
            assert post(f"{base}/validate", {"token": reply["token"], "seat_key": key, "move": listed_now[0]})[0] == 200
        for chosen in listed:
            status, refused = post(f"{base}/validate", {"token": saved, "seat_key": key, "move": chosen})
            assert status == 409 and refused["type"] == "urn:card-rules:problem:replayed", refused

        # The computer's token from before the person's move: refused before any search.
        if reply["to_move"] == 0:
            status, refused = post(f"{base}/computer-move", {**asked, "seed": "fishing"}, request_id="fishing")
            assert status == 409 and refused["type"] == "urn:card-rules:problem:replayed", refused
            assert served_ms(log, "fishing") < 50, "refused after a search (which takes its 250 ms)"
            status, refused = post(f"{base}/suggest", {"token": saved, "seat_key": key, "budget_ms": 250})
            assert status == 409


@pytest.mark.xdist_group("live")
def test_a_search_past_the_slots_is_refused_at_once(tmp_path: Path) -> None:
    """SEARCH_SLOTS=1 over two workers: while one max-budget search runs, another is a 503
    problem with Retry-After, answered at once (no search: a few ms of the service's time), and
    the rules still answer."""
    log = tmp_path / "log"
    with gunicorn(STATE_KEYS=SECRET, SEARCH_SLOTS="1", REPLAY_STORE="off", SUGGEST_MAX_BUDGET_MS="3000",
                  LOG_LEVEL="INFO", log_path=log) as server:
        base = f"{server}/v1/games/bura"
        state = post(f"{base}/deal", {"seed": "slots", "players": 2})[1]["state"]
        seat = post(f"{base}/legal-moves", {"state": state})[1]["to_move"]
        long = threading.Thread(target=post, args=(f"{base}/suggest", {"state": state, "seat": seat,
                                                                       "budget_ms": 3000}))
        long.start()
        time.sleep(0.3)  # the long search has its slot (on a machine busy with other tests too)
        status, busy = post(f"{base}/suggest", {"state": state, "seat": seat, "budget_ms": 250}, request_id="busy")
        rules = post(f"{base}/legal-moves", {"state": state})
        long.join()
    assert status == 503 and busy["type"] == "urn:card-rules:problem:computer-busy", busy
    assert served_ms(log, "busy") < 100  # a few ms on a quiet machine (make soak), up to 52 under make test's load; a search takes 250
    assert rules[0] == 200


def test_slots_are_shared_by_processes_and_freed_when_a_holder_dies(tmp_path: Path) -> None:
    slots = Slots(1, tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", f"""
import sys, time
from pathlib import Path
from service.slots import Slots
with Slots(1, Path({str(tmp_path)!r})).held():
    print("held", flush=True)
    time.sleep(60)
"""], stdout=subprocess.PIPE, cwd=Path(__file__).resolve().parents[2])
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        with pytest.raises(ComputerBusy), slots.held():
            pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    with slots.held() as number:  # the dead holder's lock went with it
        assert number == 0
        with pytest.raises(ComputerBusy), slots.held():  # a second holder in the same process waits for none
            pass
