"""The card-rules service: ``create_app`` is the only factory; nothing happens at import time."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing the rules must load neither Flask nor the settings' cryptography
    from flask import Flask

    from service.config import Settings


def create_app(config: Settings | None = None) -> Flask:
    from flask import Flask

    from service.api import init_api
    from service.config import Settings
    from service.games.registry import GAMES

    settings = config or Settings.from_env()
    app = Flask(__name__)
    init_api(app, settings, GAMES)
    return app
