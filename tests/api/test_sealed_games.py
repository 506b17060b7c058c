"""Every game in sealed mode, played over HTTP as each seat (and a spectator) separately: every
answer a seat gets, its events included, holds only cards that seat may see (its own view, before
or after the move), never the server's seed before the score; the events each one is told let it
follow the hands to every view it is shown; the score's seeds deal the hand again, and its record
scores the same in the open."""

from __future__ import annotations

import logging
import random
import re
from collections import Counter
from typing import Any

import jsonschema_rs
import orjson
import pytest

from service import create_app
from service.api.events import spoken, told
from service.api.sealed import Sealer
from service.config import Settings
from service.games.registry import GAMES
from service.sealing import Keyring, StateKey, commitment, shuffle_seed
from tests.games.test_events import Follower

KEY = StateKey("test", bytes(range(100, 132)))
RING = Keyring((KEY,))
CODE = re.compile(rb'"((?:10|[2-9JQKA])[CDHS]|JK)"')
TABLES = [(game, players) for game in sorted(GAMES) for players in GAMES[game].info.player_counts]


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app(Settings(state_keys=(KEY,))).test_client()


class Documented:
    """Every 200 answer is checked against its path's response schema in the OpenAPI document."""

    def __init__(self, client: Any) -> None:
        self.spec, self.validators = client.get("/openapi.json").json, {}

    def check(self, path: str, answer: Any) -> None:
        if answer.status_code != 200:
            return
        if path not in self.validators:
            schema = self.spec["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
            self.validators[path] = jsonschema_rs.validator_for({**schema, "components": self.spec["components"]})
        errors = list(self.validators[path].iter_errors(answer.json))
        assert not errors, (path, [(e.message, list(e.instance_path)) for e in errors[:3]])


@pytest.fixture(scope="module")
def documented(client: Any) -> Documented:
    return Documented(client)


def codes(body: Any) -> Counter[bytes]:
    return Counter(CODE.findall(orjson.dumps(cards_only(body))))


def cards_only(body: Any) -> Any:
    """The body without Bezique's ``as``: a wild card's nomination names a card, not one held."""
    if isinstance(body, dict):
        return {k: cards_only(v) for k, v in body.items() if k != "as"}
    if isinstance(body, list):
        return [cards_only(v) for v in body]
    return body


class Table:
    """One sealed hand; ``ask`` is a request made by one seat (None: a spectator), whose answer
    is checked against what that seat may see."""

    def __init__(self, client: Any, documented: Documented, game: str, answer: dict[str, Any]) -> None:
        self.client, self.documented, self.game = client, documented, GAMES[game]
        self.path = f"/v1/games/{game}/sealed"
        self.token, self.keys = answer["token"], answer["seat_keys"]
        self.sealer = Sealer(self.game, RING)
        self.hand = self.sealer.open(self.token, "/token")
        self.secrets = [self.hand.server_seed, *self.keys]

    def visible(self, seat: int | None, *states: Any) -> Counter[bytes]:
        """Every card code the seat's view shows, a wild card's public nomination included."""
        seen: Counter[bytes] = Counter()
        for state in states:
            seen |= Counter(CODE.findall(orjson.dumps(self.game.view(state, seat))))
        return seen

    def ask(self, seat: int | None, path: str, body: dict[str, Any], may_see: Counter[bytes]) -> Any:
        key = {} if seat is None else {"seat_key": self.keys[seat]}
        answer = self.client.post(f"{self.path}/{path}", json={"token": self.token, **key, **body})
        self.documented.check(f"{self.path}/{path}", answer)
        text = answer.get_data()
        assert set(codes(answer.json)) <= set(may_see), (path, seat, answer.json)
        for secret in self.secrets:
            if seat is None or secret != self.keys[seat]:
                assert secret.encode() not in text, (path, seat)
        events = [*(answer.json or {}).get("events", []),
                  *(e for m in (answer.json or {}).get("moves", []) if isinstance(m, dict) and "events" in m
                    for e in m["events"])]
        for event in events:
            assert not Counter(c.encode() for c in event.get("cards", [])) - may_see, event
        return answer

    def look(self, seat: int | None, state: Any) -> Any:
        """The seat's view (a spectator's, for None), which must be the game's."""
        path = "spectator-view" if seat is None else "view"
        view = self.ask(seat, path, {}, self.visible(seat, state)).json["view"]
        assert view == orjson.loads(orjson.dumps(self.game.view(state, seat)))
        return view


def play(client: Any, documented: Documented, game: str, players: int, rng: random.Random) -> None:
    dealt = client.post(f"/v1/games/{game}/sealed/deal", json={"players": players,
                                                                "seed": f"table-{rng.randrange(100_000)}"})
    assert dealt.status_code == 200, dealt.json
    documented.check(f"/v1/games/{game}/sealed/deal", dealt)
    answer = dealt.json
    assert "seed" not in answer and "state" not in answer
    table = Table(client, documented, game, answer)
    state, start = table.hand.state, table.hand.state
    watchers = [*range(players), None]
    followers = {seat: Follower(table.game.info.event_types, table.look(seat, state)) for seat in watchers}
    while (mover := table.game.to_move(state)) is not None:
        for seat in range(players):
            listed = table.ask(seat, "legal-moves", {}, table.visible(seat, state)).json
            assert listed["moves"] == [table.game.dump_move(m) for m in table.game.legal_moves(state, seat)]
        move = rng.choice(listed_for(table, state, mover))
        before = state
        if rng.random() < 0.05:  # another seat sending the mover's move: 403, and nothing shown
            other = (mover + 1) % players
            refused = table.ask(other, "validate", {"move": move}, table.visible(other, state))
            assert refused.status_code == 403, refused.json
        state, caused = table.game.apply(state, table.game.load_move(move))
        done = table.ask(mover, "validate", {"move": move}, table.visible(mover, before, state))
        assert done.status_code == 200 and done.json["legal"], done.json
        number = table.hand.move_number + 1
        assert done.json["move_number"] == number
        table.token = done.json["token"]
        table.hand = table.sealer.open(table.token, "/token")
        assert table.hand.state == state
        types = table.game.info.event_types
        laid = shown(told(types, caused, None), table.visible(mover, before))
        for seat in watchers:  # each hears the move's events, and follows the hands by them
            may_see = table.visible(seat, before, state) | laid
            heard = table.ask(seat, "events", {"since": number - 1}, may_see).json
            assert [m["move_number"] for m in heard["moves"]] == [number]
            events = heard["moves"][0]["events"]
            # a sentence is made from what its reader is told, and from nothing else
            assert events == spoken(types, told(types, caused, seat), seat, "en", table.game.info.vocabulary)
            if seat in (mover, None):
                assert events == done.json["events" if seat == mover else "public_events"]
            followers[seat].heard(events)
            followers[seat].agrees(table.look(seat, state))
    scored_answer = client.post(f"{table.path}/score", json={"token": table.token})
    documented.check(f"{table.path}/score", scored_answer)
    scored = scored_answer.json
    assert scored["seed_commitment"] == commitment(scored["server_seed"]) == answer["seed_commitment"]
    again = client.post(f"/v1/games/{game}/deal", json={
        "players": players, "seed": shuffle_seed(scored["server_seed"], scored["seed"])}).json
    assert again["state"] == table.game.dump_state(start) == scored["record"]["start"]
    assert scored["state"] == table.game.dump_state(state)
    rescored = client.post(f"/v1/games/{game}/score", json={"record": scored["record"]}).json
    assert (rescored["hand"], rescored["state"]) == (scored["hand"], scored["state"])


def shown(public: list[dict[str, Any]], movers: Counter[bytes]) -> Counter[bytes]:
    """The cards the mover showed everyone (a card played to a trick taken at once shows in no
    view after the move; a bura is shown, and the hand ends): of the cards a spectator is told
    of, those the mover could see before it moved. Only a mover reveals cards, and only its own."""
    return Counter(c.encode() for event in public for c in event.get("cards", [])) & movers


def listed_for(table: Table, state: Any, seat: int) -> list[Any]:
    return [table.game.dump_move(m) for m in table.game.legal_moves(state, seat)]


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_sealed_hand_shows_each_seat_only_what_it_may_see(client: Any, documented: Documented, game: str,
                                                            players: int, caplog: pytest.LogCaptureFixture) -> None:
    """Every answer is also checked against the documented response schema; every seat and a
    spectator follow the hands from the events they are told, and agree with every view shown."""
    caplog.set_level(logging.DEBUG)
    rng = random.Random(f"{game}-{players}")
    play(client, documented, game, players, rng)
    logged = "\n".join(r.getMessage() + repr(r.__dict__) for r in caplog.records)
    assert "server_seed" not in logged and not CODE.search(logged.encode())
