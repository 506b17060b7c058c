"""Typed settings with their defaults, read from the environment (see README's table)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


@dataclass(frozen=True)
class Settings:
    max_body_bytes: int = 1_048_576
    """Larger request bodies get 413. The largest state (Bezique, 214 cards) is far below."""
    log_level: str = "INFO"
    cors_origins: tuple[str, ...] = ()
    """Origins allowed to call from a browser; ``*`` allows any. Empty: no CORS headers."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        level = env.get("LOG_LEVEL", cls.log_level).upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        origins = tuple(o.strip() for o in env.get("CORS_ORIGINS", "").split(",") if o.strip())
        return cls(
            max_body_bytes=int(env.get("MAX_BODY_BYTES", cls.max_body_bytes)),
            log_level=level,
            cors_origins=origins,
        )
