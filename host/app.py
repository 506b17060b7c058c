"""The table host over HTTP: ``/v1/tables`` (README, "Tables for several people").

Every call but the table's opening and a join proves its seat with ``Authorization: Bearer
<seat key>`` (the spectators' key proves a spectator). A browser's ``EventSource`` cannot send
that header, so a stream is opened with a short-lived ticket the seat asks for with its key
(``POST .../tickets``): a ticket is a MAC of the table, the seat and its expiry under the host's
key, checked without the store, good for opening a stream for ``TICKET_SECONDS``. Not a cookie:
a cookie is the browser's for the whole origin, so two seats (or a seat and the spectators) in
one browser would overwrite each other's, it would be sent with any other site's request (a
cross-site stream opened on a person's behalf), and a front end on another origin could not set
it at all; a ticket in the stream's URL is one seat's, expires within a minute, and works from
any origin and from a plain ``curl -N``, which may also send the Bearer header instead.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import marshmallow as ma
import orjson
from flask import Blueprint, Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

from host.croupier import Croupier
from host.errors import BadTicket, SeatRefused, SpectatorsOnlyWatch, TooMany
from host.schemas import Join, MoveIn, NewTable, SeatIn, pointers
from host.settings import HostSettings
from host.store import TableStore, open_store
from host.tables import (
    Event,
    Rules,
    Table,
    found,
    join,
    live,
    open_table,
    play,
    reader,
    secret,
    set_away,
    stream_closed,
    stream_opened,
    stream_renewed,
    told_to,
)
from service.api import problems
from service.api.hands import refusal_wire
from service.api.languages import LANG_KEY
from service.api.limits import listed
from service.errors import FieldError, IllegalMove, MalformedJson, SchemaViolation, message
from service.games.base import Game, Wire
from service.games.registry import GAMES
from service.i18n import DEFAULT, N_
from service.negotiation import negotiated

MAX_LISTING = 5_000
EVENTS_AT_ONCE = 200


def create_app(settings: HostSettings | None = None, games: dict[str, Game[Any, Any]] | None = None) -> Flask:
    settings = settings or HostSettings.from_env()
    games = games or GAMES
    store = open_store(settings.table_store, idle_seconds=settings.idle_seconds)
    rules = {game_id: Rules(game, settings.idle_seconds) for game_id, game in games.items()}
    app = Flask("host")
    app.config["MAX_CONTENT_LENGTH"] = 65_536
    if settings.trusted_proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)  # type: ignore[method-assign]
    app.register_blueprint(Host(settings, store, rules).blueprint())
    app.add_url_rule("/health", "health", lambda: {"status": "ok"})
    problems.register(app)
    app.before_request(_language)
    app.after_request(_content_language)
    return app


def _language() -> None:
    request.environ[LANG_KEY] = negotiated(request.environ) or DEFAULT


def _spoken(table: Table) -> str:
    """The language a table's answer speaks: the one the request asks for (``lang``, or
    ``Accept-Language``), else the table's own (its ``lang``, the page's), which the answer then
    says in ``Content-Language``."""
    if "lang" not in request.args and not request.headers.get("Accept-Language"):
        request.environ[LANG_KEY] = table.lang
    return request.environ.get(LANG_KEY, DEFAULT)  # type: ignore[no-any-return]


def _content_language(response: Response) -> Response:
    response.headers["Content-Language"] = request.environ.get(LANG_KEY, DEFAULT)
    return response


class Host:
    def __init__(self, settings: HostSettings, store: TableStore, rules: dict[str, Rules]) -> None:
        self.settings, self.store, self.rules = settings, store, rules
        self.croupier = Croupier(store, rules, sweep_seconds=min(10.0, settings.idle_seconds / 4))
        self.pid = 0
        self.stopping = threading.Event()
        self.lease_seconds = 3 * settings.heartbeat_seconds
        self.ticket_key = store.secret()

    def blueprint(self) -> Blueprint:
        blueprint = Blueprint("tables", __name__, url_prefix="/v1/tables")
        blueprint.before_request(self._croupier_running)
        blueprint.add_url_rule("", view_func=self.create, methods=["POST"])
        blueprint.add_url_rule("/<table_id>", view_func=self.read, methods=["GET"])
        blueprint.add_url_rule("/<table_id>/join", view_func=self.join, methods=["POST"])
        blueprint.add_url_rule("/<table_id>/moves", view_func=self.move, methods=["POST"])
        blueprint.add_url_rule("/<table_id>/seat", view_func=self.seat, methods=["POST"])
        blueprint.add_url_rule("/<table_id>/tickets", view_func=self.ticket, methods=["POST"])
        blueprint.add_url_rule("/<table_id>/events", view_func=self.events, methods=["GET"])
        return blueprint

    def _croupier_running(self) -> None:
        """Each worker process runs a croupier, started at its first request (after the fork),
        and ends its streams when it is told to stop (SIGTERM), before gunicorn's own handler
        waits for its requests: a stream would otherwise hold the worker for its graceful
        timeout; its client reopens it, on another worker, after its last event."""
        if self.pid != os.getpid():
            self.pid = os.getpid()
            self.croupier.start()
            previous = signal.getsignal(signal.SIGTERM)

            def stopping(number: int, frame: Any) -> None:
                self.stopping.set()
                self.store.wake_all()
                if callable(previous):
                    previous(number, frame)

            signal.signal(signal.SIGTERM, stopping)

    # Opening and joining ---------------------------------------------------------------------

    def create(self) -> tuple[Wire, int]:
        body = _body(NewTable())
        rules = self._rules(body)
        now, address = time.time(), request.remote_addr or ""
        if self.store.openings(address, now - 60) >= self.settings.tables_per_minute:
            most = self.settings.tables_per_minute
            raise TooMany("this address has opened {most} tables in the last minute",
                          limit="TABLES_PER_MINUTE", value=most, most=most)
        if self.store.open_tables() >= self.settings.max_tables:
            raise TooMany("this host keeps {most} tables open, its most", limit="MAX_TABLES",
                          value=self.settings.max_tables, most=self.settings.max_tables)
        opened = open_table(rules, body, now)
        self.store.create(opened.table, opened.events, address, now)
        self.croupier.nudge()
        table = opened.table
        return {"table_id": table.id, "game": table.game, "players": table.players,
                "invites": [{"seat": seat, "invite": invite} for seat, invite in opened.invites.items()],
                "spectator_key": opened.spectator_key}, 201

    def _rules(self, body: Wire) -> Rules:
        """The rules of the game ``body`` names, once its table is one the game is played at."""
        rules = self.rules.get(body["game"])
        if rules is None:
            raise _violation("/game", "there is no game '{game}'; the games are: {games}",
                             game=body["game"], games=", ".join(self.rules))
        game = rules.game
        players = body["players"] = body["players"] or game.info.default_players
        if players not in game.info.player_counts:
            raise _violation("/players", "this game is played by {counts}",
                             counts=", ".join(map(str, game.info.player_counts)))
        errors = game.schemas.options().validate(body["options"])
        if errors:
            raise SchemaViolation("the options are not this game's", _field_errors(errors, "/options"))
        computer = body["computer_seats"]
        if len(set(computer)) != len(computer) or any(seat >= players for seat in computer):
            raise _violation("/computer_seats", "seats 0..{last}, each once", last=players - 1)
        if len(computer) == players:
            raise _violation("/computer_seats", "a table needs one person at least")
        return rules

    def join(self, table_id: str) -> Wire:
        body = _body(Join())
        joined: dict[str, Any] = {}

        def seated(table: Table) -> tuple[Table, list[Event]]:
            table, joined["seat"], joined["key"], events = join(self.rules[table.game], table, body["invite"],
                                                                time.time())
            return table, events

        self.store.change(table_id, seated)
        return {"table_id": table_id, "seat": joined["seat"], "seat_key": joined["key"]}

    # A seat's calls ---------------------------------------------------------------------------

    def read(self, table_id: str) -> Wire:
        table, now = found(self.store.get(table_id)), time.time()
        _spoken(table)
        seat = self._seat(table)
        rules = self.rules[table.game]
        game = rules.game
        state = game.load_state(table.state)
        to_move = None if table.over else game.to_move(state)
        asking = seat if seat is not None and seat == to_move else None
        return {
            "table_id": table.id, "game": table.game, "players": table.players, "options": table.options,
            "seat": seat, "hand_number": table.hand_number, "move_number": table.move_number,
            "to_move": to_move, "view": game.view(state, seat),
            **listed(game, state, asking, most=MAX_LISTING),
            "seats": [{"seat": number, "computer": not place.human, "joined": place.key is not None,
                       "away": place.away, "connected": bool(live(place.streams, now))}
                      for number, place in enumerate(table.seats)],
            "deadline": table.deadline if to_move is not None and table.seats[to_move].human
            and not table.seats[to_move].away else None,
            "turn_seconds": table.turn_seconds, "computer_level": table.level, "lang": table.lang,
            "match": table.standing, "over": table.over, "closed": table.closed,
            "last_event_id": table.last_event,
        }

    def move(self, table_id: str) -> Wire:
        body = _body(MoveIn())
        table = found(self.store.get(table_id))
        lang = _spoken(table)
        seat = self._mover(table)
        rules = self.rules[table.game]
        verdict: dict[str, Any] = {}

        def played(current: Table) -> tuple[Table, list[Event]]:
            result = play(rules, current, seat, body["move"], body["move_number"], time.time())
            verdict.update(result.verdict)
            return result.table, result.events

        changed, events = self.store.change(table_id, played)
        if not verdict["legal"]:
            refusal: IllegalMove = verdict["refusal"]
            reason = refusal_wire(refusal, rules.game.info.vocabulary, seat)
            return {"legal": False, "reason": reason, "move_number": changed.move_number}
        self.croupier.nudge()
        return {"legal": True, "hand_number": changed.hand_number, "move_number": changed.move_number,
                "to_move": rules.to_move(changed),
                "events": [{"id": number, **told_to(rules, event, seat, lang)} for number, event in events]}

    def seat(self, table_id: str) -> Wire:
        body = _body(SeatIn())
        table = found(self.store.get(table_id))
        seat = self._mover(table)

        def given(current: Table) -> tuple[Table, list[Event]]:
            return set_away(self.rules[current.game], current, seat, body["computer"], time.time())

        changed, _ = self.store.change(table_id, given)
        self.croupier.nudge()
        return {"seat": seat, "computer": changed.seats[seat].away}

    def ticket(self, table_id: str) -> Wire:
        table = found(self.store.get(table_id))
        seat = self._seat(table)
        expires = int(time.time()) + self.settings.ticket_seconds
        return {"ticket": self._ticket(table_id, seat, expires), "expires_in": self.settings.ticket_seconds}

    def events(self, table_id: str) -> Response:
        table = found(self.store.get(table_id))
        lang = _spoken(table)
        ticket = request.args.get("ticket")
        seat = self._ticket_seat(table_id, ticket) if ticket else self._seat(table)
        after = _last_event_id()
        rules = self.rules[table.game]
        stream = secret()
        self._stream_opened(table_id, seat, stream)
        response = Response(self._stream(rules, table_id, seat, stream, after, lang),
                            mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
        return response

    def _stream(self, rules: Rules, table_id: str, seat: int | None, stream: str, after: int,
                lang: str) -> Iterator[bytes]:
        """The table's events after ``after`` as ``seat`` may see them, said in ``lang``, then each
        new one as it comes, a heartbeat comment when there is none for a while, until the stream's
        time is up; it renews its lease once a heartbeat's time."""
        settings, store = self.settings, self.store
        end = renewed = time.monotonic()
        end += settings.stream_seconds
        ended = False  # by its time: its client comes back within the lease, and has not left
        try:
            yield b"retry: 1000\n\n"
            while True:
                batch = store.events(table_id, after, EVENTS_AT_ONCE)
                for number, event in batch:
                    after = number
                    yield b"id: %d\ndata: %s\n\n" % (number, orjson.dumps(
                        {"id": number, **told_to(rules, event, seat, lang)}))
                if batch:
                    continue
                left = end - time.monotonic()
                if left <= 0 or self.stopping.is_set():
                    ended = True
                    return
                if not store.wait(table_id, after, min(settings.heartbeat_seconds, left)):
                    yield b": heartbeat\n\n"
                if time.monotonic() - renewed >= settings.heartbeat_seconds:
                    renewed = time.monotonic()
                    self._stream_renewed(table_id, seat, stream)
        finally:
            if not ended:
                self._stream_closed(table_id, seat, stream)

    def _stream_opened(self, table_id: str, seat: int | None, stream: str) -> None:
        until = time.time() + self.lease_seconds
        most = self.settings.streams_per_seat if seat is not None else self.settings.spectator_streams
        self.store.change(table_id,
                          lambda table: stream_opened(table, seat, stream, until, time.time(), most))

    def _stream_renewed(self, table_id: str, seat: int | None, stream: str) -> None:
        until = time.time() + self.lease_seconds
        self.store.change(table_id, lambda table: stream_renewed(table, seat, stream, until, time.time()))

    def _stream_closed(self, table_id: str, seat: int | None, stream: str) -> None:
        try:
            self.store.change(table_id, lambda table: stream_closed(table, seat, stream, time.time()))
        except Exception:  # the table may be gone; the stream is closing either way
            return

    # Keys and tickets -------------------------------------------------------------------------

    def _seat(self, table: Table) -> int | None:
        """The seat the request's key proves; None: a spectator's key."""
        header = request.headers.get("Authorization", "")
        scheme, _, key = header.partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            raise SeatRefused("send the seat's key, or the spectators', as the request's bearer token")
        return reader(table, key.strip())

    def _mover(self, table: Table) -> int:
        seat = self._seat(table)
        if seat is None:
            raise SpectatorsOnlyWatch("a spectator's key does not play: a move needs its seat's key")
        return seat

    def _ticket(self, table_id: str, seat: int | None, expires: int) -> str:
        who = "s" if seat is None else str(seat)
        mac = hmac.new(self.ticket_key, f"{table_id}.{who}.{expires}".encode(), hashlib.sha256).digest()[:18]
        return f"{who}.{expires}.{base64.urlsafe_b64encode(mac).decode()}"

    def _ticket_seat(self, table_id: str, ticket: str) -> int | None:
        who, _, rest = ticket.partition(".")
        expires, _, _ = rest.partition(".")
        if not expires.isdigit() or len(ticket) > 64 or not (who == "s" or (who.isdigit() and len(who) == 1)):
            raise BadTicket("this is not a ticket of this host: ask for a new one")
        seat = None if who == "s" else int(who)
        if not hmac.compare_digest(self._ticket(table_id, seat, int(expires)), ticket):
            raise BadTicket("this is not a ticket of this table: ask for a new one")
        if int(expires) < time.time():
            raise BadTicket("this ticket has expired: ask for a new one")
        return seat


