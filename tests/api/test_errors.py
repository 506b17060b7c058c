"""Errors that say everything at once, and say it in the caller's terms."""

from __future__ import annotations

import pytest

from service.games.registry import GAMES

P = "/v1/games/sixty-six"


def problem(answer, status):
    assert answer.status_code == status and answer.content_type == "application/problem+json"
    return answer.json


def test_every_schema_error_is_reported_at_once(client):
    body = problem(client.post(f"{P}/deal", json={"seed": 1, "players": 3, "dealer": "x"}), 422)
    assert {e["pointer"] for e in body["errors"]} == {"/seed", "/players", "/dealer"}


def test_the_first_error_keeps_its_precise_message_and_summaries_are_left_out(client):
    state = client.post(f"{P}/deal", json={"seed": "e"}).json["state"]
    body = problem(client.post(f"{P}/validate", json={"state": state, "move": {"seat": 0, "type": "jump"}}),
                   422)
    assert body["errors"] == [{"pointer": "/move/type", "message": body["errors"][0]["message"]}]
    assert "play" in body["errors"][0]["message"]


def test_missing_and_unknown_fields_are_each_named(client):
    body = problem(client.post(f"{P}/legal-moves", json={"state": {"game": "sixty-six"}, "x": 1, "y": 2}), 422)
    pointers = {e["pointer"] for e in body["errors"]}
    assert {"/x", "/y", "/state/hands", "/state/stock", "/state/dealer"} <= pointers


def test_a_deeply_nested_mistake_still_gets_its_one_error(client):
    deep = 1.5
    for _ in range(400):
        deep = [deep]
    body = problem(client.post(f"{P}/legal-moves", json={"state": deep}), 422)
    assert body["errors"][0]["pointer"] == "/state"


@pytest.mark.parametrize("path", ["deal", "validate", "legal-moves", "view", "score", ""])
def test_an_unknown_game_lists_the_known_ones(client, path):
    answer = client.post(f"/v1/games/sixtysix/{path}", json={}) if path else client.get("/v1/games/sixtysix")
    body = problem(answer, 404)
    assert body["title"] == "Unknown game" and "'sixtysix'" in body["detail"]
    assert all(game_id in body["detail"] for game_id in GAMES)


def test_an_unknown_path_of_a_known_game_is_a_plain_404(client):
    assert problem(client.get(f"{P}/nowhere"), 404)["title"] == "Not Found"


@pytest.mark.parametrize("other", sorted(set(GAMES) - {"sixty-six"}))
def test_a_state_of_another_game_is_named_as_such(client, other):
    state = client.post(f"{P}/deal", json={"seed": "other"}).json["state"]
    for path, body in (("legal-moves", {"state": state}), ("view", {"state": state, "seat": 0}),
                       ("score", {"record": {"start": state, "moves": []}})):
        errors = problem(client.post(f"/v1/games/{other}/{path}", json=body), 422)["errors"]
        assert len(errors) == 1 and errors[0]["pointer"].endswith("/game")
        assert "sixty-six" in errors[0]["message"] and "/v1/games/sixty-six/" in errors[0]["message"]


def test_a_seat_outside_the_table_is_titled_as_a_bad_seat(client):
    """Bura seats up to six, so the schema takes seat 3; a table of two has no seat 3."""
    bura = "/v1/games/bura"
    state = client.post(f"{bura}/deal", json={"seed": "seat", "players": 2}).json["state"]
    for path, body in (("view", {"state": state, "seat": 3}),
                       ("legal-moves", {"state": state, "seat": 2}),
                       ("validate", {"state": state, "move": {"seat": 5, "type": "claim"}})):
        answer = problem(client.post(f"{bura}/{path}", json=body), 422)
        assert answer["title"] == "No such seat at this table" and answer["type"].endswith(":bad-seat")
    assert problem(client.post("/v1/games/bura/deal", json={"players": 2, "dealer": 4}), 422)["title"] == (
        "No such seat at this table")


def test_posting_the_whole_deal_answer_says_what_to_send(client):
    dealt = client.post(f"{P}/deal", json={"seed": "whole"}).json
    errors = problem(client.post(f"{P}/legal-moves", json=dealt), 422)["errors"]
    assert {e["pointer"] for e in errors} == {"/seed", "/shuffle"}
    assert all('send the deal\'s state alone, as {"state": ...}' in e["message"] for e in errors)


def test_many_errors_are_listed_up_to_a_bound_and_quoted_values_cut_short(client):
    body = {f"extra_{n}": n for n in range(100)} | {"seed": "x" * 5000, "players": ["y" * 5000]}
    answer = problem(client.post(f"{P}/deal", json=body), 422)
    assert len(answer["errors"]) == 20 and "102 errors" in answer["detail"]
    assert all(len(e["message"]) <= 210 for e in answer["errors"])
    assert len(client.post(f"{P}/deal", json=body).get_data()) < 8_000


def test_an_answer_never_grows_with_what_the_client_sent(client):
    """A 500 KB unknown field's name is cut short in the pointer, and the cut is said."""
    name = "k" * 500_000
    answer = client.post(f"{P}/deal", json={name: 1})
    body = problem(answer, 422)
    assert len(answer.get_data()) < 2_000
    assert body["errors"][0]["pointer"].startswith("/kkk") and "(cut: 500001 characters in all)" in (
        body["errors"][0]["pointer"])


def test_a_traceback_in_the_log_is_cut_and_the_cut_marked(capfd):
    from service import create_app

    app = create_app()

    def boom():
        raise ValueError("x" * 200_000)  # as long as the traceback of a deep recursion

    app.add_url_rule("/boom", "boom", boom)
    assert app.test_client().get("/boom").status_code == 500
    lines = [line for line in capfd.readouterr().err.splitlines() if '"unhandled error"' in line]
    assert lines and len(lines[-1]) < 10_000 and "characters cut" in lines[-1]
