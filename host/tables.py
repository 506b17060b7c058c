"""A table of several people, as data, and what happens to it: opened, joined, a move played,
a hand scored and the next one dealt, a seat given to the computer and taken back. Plain
functions of a table (and the time) to a new table and the events it caused; no Flask and no
store here (``host.store`` keeps tables, ``host.routes`` answers for them).

A table holds its hand as the game's wire state, and deals it from a server seed revealed when
the hand is over, with the hand's record, which the rules' open ``score`` verifies. Events are
kept once, told to every seat (``service.api.events.told``), and redacted for each reader when
read (``redacted_for``), exactly as ``sealed/events`` tells them, each with its sentence in the
reader's language (``told_to``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from host.errors import (
    InviteUsed,
    NoSuchTable,
    NotYourTurn,
    SeatRefused,
    StaleMove,
    TableOver,
    TooMany,
)
from host.sayings import said
from host.schemas import pointers
from service.api.events import EVERY_SEAT, redacted, spoken, told
from service.cards import SeedStream
from service.errors import FieldError, IllegalMove, InvalidState, SchemaViolation
from service.games.base import DealSetup, Game, Wire
from service.i18n.text import Text
from service.sealing import commitment, new_server_seed, shuffle_seed

Event = Wire
"""A table's event as stored: ``type`` and its fields; a ``move`` event holds the move's game
events told to every seat, redacted for each reader."""


def secret() -> str:
    """An unguessable id or key: 128 bits, URL-safe."""
    return secrets.token_urlsafe(16)


def digest(key: str) -> str:
    """What a table keeps of a key: its SHA-256, so that the store never holds a usable key."""
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Seat:
    human: bool
    invite: str | None = None
    """The digest of the seat's invitation until it is used."""
    key: str | None = None
    """The digest of the seat key given at the join."""
    away: bool = False
    """A person's seat the computer plays for now (its person left it, or asked it to)."""
    streams: dict[str, float] = field(default_factory=dict)
    """The seat's open event streams (``STREAMS_PER_SEAT`` at most), each with when its lease
    runs out: a stream renews it as it goes, so that one whose process died without closing it
    stops counting once the lease is out."""
    seen: bool = False
    """The seat has had a stream open: its next one is a reconnection."""


@dataclass(frozen=True, slots=True)
class Table:
    id: str
    game: str
    players: int
    options: Wire
    level: int
    turn_seconds: int | None
    lang: str
    seats: tuple[Seat, ...]
    spectator: str
    """The digest of the spectators' key."""
    created: float
    hand_number: int = 0
    server_seed: str = ""
    state: Wire = field(default_factory=dict)
    start: Wire = field(default_factory=dict)
    """The state this hand was dealt: the record's start."""
    moves: tuple[Wire, ...] = ()
    """The hand's moves so far, in their wire forms: the record's moves."""
    match: Wire | None = None
    """The standing this hand is dealt in (None for a match's first hand)."""
    standing: Wire | None = None
    """The standing after the last hand scored."""
    deadline: float | None = None
    """When the seat to move runs out of time (a computer's seat: at once); None: nobody to wait for."""
    over: bool = False
    """The match is over: the table takes no more moves."""
    closed: bool = False
    """Closed for idleness: it is kept a while, so that its streams and readers are told."""
    expires: float = 0.0
    """When an idle table is closed."""
    last_event: int = 0
    watchers: dict[str, float] = field(default_factory=dict)
    """The spectators' open streams, each with when its lease runs out (as a seat's)."""

    @property
    def move_number(self) -> int:
        return len(self.moves)

    def wire(self) -> Wire:
        """The table's fields, its seats as they are: orjson writes a dataclass itself.
        ``dataclasses.asdict`` deep-copied the state too, 0.5-0.65 ms of the 0.7-1.2 ms a change
        holds SQLite's write lock (`make soak`, profiled)."""
        return {name.name: getattr(self, name.name) for name in fields(self)}

    @staticmethod
    def read(wire: Wire) -> Table:
        return Table(**{**wire, "seats": tuple(Seat(**s) for s in wire["seats"]),
                        "moves": tuple(wire["moves"])})


