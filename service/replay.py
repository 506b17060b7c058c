"""The replay guard (``REPLAY_STORE``; README, "Run at scale"): a sealed hand's tokens play
forward only. Without it every token ever sealed for a hand still opens, so a client can send an
older one back and take back a move or a draw it did not like.

The store keeps, per hand, the number of the latest move and a digest of that move. A move on a
token at move ``n`` is taken when the hand's latest is ``n`` or less (or unknown: a hand dealt
before the guard was on, or whose entry expired), and also when it is ``n + 1`` by the same move:
that is the same request again (a proxy's retry after the first answer was lost), and it is
answered again, as every other operation of the service would be. Anything else has moved on: a
409. The check and the update are one Lua script, so two requests racing on one token cannot
both win. No Flask here.
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Protocol

import orjson
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from service import metrics
from service.errors import Replayed, ReplayStoreDown

log = logging.getLogger("service")

KEY_PREFIX = "card-rules:replay:"
TIMEOUT_S = 0.25
"""Seconds a store command may take before the store counts as down: a Redis answers in well
under a millisecond, and a sealed move must not wait on one that does not answer."""
ADVANCE = """
local latest = redis.call('GET', KEYS[1])
local number = tonumber(ARGV[1])
if latest then
  local sep = string.find(latest, ':', 1, true)
  local recorded = tonumber(string.sub(latest, 1, sep - 1))
  if recorded > number + 1 or (recorded == number + 1 and string.sub(latest, sep + 1) ~= ARGV[2]) then
    return recorded
  end
end
redis.call('SET', KEYS[1], (number + 1) .. ':' .. ARGV[2], 'EX', ARGV[3])
return -1
"""
"""KEYS[1] the hand's entry, ARGV: the token's move number, the move's digest, the time to keep
the entry. Returns -1 when the move is taken, else the hand's latest move number."""


class ReplayGuard(Protocol):
    def advance(self, hand_id: str, move_number: int, move: object) -> None:
        """Take ``move`` on the hand's token at ``move_number``, or raise ``Replayed``."""

    def check(self, hand_id: str, move_number: int) -> None:
        """Raise ``Replayed`` if the hand has moved past ``move_number`` (an illegal move, which
        changes nothing, only looks)."""


class NoGuard:
    """The default: every token of a hand plays (README: the host keeps the latest)."""

    def advance(self, hand_id: str, move_number: int, move: object) -> None:
        return None

    def check(self, hand_id: str, move_number: int) -> None:
        return None


NO_GUARD = NoGuard()


class StoreGuard:
    """The guard over a Redis store. ``refuse_when_down``: when the store does not answer, refuse
    the move (503) rather than serve it unguarded."""

    def __init__(self, url: str, *, keep_s: int, refuse_when_down: bool) -> None:
        self.client = redis.Redis.from_url(url, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S,
                                           retry=Retry(NoBackoff(), 1), decode_responses=True)
        self.script = self.client.register_script(ADVANCE)
        self.keep_s, self.refuse_when_down = keep_s, refuse_when_down
        self.warned_at = 0.0

    def advance(self, hand_id: str, move_number: int, move: object) -> None:
        digest = hashlib.blake2b(orjson.dumps(move, option=orjson.OPT_SORT_KEYS), digest_size=8).hexdigest()
        try:
            latest = self.script(keys=[KEY_PREFIX + hand_id], args=[move_number, digest, self.keep_s])
        except redis.RedisError as error:
            return self._down(error)
        if latest != -1:
            raise _moved_on(move_number, int(latest))

    def check(self, hand_id: str, move_number: int) -> None:
        try:
            latest = self.client.get(KEY_PREFIX + hand_id)
        except redis.RedisError as error:
            return self._down(error)
        recorded = -1 if latest is None else int(str(latest).split(":", 1)[0])  # "number:digest"
        if recorded > move_number:
            raise _moved_on(move_number, recorded)

    def _down(self, error: redis.RedisError) -> None:
        action = "refused" if self.refuse_when_down else "served"
        metrics.REPLAY_STORE_ERRORS.labels(action).inc()
        if time.monotonic() - self.warned_at > 10:  # one line in ten seconds, not one a move
            self.warned_at = time.monotonic()
            log.warning("the replay store did not answer (%s): sealed moves are %s", error,
                        "refused" if self.refuse_when_down else "served without the guard")
        if self.refuse_when_down:
            raise ReplayStoreDown("the replay guard's store did not answer; try again")


def _moved_on(number: int, latest: int) -> Replayed:
    return Replayed("/token", "this hand has moved on: the token is at move {number}, the hand at move "
                              "{latest}; play on from the latest token", number=number, latest=latest)


def guard(url: str, *, keep_s: int, refuse_when_down: bool) -> ReplayGuard:
    """The guard ``REPLAY_STORE`` asks for: none when it is empty."""
    return StoreGuard(url, keep_s=keep_s, refuse_when_down=refuse_when_down) if url else NoGuard()
