"""Positions of the Bura family for the rule tables, built on the wire and loaded through the
game, so that each one passes the consistency check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.cards import cards
from service.errors import InvalidState
from service.games.seating import clockwise, left_of
from service.games.tricks.sets import Lead, Respond


def position(
    game: Any,
    deck: list[str],
    *,
    hands: list[str],
    trump_card: str,
    leader: int,
    stock: str = "",
    trick: list[tuple[int, str, bool]] | None = None,
    won: list[str] | None = None,
    rest_to: int = 0,
    options: dict[str, Any] | None = None,
    phase: str = "play",
    to_move: int | str | None = "auto",
    **extra: Any,
) -> Any:
    """Cards not placed anywhere go to seat ``rest_to``'s won pile (or to ``won`` if given)."""
    seats = len(hands)
    plays = [{"seat": s, "cards": c.split(), "beat": b, "face_down": False} for s, c, b in trick or []]
    placed = [c for h in hands for c in h.split()] + stock.split() + [c for p in plays for c in p["cards"]]
    if won is None:
        won = [""] * seats
        won[rest_to] = " ".join(c for c in deck if c not in placed)
    if to_move == "auto":
        to_move = _next_to_move(hands, leader, plays)
    options = {"players": seats, **(options or {})}
    wire = {
        "game": game.info.id, "seats": seats, "dealer": left_of(leader, seats, -1), "to_move": to_move,
        "options": options, "trump_card": trump_card, "stock": stock.split(),
        "hands": [h.split() for h in hands], "won": [w.split() for w in won], "leader": leader,
        "trick": {"leader": leader, "plays": plays} if plays else None, "phase": phase,
        "last_taker": next((s for s, w in enumerate(won) if w.split()), None), **extra,
    }
    if plays and not options.get("open_play", game.info.id == "kozel-bura"):
        for play in plays[1:]:
            play["face_down"] = not play["beat"]
    return game.load_state(wire)


def _next_to_move(hands: list[str], leader: int, plays: list[dict[str, Any]]) -> int:
    if not plays:
        return leader
    played = {p["seat"] for p in plays}
    return next(s for s in clockwise(plays[-1]["seat"], len(hands))[1:]
                if s not in played and hands[s].split())


def lead(seat: int, text: str) -> Lead:
    return Lead(seat, cards(text))


def respond(seat: int, text: str, mode: str | None = None) -> Respond:
    return Respond(seat, cards(text), mode)


def refused(call: Callable[[], Any]) -> tuple[type, str, str] | None:
    """How ``call`` refuses a state or a match (its class, pointer and message, in English), or None."""
    try:
        call()
    except InvalidState as error:
        return type(error), error.errors[0].pointer, str(error.errors[0].message)
    return None
