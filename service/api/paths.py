"""Every POST path of a game, each written once above its handler: ``@post(path, envelope)`` names
the path and the builder of its request and answer schemas (``service.api.envelopes``), and the
handler's docstring is the path's summary in the OpenAPI document. A handler reads the hand (or
the deal's table) from the body as its mode holds it, then runs the operation's steps
(``service.api.operations``). ``service.api.routes`` registers each path on every game's
blueprint, documented and served by flask-smorest's decorators."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MethodType
from typing import Any, ClassVar, TypeVar

from service.api import envelopes, operations
from service.api.hands import seated
from service.api.limits import SearchLimits
from service.api.modes import Mode
from service.api.open_hands import OpenHand, OpenTable, scored_hand
from service.api.parts import Envelope, Parts
from service.api.sealed import ComputerHand, SealedTable, Sealer, TokenHand
from service.games.base import Game, Wire
from service.replay import NO_GUARD, ReplayGuard
from service.sealing import Keyring

SEAT_KEY = (403,)
GUARDED = (403, 409, 503)
"""A sealed move's: the seat key's, and the replay guard's."""
SEARCHING = (503,)
"""The computer player's: every search slot taken (a sealed one also has GUARDED's)."""
RECORDED = (503,)
"""A sealed deal's: the replay guard's store did not answer."""


Build = Callable[[Parts, Mode], Envelope]
"""An operation's envelope builder (``service.api.envelopes``), given the mode."""


@dataclass(frozen=True)
class Post:
    """A POST path of every game: its path under the game's, the builder of its envelope, and the
    statuses of its own besides those of every POST (the seat key's 403...)."""

    path: str
    envelope: Build
    errors: tuple[int, ...] = ()

    @property
    def name(self) -> str:
        """The operation, as metrics label it: ``legal_moves``."""
        return self.path.removeprefix("/sealed").lstrip("/").replace("-", "_")

    @property
    def endpoint(self) -> str:
        """The view's name in Flask: ``sealed_legal_moves``."""
        return self.path.lstrip("/").replace("/", "_").replace("-", "_")

    @property
    def verb(self) -> str:
        """The path as its operationId ends: ``SealedLegalMoves``."""
        return "".join(word.title() for word in self.path.replace("/", "-").split("-"))


Handler = TypeVar("Handler", bound=Callable[..., Wire])


def post(path: str, envelope: Build, *, errors: tuple[int, ...] = ()) -> Callable[[Handler], Handler]:
    """Mark a handler as the one of ``path`` (``Paths.handlers`` lists the marked ones)."""
    def mark(handler: Handler) -> Handler:
        handler.post = Post(path, envelope, errors)  # type: ignore[attr-defined]
        return handler
    return mark


class Paths:
    """The paths of one mode, for one game."""

    mode: ClassVar[Mode]

    def __init__(self, game: Game[Any, Any], *, max_listing: int, search: SearchLimits) -> None:
        self.game, self.max_listing, self.search = game, max_listing, search

    @classmethod
    def posts(cls) -> list[Post]:
        """Every path of the mode, in the order written."""
        return [handler.post for handler in cls._marked()]

    def handlers(self) -> list[tuple[Post, Callable[[Wire], Wire]]]:
        """Every path of the mode with its handler, bound to this game's."""
        return [(handler.post, MethodType(handler, self)) for handler in self._marked()]

    @classmethod
    def _marked(cls) -> list[Any]:
        return [handler for handler in vars(cls).values() if hasattr(handler, "post")]


class OpenPaths(Paths):
    """The open mode: the hand travels in the clear, as a state (``score``: or a record)."""

    mode = Mode.OPEN

    @post("/deal", envelopes.deal)
    def deal(self, body: Wire) -> Wire:
        """Deal a hand: reproducibly from the seed (shuffle v1, see the README), or in the order
        of a given `deck` (for tests, replays of a reported deal, and duplicate play)."""
        return operations.deal(self.game, OpenTable(self.game, body))

    @post("/validate", envelopes.validate_move)
    def validate(self, body: Wire) -> Wire:
        """Is the move legal? If so, the next state and the events it caused."""
        return operations.validate(self.game, OpenHand(self.game, body), body["move"])

    @post("/legal-moves", envelopes.legal_moves)
    def legal_moves(self, body: Wire) -> Wire:
        """Every legal move of the seat to move (or of `seat`, out-of-turn moves included)."""
        return operations.legal_moves(self.game, OpenHand(self.game, body), most=self.max_listing)

    @post("/view", envelopes.view)
    def view(self, body: Wire) -> Wire:
        """What one seat may see."""
        hand = OpenHand(self.game, body)
        return operations.view(self.game, hand, hand.seat)

    @post("/spectator-view", envelopes.spectator_view)
    def spectator_view(self, body: Wire) -> Wire:
        """What a spectator may see."""
        return operations.view(self.game, OpenHand(self.game, body), None)

    @post("/suggest", envelopes.suggest, errors=SEARCHING)
    def suggest(self, body: Wire) -> Wire:
        """The computer player's move for the seat, chosen only from what that seat may see, within a time
        budget, with the value it found for each move it weighed (README, "Computer player"). 422 of
        type `no-move` when the seat has no move to make now; 422 of type `over-budget` naming
        `/budget_ms` or `/samples` past the server's limits; 503 of type `computer-busy`, with
        `Retry-After`, when the server is already running as many searches as it allows at once."""
        return operations.suggest(self.game, OpenHand(self.game, body), body, self.search)

    @post("/score", envelopes.score)
    def score(self, body: Wire) -> Wire:
        """Score a finished hand and carry the match forward (422 if the hand is not over). The hand
        is its final state, or a record: a start state and every move, each checked and applied."""
        return operations.score(self.game, scored_hand(self.game, body))


