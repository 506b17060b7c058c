"""The replay guard (``REPLAY_STORE``; README, "Run at scale"): a sealed hand's tokens play
forward only. Without it every token ever sealed for a hand still opens, so a client could send an
older one back and take back a move or a draw it did not like, or replay a person's table against
the computer from a saved token after reading the computer's cards in the record.

The store keeps, per hand, the number of its latest move, a digest of that move, and, when the
computer player made it, the move itself. A deal records its hand at move 0; a move on a token at
move ``n`` is taken when the hand's latest is ``n`` or less, and also when it is ``n + 1`` by the
same move: the same request again (a proxy's retry after the first answer was lost), answered
again. A computer move asked again at ``n`` is the move recorded, made again without a search, so
asking twice cannot fish for another reply. Anything else has moved on: a 409.

A store that lost what it kept (a Redis restarted without persistence, an evicted or expired
entry, a deleted SQLite file) cannot judge a hand's tokens, and refuses them rather than accept
them: every store has an epoch, made when it is first used and sealed into each token dealt under
it, and a hand it has no entry for in the token's epoch is ``HandUnknown``. So is a hand dealt
with no guard, or by a release before the epochs.

Two stores: ``SqliteStore``, a file shared by one machine's workers (the default), and
``RedisStore`` for several machines. A store that does not answer within its timeout is left
alone for ``REST_S`` once it has failed ``TRIPS`` times in a row (a circuit breaker), so a hung
store costs each worker one timeout a second, not one per request. No Flask here.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import orjson

from service import metrics
from service.errors import HandUnknown, Replayed, ReplayStoreDown
from service.replay.redis_store import RedisStore
from service.replay.sqlite_store import SqliteStore
from service.replay.store import LOST, TAKEN, Entry, Store, StoreUnavailable

log = logging.getLogger("service")
T = TypeVar("T")
Wire = dict[str, Any]

REST_S = 1.0
"""Seconds the guard leaves a store alone once it has failed TRIPS times in a row, each worker on
its own; then one request tries it again."""
TRIPS = 2
"""Failures in a row that rest the store: one slow answer (a lock holder descheduled on a busy
machine) costs its request, not a second of the worker's sealed moves."""


class Guarded(Protocol):
    """A sealed hand as the guard knows it."""

    @property
    def hand_id(self) -> str: ...

    @property
    def epoch(self) -> str | None:
        """The store's epoch when the hand was dealt; None: dealt with no guard."""

    @property
    def move_number(self) -> int: ...


class ReplayGuard(Protocol):
    def dealt(self, hand_id: str) -> str | None:
        """Record a new hand; the epoch its tokens carry."""

    def advance(self, hand: Guarded, move: object, *, computer: bool = False) -> None:
        """Take ``move`` on ``hand``'s token, or raise ``Replayed``/``HandUnknown``."""

    def check(self, hand: Guarded) -> None:
        """Raise ``Replayed`` if the hand has moved past this token (``HandUnknown`` if it cannot
        be told): before an illegal move's answer, or a search on the token."""

    def recall(self, hand: Guarded) -> Wire | None:
        """The computer player's move already made on this token (asked again), else None; raises
        as ``check`` for a token the hand has moved past otherwise."""


class NoGuard:
    """``REPLAY_STORE=off``: every token of a hand plays (README: the host keeps the latest)."""

    def dealt(self, hand_id: str) -> str | None:
        return None

    def advance(self, hand: Guarded, move: object, *, computer: bool = False) -> None:
        return None

    def check(self, hand: Guarded) -> None:
        return None

    def recall(self, hand: Guarded) -> Wire | None:
        return None


NO_GUARD = NoGuard()


