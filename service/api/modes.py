"""The two modes every game is served in (README, "Sealed mode"): open, where the body holds the
hand in the clear, and sealed, where it holds a token and a seat key."""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

T = TypeVar("T")


class Mode(Enum):
    OPEN = "open"
    SEALED = "sealed"

    def named(self, name: str) -> str:
        """A schema's name in this mode: ``ValidateIn``, ``SealedValidateIn``."""
        return f"Sealed{name}" if self is Mode.SEALED else name

    def choose(self, open_one: T, sealed_one: T) -> T:
        return sealed_one if self is Mode.SEALED else open_one
