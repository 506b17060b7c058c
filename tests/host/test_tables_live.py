"""The host under gunicorn's gevent workers, as deployed, on the embedded store and on a real
redis-server: racing moves, events on every seat's stream (from the other worker too), a stream
resumed with ``Last-Event-ID``, and a host restarted mid-hand."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.host.live import Stream, call, host_server, opened
from tests.live import free_port


@pytest.fixture(scope="module")
def url(store: str) -> Iterator[str]:
    with host_server(store, HEARTBEAT_SECONDS="0.5") as url:
        yield url


def table_of(url: str, table_id: str, key: str | None) -> dict[str, Any]:
    status, table = call(url, "GET", f"/v1/tables/{table_id}", key=key)
    assert status == 200, table
    return table


def test_of_two_racing_moves_on_one_move_number_exactly_one_plays(url: str) -> None:
    """100 races: the seat to move sends two different legal moves at once, each on its own
    connection (so gunicorn may give them to either worker); one is played, the other is a 409
    naming the move number the hand is at."""
    table_id, keys, _ = opened(url, "sixty-six")
    races = 0
    while races < 100:
        table = table_of(url, table_id, keys[0])
        mover = keys[table["to_move"]]
        moves = table_of(url, table_id, mover)["moves"]
        number = table["move_number"]
        if len(moves) < 2:
            assert call(url, "POST", f"/v1/tables/{table_id}/moves", {"move": moves[0], "move_number": number},
                        mover)[0] == 200
            continue
        answers: list[tuple[int, Any]] = []
        start = threading.Barrier(2)
        racers = [threading.Thread(target=race, args=(start, answers, url, table_id, mover,
                                                      {"move": move, "move_number": number}))
                  for move in moves[:2]]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
        statuses = sorted(status for status, _ in answers)
        assert statuses == [200, 409], answers
        refused = next(body for status, body in answers if status == 409)
        assert refused["errors"][0]["pointer"] == "/move_number"
        races += 1


def race(start: threading.Barrier, answers: list[tuple[int, Any]], url: str, table_id: str, key: str | None,
         body: Any) -> None:
    start.wait()
    answers.append(call(url, "POST", f"/v1/tables/{table_id}/moves", body, key))


def test_every_seat_hears_a_move_on_its_stream_within_a_second(url: str) -> None:
    table_id, keys, spectator = opened(url, "bura", players=3)
    streams = {seat: Stream(url, table_id, key) for seat, key in [*enumerate(keys), (None, spectator)]}
    for stream in streams.values():
        stream.drained(0.2)
    try:
        for _ in range(6):
            table = table_of(url, table_id, keys[0])
            mover = table["to_move"]
            move = table_of(url, table_id, keys[mover])["moves"][0]
            sent = time.monotonic()
            status, played = call(url, "POST", f"/v1/tables/{table_id}/moves",
                                  {"move": move, "move_number": table["move_number"]}, keys[mover])
            assert status == 200 and played["legal"]
            for seat, stream in streams.items():
                arrived, event = stream.until("move", timeout=1.0)
                assert event["seat"] == mover and event["move_number"] == played["move_number"]
                assert arrived - sent < 1.0, (seat, arrived - sent)
                if seat is not None and seat != mover:
                    hidden = [e for e in event["events"] if e["type"] == "card_drawn" and e["seat"] != seat]
                    assert all("cards" not in e for e in hidden)
        assert all(stream.comments > 0 for stream in streams.values())  # heartbeats every 0.5 s
    finally:
        for stream in streams.values():
            stream.close()


def test_a_stream_reopened_with_last_event_id_gets_exactly_what_followed(url: str) -> None:
    table_id, keys, spectator = opened(url, "sixty-six", computer_seats=[1], computer_level=1)
    first = Stream(url, table_id, spectator)
    heard = first.drained(0.5)
    first.close()
    for _ in range(4):
        table = table_of(url, table_id, keys[0])
        if table["to_move"] == 0 and table["moves"]:
            call(url, "POST", f"/v1/tables/{table_id}/moves", {"move": table["moves"][0],
                                                              "move_number": table["move_number"]}, keys[0])
        time.sleep(0.2)
    again = Stream(url, table_id, spectator, after=heard[-1]["id"])
    rest = again.drained(0.5)
    again.close()
    everything = Stream(url, table_id, spectator)
    whole = everything.drained(0.5)
    everything.close()
    assert rest and [e["id"] for e in rest] == list(range(heard[-1]["id"] + 1, rest[-1]["id"] + 1))
    assert whole[:len(heard)] == heard and whole[len(heard):len(heard) + len(rest)] == rest


def test_a_host_restarted_mid_hand_loses_nothing(store: str) -> None:
    port = free_port()
    with host_server(store, port=port) as url:
        table_id, keys, spectator = opened(url, "kozel-bura", players=2)
        for _ in range(3):
            table = table_of(url, table_id, keys[0])
            key = keys[table["to_move"]]
            move = table_of(url, table_id, key)["moves"][0]
            assert call(url, "POST", f"/v1/tables/{table_id}/moves", {"move": move,
                                                                      "move_number": table["move_number"]}, key)[0] == 200
        before = {seat: table_of(url, table_id, key) for seat, key in enumerate(keys)}
        stream = Stream(url, table_id, spectator)
        heard = stream.drained(0.3)
        stream.close()
    with host_server(store, port=port) as url:
        after = {seat: table_of(url, table_id, key) for seat, key in enumerate(keys)}
        for seat in after:
            same = {k: v for k, v in after[seat].items() if k not in ("seats", "last_event_id")}
            assert same == {k: v for k, v in before[seat].items() if k not in ("seats", "last_event_id")}
        table = after[0]
        key = keys[table["to_move"]]
        move = after[table["to_move"]]["moves"][0]
        status, played = call(url, "POST", f"/v1/tables/{table_id}/moves", {"move": move,
                                                                           "move_number": table["move_number"]}, key)
        # the move after the one the table stood at, or the one that ended the hand (a bura, a
        # claim) and dealt the next: the deal is random, and a hand may end within three moves
        assert status == 200 and played["legal"], played
        hand, number = table["hand_number"], table["move_number"]
        assert (played["hand_number"], played["move_number"]) in ((hand, number + 1), (hand + 1, 0)), played
        resumed = Stream(url, table_id, spectator, after=heard[-1]["id"])
        rest = resumed.drained(0.3)
        resumed.close()
        assert [e["type"] for e in rest if e["type"] == "move"] == ["move"]
        assert rest[0]["id"] == heard[-1]["id"] + 1


def test_a_seat_holds_at_most_its_streams_and_is_connected_while_it_does(url: str) -> None:
    table_id, keys, _ = opened(url, "sixty-six")
    streams = [Stream(url, table_id, keys[1]) for _ in range(4)]
    try:
        status, refused = call(url, "GET", f"/v1/tables/{table_id}/events", key=keys[1])
        assert status == 429 and refused["limit"] == {"name": "STREAMS_PER_SEAT", "value": 4}
        assert [s["connected"] for s in table_of(url, table_id, keys[0])["seats"]] == [False, True]
    finally:
        for stream in streams:
            stream.close()
    deadline = time.monotonic() + 5  # a closed stream is counted out at its next write (a heartbeat)
    while table_of(url, table_id, keys[0])["seats"][1]["connected"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    again = Stream(url, table_id, keys[1])
    kinds = [e["type"] for e in again.drained(0.5)]
    again.close()
    assert kinds.count("connected") == 1 and kinds.count("left") == 1 and kinds[-1] == "reconnected"