class SealedPaths(Paths):
    """The sealed mode: the hand travels as a token, and each seat proves itself with its key; a
    seat (or a spectator) may also ask for the events since a move. With a replay guard, a hand's
    moves are played from its latest token only."""

    mode = Mode.SEALED

    def __init__(self, game: Game[Any, Any], keyring: Keyring, *, max_listing: int, search: SearchLimits,
                 guard: ReplayGuard = NO_GUARD) -> None:
        super().__init__(game, max_listing=max_listing, search=search)
        self.sealer, self.guard = Sealer(game, keyring), guard

    @post("/sealed/deal", envelopes.deal, errors=RECORDED)
    def deal(self, body: Wire) -> Wire:
        """Deal a sealed hand: a token the client cannot read or forge, one key per seat, and the
        commitment to the server's seed (README, "Sealed mode")."""
        return operations.deal(self.game, SealedTable(self.sealer, body, self.guard))

    @post("/sealed/validate", envelopes.validate_move, errors=GUARDED)
    def validate(self, body: Wire) -> Wire:
        """Is the mover's move legal? If so, the new token, and the events as the mover and as
        everyone may see them. With the server's replay guard, only the hand's latest token
        plays (409 for an older one)."""
        return operations.validate(self.game, TokenHand(self.sealer, body, self.guard), body["move"])

    @post("/sealed/legal-moves", envelopes.legal_moves, errors=SEAT_KEY)
    def legal_moves(self, body: Wire) -> Wire:
        """Every legal move of the seat whose key is sent (none without a key)."""
        hand = TokenHand(self.sealer, body, self.guard)
        return operations.legal_moves(self.game, hand, most=self.max_listing)

    @post("/sealed/view", envelopes.view, errors=SEAT_KEY)
    def view(self, body: Wire) -> Wire:
        """What the seat whose key is sent may see."""
        hand = TokenHand(self.sealer, body, self.guard)
        return operations.view(self.game, hand, hand.seat)

    @post("/sealed/spectator-view", envelopes.spectator_view)
    def spectator_view(self, body: Wire) -> Wire:
        """What a spectator may see."""
        return operations.view(self.game, TokenHand(self.sealer, body, self.guard), None)

    @post("/sealed/events", envelopes.events, errors=SEAT_KEY)
    def events(self, body: Wire) -> Wire:
        """The events of every move after `since`, as the seat whose key is sent may see them (its
        own draws with their cards, another seat's as counts); without a key, a spectator's."""
        return TokenHand(self.sealer, body, self.guard).events(body.get("since", 0))

    @post("/sealed/suggest", envelopes.suggest, errors=GUARDED)
    def suggest(self, body: Wire) -> Wire:
        """The computer player's move for the seat whose key is sent, chosen only from what that seat may see, within a time
        budget, with the value it found for each move it weighed (README, "Computer player"). 422 of
        type `no-move` when the seat has no move to make now; 422 of type `over-budget` naming
        `/budget_ms` or `/samples` past the server's limits; 503 of type `computer-busy`, with
        `Retry-After`, when the server is already running as many searches as it allows at once.
        With the server's replay guard, a token the hand has moved past is a 409, before any search."""  # noqa: E501
        return operations.suggest(self.game, TokenHand(self.sealer, body, self.guard), body, self.search)

    @post("/sealed/score", envelopes.score)
    def score(self, body: Wire) -> Wire:
        """Score a finished sealed hand: the breakdown, the standing sealed for the next deal, the
        seeds and the whole record, so that anyone can check the deal and every move."""
        return operations.score(self.game, TokenHand(self.sealer, body, self.guard))

    @post("/sealed/deal-against-computer", envelopes.deal_against_computer, errors=RECORDED)
    def deal_against_computer(self, body: Wire) -> Wire:
        """Deal a sealed hand for a person against the computer player: the token, the person's seat
        key only, and a computer key with which the server plays every other seat
        (`sealed/computer-move`), so that a browser never holds another seat's key (README, "A
        table against the computer")."""
        table = SealedTable(self.sealer, body, self.guard)
        seat: int = body.get("seat", 0)
        seated(seat, table.setup.players, "/seat")
        with table.dealing():
            state = self.game.deal(table.setup, table.source)
        return table.dealt_against_computer(state, seat)

    @post("/sealed/computer-move", envelopes.computer_move, errors=GUARDED)
    def computer_move(self, body: Wire) -> Wire:
        """The computer player's move at the seat to move, chosen from that seat's view within the
        budget and made: the new token and the public events. 422 of type `no-move` when the seat
        to move is not one the key plays; 403 for another hand's key. With the server's replay
        guard, asked again on the same token it answers the move already made (whatever the
        seed), and on a token the hand has moved past it is a 409, both before any search; 503 of
        type `computer-busy` when every search slot is taken."""
        hand = ComputerHand(self.sealer, body, self.guard)
        move = hand.recalled()
        if move is None:
            found = operations.searched(self.game, hand.state, hand.seat, body, hand.history(), self.search)
            move = found[0].move
        moved = hand.moved(move, *self.game.apply(hand.state, move), computer=True)
        return {"seat": hand.seat, "token": moved["token"], "public_events": moved["public_events"],
                "to_move": moved["to_move"], **hand.ids()}
