"""The rule tables' two steps, for any game or rules module (anything with ``check`` and
``apply``): the reason a move is refused, and a line of moves that must all be legal. Every
refusal the tables meet is also written in Russian, and must hold no English."""

from __future__ import annotations

from typing import Any

from service.errors import IllegalMove
from tests.russian import assert_refusal_is_russian


def refusal(rules: Any, state: Any, move: Any) -> str | None:
    try:
        rules.check(state, move)
    except IllegalMove as error:
        assert_refusal_is_russian(error)
        return error.reason
    return None


def play_out(rules: Any, state: Any, *moves: Any) -> Any:
    """Apply moves that must all be legal."""
    for move in moves:
        assert refusal(rules, state, move) is None, move
        state, _ = rules.apply(state, move)
    return state