def _last_event_id() -> int:
    """Where a stream resumes: after ``Last-Event-ID`` (a reconnecting EventSource sends it), or
    the ``last_event_id`` parameter (a page opening the stream again), else from the start."""
    text = request.headers.get("Last-Event-ID") or request.args.get("last_event_id") or "0"
    if not text.isdigit() or len(text) > 12:
        raise _violation("/last_event_id", "an event id: a whole number")
    return int(text)


def _body(schema: ma.Schema) -> Wire:
    """The request's JSON body, loaded by ``schema``; every field it refuses named."""
    try:
        body = orjson.loads(request.get_data(cache=False) or b"null")
    except orjson.JSONDecodeError:
        unreadable = FieldError("/", N_("the body is not JSON"))
        raise MalformedJson("the body is not JSON", (unreadable,)) from None
    if not isinstance(body, dict):
        wrong = FieldError("/", N_("send a JSON object"))
        raise SchemaViolation("the body is a JSON object", (wrong,))
    try:
        return schema.load(body)  # type: ignore[no-any-return]
    except ma.ValidationError as error:
        raise SchemaViolation("the body does not match the schema",
                              _field_errors(error.messages, "")) from None


def _field_errors(errors: Any, at: str) -> tuple[FieldError, ...]:
    return tuple(FieldError(pointer, message) for pointer, message in pointers(errors, at))


def _violation(at: str, sentence: str, **params: object) -> SchemaViolation:
    text = message(sentence, params)
    return SchemaViolation(text, (FieldError(at, text),))
