"""The operator's limits on an answer (README, "Configuration"): past ``MAX_LISTING`` or
``MAX_ANSWER_BYTES`` the answer is a 422 problem naming the limit, in both modes; below them,
nothing changes, and the files of /docs are not the service's answers."""

from __future__ import annotations

import pytest

from service import create_app
from service.config import Settings
from service.sealing import StateKey

KEY = StateKey.generate("test")


def client(**limits):
    return create_app(Settings(state_keys=(KEY,), **limits)).test_client()


def deal(c, game="sixty-six", *, sealed=False, **body):
    path = f"/v1/games/{game}/sealed/deal" if sealed else f"/v1/games/{game}/deal"
    answer = c.post(path, json={"seed": "limits", **body})
    assert answer.status_code == 200
    return answer.get_json()


def refused_by(answer, name, value):
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    problem = answer.get_json()
    assert problem["type"] == "urn:card-rules:problem:limit-exceeded" and problem["status"] == 422
    assert problem["limit"] == {"name": name, "value": value} and name in problem["detail"]
    return problem


def test_a_listing_past_max_listing_is_refused_naming_the_limit():
    c = client(max_listing=3)
    state = deal(c)["state"]
    listed = len(client().post("/v1/games/sixty-six/legal-moves", json={"state": state}).get_json()["moves"])
    problem = refused_by(c.post("/v1/games/sixty-six/legal-moves", json={"state": state}), "MAX_LISTING", 3)
    assert f"{listed} entries" in problem["detail"] and listed > 3
    at_limit = client(max_listing=listed).post("/v1/games/sixty-six/legal-moves", json={"state": state})
    assert at_limit.status_code == 200 and len(at_limit.get_json()["moves"]) == listed


def test_a_sealed_listing_is_bounded_alike():
    c = client(max_listing=3)
    dealt = deal(c, sealed=True)
    body = {"token": dealt["token"], "seat_key": dealt["seat_keys"][dealt["to_move"]]}
    refused_by(c.post("/v1/games/sixty-six/sealed/legal-moves", json=body), "MAX_LISTING", 3)
    spectator = c.post("/v1/games/sixty-six/sealed/legal-moves", json={"token": dealt["token"]})
    assert spectator.status_code == 200 and spectator.get_json()["moves"] == []


@pytest.mark.parametrize("path", ["deal", "view"])
def test_an_answer_past_max_answer_bytes_is_refused_naming_the_limit(path):
    c = client(max_answer_bytes=500)
    body = {"seed": "limits"} if path == "deal" else {"state": deal(client())["state"], "seat": 0}
    refused_by(c.post(f"/v1/games/sixty-six/{path}", json=body), "MAX_ANSWER_BYTES", 500)


def test_small_answers_and_the_docs_files_pass():
    c = client(max_answer_bytes=500)
    assert c.get("/health").status_code == 200
    for path in ("/docs/assets/swagger-ui-bundle.js", "/openapi.json"):
        answer = c.get(path)
        assert answer.status_code == 200 and len(answer.data) > 500


def test_families_are_in_the_answer_of_the_games_that_have_them():
    c = client()
    for game, has in (("canasta", True), ("bezique", True), ("bura", False)):
        answer = c.post(f"/v1/games/{game}/legal-moves", json={"state": deal(c, game)["state"]}).get_json()
        assert ("families" in answer) == has and answer.get("families", []) == []
