"""What a request's hand is, in either mode, and what both modes' hands share: the move read at
its pointer, a seat checked against the table, a refusal told to its mover. The open mode's hands
are in ``service.api.open_hands``, the sealed mode's in ``service.api.sealed``; every operation
(``service.api.operations``) asks its hand (or table) for what it needs, acts through the game,
and lets the hand shape the answer: this is where the modes differ, and the only place."""

from __future__ import annotations

from typing import Any, Protocol

from service.api.languages import current as current_language
from service.cards import DeckSource
from service.errors import BadSeat, IllegalMove, SchemaViolation
from service.games.base import DealSetup, Event, Game, Wire
from service.i18n import translate
from service.i18n.cards import Vocabulary


class Hand(Protocol):
    """A hand as one request holds it."""

    state: Any
    match: Wire | None
    """The standing the hand is scored into."""
    seat: int | None
    """The seat the request speaks for (a seat sent, or a seat key's); None: a spectator."""

    def asking(self, to_move: int | None) -> int | None:
        """The seat whose moves ``legal-moves`` lists."""

    def move(self, wire: Wire) -> Any:
        """The proposed move at ``/move``, once its seat is one this request may move for."""

    def current(self) -> None:
        """Refuse a hand the request may not work on any more (a sealed token the hand has moved
        past), before a costly answer (a search)."""

    def refused(self, refusal: IllegalMove, mover: int) -> Wire:
        """The answer to a move ``mover`` may not make, said to ``mover``."""

    def moved(self, move: Any, state: Any, events: list[Event]) -> Wire:
        """The answer to a legal ``move``, which led to ``state`` and caused ``events``."""

    def answer(self, wire: Wire) -> Wire:
        """An answer about the hand as it stands (``legal-moves``, ``view``)."""

    def finishing(self) -> Any:
        """A context for ``score``: its refusals, told at what this hand was sent as."""

    def scored(self, answer: Wire) -> Wire: ...

    def history(self) -> list[tuple[Any, Any]]:
        """Each move of the hand so far with the state it was made in, as far as the request
        holds them (none for an open state sent alone): what the computer player infers from."""


def refusal_wire(refusal: IllegalMove, vocabulary: Vocabulary, mover: int) -> Wire:
    """The reason code and rule, and the sentence for the person who tried the move (``mover``),
    with its template and values, in the answer's language."""
    lang = current_language()
    text = refusal.message
    return {"code": refusal.reason, "rule": translate(refusal.rule, lang),
            "message": text.render(lang, mover, vocabulary), "template": text.source(lang, mover),
            "params": text.wire_params()}


def load_move(game: Game[Any, Any], wire: Wire, at: str) -> Any:
    try:
        return game.load_move(wire)
    except SchemaViolation as error:
        raise error.within(at) from None


def seated(seat: int | None, seats: int, at: str) -> int | None:
    """The schema knows the largest table only; the state says how many seats this one has."""
    if seat is not None and seat >= seats:
        raise BadSeat(at, "the table has seats 0..{last}", last=seats - 1)
    return seat


class Table(Protocol):
    """A deal as one request asks for it."""

    setup: DealSetup
    source: DeckSource

    def dealing(self) -> Any:
        """A context for the deal: its refusals, told at what the body sent."""

    def dealt(self, state: Any) -> Wire: ...
