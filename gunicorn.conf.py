"""gunicorn settings for `make run`, the Dockerfile and the tests: one file, read from the env.

Sync workers, one per core, with the app preloaded: on this 2-core class of machine that gave the
steadiest throughput (gthread at times let one worker take every connection; gevent had long p99
tails). Requests are short and CPU-bound, so threads add nothing.
"""

import gc
import multiprocessing
import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WORKERS", multiprocessing.cpu_count()))
worker_class = os.environ.get("WORKER_CLASS", "sync")
threads = int(os.environ.get("THREADS", "1"))
preload_app = True
timeout = int(os.environ.get("TIMEOUT", "30"))
keepalive = 5
accesslog = None  # the app logs one JSON line per request itself
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


def when_ready(server):  # noqa: ANN001, ANN201 (gunicorn's hook signature)
    """The preloaded app (schemas, compiled validators, the spec) lives as long as the process:
    freezing it keeps the garbage collector from walking it on every full collection, and from
    touching, and so copying, the pages the workers share with the master."""
    if os.environ.get("GC_FREEZE", "1") != "0":
        gc.freeze()
