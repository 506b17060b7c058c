"""What the service counts, for Prometheus (README, "Run at scale"). No Flask here: gunicorn's
workers count their own refusals (the worker timeout) with these too.

Under gunicorn the counts are prometheus-client's multiprocess mode: each process writes its own
memory-mapped file in ``PROMETHEUS_MULTIPROC_DIR`` (gunicorn.conf.py sets it, and empties it at
each start), and ``/metrics`` adds them up, so one scrape shows the whole instance whichever
worker answers it. Without that directory (a test's app in one process) the counts are the
process's own. Every label takes a bounded set of values: paths are matched against the
service's own, anything else is ``other``. A worker keeps its requests' counts in memory and
hands them over at most a second later (``service.api.metering``).
"""

from __future__ import annotations

import os

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"
disable_created_metrics()  # the ``_created`` series double every count's lines, and no alert uses them

REQUESTS = Counter("card_rules_requests", "Requests answered, by game, operation, mode and status.",
                   ("game", "operation", "mode", "status"))
LATENCY = Histogram("card_rules_request_duration_seconds",
                    "Time from the request reaching the app to its answer, by game, operation and mode.",
                    ("game", "operation", "mode"),
                    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))
ILLEGAL_MOVES = Counter("card_rules_illegal_moves", "Moves refused by the rules (validate, legal: false), "
                        "by game and reason code.", ("game", "reason"))
PROBLEMS = Counter("card_rules_problems", "Error answers (problem documents), by game, operation, mode "
                   "and problem type.", ("game", "operation", "mode", "type"))
TOKEN_REFUSALS = Counter("card_rules_token_refusals", "Sealed requests refused for their token or "
                         "seat key, by game and cause.", ("game", "cause"))
LIMIT_REFUSALS = Counter("card_rules_limit_refusals", "Requests refused at one of the operator's "
                         "limits, by the setting's name.", ("limit",))
REPLAY_STORE_ERRORS = Counter("card_rules_replay_store_errors", "Sealed moves for which the replay "
                              "store did not answer, by what was done: refused, or served unguarded.",
                              ("action",))
IN_FLIGHT = Gauge("card_rules_requests_in_flight", "Requests in progress, per worker process, as of its "
                  "last count (at most a second old; a sync worker's is 0 or 1: their mean over workers "
                  "is the instance's saturation).",
                  multiprocess_mode="liveall")


def exposition() -> bytes:
    """Every count in the text format: the instance's (all its processes) under gunicorn."""
    path = os.environ.get(MULTIPROCESS_DIR)
    if not path:
        from prometheus_client import REGISTRY
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path)
    return generate_latest(registry)


def process_ended(pid: int) -> None:
    """A worker is gone: its gauges leave the sum (its counts stay, as counts do)."""
    if os.environ.get(MULTIPROCESS_DIR):
        mark_process_dead(pid)
