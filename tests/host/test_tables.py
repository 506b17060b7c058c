"""The table host in process (Flask's test client, the SQLite store in a temporary directory,
the croupier's thread running): the contract of /v1/tables, its refusals, the computer's and
the timer's moves, whole matches, and what each seat's stream tells it."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections import Counter
from typing import Any

import orjson
import pytest

from host import create_app
from host.settings import HostSettings
from host.store.sqlite import SqliteTables
from service import create_app as create_rules
from service.api.events import told
from service.games.registry import GAMES
from service.sealing import commitment, shuffle_seed
from tests.russian import english_in

TABLES = [(game, players) for game in sorted(GAMES) for players in GAMES[game].info.player_counts]
CODE = __import__("re").compile(rb'"((?:10|[2-9JQKA])[SHDC]|JK|RJ|BJ)"')
CYRILLIC = __import__("re").compile("[а-яё]", __import__("re").IGNORECASE)


def settings(store: str, **changes: Any) -> HostSettings:
    return HostSettings(table_store=store, stream_seconds=0, heartbeat_seconds=0.2, tables_per_minute=10_000,
                        **changes)


@pytest.fixture(scope="module")
def client(store: str) -> Any:
    return create_app(settings(store)).test_client()


@pytest.fixture(scope="module")
def sqlite_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return create_app(settings("sqlite:///" + str(tmp_path_factory.mktemp("t") / "t.sqlite3"))).test_client()


@pytest.fixture(scope="module")
def rules() -> Any:
    return create_rules().test_client()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def problem(answer: Any, status: int, pointer: str | None = None) -> dict[str, Any]:
    assert answer.status_code == status, answer.get_data()
    assert answer.content_type == "application/problem+json"
    body: dict[str, Any] = answer.json
    if pointer is not None:
        assert pointer in [e["pointer"] for e in body.get("errors", [])], body
    return body


def opened(client: Any, game: str = "sixty-six", **body: Any) -> tuple[str, list[str], str]:
    """A table opened and every human seat joined: its id, the seat keys (None for the
    computer's seats) and the spectators' key."""
    answer = client.post("/v1/tables", json={"game": game, **body})
    assert answer.status_code == 201, answer.json
    table_id, keys = answer.json["table_id"], [None] * answer.json["players"]
    for invite in answer.json["invites"]:
        joined = client.post(f"/v1/tables/{table_id}/join", json={"invite": invite["invite"]})
        assert joined.status_code == 200 and joined.json["seat"] == invite["seat"]
        keys[invite["seat"]] = joined.json["seat_key"]
    return table_id, keys, answer.json["spectator_key"]


def stream(client: Any, table_id: str, key: str, after: int = 0) -> list[dict[str, Any]]:
    """The events a stream tells ``key``'s reader after ``after`` (the test's streams end once
    they have told what there is: ``stream_seconds=0``)."""
    answer = client.get(f"/v1/tables/{table_id}/events", headers={**bearer(key), "Last-Event-ID": str(after)})
    assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
    events, ids = [], []
    for block in answer.get_data().split(b"\n\n"):
        lines = dict(line.split(b": ", 1) for line in block.split(b"\n") if b": " in line and line[:1] != b":")
        if b"data" in lines:
            event = orjson.loads(lines[b"data"])
            ids.append(int(lines[b"id"]))
            assert event["id"] == ids[-1]
            events.append(event)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    return events


def play_out(client: Any, table_id: str, keys: list[str | None], rng: random.Random, *, hands: int = 1,
             spectator: str | None = None) -> None:
    """Random legal moves of the seats with keys until ``hands`` hands are over (the computer
    plays its seats meanwhile)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for key in keys:
            if key is None:
                continue
            table = client.get(f"/v1/tables/{table_id}", headers=bearer(key)).json
            if table["over"] or table["hand_number"] > hands:
                return
            if table["to_move"] == table["seat"] and table["moves"]:
                move = rng.choice(table["moves"])
                played = client.post(f"/v1/tables/{table_id}/moves", headers=bearer(key),
                                     json={"move": move, "move_number": table["move_number"]})
                assert played.status_code in (200, 409), played.json  # 409: the computer moved first
                if played.status_code == 200:
                    assert played.json["legal"], played.json
        time.sleep(0.001)
    raise AssertionError("the hands did not end")