@dataclass(frozen=True, slots=True)
class Rules:
    """The game a table plays, and the host's policies around it."""

    game: Game[Any, Any]
    idle_seconds: int
    """A table no one has touched for this long is closed."""

    def to_move(self, table: Table) -> int | None:
        if table.over:
            return None
        return self.game.to_move(self.game.load_state(table.state))


# Opening and joining ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Opened:
    table: Table
    invites: dict[int, str]
    """A human seat's invitation, by seat."""
    spectator_key: str
    events: list[Event]


def open_table(rules: Rules, body: Wire, now: float) -> Opened:
    """A new table as ``body`` asks for it (already checked against its schema), its first hand
    dealt; the invitations and the spectators' key are answered once, and only their digests kept."""
    game, players = rules.game, body["players"]
    computer = set(body.get("computer_seats") or ())
    invites = {seat: secret() for seat in range(players) if seat not in computer}
    spectator_key = secret()
    seats = tuple(Seat(human=False) if seat in computer else Seat(human=True, invite=digest(invites[seat]))
                  for seat in range(players))
    table = Table(id=secret(), game=game.info.id, players=players, options=body.get("options") or {},
                  level=body.get("computer_level", 3), turn_seconds=body.get("turn_seconds"),
                  lang=body.get("lang", "en"), seats=seats, spectator=digest(spectator_key), created=now)
    table, events = _deal(rules, table, None, now)
    return Opened(table, invites, spectator_key, events)


def join(rules: Rules, table: Table, invite: str, now: float) -> tuple[Table, int, str, list[Event]]:
    """The seat ``invite`` opens, and its seat key; an invitation opens its seat once."""
    wanted = digest(invite)
    for seat, place in enumerate(table.seats):
        if place.invite is not None and hmac.compare_digest(place.invite, wanted):
            key = secret()
            seats = _with_seat(table, seat, replace(place, invite=None, key=digest(key)))
            table = _touched(rules, _with_deadline(rules, replace(table, seats=seats), now), now)
            return table, seat, key, [{"type": "joined", "seat": seat}, *_timer(rules, table)]
    raise InviteUsed("/invite", "this invitation is not one of this table's, or was used already")


def reader(table: Table, key: str) -> int | None:
    """The seat ``key`` proves (None: the spectators' key); ``SeatRefused`` for any other key."""
    wanted = digest(key)
    for seat, place in enumerate(table.seats):
        if place.key is not None and hmac.compare_digest(place.key, wanted):
            return seat
    if hmac.compare_digest(table.spectator, wanted):
        return None
    raise SeatRefused("this key is not one of this table's")


def set_away(rules: Rules, table: Table, seat: int, away: bool, now: float) -> tuple[Table, list[Event]]:
    """A person's seat given to the computer (``away``) or taken back."""
    place = table.seats[seat]
    if place.away == away:
        return table, []
    table = replace(table, seats=_with_seat(table, seat, replace(place, away=away)))
    table = _touched(rules, _with_deadline(rules, table, now), now)
    return table, [{"type": "computer_took" if away else "taken_back", "seat": seat}, *_timer(rules, table)]


def close(rules: Rules, table: Table, now: float) -> tuple[Table, list[Event]]:
    """An idle table closed: no more moves; it is deleted once idle as long again. A table
    changed since it was found idle is left as it is."""
    if table.expires > now or table.closed:
        return table, []
    table = replace(table, over=True, closed=True, deadline=None, expires=now + rules.idle_seconds)
    return table, [{"type": "table_closed", "reason": "idle"}]


def live(streams: dict[str, float], now: float) -> dict[str, float]:
    """The streams whose lease has not run out."""
    return {stream: until for stream, until in streams.items() if until > now}


def stream_opened(table: Table, seat: int | None, stream: str, until: float, now: float,
                  most: int) -> tuple[Table, list[Event]]:
    """A stream of ``seat`` (None: a spectator's) opened, with its lease; ``TooMany`` past
    ``most`` open ones (a seat's; the spectators' together)."""
    streams = live(_streams(table, seat), now)
    if len(streams) >= most:
        limit = "STREAMS_PER_SEAT" if seat is not None else "SPECTATOR_STREAMS"
        raise TooMany("{most} streams are open, the most", limit=limit, value=most, most=most)
    told: list[Event] = []
    if seat is not None and not streams:
        told = [{"type": "reconnected" if table.seats[seat].seen else "connected", "seat": seat}]
    return _with_streams(table, seat, {**streams, stream: until}), told


