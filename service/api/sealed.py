"""Sealed mode, for every game alike (README, "Sealed mode"): a hand read from a ``token`` with
the seat its ``seat_key`` proves, and a deal that answers tokens and seat keys instead of a state.

What a seat may see is what the game's own ``view`` shows it, and of the events, what the game
does not mark ``private`` to another seat (a draw: told as a count). Nothing here knows a game's
rules or fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from service.api.hands import load_move, refusal_wire
from service.cards import DeckSource, SeedStream
from service.errors import BadToken, HandNotFinished, IllegalMove, InvalidState, WrongMode, WrongSeatKey
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


class Sealer:
    """One game's tokens: sealing and opening them with the server's keys."""

    def __init__(self, game: Game[Any, Any], keyring: Keyring) -> None:
        self.game, self.keyring = game, keyring

    def seal(self, hand: SealedHand) -> str:
        return self.keyring.seal(HAND, self.game.info.id, hand)

    def seal_match(self, standing: SealedMatch) -> str:
        return self.keyring.seal(MATCH, self.game.info.id, standing)

    def open(self, kind: bytes, token: str, at: str) -> Any:
        return self.keyring.open(kind, self.game.info.id, token, at=at)


class TokenHand:
    """The hand a ``token`` holds, and the seat its ``seat_key`` proves (none: a spectator)."""

    def __init__(self, sealer: Sealer, body: Wire) -> None:
        self.sealer, self.game = sealer, sealer.game
        self.sealed: SealedHand = sealer.open(HAND, body["token"], "/token")
        self.state, self.match = self.sealed.state, self.sealed.match
        key = body.get("seat_key")
        self.seat = None if key is None else sealer.keyring.seat_of(self.sealed, key, at="/seat_key")

    def ids(self) -> Wire:
        hand = self.sealed
        return {"hand_id": hand.hand_id, "hand_number": hand.hand_number, "move_number": hand.move_number}

    def asking(self, to_move: int | None) -> int | None:
        return self.seat  # a spectator has no moves: another seat's would show its hand

    def move(self, wire: Wire) -> Any:
        if self.seat is None:
            raise WrongSeatKey("/seat_key", "a move is made with the mover's seat key")
        if wire["seat"] != self.seat:
            raise WrongSeatKey("/seat_key", f"this is seat {self.seat}'s key; the move is seat "
                                            f"{wire['seat']}'s")
        return load_move(self.game, wire, "/move")

    def refused(self, refusal: IllegalMove) -> Wire:
        return {"legal": False, "reason": refusal_wire(refusal), **self.ids()}

    def moved(self, state: Any, events: list[Event]) -> Wire:
        self.sealed = self.sealed.after(state)
        return {"legal": True, "token": self.sealer.seal(self.sealed),
                "view": self.game.view(state, self.seat), "events": events_for(events, self.seat),
                "to_move": self.game.to_move(state), **self.ids()}

    def answer(self, wire: Wire) -> Wire:
        return {**wire, **self.ids()}

    @contextmanager
    def finishing(self) -> Iterator[None]:
        if self.game.to_move(self.state) is not None:
            raise HandNotFinished("/token", "the hand is not over: play it out first")
        try:
            yield
        except InvalidState as error:
            raise BadToken("/token", f"this hand cannot be scored: {error.detail}") from None

    def scored(self, answer: Wire) -> Wire:
        """The score, the standing sealed for the next deal, and what the hand was dealt from:
        the final state and both seeds, to check against the deal's commitment."""
        hand, final = self.sealed, self.game.dump_state(self.state)
        standing = SealedMatch(hand.match_id, hand.hand_number, hand.seats, final["options"], answer["match"])
        return {
            **answer, "match_token": self.sealer.seal_match(standing),
            "state": final, "server_seed": hand.server_seed,
            "seed": hand.client_seed, "seed_commitment": commitment(hand.server_seed),
            "shuffle": SeedStream.VERSION, "match_id": hand.match_id, **self.ids(),
        }


class SealedTable:
    """A sealed deal: shuffled from the server's seed joined with the client's, at the table of
    the match token's standing when one is sent."""

    def __init__(self, sealer: Sealer, body: Wire) -> None:
        for field, why in (("deck", "a sealed deal shuffles from the server's seed: no deck"),
                           ("match", "a sealed deal takes the standing as the last score's match_token")):
            if body.get(field) is not None:
                raise WrongMode(f"/{field}", why)
        if len(body.get("seed") or "") > MAX_CLIENT_SEED:
            raise WrongMode("/seed", f"a sealed deal's seed is {MAX_CLIENT_SEED} characters at most")
        self.sealer, self.standing = sealer, None
        if body.get("match_token") is not None:
            self.standing = sealer.open(MATCH, body["match_token"], "/match_token")
        players, options = self._table(body)
        self.server_seed, self.client_seed = new_server_seed(), body.get("seed")
        match = self.standing.match if self.standing else None
        self.setup = DealSetup(players, body.get("dealer"), options, match)
        self.source: DeckSource = SeedStream(shuffle_seed(self.server_seed, self.client_seed))

    def _table(self, body: Wire) -> tuple[int, Wire]:
        """Players and options: as sent, or, in a match, as its first deal made them (what is
        sent must agree: a match to 5000 cannot become one to 1)."""
        players, options, standing = body.get("players"), body.get("options") or {}, self.standing
        if standing is None:
            return players or self.sealer.game.info.default_players, options
        if players is not None and players != standing.players:
            raise WrongMode("/players", f"this match is played by {standing.players}")
        for name, value in options.items():
            if standing.options.get(name) != value:
                raise WrongMode(f"/options/{name}", f"this match is played with {name} "
                                                    f"{standing.options.get(name)!r}")
        return standing.players, standing.options

    @contextmanager
    def dealing(self) -> Iterator[None]:
        try:
            yield
        except InvalidState as error:
            if self.standing is None or not any(e.pointer.startswith("/match") for e in error.errors):
                raise
            raise BadToken("/match_token", f"this standing deals no hand: {error.detail}") from None

    def dealt(self, state: Any) -> Wire:
        standing, setup = self.standing, self.setup
        hand = SealedHand(new_id(), standing.match_id if standing else new_id(),
                          standing.hands + 1 if standing else 1, setup.players, 0,
                          self.sealer.keyring.sealing, self.server_seed, self.client_seed, setup.match, state)
        return {
            "token": self.sealer.seal(hand), "seat_keys": self.sealer.keyring.seat_keys(hand),
            "seed_commitment": commitment(self.server_seed), "shuffle": SeedStream.VERSION,
            "match_id": hand.match_id, "hand_id": hand.hand_id, "hand_number": hand.hand_number,
            "move_number": hand.move_number, "to_move": self.sealer.game.to_move(state),
        }


def events_for(events: Iterable[Event], seat: int | None) -> list[Wire]:
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