def test_a_table_is_opened_joined_once_and_read_by_each_seat(client: Any) -> None:
    answer = client.post("/v1/tables", json={"game": "sixty-six", "computer_seats": []})
    assert answer.status_code == 201
    body = answer.json
    assert [i["seat"] for i in body["invites"]] == [0, 1]
    assert len({body["table_id"], body["spectator_key"], *(i["invite"] for i in body["invites"])}) == 4
    table_id, invite = body["table_id"], body["invites"][1]["invite"]
    joined = client.post(f"/v1/tables/{table_id}/join", json={"invite": invite}).json
    assert joined["seat"] == 1 and len(joined["seat_key"]) >= 22
    problem(client.post(f"/v1/tables/{table_id}/join", json={"invite": invite}), 409, "/invite")
    seat = client.get(f"/v1/tables/{table_id}", headers=bearer(joined["seat_key"])).json
    assert seat["seat"] == 1 and seat["view"]["seat"] == 1 and seat["move_number"] == 0
    assert [s["joined"] for s in seat["seats"]] == [False, True]
    watcher = client.get(f"/v1/tables/{table_id}", headers=bearer(body["spectator_key"])).json
    assert watcher["seat"] is None and watcher["moves"] == []
    hidden = watcher["view"]
    assert all(h is None or isinstance(h, int) for h in [hidden.get("hand")])
    assert joined["seat_key"].encode() not in orjson.dumps(watcher)


@pytest.mark.parametrize(("body", "pointer", "status"), [
    ({"game": "whist"}, "/game", 422),
    ({"game": "sixty-six", "players": 5}, "/players", 422),
    ({"game": "sixty-six", "players": "two"}, "/players", 422),
    ({"game": "sixty-six", "options": {"nonsense": 1}}, "/options/nonsense", 422),
    ({"game": "bura", "players": 3, "computer_seats": [0, 0]}, "/computer_seats", 422),
    ({"game": "bura", "players": 2, "computer_seats": [2]}, "/computer_seats", 422),
    ({"game": "bura", "players": 2, "computer_seats": [0, 1]}, "/computer_seats", 422),
    ({"game": "bura", "computer_level": 9}, "/computer_level", 422),
    ({"game": "bura", "turn_seconds": 1}, "/turn_seconds", 422),
    ({"game": "bura", "lang": "de"}, "/lang", 422),
    ({"players": 2}, "/game", 422),
    ({"game": "bura", "extra": True}, "/extra", 422),
])
def test_a_table_that_cannot_be_opened_is_refused_by_field(sqlite_client: Any, body: Any, pointer: str, status: int) -> None:
    client = sqlite_client  # the request's checks are the host's, not its store's
    problem(client.post("/v1/tables", json=body), status, pointer)


