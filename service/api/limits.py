"""What one answer may hold and one request may cost, as the operator set it (``MAX_LISTING``,
``MAX_ANSWER_BYTES``, and the computer player's ``SUGGEST_*`` and ``SEARCH_SLOTS``).

The rules keep every listing of a legal position small (a game whose listing could grow past a few
thousand entries answers families of moves instead); these limits are the guard behind that, so
that no answer, however it came about, grows past what the operator allowed."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from typing import Any

from flask import Flask, Response, request

from service.api.problems import service_problem
from service.config import Settings
from service.errors import FieldError, LimitExceeded, OverBudget, SchemaViolation
from service.games.base import Game, Wire
from service.player import Effort
from service.player.levels import Level, level
from service.slots import Slots


def listed(game: Game[Any, Any], state: Any, seat: int | None, *, most: int) -> Wire:
    """``moves`` (and ``families``, for a game that has them) of ``seat``; none for no seat."""
    listing = game.listing(state, seat) if seat is not None else None
    moves = listing.moves if listing else []
    families = listing.families if listing else []
    if len(moves) + len(families) > most:
        raise LimitExceeded("the listing has {entries} entries, more than this server's MAX_LISTING ({most})",
                            limit="MAX_LISTING", value=most, entries=len(moves) + len(families), most=most)
    answer: Wire = {"moves": [game.dump_move(m) for m in moves]}
    if game.schemas.family is not None:
        answer["families"] = families
    return answer


class SearchLimits:
    """The computer player's budget (the default time, and the most time and samples a request
    may ask for) and the slots its searches take (``SEARCH_SLOTS``)."""

    def __init__(self, settings: Settings, slots: Slots | None = None) -> None:
        self.budget_ms, self.max_budget_ms = settings.suggest_budget_ms, settings.suggest_max_budget_ms
        self.max_samples = settings.suggest_max_samples
        self.slots = slots or Slots(settings.search_slots)

    def budget(self, budget_ms: int | None, samples: int | None) -> int:
        """The milliseconds a request may search: ``budget_ms``, else the default, or the most
        allowed when a sample count is asked for; ``OverBudget`` past the limits."""
        if budget_ms is not None and budget_ms > self.max_budget_ms:
            raise OverBudget("/budget_ms",
                             "{asked} ms is more than this server's SUGGEST_MAX_BUDGET_MS ({most})",
                             limit="SUGGEST_MAX_BUDGET_MS", value=self.max_budget_ms, asked=budget_ms,
                             most=self.max_budget_ms)
        if samples is not None and samples > self.max_samples:
            raise OverBudget("/samples",
                             "{asked} samples are more than this server's SUGGEST_MAX_SAMPLES ({most})",
                             limit="SUGGEST_MAX_SAMPLES", value=self.max_samples, asked=samples,
                             most=self.max_samples)
        if budget_ms is None:
            return self.budget_ms if samples is None else self.max_budget_ms
        return budget_ms

    def level(self, named: int | str, budget_ms: int | None, samples: int | None) -> Level:
        """The level a request names, alone (a level is a budget of its own), and no longer than
        this server allows (``OverBudget`` names it)."""
        if budget_ms is not None or samples is not None:
            at = "/budget_ms" if budget_ms is not None else "/samples"
            raise SchemaViolation("a level or a budget, not both", (
                FieldError(at, "send `level`, or `budget_ms` and `samples`, not both"),))
        chosen = level(named)
        if chosen.budget_ms > self.max_budget_ms:
            raise OverBudget("/level", "level {level} searches {asked} ms, more than this server's "
                                       "SUGGEST_MAX_BUDGET_MS ({most})",
                             limit="SUGGEST_MAX_BUDGET_MS", value=self.max_budget_ms, level=chosen.number,
                             asked=chosen.budget_ms, most=self.max_budget_ms)
        return chosen

    def slot(self) -> AbstractContextManager[int]:
        """One of the instance's search slots, for the search's time; ``ComputerBusy`` (503) at once
        when none is free."""
        return self.slots.held()

    def effort(self, budget_ms: int, samples: int | None) -> Effort:
        """The search of ``budget_ms`` from now (its slot taken), and at most ``samples`` samples."""
        most = self.max_samples if samples is None else samples
        return Effort(most, time.perf_counter() + budget_ms / 1000)


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
            "the answer would take {size} bytes, more than this server's MAX_ANSWER_BYTES ({most})",
            limit="MAX_ANSWER_BYTES", value=most, size=size, most=most))
