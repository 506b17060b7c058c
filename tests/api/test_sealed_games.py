"""Every game in sealed mode, played over HTTP as each seat separately: every answer a seat gets
holds only cards that seat may see (its own view, before or after the move), never the server's
seed before the score, and the score's seeds deal the hand again."""

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
from service.config import Settings
from service.games import GAMES
from service.sealing import HAND, Keyring, StateKey, commitment, shuffle_seed

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
    """One sealed hand; ``ask`` is a request made by one seat, whose answer is checked against
    what that seat may see."""

    def __init__(self, client: Any, documented: Documented, game: str, answer: dict[str, Any]) -> None:
        self.client, self.documented, self.game, self.path = client, documented, GAMES[game], f"/v1/games/{game}"
        self.token, self.keys = answer["token"], answer["seat_keys"]
        self.hand = RING.open(HAND, game, self.token, at="/token")
        self.secrets = [self.hand.server_seed, *self.keys]

    def visible(self, seat: int, *states: Any) -> Counter[bytes]:
        """Every card code the seat's view shows, a wild card's public nomination included."""
        seen: Counter[bytes] = Counter()
        for state in states:
            seen |= Counter(CODE.findall(orjson.dumps(self.game.view(state, seat))))
        return seen

    def ask(self, seat: int, path: str, body: dict[str, Any], may_see: Counter[bytes]) -> Any:
        answer = self.client.post(f"{self.path}/{path}", json={"token": self.token,
                                                              "seat_key": self.keys[seat], **body})
        self.documented.check(f"{self.path}/{path}", answer)
        text = answer.get_data()
        assert set(codes(answer.json)) <= set(may_see), (path, seat, answer.json)
        for secret in self.secrets:
            if secret != self.keys[seat]:
                assert secret.encode() not in text, (path, seat)
        for event in (answer.json or {}).get("events", []):
            assert not Counter(c.encode() for c in event.get("cards", [])) - may_see, event
        return answer


def play(client: Any, documented: Documented, game: str, players: int, rng: random.Random) -> None:
    dealt = client.post(f"/v1/games/{game}/deal", json={"sealed": True, "players": players,
                                                         "seed": f"table-{rng.randrange(100_000)}"})
    assert dealt.status_code == 200, dealt.json
    documented.check(f"/v1/games/{game}/deal", dealt)
    answer = dealt.json
    assert "seed" not in answer and "state" not in answer
    table = Table(client, documented, game, answer)
    state, start = table.hand.state, table.hand.state
    while (mover := table.game.to_move(state)) is not None:
        for seat in range(players):
            mine = table.visible(seat, state)
            view = table.ask(seat, "view", {}, mine).json
            assert view["view"] == orjson.loads(orjson.dumps(table.game.view(state, seat)))
            listed = table.ask(seat, "legal-moves", {}, mine).json
            assert listed["moves"] == [table.game.dump_move(m) for m in table.game.legal_moves(state, seat)]
        move = rng.choice(listed_for(table, state, mover))
        before = state
        if rng.random() < 0.05:  # another seat sending the mover's move: 403, and nothing shown
            other = (mover + 1) % players
            refused = table.ask(other, "validate", {"move": move}, table.visible(other, state))
            assert refused.status_code == 403, refused.json
        state, _ = table.game.apply(state, table.game.load_move(move))
        done = table.ask(mover, "validate", {"move": move}, table.visible(mover, before, state))
        assert done.status_code == 200 and done.json["legal"], done.json
        assert done.json["move_number"] == table.hand.move_number + 1
        table.token = done.json["token"]
        table.hand = RING.open(HAND, game, table.token, at="/token")
        assert table.hand.state == state
    scored_answer = client.post(f"/v1/games/{game}/score", json={"token": table.token})
    documented.check(f"/v1/games/{game}/score", scored_answer)
    scored = scored_answer.json
    assert scored["seed_commitment"] == commitment(scored["server_seed"]) == answer["seed_commitment"]
    again = client.post(f"/v1/games/{game}/deal", json={
        "players": players, "seed": shuffle_seed(scored["server_seed"], scored["seed"])}).json
    assert again["state"] == table.game.dump_state(start)
    assert scored["state"] == table.game.dump_state(state)


def listed_for(table: Table, state: Any, seat: int) -> list[Any]:
    return [table.game.dump_move(m) for m in table.game.legal_moves(state, seat)]


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_sealed_hand_shows_each_seat_only_what_it_may_see(client: Any, documented: Documented, game: str,
                                                            players: int, caplog: pytest.LogCaptureFixture) -> None:
    """Every answer is also checked against the documented response schema."""
    caplog.set_level(logging.DEBUG)
    rng = random.Random(f"{game}-{players}")
    play(client, documented, game, players, rng)
    logged = "\n".join(r.getMessage() + repr(r.__dict__) for r in caplog.records)
    assert "server_seed" not in logged and not CODE.search(logged.encode())