def test_malformed_bodies_and_keys_are_problems(sqlite_client: Any) -> None:
    client = sqlite_client  # the request's checks are the host's, not its store's
    problem(client.post("/v1/tables", data=b"{not json", content_type="application/json"), 400)
    problem(client.post("/v1/tables", json=[1, 2]), 422, "/")
    table_id, keys, spectator = opened(client)
    problem(client.get(f"/v1/tables/{table_id}"), 401)
    problem(client.get(f"/v1/tables/{table_id}", headers=bearer("x" * 22)), 401)
    problem(client.get(f"/v1/tables/{table_id}", headers={"Authorization": "Basic abc"}), 401)
    problem(client.get("/v1/tables/nope", headers=bearer(keys[0])), 404)
    problem(client.post(f"/v1/tables/{table_id}/join", json={"invite": ""}), 422, "/invite")
    table = client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).json
    mover = keys[table["to_move"]]
    other = keys[1 - table["to_move"]]
    hand = client.get(f"/v1/tables/{table_id}", headers=bearer(mover)).json
    move = hand["moves"][0]
    moving = f"/v1/tables/{table_id}/moves"
    problem(client.post(moving, headers=bearer(spectator), json={"move": move, "move_number": 0}), 403)
    problem(client.post(moving, headers=bearer(other), json={"move": move, "move_number": 0}), 409, "/move")
    problem(client.post(moving, headers=bearer(mover), json={"move": move, "move_number": 3}), 409, "/move_number")
    problem(client.post(moving, headers=bearer(mover), json={"move": {"type": "fly"}, "move_number": 0}), 422,
            "/move/type")
    problem(client.post(moving, headers=bearer(mover), json={"move": {"type": "play", "cards": ["ZZ"]},
                                                              "move_number": 0}), 422, "/move/cards")
    problem(client.post(moving, headers=bearer(mover), json={"move": move, "move_number": -1}), 422,
            "/move_number")
    illegal = {"type": "play", "cards": [c for c in ["AS", "AH", "AD", "AC", "10S", "10H"]
                                         if c not in hand["view"]["hand"]][:1]}
    refused = client.post(moving, headers=bearer(mover), json={"move": illegal, "move_number": 0})
    assert refused.status_code == 200 and refused.json["legal"] is False and refused.json["reason"]["code"]
    problem(client.get(f"/v1/tables/{table_id}/events?ticket=0.1.abc"), 401)
    problem(client.get(f"/v1/tables/{table_id}/events", headers={**bearer(mover), "Last-Event-ID": "x"}), 422,
            "/last_event_id")


def test_a_stale_move_names_the_current_move_number(client: Any) -> None:
    table_id, keys, _ = opened(client)
    table = client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).json
    key = keys[table["to_move"]]
    move = client.get(f"/v1/tables/{table_id}", headers=bearer(key)).json["moves"][0]
    first = client.post(f"/v1/tables/{table_id}/moves", headers=bearer(key), json={"move": move, "move_number": 0})
    assert first.status_code == 200 and first.json["move_number"] == 1
    again = problem(client.post(f"/v1/tables/{table_id}/moves", headers=bearer(key),
                                json={"move": move, "move_number": 0}), 409, "/move_number")
    assert "1" in again["detail"]


def test_a_kozel_table_of_two_people_and_two_computer_seats_plays_its_match_to_the_end(client: Any) -> None:
    table_id, keys, spectator = opened(client, "kozel", players=4, computer_seats=[1, 3], computer_level=1)
    play_out(client, table_id, keys, random.Random("kozel"), hands=1000)
    table = client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).json
    assert table["over"] and table["match"]["over"] and table["to_move"] is None
    events = stream(client, table_id, spectator)
    kinds = Counter(e["type"] for e in events)
    assert kinds["match_over"] == 1 and kinds["hand_over"] == kinds["dealt"] == table["hand_number"]
    computer = {e["by"] for e in events if e["type"] == "move" and e["seat"] in (1, 3)}
    assert computer == {"computer"}
    problem(client.post(f"/v1/tables/{table_id}/moves", headers=bearer(keys[0]),
                        json={"move": {"type": "play", "cards": ["AS"]}, "move_number": table["move_number"]}),
            409)


def test_every_hand_record_is_verified_by_the_rules_open_score(client: Any, rules: Any) -> None:
    table_id, keys, spectator = opened(client, "bura", players=3, computer_seats=[2], computer_level=2)
    play_out(client, table_id, keys, random.Random("bura"), hands=2)
    events = stream(client, table_id, spectator)
    dealt = {e["hand_number"]: e for e in events if e["type"] == "dealt"}
    for over in (e for e in events if e["type"] == "hand_over"):
        assert commitment(over["server_seed"]) == over["seed_commitment"] == dealt[over["hand_number"]][
            "seed_commitment"]
        before = {"match": over["match_before"]} if over["match_before"] else {}
        again = rules.post("/v1/games/bura/deal", json={
            "players": 3, "seed": shuffle_seed(over["server_seed"], None), "options": over["options"], **before})
        assert again.json["state"] == over["record"]["start"]
        scored = rules.post("/v1/games/bura/score", json={"record": over["record"], **before})
        assert scored.status_code == 200, scored.json
        assert scored.json["hand"] == over["hand"]