def stream_renewed(table: Table, seat: int | None, stream: str, until: float,
                   now: float) -> tuple[Table, list[Event]]:
    return _with_streams(table, seat, {**live(_streams(table, seat), now), stream: until}), []


def stream_closed(table: Table, seat: int | None, stream: str, now: float) -> tuple[Table, list[Event]]:
    """A stream closed; a seat has ``left`` when it was its last."""
    streams = {other: until for other, until in live(_streams(table, seat), now).items() if other != stream}
    told = [{"type": "left", "seat": seat}] if seat is not None and not streams else []
    return _with_streams(table, seat, streams), told


def _streams(table: Table, seat: int | None) -> dict[str, float]:
    return table.watchers if seat is None else table.seats[seat].streams


def _with_streams(table: Table, seat: int | None, streams: dict[str, float]) -> Table:
    if seat is None:
        return replace(table, watchers=streams)
    place = replace(table.seats[seat], streams=streams, seen=True)
    return replace(table, seats=_with_seat(table, seat, place))


# Moves -----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Played:
    table: Table
    events: list[Event]
    verdict: Wire
    """What the mover is answered: ``legal``, and the refusal or the new move number."""


def play(rules: Rules, table: Table, seat: int, move: Wire, move_number: int, now: float, *,
         by: str = "seat") -> Played:
    """``move`` for ``seat`` at move ``move_number`` of the hand. A stale move number is refused
    (``StaleMove``, which names the current one), an illegal move answered as such; a legal one
    plays, and when it ends the hand, the hand is scored and the next one dealt. ``by`` says who
    chose it: the seat, the ``computer`` for a seat it plays, or the ``timer`` for one whose time
    ran out."""
    if table.over:
        raise TableOver("this table's match is over")
    if move_number != table.move_number:
        raise StaleMove("/move_number", "the hand is at move {current}", current=table.move_number)
    game = rules.game
    state = game.load_state(table.state)
    if game.to_move(state) != seat:
        raise NotYourTurn("/move", "it is not this seat's turn")
    loaded = _loaded(game, {**move, "seat": seat})
    try:
        game.check(state, loaded)
    except IllegalMove as refusal:
        return Played(table, [], {"legal": False, "refusal": refusal})
    state, happened = game.apply(state, loaded)
    events: list[Event] = [{"type": "move", "seat": seat, "by": by, "hand_number": table.hand_number,
                            "move_number": table.move_number + 1,
                            "events": told(game.info.event_types, happened, EVERY_SEAT)}]
    table = replace(table, state=game.dump_state(state), moves=(*table.moves, game.dump_move(loaded)))
    if game.to_move(state) is None:
        table, ended = _hand_over(rules, table, state, now)
        events += ended
    else:
        table = _with_deadline(rules, table, now)
        events += _timer(rules, table)
    return Played(_touched(rules, table, now), events, {"legal": True, "move_number": table.move_number})


def _loaded(game: Game[Any, Any], wire: Wire) -> Any:
    """The move ``wire`` stands for, once it matches its type's schema (every field it does not
    named by its pointer under ``/move``)."""
    kind = wire.get("type")
    schema = game.schemas.moves.get(kind) if isinstance(kind, str) else None
    if schema is None:
        problem = Text("the moves of this game are: {types}", {"types": ", ".join(game.schemas.moves)})
        raise SchemaViolation(problem, (FieldError("/move/type", problem),))
    errors = schema().validate(wire)
    if errors:
        raise SchemaViolation("the move does not match its schema", tuple(
            FieldError(pointer, text) for pointer, text in pointers(errors, "/move")))
    try:
        return game.load_move(wire)
    except SchemaViolation as error:
        raise error.within("/move") from None


