"""The five operations of a game, each one small handler of the same steps: read the hand (or the
deal's table) from the body, act through the game, answer. Which mode a request is in is decided
once, by what the body holds (``hand`` and ``table``); no handler asks."""

from __future__ import annotations

from typing import Any

from service.api.hands import Hand, OpenHand, OpenTable, RecordHand, Table
from service.api.limits import listed
from service.api.sealed import SealedTable, Sealer, TokenHand
from service.errors import IllegalMove
from service.games.base import Game, Wire
from service.sealing import Keyring


class Operations:
    """deal, validate, legal-moves, view and score of one game, in both modes."""

    def __init__(self, game: Game[Any, Any], keyring: Keyring, *, max_listing: int) -> None:
        self.game, self.sealer, self.max_listing = game, Sealer(game, keyring), max_listing

    def hand(self, body: Wire) -> Hand:
        """The hand the body holds: a sealed token, a record of moves, or a state."""
        if "token" in body:
            return TokenHand(self.sealer, body)
        if "record" in body:
            return RecordHand(self.game, body)
        return OpenHand(self.game, body)

    def table(self, body: Wire) -> Table:
        return SealedTable(self.sealer, body) if body.get("sealed") else OpenTable(self.game, body)

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
            return hand.refused(refusal)
        return hand.moved(*self.game.apply(hand.state, move))

    def legal_moves(self, body: Wire) -> Wire:
        hand = self.hand(body)
        to_move = self.game.to_move(hand.state)
        listing = listed(self.game, hand.state, hand.asking(to_move), most=self.max_listing)
        return hand.answer({"to_move": to_move, **listing})

    def view(self, body: Wire) -> Wire:
        hand = self.hand(body)
        return hand.answer({"view": self.game.view(hand.state, hand.seat)})

    def score(self, body: Wire) -> Wire:
        hand = self.hand(body)
        with hand.finishing():
            answer = self.game.score(hand.state, hand.match)
        return hand.scored(answer)
