"""Settings from the environment, and the worker count a container's CPU quota allows."""

from __future__ import annotations

import os

import pytest

from service.config import Settings, usable_cpus


def _cgroup(tmp_path, v2=None, v1=None):
    if v2 is not None:
        (tmp_path / "cpu.max").write_text(v2)
    if v1 is not None:
        (tmp_path / "cpu").mkdir()
        (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text(v1[0])
        (tmp_path / "cpu" / "cpu.cfs_period_us").write_text(v1[1])
    return tmp_path


@pytest.mark.parametrize(("v2", "v1", "expected"), [
    ("50000 100000\n", None, 1),      # --cpus 0.5: one worker
    ("100000 100000\n", None, 1),
    ("150000 100000\n", None, 2),     # --cpus 1.5: two
    ("max 100000\n", None, None),     # no quota: every CPU of the affinity mask
    (None, ("100000", "100000"), 1),  # cgroup v1
    (None, ("-1", "100000"), None),
    (None, None, None),               # no cgroup files at all
])
def test_workers_follow_the_cpu_quota(tmp_path, v2, v1, expected):
    cpus = len(os.sched_getaffinity(0))
    assert usable_cpus(_cgroup(tmp_path, v2, v1)) == (cpus if expected is None else min(cpus, expected))


def test_settings_come_from_the_environment():
    settings = Settings.from_env({"LOG_LEVEL": "warning", "CORS_ORIGINS": "https://a.example, *"})
    assert settings.log_level == "WARNING" and settings.cors_origins == ("https://a.example", "*")
    with pytest.raises(ValueError):
        Settings.from_env({"LOG_LEVEL": "loud"})


def test_the_replay_guard_comes_from_the_environment():
    settings = Settings.from_env({"REPLAY_STORE": " redis://store:6379/0 ", "REPLAY_STORE_DOWN": "Serve",
                                  "REPLAY_KEEP_SECONDS": "600"})
    assert (settings.replay_store, settings.replay_store_down, settings.replay_keep_seconds) == \
        ("redis://store:6379/0", "serve", 600)
    default = Settings.from_env({})
    assert (default.replay_store, default.replay_store_down, default.replay_store_timeout_ms) == \
        ("sqlite:////tmp/card-rules/replay.sqlite3", "refuse", 50)
    assert Settings.from_env({"REPLAY_STORE": ""}).replay_store == "off"
    assert Settings.from_env({"REPLAY_STORE_TIMEOUT_MS": "20"}).replay_store_timeout_ms == 20
    with pytest.raises(ValueError, match="REPLAY_STORE_DOWN"):
        Settings.from_env({"REPLAY_STORE_DOWN": "maybe"})
    with pytest.raises(ValueError, match="REPLAY_STORE"):
        Settings.from_env({"REPLAY_STORE": "memcached://store"})


def test_search_slots_are_half_the_workers_unless_set():
    assert Settings.from_env({"WORKERS": "4"}).search_slots == 2
    assert Settings.from_env({"WORKERS": "2", "THREADS": "4"}).search_slots == 4
    assert Settings.from_env({"WORKERS": "1"}).search_slots == 1
    assert Settings.from_env({"WORKERS": "4", "SEARCH_SLOTS": "3"}).search_slots == 3
