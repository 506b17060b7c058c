"""The HTTP layer: every refusal API.md names, request ids, CORS, docs, and hands played over HTTP
with nothing but deal, legal-moves, validate and score."""

from __future__ import annotations

import json
import random

import jsonschema_rs
import pytest

from service import create_app
from service.config import Settings
from service.games.registry import GAMES

P = "/v1/games/sixty-six"


def deal(client, **body):
    answer = client.post(f"{P}/deal", json=body)
    assert answer.status_code == 200, answer.json
    return answer.json


def problem(answer, status):
    assert answer.status_code == status
    assert answer.content_type == "application/problem+json"
    assert answer.json["status"] == status
    return answer.json


def test_games_are_listed_with_russian_names(client):
    games = client.get("/v1/games").json["games"]
    assert {"id": "sixty-six", "name_ru": "Шестьдесят шесть"}.items() <= games[0].items()
    detail = client.get(P).json
    assert detail["reasons"]["must_follow_suit"] and detail["card_values"]["AS"] == 11


def test_deal_is_reproducible_and_returns_the_seed(client):
    first, again = deal(client, seed="x"), deal(client, seed="x")
    assert first == again and first["shuffle"] == "v1"
    assert deal(client)["seed"] != deal(client)["seed"]


def test_malformed_json_is_400(client):
    problem(client.post(f"{P}/validate", data="{", content_type="application/json"), 400)


def test_wrong_content_type_is_415(client):
    problem(client.post(f"{P}/validate", data="{}", content_type="text/plain"), 415)


def test_unknown_game_is_404(client):
    problem(client.post("/v1/games/preferans/deal", json={}), 404)


def test_wrong_method_is_405_with_allow(client):
    answer = client.get(f"{P}/validate")
    problem(answer, 405)
    assert "POST" in answer.headers["Allow"]


def test_body_over_the_limit_is_413():
    client = create_app(Settings(max_body_bytes=100)).test_client()
    problem(client.post(f"{P}/deal", json={"seed": "x" * 200}), 413)


@pytest.mark.parametrize(("body", "pointer"), [
    ({"move": {"seat": 1, "type": "play", "cards": ["KH"]}}, "/state"),
    ({"state": "STATE", "move": {"seat": 1, "type": "play", "cards": ["1X"]}}, "/move/cards/0"),
    ({"state": "STATE", "move": {"seat": 1, "type": "fly"}}, "/move/type"),
    ({"state": "STATE", "move": {"seat": "1", "type": "close"}}, "/move/seat"),
    ({"state": "STATE", "move": {"seat": 1, "type": "close", "x": 1}}, "/move/x"),
    ({"state": "STATE", "move": {"seat": 1, "type": "play", "cards": ["KH"], "marriage": 1}},
     "/move/marriage"),
])
def test_schema_errors_are_422_with_a_pointer(client, body, pointer):
    state = deal(client, seed="s")["state"]
    body = {k: state if v == "STATE" else v for k, v in body.items()}
    assert problem(client.post(f"{P}/validate", json=body), 422)["errors"][0]["pointer"] == pointer


@pytest.mark.parametrize("seat", [b"1.0", b"1e0", b"1E0", b"10e-1", b"1.0e0"])
def test_integral_floats_are_integers(client, seat):
    """JSON Schema counts 1.0 as an integer; the rules get the int, and answer as for 1."""
    state = deal(client, seed="floats")["state"]
    move = {"seat": 1, "type": "play", "cards": [state["hands"][1][0]]}
    expected = client.post(f"{P}/validate", json={"state": state, "move": move}).data
    body = json.dumps({"state": state, "move": {**move, "seat": 987654}}).encode()
    answer = client.post(f"{P}/validate", data=body.replace(b"987654", seat),
                         content_type="application/json")
    assert answer.status_code == 200 and answer.data == expected


def test_fractional_seat_is_422(client):
    state = deal(client, seed="floats")["state"]
    body = {"state": state, "move": {"seat": 1.5, "type": "play", "cards": ["AS"]}}
    assert problem(client.post(f"{P}/validate", json=body), 422)["errors"][0]["pointer"] == "/move/seat"


