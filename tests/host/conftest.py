"""The stores every test of the host that takes ``store`` runs on: the embedded one (SQLite) and
a real redis-server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live_redis import redis_server


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "sqlite":
        yield "sqlite:///" + str(tmp_path_factory.mktemp("tables") / "tables.sqlite3")
        return
    with redis_server() as url:
        yield url
