"""gunicorn's sync and gthread workers, answering what gunicorn answers itself as problem documents.

gunicorn answers some requests without the app: one it cannot parse (a bad request line, a
header or the headers too large, an unknown transfer coding) and one it gave up on. Its
``Worker.handle_error`` writes those as ``text/html``. These subclasses keep everything it
does (its choice of status for each error, its log lines) and send the same status as an RFC
9457 ``application/problem+json`` document whose ``status`` is the HTTP status, like every other
error of the service. ``gunicorn.conf.py`` selects them for ``WORKER_CLASS`` ``sync`` and
``gthread``.

The worker timeout. A sync worker that is still in a request after ``timeout`` seconds (TIMEOUT) is
sent SIGABRT by the arbiter. ``handle_abort`` raises SystemExit wherever the request is, which
reaches ``handle_error``, and gunicorn answered an HTML 500 before the worker exited. Here the
answer is a 503 problem, "the request took longer than the worker timeout": the service is
refusing the request for its time, which is not a fault found in the service, so not a 500;
like nginx's 502 and 504 when it gets no answer, it tells the client the service is not serving
this request now. It has no
``Retry-After``: the same request would most likely take as long again. (A gthread worker's
arbiter heartbeat comes from its main thread, so a long request does not time it out.)

Only gunicorn (and the metrics) is imported here, never Flask: the master loads this module with
its config.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from types import FrameType
from typing import Any

from gunicorn import util
from gunicorn.workers.base import Worker
from gunicorn.workers.gthread import ThreadWorker
from gunicorn.workers.sync import SyncWorker

from service.i18n import DEFAULT, N_, translate
from service.metrics import LIMIT_REFUSALS
from service.negotiation import negotiated

PROBLEM_TYPE = "application/problem+json"
MAX_DETAIL = 300
"""Characters of a detail at most: a parse error's text quotes what the client sent."""


class _Recorder:
    """Stands in for the client's socket while gunicorn's ``handle_error`` runs: the HTML answer
    it writes is recorded, not sent, and its status line read from the recording."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self.written = b""

    def sendall(self, data: bytes) -> None:
        self.written += data

    def gettimeout(self) -> float:
        return 0.0  # so gunicorn's write_nonblock leaves the real socket's mode alone

    def __getattr__(self, name: str) -> Any:  # anything else gunicorn may ask of the socket
        return getattr(self._sock, name)

    def status(self) -> tuple[int, str]:
        """The status and reason phrase gunicorn chose; 500 if it wrote nothing readable."""
        parts = self.written.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
        if len(parts) == 3 and parts[0].startswith("HTTP/") and parts[1].isdigit():
            return int(parts[1]), parts[2]
        return 500, "Internal Server Error"


def problem_answer(status: int, title: str, detail: str, *, lang: str = DEFAULT,
                   retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 answer carrying a problem document in ``lang`` (its title and detail given
    in it, and a player's sentence); the connection closes after it."""
    if len(detail) > MAX_DETAIL:
        detail = detail[:MAX_DETAIL] + "… (cut)"
    says = N_("The request could not be read.") if status < 500 else N_(
        "The server is busy: try again in a moment.")
    body = json.dumps({"type": "about:blank", "title": title, "status": status, "detail": detail,
                       "message": translate(says, lang)}, separators=(",", ":")).encode()
    head = [f"HTTP/1.1 {status} {_phrase(status, title)}", "Connection: close",
            f"Content-Type: {PROBLEM_TYPE}", f"Content-Language: {lang}", "Vary: Accept-Language",
            f"Content-Length: {len(body)}"]
    if retry_after is not None:
        head.append(f"Retry-After: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


class ProblemAnswers(Worker):
    """The overrides, for a gunicorn worker class listed after this one."""

    timed_out = False
    """Set by ``handle_abort``: the SystemExit now unwinding the request is the worker timeout's."""

    def handle_abort(self, sig: int, frame: FrameType | None) -> None:
        self.timed_out = True
        super().handle_abort(sig, frame)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if isinstance(exc, SystemExit):
            answer = self._stopped(req)
        else:
            recorder = _Recorder(client)
            super().handle_error(req, recorder, addr, exc)  # logs, and picks the status
            status, title = recorder.status()
            if 400 <= status < 500 and str(exc):  # gunicorn could not read the request: its own words
                answer = problem_answer(status, title, str(exc))
            else:
                lang = _language(req)
                answer = problem_answer(status, translate(title, lang),
                                        translate(N_("The service failed to answer the request."), lang),
                                        lang=lang)
        try:
            util.write_nonblock(client, answer)  # as gunicorn writes its own: never waits on the client
        except Exception:  # the client is gone; gunicorn gives up the same way
            self.log.debug("Failed to send error message.")

    def _stopped(self, req: Any) -> bytes:
        """The answer to a request cut short by the worker's own end: its timeout (SIGABRT) or a
        quick shutdown (SIGQUIT, SIGINT)."""
        where = f" {req.method} {req.path}" if req is not None else " (request not read yet)"
        lang = _language(req)
        title = translate(N_("Service Unavailable"), lang)
        if self.timed_out:
            LIMIT_REFUSALS.labels("TIMEOUT").inc()
            self.log.error("Request aborted at the worker timeout (%s s):%s", self.cfg.timeout, where)
            detail = translate(N_("the request took longer than the worker timeout ({seconds} s)"), lang)
            return problem_answer(503, title, detail.format(seconds=self.cfg.timeout), lang=lang)
        self.log.warning("Request cut short by a shutdown:%s", where)
        return problem_answer(503, title, translate(N_("the service is shutting down; try again"), lang),
                              lang=lang, retry_after=1)


def _phrase(status: int, title: str) -> str:
    """The status line's reason phrase: HTTP's own (a header is Latin-1), whatever the title's
    language."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return title.encode("latin-1", "replace").decode("latin-1")


def _language(req: Any) -> str:
    """The language the request asked for (English for one not read, or asking for no language
    of ours)."""
    if req is None:
        return DEFAULT
    header = next((value for name, value in req.headers if name == "ACCEPT-LANGUAGE"), None)
    environ = {"QUERY_STRING": req.query or "", "HTTP_ACCEPT_LANGUAGE": header}
    return negotiated(environ) or DEFAULT


class ProblemSyncWorker(ProblemAnswers, SyncWorker):
    """gunicorn's sync worker (``WORKER_CLASS=sync``, the default), answering problems."""


class ProblemThreadWorker(ProblemAnswers, ThreadWorker):
    """gunicorn's gthread worker (``WORKER_CLASS=gthread``), answering problems."""