def test_duplicated_card_is_422_naming_it(client):
    state = deal(client, seed="s")["state"]
    state["hands"][1][0] = state["hands"][0][0]
    body = problem(client.post(f"{P}/legal-moves", json={"state": state}), 422)
    assert body["errors"][0]["pointer"].startswith("/state/hands/")


def test_move_out_of_turn_is_refused(client):
    state = deal(client, seed="s")["state"]
    seat = 1 - state["to_move"]
    move = {"seat": seat, "type": "play", "cards": [state["hands"][seat][0]]}
    answer = client.post(f"{P}/validate", json={"state": state, "move": move}).json
    assert answer == {"legal": False, "reason": answer["reason"]}
    assert answer["reason"]["code"] == "not_your_turn"


def test_scoring_an_unfinished_hand_is_422(client):
    state = deal(client, seed="s")["state"]
    problem(client.post(f"{P}/score", json={"state": state}), 422)


def test_view_hides_the_other_hand(client):
    state = deal(client, seed="s")["state"]
    view = client.post(f"{P}/view", json={"state": state, "seat": 0}).json["view"]
    assert view["hand"] == state["hands"][0] and "hands" not in view and "stock" not in view
    spectator = client.post(f"{P}/spectator-view", json={"state": state}).json["view"]
    assert spectator["hand"] is None and spectator["seat"] is None
    problem(client.post(f"{P}/view", json={"state": state, "seat": 2}), 422)


def test_request_id_is_echoed_or_made(client):
    assert client.get("/health", headers={"X-Request-ID": "abc-1"}).headers["X-Request-ID"] == "abc-1"
    assert len(client.get("/health").headers["X-Request-ID"]) == 32


def test_one_json_access_line_per_request(client, capfd):
    client.get("/health", headers={"X-Request-ID": "line-1"})
    client.post(f"{P}/deal", data="{", content_type="application/json")
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines() if line.startswith("{")]
    health, bad = lines[-2:]
    assert health["request_id"] == "line-1" and health["status"] == 200 and health["path"] == "/health"
    assert bad["status"] == 400 and bad["method"] == "POST" and bad["duration_ms"] >= 0
    assert len(bad["request_id"]) == 32 and bad["logger"] == "service.access"


