"""Two refusals named for what they are: a hand scored before its end is not an impossible
state, and a string that is not a token is not a token of some other format."""

from __future__ import annotations

import base64
from typing import Any

import pytest

SIX = "/v1/games/sixty-six"


@pytest.mark.parametrize(("lang", "title", "says"), [
    ("en", "The hand is not over", "The hand is not over yet: play it out first."),
    ("ru", "Сдача не окончена", "Сдача ещё не окончена: сначала доиграйте её."),
])
def test_a_sealed_score_before_the_end_says_the_hand_is_not_over(client: Any, lang: str, title: str,
                                                                  says: str) -> None:
    token = client.post(f"{SIX}/sealed/deal", json={}).json["token"]
    answer = client.post(f"{SIX}/sealed/score?lang={lang}", json={"token": token})
    assert answer.status_code == 422
    assert answer.json["type"] == "urn:card-rules:problem:hand-not-finished"
    assert (answer.json["title"], answer.json["message"]) == (title, says)


def sent(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


@pytest.mark.parametrize("token", ["AAAA", sent(bytes(range(7, 80))), "x" * 40])
def test_a_string_that_is_not_a_token_is_called_so(client: Any, token: str) -> None:
    answer = client.post(f"{SIX}/sealed/view", json={"token": token, "seat_key": "AAAA"})
    assert answer.status_code == 422 and answer.json["type"] == "urn:card-rules:problem:bad-token"
    [error] = answer.json["errors"]
    assert error["pointer"] == "/token" and error["message"].startswith("is not a token of this service")
    assert "format" not in error["message"]


def test_a_token_of_the_retired_format_is_still_named_by_its_format(client: Any) -> None:
    answer = client.post(f"{SIX}/sealed/view", json={"token": sent(b"\x01" + bytes(60)), "seat_key": "AAAA"})
    assert "is a token of format 1, which this release does not read" in answer.json["detail"]
