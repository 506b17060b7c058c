"""The pages' icons: /docs links its own and serves it; /play serves the one its page links (the
page's static files, as `make web` copies them, stand in for the built page)."""

from __future__ import annotations

import re
from pathlib import Path

from service.api import play

STATIC = Path(__file__).resolve().parents[2] / "clients" / "web" / "static"


def linked_icon(page: str) -> str:
    found = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert found, page
    return found.group(1)


def test_docs_links_an_icon_that_answers_200_with_an_image(client):
    icon = client.get(linked_icon(client.get("/docs").get_data(as_text=True)))
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    assert icon.get_data(as_text=True).startswith("<svg xmlns=\"http://www.w3.org/2000/svg\"")


def test_play_links_an_icon_that_answers_200_with_an_image(client, monkeypatch):
    monkeypatch.setattr(play, "BUILT", STATIC)
    icon = client.get(linked_icon(client.get("/play").get_data(as_text=True)))
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    assert icon.headers["Content-Security-Policy"] == play.CSP