def _hand_over(rules: Rules, table: Table, state: Any, now: float) -> tuple[Table, list[Event]]:
    """The hand scored (its record and seed revealed), then the next deal, or the match over."""
    game = rules.game
    score = game.score(state, table.match)
    record = {"start": table.start, "moves": list(table.moves)}
    events: list[Event] = [{
        "type": "hand_over", "hand_number": table.hand_number, "hand": score["hand"],
        "match_before": table.match, "match": score["match"], "record": record,
        "server_seed": table.server_seed, "seed_commitment": commitment(table.server_seed),
        "shuffle": SeedStream.VERSION, "options": game.dump_state(state)["options"]}]
    table = replace(table, standing=score["match"])
    if score["match"].get("over"):
        return replace(table, over=True, deadline=None), [*events, {"type": "match_over",
                                                                      "match": score["match"]}]
    table, dealt = _deal(rules, table, score["match"], now)
    return table, events + dealt


def _deal(rules: Rules, table: Table, match: Wire | None, now: float) -> tuple[Table, list[Event]]:
    game, server_seed = rules.game, new_server_seed()
    setup = DealSetup(table.players, None, table.options, match)
    try:
        state = game.deal(setup, SeedStream(shuffle_seed(server_seed, None)))
    except InvalidState as error:
        raise error.within("") from None
    wire = game.dump_state(state)
    table = replace(table, hand_number=table.hand_number + 1, server_seed=server_seed, state=wire,
                    start=wire, moves=(), match=match, options=wire["options"])
    table = _touched(rules, _with_deadline(rules, table, now), now)
    return table, [{"type": "dealt", "hand_number": table.hand_number,
                    "seed_commitment": commitment(server_seed), "shuffle": SeedStream.VERSION,
                    "to_move": game.to_move(state)}, *_timer(rules, table)]


def _timer(rules: Rules, table: Table) -> list[Event]:
    """``timer_started`` when a person's time for their move now runs."""
    seat = rules.to_move(table)
    if seat is None or table.deadline is None or table.turn_seconds is None:
        return []
    place = table.seats[seat]
    if not place.human or place.away:
        return []
    return [{"type": "timer_started", "seat": seat, "deadline": table.deadline,
             "seconds": table.turn_seconds}]


def _with_deadline(rules: Rules, table: Table, now: float) -> Table:
    """The seat to move's deadline: at once for the computer, after the turn's seconds for a
    person, none for a person at a table without a timer."""
    seat = rules.to_move(table)
    if seat is None:
        return replace(table, deadline=None)
    place = table.seats[seat]
    if not place.human or place.away:
        return replace(table, deadline=now)
    if place.key is None or table.turn_seconds is None:  # a person's time runs once they have joined
        return replace(table, deadline=None)
    return replace(table, deadline=now + table.turn_seconds)


def _touched(rules: Rules, table: Table, now: float) -> Table:
    return replace(table, expires=now + rules.idle_seconds)


def _with_seat(table: Table, seat: int, place: Seat) -> tuple[Seat, ...]:
    return (*table.seats[:seat], place, *table.seats[seat + 1:])


# What a reader is told ------------------------------------------------------------------------

def redacted_for(rules: Rules, event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` (None: a spectator) may see it: a move's game events as
    ``sealed/events`` tells them to that seat; the table's own events are public."""
    if event["type"] != "move":
        return event
    return {**event, "events": redacted(rules.game.info.event_types, event["events"], seat)}


def told_to(rules: Rules, event: Event, seat: int | None, lang: str) -> Event:
    """``event`` as ``seat`` (None: a spectator) may see it (``redacted_for``), with its sentence,
    ``text``, in ``lang``, said to that seat; a move's game events each with theirs."""
    event = redacted_for(rules, event, seat)
    if event["type"] == "move":
        info = rules.game.info
        event = {**event, "events": spoken(info.event_types, event["events"], seat, lang, info.vocabulary)}
    return {**event, "text": said(event, seat, lang)}


def due(rules: Rules, table: Table, now: float) -> tuple[int, str] | None:
    """Whose move the host must make now, and why (``computer``, or ``timer``): None if nobody's."""
    seat = rules.to_move(table)
    if seat is None or table.deadline is None or table.deadline > now:
        return None
    place = table.seats[seat]
    return seat, "computer" if not place.human or place.away else "timer"


def found(table: Table | None) -> Table:
    if table is None:
        raise NoSuchTable("there is no table with this id (it may have expired)")
    return table


Change = Callable[[Table], tuple[Table, list[Event]]]
"""A change of one table, as a store applies it atomically."""
