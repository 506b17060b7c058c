"""Shared fixtures; hypothesis runs a fixed, derandomized profile so CI is repeatable."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=60, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("soak", deadline=None, max_examples=5000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def app():
    from service import create_app

    return create_app()


@pytest.fixture()
def client(app):
    return app.test_client()