def test_a_seat_given_to_the_computer_is_played_and_taken_back(client: Any) -> None:
    table_id, keys, spectator = opened(client, "sixty-six")
    table = client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).json
    mover = table["to_move"]
    given = client.post(f"/v1/tables/{table_id}/seat", headers=bearer(keys[mover]), json={"computer": True})
    assert given.json == {"seat": mover, "computer": True}
    deadline = time.monotonic() + 10
    while client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).json["move_number"] == 0:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    back = client.post(f"/v1/tables/{table_id}/seat", headers=bearer(keys[mover]), json={"computer": False})
    assert back.json == {"seat": mover, "computer": False}
    kinds = [e["type"] for e in stream(client, table_id, spectator)]
    assert kinds.index("computer_took") < kinds.index("move") < kinds.index("taken_back")
    moved = next(e for e in stream(client, table_id, spectator) if e["type"] == "move")
    assert moved["seat"] == mover and moved["by"] == "computer"


def test_a_seat_whose_time_runs_out_is_played_by_the_host(client: Any) -> None:
    table_id, keys, spectator = opened(client, "sixty-six", turn_seconds=5)
    table = client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).json
    assert table["deadline"] is not None and 4 < table["deadline"] - time.time() <= 5
    started = [e for e in stream(client, table_id, spectator) if e["type"] == "timer_started"]
    assert started and started[0]["seat"] == table["to_move"] and started[0]["seconds"] == 5
    deadline = time.monotonic() + 8
    while client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).json["move_number"] == 0:
        assert time.monotonic() < deadline, "the host did not play for the seat"
        time.sleep(0.05)
    events = stream(client, table_id, spectator)
    expired = next(i for i, e in enumerate(events) if e["type"] == "timer_expired")
    assert events[expired]["seat"] == table["to_move"]
    assert events[expired + 1]["type"] == "move" and events[expired + 1]["by"] == "timer"


def test_a_stream_resumes_after_its_last_event_id(client: Any) -> None:
    table_id, keys, spectator = opened(client, "bura", players=2)
    play_out(client, table_id, keys, random.Random("resume"), hands=1)
    every = stream(client, table_id, spectator)
    assert len(every) > 5
    for after in (0, 1, 5, len(every) - 1, len(every)):
        assert stream(client, table_id, spectator, after) == every[after:]


def test_a_ticket_opens_one_tables_stream_for_one_seat(client: Any) -> None:
    table_id, keys, _ = opened(client)
    other_id, _, _ = opened(client)
    ticket = client.post(f"/v1/tables/{table_id}/tickets", headers=bearer(keys[1])).json
    assert ticket["expires_in"] == 60
    answer = client.get(f"/v1/tables/{table_id}/events?ticket={ticket['ticket']}")
    assert answer.status_code == 200
    problem(client.get(f"/v1/tables/{other_id}/events?ticket={ticket['ticket']}"), 401)
    forged = "0" + ticket["ticket"][1:]
    problem(client.get(f"/v1/tables/{table_id}/events?ticket={forged}"), 401)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_no_stream_shows_a_card_its_seat_may_not_see(sqlite_client: Any, game: str, players: int) -> None:
    """Each seat's (and the spectators') move events are exactly the rules' events of that move
    told to that seat, as ``sealed/events`` tells them, from the hand's record replayed; and
    before the hand is over, no seat hears of a card it could not see. (Redaction is the host's,
    not the store's: the embedded store only.)"""
    client = sqlite_client
    table_id, keys, spectator = opened(client, game, players=players)
    play_out(client, table_id, keys, random.Random(game), hands=1)
    rules = GAMES[game]
    readers: list[tuple[int | None, str]] = [*enumerate(keys), (None, spectator)]  # type: ignore[list-item]
    heard = {seat: stream(client, table_id, key) for seat, key in readers}
    record = next(e for e in heard[None] if e["type"] == "hand_over")["record"]
    state = rules.load_state(record["start"])
    moves = iter(record["moves"])
    for seat, events in heard.items():
        assert "hand_over" in [e["type"] for e in events]
        for key in keys:
            if key != keys[seat if seat is not None else 0] or seat is None:
                assert key.encode() not in orjson.dumps(events)
    for number, wire in enumerate(moves, 1):
        before = state
        state, caused = rules.apply(state, rules.load_move(wire))
        for seat, events in heard.items():
            move = next(e for e in events if e["type"] == "move" and e["hand_number"] == 1
                        and e["move_number"] == number)
            assert [unsaid(e) for e in move["events"]] == told(rules.info.event_types, caused, seat)
            may_see = visible(rules, seat, before, state) | shown(told(rules.info.event_types, caused, None),
                                                                   visible(rules, wire["seat"], before))
            for event in move["events"]:
                assert not Counter(c.encode() for c in event.get("cards", [])) - may_see, (seat, event)


