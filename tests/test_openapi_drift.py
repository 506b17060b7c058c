"""openapi.yaml is generated (`make spec`), never edited: the committed file equals a fresh one."""

from __future__ import annotations

from service.spec import generate
from tests.live import ROOT


def test_committed_openapi_matches_the_schemas():
    committed = (ROOT / "openapi.yaml").read_text()
    assert committed == generate(), "openapi.yaml is stale: run `make spec` and commit it"


def test_served_openapi_is_the_committed_one(client):
    assert client.get("/openapi.yaml").get_data(as_text=True) == (ROOT / "openapi.yaml").read_text()
