"""The Dockerfile's gunicorn command serves the app (there is no Docker engine to run the image)."""

from __future__ import annotations

import http.client
import json
import urllib.request

import pytest

from tests.live import gunicorn

pytestmark = pytest.mark.xdist_group("live")


def test_dockerfile_command_serves_health_and_games():
    with gunicorn() as url:
        with urllib.request.urlopen(url + "/health") as answer:
            assert json.load(answer)["status"] == "ok"
        with urllib.request.urlopen(url + "/v1/games") as answer:
            assert answer.headers["X-Request-ID"]
            assert "sixty-six" in [g["id"] for g in json.load(answer)["games"]]
        body = json.dumps({"seed": "docker"}).encode()
        request = urllib.request.Request(url + "/v1/games/sixty-six/deal", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as answer:
            assert json.load(answer)["state"]["game"] == "sixty-six"


def _post(url: str, body: bytes, *, chunked: bool) -> tuple[int, bytes]:
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    headers = {"Content-Type": "application/json"}
    payload = iter([body[:10], body[10:]]) if chunked else body
    connection.request("POST", "/v1/games/sixty-six/deal", payload, headers, encode_chunked=chunked)
    answer = connection.getresponse()
    return answer.status, answer.read()


def test_bodies_are_read_whole_with_or_without_length_and_refused_past_the_limit():
    """The body is read straight from gunicorn's input: with Content-Length or chunked, whole,
    and 413 past MAX_BODY_BYTES either way."""
    with gunicorn(MAX_BODY_BYTES="200") as url:
        small = json.dumps({"seed": "chunks", "players": 2}).encode()
        large = json.dumps({"seed": "x" * 300}).encode()
        for chunked in (False, True):
            status, answer = _post(url, small, chunked=chunked)
            assert status == 200 and json.loads(answer)["seed"] == "chunks"
            status, answer = _post(url, large, chunked=chunked)
            assert status == 413, answer
            assert json.loads(answer)["status"] == 413
