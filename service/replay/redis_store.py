"""The replay store of several machines: one Redis (``REPLAY_STORE=redis://host:6379/0``).

Each decision is one Lua script, so two requests racing on one token cannot both win. The epoch
is a key without expiry, made by the first deal that finds none: a Redis restarted without its
data, or one that evicted it, has another epoch (or none), and the hands it forgot are refused.
Run it with persistence (``appendonly yes``) and ``maxmemory-policy noeviction``
(deploy/kubernetes/redis.yaml), or every restart ends the hands in play.
"""

from __future__ import annotations

import secrets

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.replay.store import Entry, StoreUnavailable

KEY_PREFIX = "card-rules:replay:"
EPOCH_KEY = KEY_PREFIX + "epoch"
DEAL = """
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  epoch = ARGV[1]
  redis.call('SET', KEYS[1], epoch)
end
redis.call('SET', KEYS[2], '0::', 'EX', ARGV[2])
return epoch
"""
"""KEYS: the epoch, the hand's entry; ARGV: an epoch to make if there is none, the time to keep
the entry. Returns the epoch."""
ADVANCE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -2 end
local entry = redis.call('GET', KEYS[2])
if not entry then return -2 end
local first = string.find(entry, ':', 1, true)
local second = string.find(entry, ':', first + 1, true)
local latest = tonumber(string.sub(entry, 1, first - 1))
local number = tonumber(ARGV[2])
if latest > number + 1 or (latest == number + 1 and string.sub(entry, first + 1, second - 1) ~= ARGV[3]) then
  return latest
end
redis.call('SET', KEYS[2], (number + 1) .. ':' .. ARGV[3] .. ':' .. ARGV[5], 'EX', ARGV[4])
return -1
"""
"""KEYS: the epoch, the hand's entry ("latest:digest:computer move"); ARGV: the token's epoch, its
move number, the move's digest, the time to keep the entry, the computer's move or "". Returns
TAKEN (-1), LOST (-2) or the latest move number: ``store.verdict`` in Lua."""


class RedisStore:
    def __init__(self, url: str, *, keep_s: int, timeout_s: float) -> None:
        # One retry, on a broken connection only (a Redis restarted since the pool's connection
        # was made): a timeout is not tried twice.
        retry = Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))
        self.client = redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s,
                                           retry=retry, decode_responses=True)
        self.deal_script = self.client.register_script(DEAL)
        self.advance_script = self.client.register_script(ADVANCE)
        self.keep_s = keep_s

    def dealt(self, hand_id: str) -> str:
        try:
            return str(self.deal_script(keys=[EPOCH_KEY, KEY_PREFIX + hand_id],
                                        args=[secrets.token_hex(8), self.keep_s]))
        except redis.RedisError as error:
            raise StoreUnavailable(f"Redis: {error}") from error

    def advance(self, hand_id: str, epoch: str, number: int, digest: str, computer_move: str) -> int:
        try:
            return int(self.advance_script(keys=[EPOCH_KEY, KEY_PREFIX + hand_id],
                                           args=[epoch, number, digest, self.keep_s, computer_move]))
        except redis.RedisError as error:
            raise StoreUnavailable(f"Redis: {error}") from error

    def entry(self, hand_id: str, epoch: str) -> Entry | None:
        try:
            found, entry = self.client.mget(EPOCH_KEY, KEY_PREFIX + hand_id)
        except redis.RedisError as error:
            raise StoreUnavailable(f"Redis: {error}") from error
        if found != epoch or entry is None:
            return None
        latest, digest, computer_move = str(entry).split(":", 2)
        return Entry(int(latest), digest, computer_move)
