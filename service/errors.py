"""Every error the service can raise, in one place, each with its HTTP status.

``ServiceError`` subclasses become RFC 9457 problem documents (see ``service.api.problems``).
``IllegalMove`` is not an HTTP error: an illegal move is an answer (200, ``legal: false``).
"""

from __future__ import annotations

from dataclasses import dataclass

from service.i18n import N_, Message
from service.i18n.text import Text


def message(template: str, params: dict[str, object]) -> Message:
    """An error's sentence: ``template`` (its English message id) alone, or a ``Text`` writing
    ``params`` into it in the answer's language."""
    if not params:
        return template
    return Text(template, params)


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem with the request body, located by a JSON pointer into it."""

    pointer: str
    message: Message


class ServiceError(Exception):
    """An error answered as a problem. Its detail (and each field error's message) is an English
    sentence, the catalogs' message id; a sentence with values names them as ``{name}``, given
    as keyword ``params``, written in the answer's language when it is sent (as ``refuse``)."""

    status: int = 500
    title: str = N_("Internal Server Error")
    says: str = N_("Something went wrong on the server: try again.")
    """The problem in a sentence a player may be shown (``message``): no code, field or rule in
    it; ``detail`` and ``errors`` are for the developer."""
    slug: str = "internal"

    def __init__(self, detail: Message, errors: tuple[FieldError, ...] = (), /, **params: object) -> None:
        self.detail = message(detail, params) if isinstance(detail, str) else detail
        super().__init__(str(self.detail))
        self.errors = errors

    def within(self, prefix: str) -> ServiceError:
        """Move every pointer under ``prefix`` (e.g. ``/state``), for re-raising."""
        self.errors = tuple(FieldError(prefix + e.pointer, e.message) for e in self.errors)
        return self


class MalformedJson(ServiceError):
    status, title, slug = 400, N_("Malformed JSON"), "malformed-json"
    says = N_("The request could not be read.")


class UnsupportedMediaType(ServiceError):
    status, title, slug = 415, N_("Unsupported Media Type"), "unsupported-media-type"
    says = N_("The request could not be read.")


class SchemaViolation(ServiceError):
    status, title, slug = 422, N_("Request does not match the schema"), "schema-violation"
    says = N_("The request could not be read.")


class Located(ServiceError):
    """An error of one field, named by its pointer."""

    def __init__(self, pointer: str, sentence: Message, /, **params: object) -> None:
        written = message(sentence, params) if isinstance(sentence, str) else sentence
        super().__init__(written, (FieldError(pointer, written),))


class InvalidState(Located):
    """The state is well-formed JSON but cannot arise under the game's rules."""

    status, title, slug = 422, N_("Inconsistent game state"), "invalid-state"
    says = N_("This position cannot arise in the game.")


class BadSeat(InvalidState):
    """A seat number the schema allows (it knows only the largest table) that this table has not:
    seat 3 at a table of two."""

    title, slug = N_("No such seat at this table"), "bad-seat"
    says = N_("There is no such seat at this table.")


class InvalidDeck(InvalidState):
    """A deck order given to ``deal`` that is not exactly the game's deck; pointers are relative
    to the list."""

    title, slug = N_("This deck cannot be dealt"), "invalid-deck"
    says = N_("This deck cannot be dealt.")


class UnknownGame(ServiceError):
    status, title, slug = 404, N_("Unknown game"), "unknown-game"
    says = N_("There is no such game here.")


class InvalidMatch(InvalidState):
    """The match standing sent with a request is impossible or already over."""

    slug = "invalid-match"
    says = N_("This match cannot go on: start a new one.")


class HandNotFinished(InvalidState):
    """A hand scored before its end: a possible state, only not a finished one."""

    title, slug = N_("The hand is not over"), "hand-not-finished"
    says = N_("The hand is not over yet: play it out first.")


class IllegalRecordedMove(InvalidState):
    """A move of a hand record that the rules refuse at its point in the hand."""

    title, slug = N_("Illegal move in the record"), "illegal-recorded-move"
    says = N_("The hand's record has a move the rules do not allow.")


class RecordMismatch(InvalidState):
    """A record sent beside a state (``suggest``) that leads to another state."""

    title, slug = N_("Record and state disagree"), "record-mismatch"
    says = N_("The hand's record does not lead to the state sent with it.")


class TokenRefused(Located):
    """A sealed request refused for its token or seat key; ``cause`` is a short code of why, for
    the metrics (README, "Run at scale")."""

    cause: str = "unreadable"

    def __init__(self, pointer: str, sentence: Message, /, *, cause: str | None = None,
                 **params: object) -> None:
        super().__init__(pointer, sentence, **params)
        if cause is not None:
            self.cause = cause


class BadToken(TokenRefused):
    """A sealed token this server cannot open: not one of its tokens, altered, cut short, of
    another game or kind, or sealed with a key it no longer holds."""

    status, title, slug = 422, N_("This token cannot be opened"), "bad-token"
    says = N_("This game cannot be continued: deal a new hand.")


class WrongSeatKey(TokenRefused):
    """A sealed request that acts or looks as a seat without that seat's key."""

    status, title, slug, cause = 403, N_("Not this seat's key"), "wrong-seat-key", "seat-key"
    says = N_("This is not your seat.")


class Replayed(TokenRefused):
    """A move on a hand's token older than the hand's latest (the replay guard, ``REPLAY_STORE``):
    the hand has moved on since, and its older tokens cannot play it again."""

    status, title, slug, cause = 409, N_("This hand has moved on"), "replayed", "replayed"
    says = N_("The game has moved on since: open it again.")


class HandUnknown(TokenRefused):
    """A sealed move on a hand the replay guard has no record of in the token's epoch: its store
    lost it (restarted without its data, evicted it), the hand was dealt before the guard ran, or
    it was left longer than the guard keeps hands. Refused, not trusted: its tokens cannot be
    judged."""

    status, title, slug, cause = 409, N_("This hand cannot be judged"), "hand-unknown", "unjudged"
    says = N_("This game cannot be continued: deal a new hand.")


class ReplayStoreDown(ServiceError):
    """The replay guard's store did not answer, and the operator chose to refuse sealed moves
    then (``REPLAY_STORE_DOWN=refuse``) rather than serve them unguarded."""

    status, title, slug = 503, N_("The replay guard's store is unavailable"), "replay-store-down"
    says = N_("The server is busy: try again in a moment.")


class ComputerBusy(ServiceError):
    """Every search this instance runs at once (``SEARCH_SLOTS``) is taken: the computer player's
    request is refused at once, never queued behind them (a 503 with ``Retry-After``)."""

    status, title, slug = 503, N_("The computer player is busy"), "computer-busy"
    says = N_("The computer is busy: try again in a moment.")
    limit = "SEARCH_SLOTS"


class WrongMode(Located):
    """A field the request's mode does not take: a deck or a clear match in a sealed deal, a
    match_token in an open one, options that a sealed match's table does not play."""

    status, title, slug = 422, N_("Not in this mode"), "wrong-mode"
    says = N_("The request does not fit this kind of game.")


class LimitExceeded(ServiceError):
    """An answer that would pass one of the operator's limits (``MAX_LISTING``,
    ``MAX_ANSWER_BYTES``): refused, named, never sent."""

    status, title, slug = 422, N_("The answer would pass a limit"), "limit-exceeded"
    says = N_("The answer would be too long.")

    def __init__(self, detail: str, *, limit: str, value: int, **params: object) -> None:
        super().__init__(detail, **params)
        self.limit, self.value = limit, value


class OverBudget(LimitExceeded):
    """A computer player's request that asks for more search than this server allows
    (``SUGGEST_MAX_BUDGET_MS``, ``SUGGEST_MAX_SAMPLES``), named by its field."""

    title, slug = N_("More search than this server allows"), "over-budget"
    says = N_("The computer cannot think that long on this server.")

    def __init__(self, pointer: str, detail: str, *, limit: str, value: int, **params: object) -> None:
        super().__init__(detail, limit=limit, value=value, **params)
        self.errors = (FieldError(pointer, self.detail),)


class NoMove(Located):
    """A computer player's move asked for a seat that has none to make now (not its turn): like
    a state that cannot arise, a request the rules cannot answer (422, so that a schema-valid
    request is never refused with another status)."""

    status, title, slug = 422, N_("This seat has no move now"), "no-move"
    says = N_("It is not this player's turn now.")


class IllegalMove(Exception):
    """A move the rules refuse. ``reason`` is a stable code from the game's rules file."""

    def __init__(self, reason: str, message: Text, rule: str = "") -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.rule = rule
