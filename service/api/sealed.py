"""Sealed mode, for every game alike: the requests that carry a ``token`` (and a ``seat_key``)
instead of a ``state``, and the answers each seat may receive (README, "Sealed mode").

What a seat may see is what the game's own ``view`` shows it, and of the events, what the game
does not mark ``private`` to another seat (a draw: told as a count). Nothing here knows a game's
rules or fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from service.api.limits import listed
from service.cards import SeedStream
from service.errors import (
    BadSeat,
    BadToken,
    HandNotFinished,
    IllegalMove,
    InvalidState,
    WrongMode,
    WrongSeatKey,
)
from service.games.base import DealSetup, Event, Game, Wire
from service.sealing import (
    HAND,
    MATCH,
    Keyring,
    SealedHand,
    SealedMatch,
    commitment,
    new_id,
    new_server_seed,
    shuffle_seed,
)

MAX_CLIENT_SEED = 128
"""So that the joined seed (README, "Sealed mode") fits an open deal's ``seed`` to be checked."""


class SealedPaths:
    """The sealed form of deal, validate, legal-moves, view and score for one game."""

    def __init__(self, game: Game[Any, Any], keyring: Keyring, *, max_listing: int) -> None:
        self.game, self.keyring, self.max_listing = game, keyring, max_listing

    # --- tokens ----------------------------------------------------------------------------

    def _open(self, body: Wire) -> SealedHand:
        hand: SealedHand = self.keyring.open(HAND, self.game.info.id, body["token"], at="/token")
        return hand

    def _seal(self, hand: SealedHand) -> str:
        return self.keyring.seal(HAND, self.game.info.id, hand)

    def _seat(self, hand: SealedHand, body: Wire) -> int | None:
        """The seat the request's key proves, or None without a key (a spectator)."""
        key = body.get("seat_key")
        if key is None:
            return None
        return self.keyring.seat_of(hand, key, at="/seat_key")

    def _ids(self, hand: SealedHand) -> Wire:
        return {"hand_id": hand.hand_id, "hand_number": hand.hand_number, "move_number": hand.move_number}

    # --- the paths --------------------------------------------------------------------------

    def deal(self, body: Wire) -> Wire:
        for field, why in (("deck", "a sealed deal shuffles from the server's seed: no deck"),
                           ("match", "a sealed deal takes the standing as the last score's match_token")):
            if body.get(field) is not None:
                raise WrongMode(f"/{field}", why)
        if len(body.get("seed") or "") > MAX_CLIENT_SEED:
            raise WrongMode("/seed", f"a sealed deal's seed is {MAX_CLIENT_SEED} characters at most")
        standing = None
        if body.get("match_token") is not None:
            standing = self.keyring.open(MATCH, self.game.info.id, body["match_token"], at="/match_token")
        players, options = self._table(body, standing)
        dealer = body.get("dealer")
        if dealer is not None and dealer >= players:
            raise BadSeat("/dealer", f"the dealer must be a seat 0..{players - 1}")
        server_seed, client_seed = new_server_seed(), body.get("seed")
        match = standing.match if standing else None
        try:
            state = self.game.deal(DealSetup(players, dealer, options, match),
                                   SeedStream(shuffle_seed(server_seed, client_seed)))
        except InvalidState as error:
            if match is None or not any(e.pointer.startswith("/match") for e in error.errors):
                raise
            raise BadToken("/match_token", f"this standing deals no hand: {error.detail}") from None
        hand = SealedHand(new_id(), standing.match_id if standing else new_id(),
                          standing.hands + 1 if standing else 1, players, 0, self.keyring.sealing,
                          server_seed, client_seed, match, state)
        return {
            "token": self._seal(hand), "seat_keys": self.keyring.seat_keys(hand),
            "seed_commitment": commitment(server_seed), "shuffle": SeedStream.VERSION,
            "match_id": hand.match_id, **self._ids(hand), "to_move": self.game.to_move(state),
        }

    def _table(self, body: Wire, standing: SealedMatch | None) -> tuple[int, Wire]:
        """Players and options: as sent, or, in a match, as its first deal made them (what is
        sent must agree: a match to 5000 cannot become one to 1)."""
        players, options = body.get("players"), body.get("options") or {}
        if standing is None:
            return players or self.game.info.default_players, options
        if players is not None and players != standing.players:
            raise WrongMode("/players", f"this match is played by {standing.players}")
        for name, value in options.items():
            if standing.options.get(name) != value:
                raise WrongMode(f"/options/{name}", f"this match is played with {name} "
                                                    f"{standing.options.get(name)!r}")
        return standing.players, standing.options

    def validate(self, body: Wire, load_move: Callable[[], Any]) -> Wire:
        hand = self._open(body)
        seat = self._seat(hand, body)
        if seat is None:
            raise WrongSeatKey("/seat_key", "a move is made with the mover's seat key")
        if body["move"]["seat"] != seat:
            raise WrongSeatKey("/seat_key", f"this is seat {seat}'s key; the move is seat "
                                            f"{body['move']['seat']}'s")
        game, state, move = self.game, hand.state, load_move()
        try:
            game.check(state, move)
        except IllegalMove as refusal:
            reason = {"code": refusal.reason, "message": refusal.message, "rule": refusal.rule}
            return {"legal": False, "reason": reason, **self._ids(hand)}
        after, events = game.apply(state, move)
        hand = hand.after(after)
        view = game.view(after, seat)
        return {"legal": True, "token": self._seal(hand), "view": view,
                "events": events_for(events, seat),
                "to_move": game.to_move(after), **self._ids(hand)}

    def legal_moves(self, body: Wire) -> Wire:
        """The key's seat's moves (out-of-turn ones included); a spectator has none."""
        hand = self._open(body)
        seat = self._seat(hand, body)
        moves = listed(self.game, hand.state, seat, most=self.max_listing)
        return {"to_move": self.game.to_move(hand.state), **moves, **self._ids(hand)}

    def view(self, body: Wire) -> Wire:
        hand = self._open(body)
        return {"view": self.game.view(hand.state, self._seat(hand, body)), **self._ids(hand)}

    def score(self, body: Wire) -> Wire:
        """A finished hand's score, its standing sealed for the next deal, and what it was dealt
        from: the final state and both seeds, to check against the deal's commitment."""
        hand = self._open(body)
        if self.game.to_move(hand.state) is not None:
            raise HandNotFinished("/token", "the hand is not over: play it out first")
        try:
            answer = self.game.score(hand.state, hand.match)
        except InvalidState as error:
            raise BadToken("/token", f"this hand cannot be scored: {error.detail}") from None
        final = self.game.dump_state(hand.state)
        standing = SealedMatch(hand.match_id, hand.hand_number, hand.seats, final["options"], answer["match"])
        return {
            **answer, "match_token": self.keyring.seal(MATCH, self.game.info.id, standing),
            "state": final, "server_seed": hand.server_seed,
            "seed": hand.client_seed, "seed_commitment": commitment(hand.server_seed),
            "shuffle": SeedStream.VERSION, "match_id": hand.match_id, **self._ids(hand),
        }


def events_for(events: Iterable[Event], seat: int) -> list[Wire]:
    """The events as ``seat`` may see them: another seat's private cards (its draw) are told as
    their number."""
    told = []
    for event in events:
        wire = event.to_wire()
        if event.private and event.seat != seat:
            del wire["cards"]
            wire["count"] = len(event.cards)
        told.append(wire)
    return told
