"""The operations of a game, each one small handler of the same steps: read the hand (or the
deal's table) from the body, act through the game, answer. The open and the sealed operations
differ only in where the hand is read from (``hand`` and ``table``); no handler asks which."""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from typing import Any

from service.api.hands import Hand, OpenHand, OpenTable, RecordHand, Table, seated
from service.api.limits import SearchLimits, listed
from service.api.sealed import ComputerHand, SealedTable, Sealer, TokenHand
from service.errors import FieldError, IllegalMove, NoMove, SchemaViolation
from service.games.base import Game, Wire
from service.player import Suggestion, suggest
from service.player.levels import played
from service.replay import NO_GUARD, ReplayGuard
from service.sealing import Keyring


class Operations(ABC):
    """deal, validate, legal-moves, view, suggest and score of one game, in one mode."""

    def __init__(self, game: Game[Any, Any], *, max_listing: int, search: SearchLimits) -> None:
        self.game, self.max_listing, self.search = game, max_listing, search

    @abstractmethod
    def hand(self, body: Wire) -> Hand:
        """The hand the body holds."""

    @abstractmethod
    def table(self, body: Wire) -> Table:
        """The deal the body asks for."""

    def deal(self, body: Wire) -> Wire:
        table = self.table(body)
        with table.dealing():
            state = self.game.deal(table.setup, table.source)
        return table.dealt(state)

    def validate(self, body: Wire) -> Wire:
        hand = self.hand(body)
        move = hand.move(body["move"])
        try:
            self.game.check(hand.state, move)
        except IllegalMove as refusal:
            return hand.refused(refusal, body["move"]["seat"])
        return hand.moved(move, *self.game.apply(hand.state, move))

    def legal_moves(self, body: Wire) -> Wire:
        hand = self.hand(body)
        to_move = self.game.to_move(hand.state)
        listing = listed(self.game, hand.state, hand.asking(to_move), most=self.max_listing)
        return hand.answer({"to_move": to_move, **listing})

    def view(self, body: Wire) -> Wire:
        hand = self.hand(body)
        return hand.answer({"view": self.game.view(hand.state, hand.seat)})

    def spectator_view(self, body: Wire) -> Wire:
        hand = self.hand(body)
        return hand.answer({"view": self.game.view(hand.state, None)})

    def advised(self, body: Wire) -> Hand:
        """The hand a ``suggest`` body holds."""
        return self.hand(body)

    def suggest(self, body: Wire) -> Wire:
        hand = self.advised(body)
        at = "/seat_key" if "seat_key" in body else "/seat"
        if hand.seat is None:  # the schemas require the seat (or its key): a guard for the type
            raise NoMove(at, "a suggestion is for a seat")
        hand.current()
        try:
            found, seed, budget_ms = self.searched(hand.state, hand.seat, body, hand.history())
        except NoMove as none:
            raise NoMove(at, none.detail) from None
        dump = self.game.dump_move
        return hand.answer({
            "move": dump(found.move), "samples": found.samples, "seed": seed, "budget_ms": budget_ms,
            "candidates": [{"move": dump(w.move), "value": w.value} for w in found.weighed],
        })

    def searched(self, state: Any, seat: int, body: Wire,
                 history: list[tuple[Any, Any]]) -> tuple[Suggestion[Any], str, int]:
        """The computer player's move for ``seat`` from ``state`` and the ``history`` that led to
        it, the seed and the budget it used. Every check that can refuse the request comes before
        the search, which runs in one of the instance's search slots (``ComputerBusy`` at once
        when none is free)."""
        seed = body.get("seed") or secrets.token_hex(8)
        if body.get("level") is not None:
            at = self.search.level(body["level"], body.get("budget_ms"), body.get("samples"))
            with self.search.slot():
                return played(self.game, state, seat, seed=seed, at=at, history=history), seed, at.budget_ms
        budget_ms = self.search.budget(body.get("budget_ms"), body.get("samples"))
        with self.search.slot():
            effort = self.search.effort(budget_ms, body.get("samples"))
            return suggest(self.game, state, seat, seed=seed, effort=effort, history=history), seed, budget_ms

    def score(self, body: Wire) -> Wire:
        hand = self.hand(body)
        with hand.finishing():
            answer = self.game.score(hand.state, hand.match)
        return hand.scored(answer)


class OpenOperations(Operations):
    """The state travels in the clear: a ``state``, or (``score``) a ``record`` of moves."""

    def hand(self, body: Wire) -> Hand:
        if "record" not in body:
            if "state" not in body:
                raise SchemaViolation("a score takes the finished hand", (
                    FieldError("/state", "send the final state, or the hand's record as `record`"),))
            return OpenHand(self.game, body)
        if "state" in body:
            raise SchemaViolation("a state or a record, not both", (
                FieldError("/record", "send the final state or the record, not both"),))
        return RecordHand(self.game, body)

    def table(self, body: Wire) -> Table:
        return OpenTable(self.game, body)

    def advised(self, body: Wire) -> Hand:
        return OpenHand(self.game, body)  # a state, and maybe the record that led to it


class SealedOperations(Operations):
    """The hand travels as a token, and each seat proves itself with its key; a seat (or a
    spectator) may also ask for the events since a move. With a replay guard, a hand's moves
    are played from its latest token only."""

    def __init__(self, game: Game[Any, Any], keyring: Keyring, *, max_listing: int, search: SearchLimits,
                 guard: ReplayGuard = NO_GUARD) -> None:
        super().__init__(game, max_listing=max_listing, search=search)
        self.sealer, self.guard = Sealer(game, keyring), guard

    def hand(self, body: Wire) -> TokenHand:
        return TokenHand(self.sealer, body, self.guard)

    def table(self, body: Wire) -> Table:
        return SealedTable(self.sealer, body, self.guard)

    def events(self, body: Wire) -> Wire:
        return self.hand(body).events(body.get("since", 0))

    def deal_against_computer(self, body: Wire) -> Wire:
        """A hand for a person at ``seat`` against the computer player at every other seat."""
        table = SealedTable(self.sealer, body, self.guard)
        seat: int = body.get("seat", 0)
        seated(seat, table.setup.players, "/seat")
        with table.dealing():
            state = self.game.deal(table.setup, table.source)
        return table.dealt_against_computer(state, seat)

    def computer_move(self, body: Wire) -> Wire:
        """The computer player's move at the seat to move, made: what everyone may see of it."""
        hand = ComputerHand(self.sealer, body, self.guard)
        move = hand.recalled()
        if move is None:
            move = self.searched(hand.state, hand.seat, body, hand.history())[0].move
        moved = hand.moved(move, *self.game.apply(hand.state, move), computer=True)
        return {"seat": hand.seat, "token": moved["token"], "public_events": moved["public_events"],
                "to_move": moved["to_move"], **hand.ids()}