def test_cors_by_configuration():
    client = create_app(Settings(cors_origins=("https://app.example",))).test_client()
    allowed = client.get("/health", headers={"Origin": "https://app.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://app.example"
    other = client.get("/health", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    without = client.get("/health")
    assert [a.headers.get("Vary") for a in (allowed, other, without)] == ["Accept-Language, Origin"] * 3
    anyone = create_app(Settings(cors_origins=("*",))).test_client()
    assert anyone.get("/health", headers={"Origin": "https://x.example"}).headers[
        "Access-Control-Allow-Origin"] == "*"
    assert anyone.get("/health").headers["Vary"] == "Accept-Language"  # any origin: the answer is the same
    preflight = client.options(f"{P}/deal", headers={"Origin": "https://app.example"})
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]


def test_docs_work_offline(client):
    page = client.get("/docs").get_data(as_text=True)
    assert "/docs/assets/swagger-ui-bundle.js" in page and "http" not in page.split("<body>")[1]
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
    assert client.get("/openapi.json").json["openapi"] == "3.1.0"


def test_200_hands_over_http_with_deal_legal_moves_validate_score(client):
    rng = random.Random(7)
    match = None
    for n in range(200):
        options = {"allow_claim": rng.random() < 0.3, "allow_trump_nine_exchange": rng.random() < 0.5}
        state = deal(client, seed=f"http-{n}", options=options,
                     **({"match": match} if match else {}))["state"]
        while state["status"] == "in_progress":
            moves = client.post(f"{P}/legal-moves", json={"state": state}).json["moves"]
            answer = client.post(f"{P}/validate", json={"state": state, "move": rng.choice(moves)})
            assert answer.status_code == 200 and answer.json["legal"]
            state = answer.json["state"]
        scored = client.post(f"{P}/score", json={"state": state, "match": match})
        assert scored.status_code == 200, scored.json
        match = None if scored.json["match"]["over"] else scored.json["match"]


@pytest.fixture()
def documented(client):
    """POSTs whose 200 answer is checked against the response schema of the OpenAPI document."""
    spec = client.get("/openapi.json").json
    validators = {}

    def post(path, body):
        answer = client.post(path, json=body)
        assert answer.status_code == 200, (path, answer.json)
        if path not in validators:
            schema = spec["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
            validators[path] = jsonschema_rs.validator_for({**schema, "components": spec["components"]})
        errors = list(validators[path].iter_errors(answer.json))
        assert not errors, (path, [(e.message, list(e.instance_path)) for e in errors[:3]])
        return answer.json

    return post


def _play_over_http(post, game_id, players, seed, rng):
    """A random hand; its final state and its record must score alike."""
    path = f"/v1/games/{game_id}"
    state = start = post(f"{path}/deal", {"seed": seed, "players": players})["state"]
    played = []
    while state["status"] == "in_progress":
        moves = post(f"{path}/legal-moves", {"state": state})["moves"]
        post(f"{path}/spectator-view", {"state": state})
        for seat in range(state["seats"]):
            post(f"{path}/view", {"state": state, "seat": seat})
        played.append(rng.choice(moves))
        answer = post(f"{path}/validate", {"state": state, "move": played[-1]})
        assert answer["legal"], answer
        state = answer["state"]
    scored = post(f"{path}/score", {"state": state})
    assert post(f"{path}/score", {"record": {"start": start, "moves": played}}) == {**scored, "state": state}
    return state


@pytest.mark.parametrize(("game_id", "players"), [
    (game_id, n) for game_id, game in sorted(GAMES.items()) for n in game.info.player_counts])
def test_random_hands_over_http_for_every_player_count(documented, game_id, players):
    """Every answer of every hand is also checked against the documented response schema (four
    hands a table: the rules' own properties are tests/test_conformance.py's thousand)."""
    rng = random.Random(f"{game_id}-{players}")
    for n in range(4):
        _play_over_http(documented, game_id, players, f"{game_id}-{players}-{n}", rng)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_hand_record_is_refused_at_its_first_illegal_move(client, game_id):
    path, rng = f"/v1/games/{game_id}", random.Random(game_id)
    state = start = client.post(f"{path}/deal", json={"seed": "record"}).json["state"]
    played = []
    while state["status"] == "in_progress":
        played.append(rng.choice(client.post(f"{path}/legal-moves", json={"state": state}).json["moves"]))
        state = client.post(f"{path}/validate", json={"state": state, "move": played[-1]}).json["state"]

    def score(**body):
        return client.post(f"{path}/score", json=body)

    short = problem(score(record={"start": start, "moves": played[:-1]}), 422)
    assert short["errors"][0]["pointer"] == "/record/moves"
    repeated = problem(score(record={"start": start, "moves": [played[0], *played]}), 422)
    assert repeated["type"].endswith("illegal-recorded-move")
    assert repeated["errors"][0]["pointer"] == "/record/moves/1"
    broken = problem(score(record={"start": {**start, "dealer": start["seats"]}, "moves": played}), 422)
    assert broken["errors"][0]["pointer"].startswith("/record/start")
    assert problem(score(), 422)["errors"] == [
        {"pointer": "/state", "message": "send the final state, or the hand's record as `record`"}]
    both = {"state": state, "record": {"start": start, "moves": played}}
    assert problem(score(**both), 422)["errors"] == [
        {"pointer": "/record", "message": "send the final state or the record, not both"}]


@pytest.mark.parametrize("game_id", ["bura", "kozel-bura"])
def test_molodka_out_of_turn_over_http(client, game_id):
    path = f"/v1/games/{game_id}"
    options = {"triple_lead": True} if game_id == "kozel-bura" else {}
    for n in range(200):
        state = client.post(f"{path}/deal", json={"seed": f"m{n}", "options": options}).json["state"]
        other = 1 - state["to_move"]
        moves = client.post(f"{path}/legal-moves", json={"state": state, "seat": other}).json["moves"]
        if moves:
            break
    else:
        pytest.fail("no deal with a molodka in 200 seeds")
    assert {m["type"] for m in moves} == {"molodka"}
    answer = client.post(f"{path}/validate", json={"state": state, "move": moves[0]}).json
    assert answer["legal"] and answer["state"]["trick"]["leader"] == other
    lead = {**moves[0], "type": "lead"}
    refused = client.post(f"{path}/validate", json={"state": state, "move": lead}).json
    assert refused["reason"]["code"] == "not_your_turn"


def test_games_list_names_every_game_in_russian(client):
    names = {g["id"]: g["name_ru"] for g in client.get("/v1/games").json["games"]}
    assert names["bura"] == "Бура" and names["kozel-bura"] == "Козёл-бура"


@pytest.mark.parametrize("method", ["turn_to_left", "three_cards", "first_card", "jack_of_clubs"])
def test_kozel_over_http_under_every_trump_method_until_a_side_loses(client, method):
    path = "/v1/games/kozel"
    options = ({"jack_of_clubs_first_deal": True} if method == "jack_of_clubs"
               else {"trump_method": method})
    rng, match = random.Random(method), None
    for n in range(60):
        body = {"seed": f"{method}-{n}", "options": options, **({"match": match} if match else {})}
        state = client.post(f"{path}/deal", json=body).json["state"]
        while state["status"] == "in_progress":
            moves = client.post(f"{path}/legal-moves", json={"state": state}).json["moves"]
            answer = client.post(f"{path}/validate", json={"state": state, "move": rng.choice(moves)})
            assert answer.status_code == 200 and answer.json["legal"], answer.json
            state = answer.json["state"]
        scored = client.post(f"{path}/score", json={"state": state, "match": match})
        assert scored.status_code == 200, scored.json
        match = scored.json["match"]
        if match["over"]:
            assert match["loser"] in ([0, 2], [1, 3], None)
            if match["loser"] is not None:
                loser_team = 0 if match["loser"] == [0, 2] else 1
                assert match["pairs_opened"][loser_team] >= 6 and match["pairs_left"][loser_team] == 0
            break
    else:
        pytest.fail("no side lost in 60 hands")


def test_every_documented_example_is_answered_200(client):
    spec = client.get("/openapi.json").json
    posts = [(path, op) for path, ops in spec["paths"].items() for method, op in ops.items()
             if method == "post" and "example" in op["requestBody"]["content"]["application/json"]]
    assert len(posts) == 8 * len(GAMES)  # the seven open operations and the sealed deal; no token is an example
    for path, op in posts:
        example = op["requestBody"]["content"]["application/json"]["example"]
        answer = client.post(path, json=example)
        assert answer.status_code == 200, (path, answer.json)


ACE_TEN_NINE = {"sixty-six": (11, 10, 0), "bura": (11, 10, 0), "kozel-bura": (11, 10, 0),
                "kozel": (11, 10, 0), "bezique": (0, 0, 0), "canasta": (20, 10, 10)}
"""What AH, 10H and 9H are worth: in tricks, except in Bezique, which scores its declarations only
(§7.2), and in Canasta, where they are the classic values of melded cards (§2.3)."""


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_card_values_are_given_for_every_card_code_of_the_deck(client, game_id):
    detail = client.get(f"/v1/games/{game_id}").json
    assert set(detail["card_values"]) == set(GAMES[game_id].schemas.fields.codes)
    assert set(detail["deck_cards"]) <= set(detail["card_values"])
    ace, ten, nine = (detail["card_values"][code] for code in ("AH", "10H", "9H"))
    assert (ace, ten, nine) == ACE_TEN_NINE[game_id]
