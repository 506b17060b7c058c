"""Request ids, one JSON log line per request, and CORS by configuration."""

from __future__ import annotations

import logging
import re
import time
import uuid

import orjson
from flask import Flask, Response, g, request

from service.config import Settings

REQUEST_ID = "X-Request-ID"
_VALID_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
log = logging.getLogger("service.access")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and any ``extra`` fields."""

    BASE = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None)))

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "ts": round(record.created, 3),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **{k: v for k, v in vars(record).items() if k not in self.BASE},
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def configure_logging(level: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("service")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False


def _start() -> None:
    given = request.headers.get(REQUEST_ID, "")
    g.request_id = given if _VALID_ID.fullmatch(given) else uuid.uuid4().hex
    g.started = time.perf_counter()


def _cors(settings: Settings, response: Response) -> None:
    origin = request.headers.get("Origin")
    if not origin or not settings.cors_origins:
        return
    if "*" in settings.cors_origins:
        response.headers["Access-Control-Allow-Origin"] = "*"
    elif origin in settings.cors_origins:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.vary.add("Origin")
    else:
        return
    response.headers["Access-Control-Expose-Headers"] = REQUEST_ID
    if request.method == "OPTIONS":
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = f"Content-Type, {REQUEST_ID}"
        response.headers["Access-Control-Max-Age"] = "600"


def install(app: Flask, settings: Settings) -> None:
    configure_logging(settings.log_level)
    app.before_request(_start)

    @app.after_request
    def finish(response: Response) -> Response:
        request_id = g.get("request_id") or uuid.uuid4().hex
        response.headers[REQUEST_ID] = request_id
        _cors(settings, response)
        started = g.get("started")
        log.info("request", extra={
            "request_id": request_id,
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "duration_ms": round((time.perf_counter() - started) * 1000, 3) if started else None,
        })
        return response