def unsaid(event: dict[str, Any]) -> dict[str, Any]:
    """An event without its sentence."""
    assert isinstance(event.pop("text"), str)
    return event


def sentences(events: list[dict[str, Any]]) -> list[str]:
    """Every sentence of ``events``: the table's own, and each move's game events'."""
    return [text for e in events for text in (e["text"], *(g["text"] for g in e.get("events", [])))]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_event_is_said_to_its_reader_in_the_tables_language(sqlite_client: Any, lang: str) -> None:
    """Each event has its sentence in the table's language (or the one the request asks for), said
    to the seat reading it (the second person), to a spectator in the third; seats from 1."""
    client = sqlite_client
    table_id, keys, spectator = opened(client, "bura", players=3, computer_seats=[2], computer_level=1,
                                       turn_seconds=60, lang=lang)
    play_out(client, table_id, keys, random.Random(lang), hands=1)
    client.post(f"/v1/tables/{table_id}/seat", headers=bearer(keys[1]), json={"computer": True})
    you = {"en": "You ", "ru": "Вы "}[lang]
    for key in [*keys, spectator]:
        if key is None:
            continue
        events = stream(client, table_id, key)
        said = sentences(events)
        assert len(said) > len(events) > 5 and all(said), said
        for text in said:
            assert "_" not in text and "`" not in text and "{" not in text and "§" not in text, text
            assert "seat 0" not in text.lower() and "место 0" not in text.lower(), text
            assert not english_in(text) if lang == "ru" else not CYRILLIC.search(text), text
        joined = [e["text"] for e in events if e["type"] == "joined"]
        if key == spectator:
            assert not any(text.startswith(you) for text in said)
            assert joined == {"en": ["A player takes seat 1", "A player takes seat 2"],
                              "ru": ["Игрок занимает место 1", "Игрок занимает место 2"]}[lang]
        else:
            assert any(text.startswith(you) for text in joined), joined
    asked = {"en": "ru", "ru": "en"}[lang]
    answer = client.get(f"/v1/tables/{table_id}/events?lang={asked}", headers=bearer(spectator))
    assert answer.headers["Content-Language"] == asked
    dealt = orjson.loads(next(line for line in answer.get_data().split(b"\n") if b'"dealt"' in line)[6:])
    first = dealt["to_move"] + 1
    assert dealt["text"] == {"en": f"Hand 1 is dealt: seat {first} moves first",
                             "ru": f"Сдача 1: карты розданы, первый ход у места {first}"}[asked]


def visible(rules: Any, seat: int | None, *states: Any) -> Counter[bytes]:
    seen: Counter[bytes] = Counter()
    for state in states:
        seen |= Counter(CODE.findall(orjson.dumps(rules.view(state, seat))))
    return seen


def shown(public: list[dict[str, Any]], movers: Counter[bytes]) -> Counter[bytes]:
    return Counter(c.encode() for event in public for c in event.get("cards", [])) & movers


def test_tables_per_address_are_limited(tmp_path: Any) -> None:
    client = create_app(HostSettings(table_store=f"sqlite:///{tmp_path}/limited.sqlite3",
                                     tables_per_minute=2)).test_client()
    for _ in range(2):
        assert client.post("/v1/tables", json={"game": "bura"}).status_code == 201
    refused = problem(client.post("/v1/tables", json={"game": "bura"}), 429)
    assert refused["limit"] == {"name": "TABLES_PER_MINUTE", "value": 2}


