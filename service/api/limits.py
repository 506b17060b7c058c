"""What one answer may hold, as the operator set it (``MAX_LISTING``, ``MAX_ANSWER_BYTES``).

The rules keep every listing of a legal position small (a game whose listing could grow past a few
thousand entries answers families of moves instead); these limits are the guard behind that, so
that no answer, however it came about, grows past what the operator allowed."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request

from service.api.problems import service_problem
from service.config import Settings
from service.errors import LimitExceeded
from service.games.base import Game, Wire


def listed(game: Game[Any, Any], state: Any, seat: int | None, *, most: int) -> Wire:
    """``moves`` (and ``families``, for a game that has them) of ``seat``; none for no seat."""
    listing = game.listing(state, seat) if seat is not None else None
    moves = listing.moves if listing else []
    families = listing.families if listing else []
    if len(moves) + len(families) > most:
        raise LimitExceeded(f"the listing has {len(moves) + len(families)} entries, more than this server's "
                            f"MAX_LISTING ({most})", limit="MAX_LISTING", value=most)
    answer: Wire = {"moves": [game.dump_move(m) for m in moves]}
    if game.schemas.family is not None:
        answer["families"] = families
    return answer


def install(app: Flask, settings: Settings) -> None:
    """Refuse, as a problem, any answer to a game's operation (a POST) whose body passes
    ``MAX_ANSWER_BYTES``; the reference (/docs, /openapi.json) is what it is."""
    most = settings.max_answer_bytes

    @app.after_request
    def bounded(response: Response) -> Response:
        size = response.content_length
        if size is None or size <= most or request.method != "POST" or response.status_code >= 400:
            return response
        return service_problem(LimitExceeded(
            f"the answer would take {size} bytes, more than this server's MAX_ANSWER_BYTES ({most})",
            limit="MAX_ANSWER_BYTES", value=most))
