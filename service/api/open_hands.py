"""The open mode's hands: a state sent in the clear (with the seat it names, and for ``suggest``
the record that led to it), a hand sent as its record (``score``), and an open deal's table."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from service.api.events import EVERY_SEAT, spoken, told
from service.api.hands import Hand, load_move, refusal_wire, seated
from service.api.languages import current as current_language
from service.cards import DeckSource, SeedStream
from service.errors import (
    FieldError,
    HandNotFinished,
    IllegalMove,
    IllegalRecordedMove,
    InvalidDeck,
    InvalidState,
    RecordMismatch,
    SchemaViolation,
)
from service.games.base import DealSetup, Event, Game, Wire
from service.games.decks import GivenOrder
from service.i18n import quoted


def scored_hand(game: Game[Any, Any], body: Wire) -> Hand:
    """The hand a ``score`` body holds: its final ``state``, or its ``record`` (one of them)."""
    if "record" not in body:
        if "state" not in body:
            raise SchemaViolation("a score takes the finished hand", (
                FieldError("/state", "send the final state, or the hand's record as `record`"),))
        return OpenHand(game, body)
    if "state" in body:
        raise SchemaViolation("a state or a record, not both", (
            FieldError("/record", "send the final state or the record, not both"),))
    return RecordHand(game, body)

class OpenHand:
    """The state the body sends, and the seat it names; with a ``record`` (``suggest``), the
    hand's start and moves, which must lead to that state."""

    def __init__(self, game: Game[Any, Any], body: Wire) -> None:
        self.game = game
        try:
            self.state = game.load_state(body["state"])
        except InvalidState as error:
            raise error.within("/state") from None
        self.seats = game.seats(self.state)
        self.seat = seated(body.get("seat"), self.seats, "/seat")
        self.match: Wire | None = body.get("match")
        self.record: Wire | None = body.get("record")

    def asking(self, to_move: int | None) -> int | None:
        return to_move if self.seat is None else self.seat

    def move(self, wire: Wire) -> Any:
        seated(wire["seat"], self.seats, "/move/seat")
        return load_move(self.game, wire, "/move")

    def current(self) -> None:
        return None  # an open state is whatever the client says it is

    def refused(self, refusal: IllegalMove, mover: int) -> Wire:
        return {"legal": False, "reason": refusal_wire(refusal, self.game.info.vocabulary, mover)}

    def moved(self, move: Any, state: Any, events: list[Event]) -> Wire:
        info = self.game.info
        told_all = told(info.event_types, events, EVERY_SEAT)
        return {"legal": True, "state": self.game.dump_state(state),
                "events": spoken(info.event_types, told_all, None, current_language(), info.vocabulary)}

    def answer(self, wire: Wire) -> Wire:
        return wire

    @contextmanager
    def finishing(self) -> Iterator[None]:
        yield  # the game names the state's own field (`/state/status`, `/state/phase`)

    def scored(self, answer: Wire) -> Wire:
        return {**answer, "state": self.game.dump_state(self.state)}

    def history(self) -> list[tuple[Any, Any]]:
        if self.record is None:
            return []
        history, final = replayed(self.game, self.record)
        if self.game.dump_state(final) != self.game.dump_state(self.state):
            raise RecordMismatch("/record", "the record's moves lead to another state than the one sent")
        return history


def replayed(game: Game[Any, Any], record: Wire) -> tuple[list[tuple[Any, Any]], Any]:
    """A record's moves, each checked as ``validate`` would and applied, with the state each was
    made in, and the state they lead to; the first one the rules refuse is a 422 at its index."""
    try:
        state = game.load_state(record["start"])
    except InvalidState as error:
        raise error.within("/record/start") from None
    seats, history = game.seats(state), []
    for index, wire_move in enumerate(record["moves"]):
        at = f"/record/moves/{index}"
        seated(wire_move["seat"], seats, f"{at}/seat")
        move = load_move(game, wire_move, at)
        try:
            game.check(state, move)
        except IllegalMove as refusal:
            raise IllegalRecordedMove(at, "move {index} is illegal here: {reason}: {refusal}",
                                      index=index, reason=refusal.reason,
                                      refusal=quoted(refusal.message)) from None
        history.append((state, move))
        state, _ = game.apply(state, move)
    return history, state


class RecordHand(OpenHand):
    """A hand sent as its start and every move (``score``): the state they lead to, each move
    checked as ``validate`` would; the first one the rules refuse is a 422 at its index."""

    def __init__(self, game: Game[Any, Any], body: Wire) -> None:
        self.game, self.record = game, body["record"]
        self.moves, self.state = replayed(game, self.record)
        self.seats, self.seat = game.seats(self.state), None
        self.match = body.get("match")

    @contextmanager
    def finishing(self) -> Iterator[None]:
        try:
            yield
        except HandNotFinished:
            raise HandNotFinished("/record/moves", "the moves stop before the hand is over") from None

    def history(self) -> list[tuple[Any, Any]]:
        return self.moves


class OpenTable:
    """An open deal: the seed's shuffle (a seed drawn from the OS when none is sent), or the deck
    given in its dealing order."""

    def __init__(self, game: Game[Any, Any], body: Wire) -> None:
        self.game, self.seed = game, body.get("seed")
        self.setup = DealSetup(body.get("players", game.info.default_players), body.get("dealer"),
                               body.get("options", {}), body.get("match"))
        if body.get("deck") is None:
            self.seed = self.seed or secrets.token_hex(16)
            self.source: DeckSource = SeedStream(self.seed)
        elif self.seed is not None:
            raise SchemaViolation("send a seed or a deck, not both",
                                  (FieldError("/deck", "a deal takes a seed or a deck, not both"),))
        else:
            self.source = GivenOrder(body["deck"])

    @contextmanager
    def dealing(self) -> Iterator[None]:
        try:
            yield
        except InvalidDeck as wrong:
            raise wrong.within("/deck") from None

    def dealt(self, state: Any) -> Wire:
        return {"seed": self.seed, "shuffle": self.source.VERSION, "state": self.game.dump_state(state)}