@pytest.mark.parametrize(("path", "body"), [
    ("/v1/tables", {"game": "whist"}),
    ("/v1/tables", {"game": 7, "players": "x", "turn_seconds": 1, "computer_seats": [9], "odd": 1, "lang": "de"}),
    ("/v1/tables", {"game": "bura", "players": 2, "computer_seats": [0, 1]}),
    ("/v1/tables", {"game": "sixty-six", "players": 3}),
    ("/v1/tables", {"game": "sixty-six", "options": {"x": 1}}),
    ("/v1/tables/none/join", {"invite": "abc"}),
])
def test_refusals_are_wholly_russian_when_asked(sqlite_client: Any, path: str, body: Any) -> None:
    client = sqlite_client  # the request's checks are the host's, not its store's
    answer = client.post(path + "?lang=ru", json=body)
    assert answer.status_code in (404, 422) and answer.headers["Content-Language"] == "ru"
    text = " ".join([answer.json["title"], answer.json["detail"], answer.json["message"],
                     *(e["message"] for e in answer.json.get("errors", []))])
    assert not english_in(text), (english_in(text), text)


def test_every_refusal_of_the_host_has_its_russian_title() -> None:
    """The refusals met above in Russian, and the rest (their titles, which every answer has)."""
    import host.errors
    from service.errors import ServiceError
    from service.i18n import translate

    refusals = [c for c in vars(host.errors).values() if isinstance(c, type) and issubclass(c, ServiceError)
                and c.__module__ == "host.errors"]
    assert len(refusals) >= 10
    for refusal in refusals:
        russian = translate(refusal.title, "ru")
        assert russian != refusal.title and not english_in(russian), refusal
        said = translate(refusal.says, "ru")  # the player's sentence: no code in either language
        assert said != refusal.says and not english_in(said) and said.endswith("."), refusal
        assert not any(c in refusal.says + said for c in "_`§{"), refusal
    assert len({refusal.says for refusal in refusals}) == len(refusals)


def test_host_openapi_yaml_is_generated_from_the_schemas() -> None:
    from pathlib import Path

    from host.spec import generate
    committed = (Path(__file__).resolve().parents[2] / "host" / "openapi.yaml").read_text()
    assert committed == generate(), "host/openapi.yaml is stale: run `make spec` and commit it"


def test_every_answer_is_the_documented_one(sqlite_client: Any) -> None:
    """Each answer loads with its documented schema (no field missing, none undocumented)."""
    client = sqlite_client  # the request's checks are the host's, not its store's
    from host import schemas

    answer = client.post("/v1/tables", json={"game": "canasta", "players": 4, "computer_seats": [2]})
    assert not schemas.Opened().validate(answer.json)
    table_id, invites = answer.json["table_id"], answer.json["invites"]
    joined = [client.post(f"/v1/tables/{table_id}/join", json={"invite": i["invite"]}).json for i in invites]
    assert not any(schemas.Joined().validate(j) for j in joined)
    keys = {j["seat"]: j["seat_key"] for j in joined}
    for key in [*keys.values(), answer.json["spectator_key"]]:
        table = client.get(f"/v1/tables/{table_id}", headers=bearer(key)).json
        assert not schemas.TableOut().validate(table), schemas.TableOut().validate(table)
    mover = table["to_move"]
    seat = client.get(f"/v1/tables/{table_id}", headers=bearer(keys[mover])).json
    played = client.post(f"/v1/tables/{table_id}/moves", headers=bearer(keys[mover]),
                         json={"move": seat["moves"][0], "move_number": seat["move_number"]}).json
    assert not schemas.Verdict().validate(played)
    assert not schemas.SeatOut().validate(client.post(f"/v1/tables/{table_id}/seat", headers=bearer(keys[0]),
                                                       json={"computer": False}).json)
    assert not schemas.Ticket().validate(client.post(f"/v1/tables/{table_id}/tickets", headers=bearer(keys[0])).json)
    assert all(not schemas.TableEvent().validate(e) for e in stream(client, table_id, keys[0]))


