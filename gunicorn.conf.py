"""gunicorn settings for `make run`, the Dockerfile, the tests and `make bench`: one file, read
from the env.

Sync workers, one per core this process may use (its CPU affinity and cgroup quota), with the
app preloaded. Requests are short and CPU-bound. Measured on
the 2-core machine with `make bench` (Sixty-six, 3 s runs, A B A B, medians; wrk on the same cores),
the service's requests/s for deal and validate at 16 and 64 connections were:

    sync, 2 workers       3847 3700 3347 3300   p99 validate 5.7 / 22.0 ms
    sync, 3 workers       4190 4078 3436 3437   p99 6.3 / 23.0 ms
    sync, 4 workers       3960 3998 3345 3405   p99 6.3 / 23.5 ms
    gthread, 2 x 2        4566 4790 3766 3595   p99 9.5 / 39.0 ms
    gthread, 2 x 4        4265 4996 4122 4148   p99 12.3 / 39.7 ms

More sync workers than cores stayed within the run-to-run noise (about 5 %). gthread keeps
connections alive, so it skips a TCP handshake per request and gains 10-25 % throughput, but it
doubles p99 latency, and earlier runs saw one worker take every connection (0.4x throughput).
gevent had long p99 tails before any code existed. So: sync, one worker per core. WORKERS,
WORKER_CLASS and THREADS override this for a machine where that measures otherwise.
"""

import gc
import os
import tempfile
from pathlib import Path

# The metrics' files, one set per process (service/metrics.py): set before prometheus-client is
# first imported, which picks its multiprocess mode from this variable then. A directory of this
# start's own unless the deployment names one (Kubernetes: on the pod's writable /tmp volume).
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="card-rules-metrics-"))
METRICS_DIR = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
METRICS_DIR.mkdir(parents=True, exist_ok=True)

from service.config import usable_cpus  # noqa: E402 (after the metrics' directory is set)

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WORKERS", usable_cpus()))  # the cores this container may use
# gunicorn's own answers (a request it cannot parse, one past the worker timeout) as problem
# documents: its sync and gthread workers with handle_error overridden (service/workers.py).
# Any other WORKER_CLASS is passed to gunicorn as it is.
PROBLEM_WORKERS = {"sync": "service.workers.ProblemSyncWorker",
                   "gthread": "service.workers.ProblemThreadWorker"}
worker_class = os.environ.get("WORKER_CLASS", "sync")
worker_class = PROBLEM_WORKERS.get(worker_class, worker_class)
threads = int(os.environ.get("THREADS", "1"))
# The table host (host/) runs gevent workers: a stream of events held open is a greenlet, so a
# process holds thousands (measured by `make soak`, docs/soak.md). gevent patches the standard
# library when a worker starts, which must come before the app's modules are imported: no preload.
preload_app = worker_class != "gevent"
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "4000"))
timeout = int(os.environ.get("TIMEOUT", "30"))
# On SIGTERM each worker finishes the request it is in, for at most this long (a Kubernetes pod's
# terminationGracePeriodSeconds is longer: deploy/kubernetes/deployment.yaml).
graceful_timeout = int(os.environ.get("GRACEFUL_TIMEOUT", "30"))
keepalive = 5
accesslog = None  # the app logs one JSON line per request itself
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


def when_ready(server):  # noqa: ANN001, ANN201 (gunicorn's hook signature)
    """The preloaded app (schemas, compiled validators, the spec) lives as long as the process:
    freezing it keeps the garbage collector from walking it on every full collection, and from
    touching, and so copying, the pages the workers share with the master.

    The metrics start from zero: files a previous start left (a restarted container keeps its
    volume) and the master's own are removed before any worker counts."""
    gc.freeze()
    for stale in METRICS_DIR.glob("*.db"):
        stale.unlink()


def child_exit(server, worker):  # noqa: ANN001, ANN201 (gunicorn's hook signature)
    """A worker is gone (stopped, killed, timed out): its in-flight gauge leaves the sum."""
    from service.metrics import process_ended
    process_ended(worker.pid)


def post_worker_init(worker):  # noqa: ANN001, ANN201 (gunicorn's hook signature)
    """A worker's in-flight gauge shows from its start, at 0, not from its first request: a worker
    that has served nothing yet is an idle one, and a scrape shows every live worker."""
    from service.metrics import IN_FLIGHT
    IN_FLIGHT.set(0)
