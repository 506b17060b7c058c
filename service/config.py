"""Typed settings with their defaults, read from the environment (see README's table)."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from service.sealing import StateKey

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
REPLAY_STORE_DOWN = ("refuse", "serve")


@dataclass(frozen=True)
class Settings:
    max_body_bytes: int = 1_048_576
    """Larger request bodies get 413. The largest state (Bezique, 214 cards) is far below."""
    max_listing: int = 5_000
    """Entries (moves and families) a legal-moves answer may hold; past it, a 422 naming the
    limit. A legal position lists at most about 1,700 (Canasta, a 162-card deck)."""
    max_answer_bytes: int = 1_048_576
    """Bytes an answer's body may take; past it, a 422 naming the limit. The largest answers of
    legal play (a Canasta listing of a large hand) take a few hundred KB."""
    suggest_budget_ms: int = 100
    """The computer player's time for a move when the request names none (``budget_ms``)."""
    suggest_max_budget_ms: int = 250
    """The most time one ``suggest`` may ask for; past it, a 422 naming ``/budget_ms``. A request
    that names a sample count instead stops at this time too, so no request searches longer."""
    suggest_max_samples: int = 10_000
    """The most samples one ``suggest`` may ask for; past it, a 422 naming ``/samples``."""
    search_slots: int = 1
    """Searches of the computer player this instance runs at once, over all its workers; another
    is refused at once (503). From the environment, by default half the workers (times their
    threads), at least one, so that a search never takes the last worker the rules have."""
    replay_store: str = "sqlite:////tmp/card-rules/replay.sqlite3"
    """The replay guard's store: a SQLite file shared by one machine's workers (``sqlite:///``
    then the path; four slashes for an absolute one), a Redis for several machines
    (``redis://host:6379/0``), or ``off``: every token of a hand plays (README, "Run at scale")."""
    replay_store_timeout_ms: int = 50
    """Milliseconds a store may take to answer before it counts as down."""
    replay_store_down: str = "refuse"
    """When the replay store does not answer: ``refuse`` sealed moves (503), or ``serve`` them
    unguarded."""
    replay_keep_seconds: int = 86_400
    """How long the store keeps a hand's latest move after the move: a hand idle longer can be
    played from any of its tokens again."""
    log_level: str = "INFO"
    cors_origins: tuple[str, ...] = ()
    """Origins allowed to call from a browser; ``*`` allows any. Empty: no CORS headers."""
    state_keys: tuple[StateKey, ...] = ()
    """Sealed mode's server keys (``STATE_KEYS``): the first seals, all open. Empty: a key made
    for this start (``init_api`` warns)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        level = env.get("LOG_LEVEL", cls.log_level).upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        down = env.get("REPLAY_STORE_DOWN", cls.replay_store_down).strip().lower()
        if down not in REPLAY_STORE_DOWN:
            raise ValueError(f"REPLAY_STORE_DOWN must be one of {', '.join(REPLAY_STORE_DOWN)}")
        store = env.get("REPLAY_STORE", cls.replay_store).strip() or "off"
        if store != "off" and not store.startswith(("sqlite:///", "redis://", "rediss://", "unix://")):
            raise ValueError("REPLAY_STORE is off, sqlite:///path, redis://host:port/db, rediss:// or unix://")
        origins = tuple(o.strip() for o in env.get("CORS_ORIGINS", "").split(",") if o.strip())
        return cls(
            max_body_bytes=int(env.get("MAX_BODY_BYTES", cls.max_body_bytes)),
            max_listing=int(env.get("MAX_LISTING", cls.max_listing)),
            max_answer_bytes=int(env.get("MAX_ANSWER_BYTES", cls.max_answer_bytes)),
            suggest_budget_ms=int(env.get("SUGGEST_BUDGET_MS", cls.suggest_budget_ms)),
            suggest_max_budget_ms=int(env.get("SUGGEST_MAX_BUDGET_MS", cls.suggest_max_budget_ms)),
            suggest_max_samples=int(env.get("SUGGEST_MAX_SAMPLES", cls.suggest_max_samples)),
            search_slots=int(env.get("SEARCH_SLOTS", 0)) or default_search_slots(env),
            replay_store=store,
            replay_store_timeout_ms=int(env.get("REPLAY_STORE_TIMEOUT_MS", cls.replay_store_timeout_ms)),
            replay_store_down=down,
            replay_keep_seconds=int(env.get("REPLAY_KEEP_SECONDS", cls.replay_keep_seconds)),
            log_level=level,
            cors_origins=origins,
            state_keys=StateKey.parse(env["STATE_KEYS"]) if env.get("STATE_KEYS", "").strip() else (),
        )


def default_search_slots(env: Mapping[str, str]) -> int:
    """Half of gunicorn's workers (``WORKERS``, else one per usable CPU) times their threads."""
    workers = int(env.get("WORKERS", 0)) or usable_cpus()
    return max(1, workers * int(env.get("THREADS", 1)) // 2)


def usable_cpus(cgroup: Path = Path("/sys/fs/cgroup")) -> int:
    """The CPUs this process may use: those it is pinned to, capped by a cgroup CPU quota (a
    container started with ``--cpus 1.5`` gets 2), so gunicorn starts one worker per CPU the
    container may use, not per CPU of the host."""
    cpus = len(os.sched_getaffinity(0))
    quota = _cgroup_quota(cgroup)
    return max(1, min(cpus, math.ceil(quota))) if quota else cpus


def _cgroup_quota(cgroup: Path) -> float | None:
    """CPUs allowed by the cgroup: v2 ``cpu.max`` ("150000 100000", or "max 100000"), else v1's
    ``cpu.cfs_quota_us`` and ``cpu.cfs_period_us``; None without a quota."""
    try:
        quota, period = (cgroup / "cpu.max").read_text().split()
    except (OSError, ValueError):
        try:
            quota = (cgroup / "cpu" / "cpu.cfs_quota_us").read_text().strip()
            period = (cgroup / "cpu" / "cpu.cfs_period_us").read_text().strip()
        except OSError:
            return None
    if quota in ("max", "-1") or int(period) <= 0:
        return None
    return int(quota) / int(period)