def test_an_idle_table_is_closed_and_says_so(store: str) -> None:
    client = create_app(settings(store, idle_seconds=1)).test_client()
    table_id, keys, spectator = opened(client, "bura")
    deadline = time.monotonic() + 10
    while not client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).json["closed"]:
        assert time.monotonic() < deadline, "the idle table was not closed"
        time.sleep(0.1)
    assert stream(client, table_id, spectator)[-1]["type"] == "table_closed"
    table = client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).json
    assert table["over"] and table["to_move"] is None and table["moves"] == []
    while client.get(f"/v1/tables/{table_id}", headers=bearer(keys[0])).status_code != 404:
        assert time.monotonic() < deadline + 5, "the closed table was not deleted"
        time.sleep(0.1)


def test_behind_a_proxy_each_clients_tables_are_counted(tmp_path: Any) -> None:
    """With TRUSTED_PROXIES=1 the address is the one the proxy forwards: two clients behind one
    proxy each open their own tables a minute; without it, they share the proxy's."""
    store = f"sqlite:///{tmp_path}/proxied.sqlite3"
    proxied = create_app(HostSettings(table_store=store, tables_per_minute=1, trusted_proxies=1)).test_client()
    for client_address in ("203.0.113.7", "203.0.113.8"):
        forwarded = {"X-Forwarded-For": client_address}
        assert proxied.post("/v1/tables", json={"game": "bura"}, headers=forwarded).status_code == 201
        problem(proxied.post("/v1/tables", json={"game": "bura"}, headers=forwarded), 429)
    direct = create_app(HostSettings(table_store=f"sqlite:///{tmp_path}/direct.sqlite3", tables_per_minute=1))
    client = direct.test_client()
    assert client.post("/v1/tables", json={"game": "bura"}, headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 201
    problem(client.post("/v1/tables", json={"game": "bura"}, headers={"X-Forwarded-For": "203.0.113.10"}), 429)


def test_streams_hold_leases_that_count_until_they_run_out() -> None:
    """A seat's streams and the spectators' are counted by their leases: past the most, 429; a
    stream whose process died without closing it stops counting once its lease is out."""
    from host.errors import TooMany
    from host.tables import Rules, live, open_table, stream_closed, stream_opened, stream_renewed

    rules = Rules(GAMES["bura"], idle_seconds=3600)
    table = open_table(rules, {"game": "bura", "players": 2}, now=0).table
    table, told = stream_opened(table, 1, "a", until=45, now=0, most=2)
    assert told == [{"type": "connected", "seat": 1}]
    table, told = stream_opened(table, 1, "b", until=45, now=1, most=2)
    assert told == []
    with pytest.raises(TooMany):
        stream_opened(table, 1, "c", until=46, now=2, most=2)
    table, _ = stream_renewed(table, 1, "a", until=100, now=30)
    table, told = stream_opened(table, 1, "c", until=110, now=50, most=2)  # b's lease ran out
    assert told == [] and set(live(table.seats[1].streams, 50)) == {"a", "c"}
    table, told = stream_closed(table, 1, "a", now=60)
    assert told == []
    table, told = stream_closed(table, 1, "c", now=61)
    assert told == [{"type": "left", "seat": 1}]
    table, told = stream_opened(table, 1, "d", until=200, now=150, most=2)
    assert told == [{"type": "reconnected", "seat": 1}]
    for watcher in "wxy":
        table, told = stream_opened(table, None, watcher, until=200, now=150, most=3)
        assert told == []
    with pytest.raises(TooMany):
        stream_opened(table, None, "z", until=200, now=150, most=3)
    assert table.seats[0].streams == {} and len(table.watchers) == 3


def test_a_worker_that_opens_the_store_while_another_sets_it_up_waits_for_it(tmp_path: Any) -> None:
    """Another process holding the file alone (as setting it up in WAL mode does) for a moment:
    the writer's connection, whose writes never wait in SQLite, waits for it to open."""
    store = SqliteTables(str(tmp_path / "boot.sqlite3"))
    other = sqlite3.connect(tmp_path / "boot.sqlite3", isolation_level=None, check_same_thread=False)
    other.execute("PRAGMA journal_mode = DELETE")  # so that a lock keeps readers out, as the switch does
    other.execute("BEGIN EXCLUSIVE")
    threading.Timer(0.3, lambda: other.execute("COMMIT")).start()
    started = time.monotonic()
    db = store._open(0)
    assert time.monotonic() - started >= 0.2
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 0
