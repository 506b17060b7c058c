"""The steps of each operation, the same in both modes: given the hand (or the deal's table) that
the path read from the body (``service.api.paths``), act through the game and let the hand shape
the answer. No step asks which mode it is in."""

from __future__ import annotations

import secrets
from typing import Any

from service.api.hands import Hand, Table
from service.api.limits import SearchLimits, listed
from service.errors import IllegalMove, NoMove
from service.games.base import Game, Wire
from service.player import Suggestion
from service.player import suggest as search_move
from service.player.levels import played


def deal(game: Game[Any, Any], table: Table) -> Wire:
    with table.dealing():
        state = game.deal(table.setup, table.source)
    return table.dealt(state)


def validate(game: Game[Any, Any], hand: Hand, proposed: Wire) -> Wire:
    """The next state and the events if the ``proposed`` move is legal, else why not."""
    move = hand.move(proposed)
    try:
        game.check(hand.state, move)
    except IllegalMove as refusal:
        return hand.refused(refusal, proposed["seat"])
    return hand.moved(move, *game.apply(hand.state, move))


def legal_moves(game: Game[Any, Any], hand: Hand, *, most: int) -> Wire:
    to_move = game.to_move(hand.state)
    return hand.answer({"to_move": to_move, **listed(game, hand.state, hand.asking(to_move), most=most)})


def view(game: Game[Any, Any], hand: Hand, seat: int | None) -> Wire:
    """What ``seat`` may see (None: a spectator)."""
    return hand.answer({"view": game.view(hand.state, seat)})


def suggest(game: Game[Any, Any], hand: Hand, body: Wire, search: SearchLimits) -> Wire:
    at = "/seat_key" if "seat_key" in body else "/seat"
    if hand.seat is None:  # the schemas require the seat (or its key): a guard for the type
        raise NoMove(at, "a suggestion is for a seat")
    hand.current()
    try:
        found, seed, budget_ms = searched(game, hand.state, hand.seat, body, hand.history(), search)
    except NoMove as none:
        raise NoMove(at, none.detail) from None
    dump = game.dump_move
    return hand.answer({
        "move": dump(found.move), "samples": found.samples, "seed": seed, "budget_ms": budget_ms,
        "candidates": [{"move": dump(w.move), "value": w.value} for w in found.weighed],
    })


def searched(game: Game[Any, Any], state: Any, seat: int, body: Wire, history: list[tuple[Any, Any]],
             search: SearchLimits) -> tuple[Suggestion[Any], str, int]:
    """The computer player's move for ``seat`` from ``state`` and the ``history`` that led to it,
    the seed and the budget it used. Every check that can refuse the request comes before the
    search, which runs in one of the instance's search slots (``ComputerBusy`` at once when none
    is free)."""
    seed = body.get("seed") or secrets.token_hex(8)
    if body.get("level") is not None:
        at = search.level(body["level"], body.get("budget_ms"), body.get("samples"))
        with search.slot():
            return played(game, state, seat, seed=seed, at=at, history=history), seed, at.budget_ms
    budget_ms = search.budget(body.get("budget_ms"), body.get("samples"))
    with search.slot():
        effort = search.effort(budget_ms, body.get("samples"))
        return search_move(game, state, seat, seed=seed, effort=effort, history=history), seed, budget_ms


def score(game: Game[Any, Any], hand: Hand) -> Wire:
    with hand.finishing():
        answer = game.score(hand.state, hand.match)
    return hand.scored(answer)
