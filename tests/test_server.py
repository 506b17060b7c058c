"""The Dockerfile's gunicorn command serves the app (there is no Docker engine to run the image)."""

from __future__ import annotations

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