class Guard:
    """The guard over a store. ``refuse_when_down``: when the store does not answer, refuse the
    request (503) rather than serve it unguarded."""

    def __init__(self, store: Store, *, refuse_when_down: bool) -> None:
        self.store, self.refuse_when_down = store, refuse_when_down
        self.resting_until, self.failures = 0.0, 0
        self.warned_at = 0.0

    def dealt(self, hand_id: str) -> str | None:
        return self._ask(lambda: self.store.dealt(hand_id))

    def advance(self, hand: Guarded, move: object, *, computer: bool = False) -> None:
        wire = orjson.dumps(move, option=orjson.OPT_SORT_KEYS)
        digest = hashlib.blake2b(wire, digest_size=8).hexdigest()
        epoch = _epoch(hand)
        latest = self._ask(lambda: self.store.advance(hand.hand_id, epoch, hand.move_number, digest,
                                                      wire.decode() if computer else ""))
        if latest == LOST:
            raise _unknown()
        if latest is not None and latest != TAKEN:
            raise _moved_on(hand.move_number, latest)

    def check(self, hand: Guarded) -> None:
        entry = self._entry(hand)
        if entry is not None and entry.latest > hand.move_number:
            raise _moved_on(hand.move_number, entry.latest)

    def recall(self, hand: Guarded) -> Wire | None:
        entry = self._entry(hand)
        if entry is None or entry.latest <= hand.move_number:
            return None
        if entry.latest == hand.move_number + 1 and entry.computer_move:
            move: Wire = orjson.loads(entry.computer_move)
            return move
        raise _moved_on(hand.move_number, entry.latest)

    def _entry(self, hand: Guarded) -> Entry | None:
        """The hand's entry; None when the store is down and the guard serves."""
        epoch = _epoch(hand)
        found = self._ask(lambda: self.store.entry(hand.hand_id, epoch) or LOST)
        if found == LOST:
            raise _unknown()
        return found if isinstance(found, Entry) else None

    def _ask(self, call: Callable[[], T]) -> T | None:
        """The store's answer; when it does not answer (or rests after failing), None if the
        guard serves unguarded, else ``ReplayStoreDown``."""
        if time.monotonic() < self.resting_until:
            self._down("it failed less than a second ago")
            return None
        try:
            answer = call()
        except StoreUnavailable as error:
            self.failures += 1
            if self.failures >= TRIPS:
                self.resting_until = time.monotonic() + REST_S
            self._down(str(error))
            return None
        self.failures = 0
        return answer

    def _down(self, why: str) -> None:
        action = "refused" if self.refuse_when_down else "served"
        metrics.REPLAY_STORE_ERRORS.labels(action).inc()
        if time.monotonic() - self.warned_at > 10:  # one line in ten seconds, not one a move
            self.warned_at = time.monotonic()
            log.warning("the replay store did not answer (%s): sealed moves are %s", why,
                        "refused" if self.refuse_when_down else "served without the guard")
        if self.refuse_when_down:
            raise ReplayStoreDown("the replay guard's store did not answer; try again")


def _epoch(hand: Guarded) -> str:
    """The token's epoch; "" for a hand dealt with no guard, or while the store was down, which
    no store has, so that a store that answers finds nothing to judge it by."""
    return hand.epoch or ""


def _moved_on(number: int, latest: int) -> Replayed:
    return Replayed("/token", "this hand has moved on: the token is at move {number}, the hand at move "
                              "{latest}; play on from the latest token", number=number, latest=latest)


def _unknown() -> HandUnknown:
    return HandUnknown("/token", "the replay guard has no record of this hand (its store lost it, the hand "
                                 "was dealt before the guard ran, or it was left longer than the guard "
                                 "keeps hands), so its tokens cannot be judged: deal a new hand")


def guard(url: str, *, keep_s: int, timeout_s: float, refuse_when_down: bool) -> ReplayGuard:
    """The guard ``REPLAY_STORE`` asks for: ``off``, ``sqlite:///path`` or ``redis://...``."""
    if url == "off":
        return NO_GUARD
    if url.startswith("sqlite:///"):
        return Guard(SqliteStore(url.removeprefix("sqlite:///"), keep_s=keep_s, timeout_s=timeout_s),
                     refuse_when_down=refuse_when_down)
    return Guard(RedisStore(url, keep_s=keep_s, timeout_s=timeout_s), refuse_when_down=refuse_when_down)
