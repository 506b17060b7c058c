"""Sealed mode, for every game alike (README, "Sealed mode"): a hand read from a ``token`` with
the seat its ``seat_key`` proves, and a deal that answers tokens and seat keys instead of a state.

A hand token holds the hand's whole record in the game's wire forms: the seeds that deal it again,
every move since, and the state they led to (kept so that a move costs one state read, not a
replay; the record is carried unread, a move adding its line). The record's earlier lines travel
in parts sealed once (``SEGMENT_BYTES``), after the hand's own envelope: a move opens and seals
the head and the latest lines only, and carries the parts as the text they came in. What a seat
may see is what the game's own ``view`` shows it, and of the events, what their types let it see
(``service.api.events``). Nothing here knows a game's rules or fields.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import orjson

from service.api.events import EVERY_SEAT, redacted, spoken, told
from service.api.hands import load_move, refusal_wire
from service.api.languages import current as current_language
from service.api.parts import MAX_RECORD_MOVES
from service.cards import DeckSource, SeedStream
from service.errors import (
    BadToken,
    FieldError,
    HandNotFinished,
    IllegalMove,
    InvalidState,
    NoMove,
    SchemaViolation,
    WrongMode,
    WrongSeatKey,
)
from service.games.base import DealSetup, Event, Game, Wire
from service.i18n import quoted
from service.i18n.text import Text
from service.player import history_of
from service.replay import NO_GUARD, ReplayGuard
from service.sealing import (
    HAND,
    MATCH,
    RECORD,
    Keyring,
    commitment,
    data,
    new_id,
    new_server_seed,
    shuffle_seed,
)


@dataclass(frozen=True, slots=True)
class SealedHand:
    """What a hand token holds: the hand's ids and seeds, its state, and its record."""

    hand_id: str
    match_id: str
    hand_number: int
    """The hand's place in its match, from 1."""
    key_id: str
    """The key the seat keys were derived from (it may no longer be the sealing one)."""
    server_seed: str
    client_seed: str | None
    match: Wire | None
    """The standing the hand was dealt in, for its score."""
    seats: int
    state: Any
    move_number: int
    """Moves applied since the deal."""
    history: bytes
    """Each move with the events it caused (told to every seat), in their wire forms, a JSON line
    each, every line after a newline: the moves since the last of ``segments`` (all of them once
    ``Sealer.thawed``). Carried as it was read, a move adding its line: only ``events`` (the lines
    it answers) and ``score`` parse it. The state dealt is not carried: the seeds deal it again
    (``start``)."""
    epoch: str | None = None
    """The replay guard's epoch the hand was dealt in (``service.replay``); None: no guard."""
    segments: tuple[str, ...] = ()
    """The record's earlier lines, in parts each sealed once (kind R), as the token carried them;
    the head names each by its text's end (``TOKEN_TAIL``: its AES-GCM tag), so that no part of
    another token can take a part's place."""

    @staticmethod
    def dealt(game: Game[Any, Any], ids: tuple[str, str, int, str], seeds: tuple[str, str | None],
              match: Wire | None, state: Any, epoch: str | None = None) -> SealedHand:
        """A hand just dealt: ``ids`` are its hand id, match id, hand number and key id."""
        return SealedHand(*ids, *seeds, match, game.seats(state), state, 0, b"", epoch)

    @property
    def carried(self) -> int:
        """The moves whose lines are in the parts of the record, unopened (none once thawed)."""
        return self.move_number - self.history.count(b"\n")

    def after(self, move: Wire, events: list[Wire], state: Any) -> SealedHand:
        """The hand once ``move`` has caused ``events`` and led to ``state``."""
        line = orjson.dumps({"move": move, "events": events})
        return SealedHand(self.hand_id, self.match_id, self.hand_number, self.key_id, self.server_seed,
                          self.client_seed, self.match, self.seats, state, self.move_number + 1,
                          self.history + b"\n" + line, self.epoch, self.segments)

    def plaintext(self, game: Game[Any, Any]) -> bytes:
        """The head (ids, seeds, the state without its derived fields, which ``rebuild`` never
        reads, the ends of the record's parts) as one JSON line, then the latest moves' lines."""
        return orjson.dumps({
            "hand_id": self.hand_id, "match_id": self.match_id, "hand_number": self.hand_number,
            "key_id": self.key_id, "server_seed": self.server_seed, "client_seed": self.client_seed,
            "match": self.match, "move_number": self.move_number, "state": game.dump_head(self.state),
            "epoch": self.epoch, "segments": [segment[-TOKEN_TAIL:] for segment in self.segments],
        }) + self.history

    @staticmethod
    def read(game: Game[Any, Any], plain: bytes, at: str, segments: tuple[str, ...] = ()) -> SealedHand:
        """The hand a token's plaintext holds, with the parts of its record that followed it. Every
        field a release adds to it, or to a game's state, has a default, so a token sealed before
        opens; one this release cannot read (a field renamed or removed since) is refused by name,
        one of another type too. The record is read only where it is answered (``record``,
        ``events``)."""
        head_line, newline, history = plain.partition(b"\n")
        head = data(head_line, at)
        if head.get("segments", []) != [segment[-TOKEN_TAIL:] for segment in segments]:
            raise BadToken(at, "has been altered or cut short", cause="altered")
        try:
            state = game.rebuild(head["state"])
            hand = SealedHand(head["hand_id"], head["match_id"], head["hand_number"], head["key_id"],
                              head["server_seed"], head["client_seed"], head["match"], game.seats(state),
                              state, head["move_number"], newline + history, head.get("epoch"), segments)
            texts = (hand.hand_id, hand.match_id, hand.key_id, hand.server_seed)
            if not (all(isinstance(text, str) for text in texts)
                    and isinstance(hand.client_seed, str | None) and isinstance(hand.epoch, str | None)
                    and isinstance(hand.match, dict | None) and type(hand.hand_number) is int
                    and type(hand.move_number) is int):
                raise TypeError("a head of another release's types")
            return hand
        except KeyError as missing:
            raise BadToken(at, "was sealed by a release whose hands this one cannot read (no '{field}'): "
                               "deal the hand again", cause="old-release", field=missing.args[0]) from None
        except (TypeError, ValueError, AttributeError, IndexError):
            raise BadToken(at, "was sealed by a release whose hands this one cannot read: deal "
                               "the hand again", cause="old-release") from None

    def start(self, game: Game[Any, Any]) -> Any:
        """The state dealt: the deal of the joined seeds at this table (its seats, its dealer,
        its options and the standing it was dealt in), made again, as anyone can make it."""
        table = game.dump_state(self.state)  # its dealer and options are those it was dealt with
        setup = DealSetup(self.seats, table["dealer"], table["options"], self.match)
        return game.deal(setup, SeedStream(shuffle_seed(self.server_seed, self.client_seed)))

    def record(self, game: Game[Any, Any]) -> Wire:
        """The state dealt and every move since, in their wire forms: what ``score`` checks."""
        moves = [line["move"] for line in _moves(self, 0, game)]
        return {"start": game.dump_state(self.start(game)), "moves": moves}

    def replayed(self, game: Game[Any, Any]) -> list[tuple[Any, Any]]:
        """Each move with the state it was made in, from the state dealt."""
        try:
            moves = [game.load_move(line["move"]) for line in _moves(self, 0, game)]
        except SchemaViolation:
            raise BadToken("/token", "was sealed by a release whose hands this one cannot read: deal "
                                     "the hand again", cause="old-release") from None
        return history_of(game, self.start(game), moves)

    def events(self, since: int) -> list[tuple[int, list[Wire]]]:
        """The number of each move after move ``since``, and its events told to every seat (their
        types are checked where they are looked up, by ``redacted``)."""
        return [(number, line["events"]) for number, line in enumerate(_moves(self, since), since + 1)]


def _moves(hand: SealedHand, since: int, game: Game[Any, Any] | None = None) -> list[Wire]:
    """The lines of ``hand``'s moves after move ``since``, read: each as ``after`` writes it,
    ``{"move": {...}, "events": [{"type": ..., "seat": ..., ...}, ...]}``, every event of a type
    ``game`` declares. The lines before ``history``'s are in the parts of the record, unopened,
    and must all come before move ``since``. A record of another number of lines than the hand
    has had moves, or a line of any other shape (another release's, a type it renamed), is
    refused, whatever it holds: each line read is looked at once, in time bounded by its length."""
    lines = hand.history.split(b"\n")  # nothing before the first newline
    carried = hand.carried
    whole = (carried > 0) == bool(hand.segments) and 0 <= carried <= since
    types, read = game.info.event_types if game else None, []
    for line in lines[since - carried + 1:] if whole else ():
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            value = None
        events = value.get("events") if isinstance(value, dict) else None
        whole = isinstance(events, list) and isinstance(value.get("move"), dict) and all(
            isinstance(event, dict) and isinstance(event.get("type"), str) and "seat" in event
            and (types is None or event["type"] in types) for event in events)
        if not whole:
            break
        read.append(value)
    if not whole:
        raise BadToken("/token", "was sealed by a release whose hands this one cannot read: deal the hand "
                                 "again", cause="old-release")
    return read


@dataclass(frozen=True, slots=True)
class SealedMatch:
    """What a match token holds: the standing ``score`` answered, in its wire form, and the table
    it is played at, which the next deal keeps (a match to 5000 stays one)."""

    match_id: str
    hands: int
    """Hands scored so far."""
    players: int
    options: Wire
    match: Wire

    def plaintext(self) -> bytes:
        return orjson.dumps({"match_id": self.match_id, "hands": self.hands, "players": self.players,
                             "options": self.options, "match": self.match})

    @staticmethod
    def read(plain: bytes, at: str) -> SealedMatch:
        wire = data(plain, at)
        try:
            return SealedMatch(wire["match_id"], wire["hands"], wire["players"], wire["options"],
                               wire["match"])
        except KeyError as missing:
            raise BadToken(at, "was sealed by a release whose matches this one cannot read (no '{field}')",
                           cause="old-release", field=missing.args[0]) from None


HANDS_KEPT = 128
"""Plaintexts a worker keeps, per game, of the tokens it sealed (the oldest dropped first): a
token this worker sealed is known again by its exact text, which only this worker can have
written, and is read without its envelope opened (base64, AES-GCM, LZ4). A hand played through
one worker, in process, medians of 10 rounds: −7 µs a move in Sixty-six (75 → 69), −12 in Bura,
−15 in Bezique. Bytes only, at most a played-out Bezique's 45 kB each: kept hands with their
states cost every other move more than they saved (docs/performance.md, "Sealed against open")."""
TOKEN_TAIL = 24
"""Characters of a token's end (its AES-GCM tag) that find its kept plaintext; the whole text is
compared before the plaintext is read."""
SEGMENT_BYTES = 4096
"""The record's latest lines are sealed as a part of their own once they pass this many bytes.
Until then every move opens and seals them with the head; after, it carries them as text. A
Bezique record grows past 16 kB with its events, which every move decoded, decrypted and
decompressed, then compressed, encrypted and encoded again: on the bench's Bezique moves, opening
the envelope went from 18.0 to 8.4 µs and sealing it from 20.1 to 6.3 (alone, in process); a
whole sealed validate through the app in process from 339-357 to 300-307 µs, as dear as an open
one (docs/performance.md, "The record in parts"). Parts of 512 to 2048 bytes measured alike within
the noise; parts of 4 kB, compressed densely (``sealing.DENSE``), keep a played-out hand's token
near what one block of its record made (the longest of six Bezique hands: 11.3k characters, 9.9k
in one block, 16.9k in parts of 2 kB; Canasta 5.9k, 5.9k)."""


class Sealer:
    """One game's tokens: sealing and opening them with the server's keys."""

    def __init__(self, game: Game[Any, Any], keyring: Keyring) -> None:
        self.game, self.keyring = game, keyring
        self._kept: OrderedDict[str, tuple[str, bytes]] = OrderedDict()

    def seal(self, hand: SealedHand) -> str:
        """The hand's token: its head and latest lines sealed, then the parts of its record, each
        after a full stop."""
        if len(hand.history) > SEGMENT_BYTES:
            hand = self._frozen(hand)
        plain = hand.plaintext(self.game)
        token, kept = self.keyring.seal(HAND, self.game.info.id, plain), self._kept
        if len(kept) >= HANDS_KEPT:  # the oldest first, in one call (threaded workers share it)
            kept.popitem(last=False)
        kept[token[-TOKEN_TAIL:]] = (token, plain)
        return ".".join((token, *hand.segments))

    def _frozen(self, hand: SealedHand) -> SealedHand:
        """The hand with its latest lines sealed as the record's next part (without the newline
        that starts them: ``thawed`` puts it back)."""
        segment = self.keyring.seal(RECORD, self.game.info.id, hand.history[1:], dense=True)
        return replace(hand, history=b"", segments=(*hand.segments, segment))

    def thawed(self, hand: SealedHand) -> SealedHand:
        """The hand with the parts of its record opened: its ``history`` every line."""
        if not hand.segments:
            return hand
        game = self.game.info.id
        opened = [b"\n" + self.keyring.open(RECORD, game, segment, at="/token") for segment in hand.segments]
        return replace(hand, history=b"".join(opened) + hand.history, segments=())

    def seal_match(self, standing: SealedMatch) -> str:
        return self.keyring.seal(MATCH, self.game.info.id, standing.plaintext())

    def open(self, token: str, at: str) -> SealedHand:
        """The hand a token holds; the parts of its record are carried unopened (``thawed``)."""
        head, stop, rest = token.partition(".")
        segments = tuple(rest.split(".")) if stop else ()
        kept = self._kept.get(head[-TOKEN_TAIL:])
        if kept is not None and kept[0] == head:  # this worker's own text: authentic as it stands
            return SealedHand.read(self.game, kept[1], at, segments)
        plain = self.keyring.open(HAND, self.game.info.id, head, at=at)
        return SealedHand.read(self.game, plain, at, segments)

    def open_match(self, token: str, at: str) -> SealedMatch:
        """The standing a match token holds (a hand token's envelope is named as such)."""
        head, stop, _ = token.partition(".")
        plain = self.keyring.open(MATCH, self.game.info.id, head, at=at)
        if stop:  # a match has no record to carry
            raise BadToken(at, "has been altered or cut short", cause="altered")
        return SealedMatch.read(plain, at)


class TokenHand:
    """The hand a ``token`` holds, and the seat its ``seat_key`` proves (none: a spectator)."""

    def __init__(self, sealer: Sealer, body: Wire, guard: ReplayGuard = NO_GUARD) -> None:
        self.sealer, self.game, self.guard = sealer, sealer.game, guard
        self.sealed = sealer.open(body["token"], "/token")
        self.state, self.match = self.sealed.state, self.sealed.match
        key = body.get("seat_key")
        self.seat = None if key is None else sealer.keyring.seat_of(self.sealed, key, at="/seat_key")

    def ids(self) -> Wire:
        hand = self.sealed
        return {"hand_id": hand.hand_id, "hand_number": hand.hand_number, "move_number": hand.move_number}

    def asking(self, to_move: int | None) -> int | None:
        return self.seat  # a spectator has no moves: another seat's would show its hand

    def move(self, wire: Wire) -> Any:
        if self.seat is None:
            raise WrongSeatKey("/seat_key", "a move is made with the mover's seat key")
        if wire["seat"] != self.seat:
            raise WrongSeatKey("/seat_key", "this is seat {seat}'s key; the move is seat {mover}'s",
                               seat=self.seat, mover=wire["seat"])
        self.full()
        return load_move(self.game, wire, "/move")

    def current(self) -> None:
        self.guard.check(self.sealed)

    def refused(self, refusal: IllegalMove, mover: int) -> Wire:
        self.guard.check(self.sealed)
        reason = refusal_wire(refusal, self.game.info.vocabulary, mover)
        return {"legal": False, "reason": reason, **self.ids()}

    def moved(self, move: Any, state: Any, events: list[Event], *, computer: bool = False) -> Wire:
        game, types = self.game, self.game.info.event_types
        every, wire = told(types, events, EVERY_SEAT), game.dump_move(move)
        self.guard.advance(self.sealed, wire, computer=computer)
        self.sealed = self.sealed.after(wire, every, state)
        lang = current_language()
        return {"legal": True, "token": self.sealer.seal(self.sealed),
                "events": self.spoken(redacted(types, every, self.seat), self.seat, lang),
                "public_events": self.spoken(redacted(types, every, None), None, lang),
                "to_move": game.to_move(state), **self.ids()}

    def answer(self, wire: Wire) -> Wire:
        return {**wire, **self.ids()}

    def spoken(self, events: list[Wire], reader: int | None, lang: str) -> list[Wire]:
        """``events`` with their sentences, said to ``reader`` in ``lang``."""
        info = self.game.info
        return spoken(info.event_types, events, reader, lang, info.vocabulary)

    def full(self) -> None:
        """A hand that has had the most moves a record holds takes no more."""
        if self.sealed.move_number >= MAX_RECORD_MOVES:  # bounds a token, and a replay of its events
            raise BadToken("/token", "this hand has had {most} moves, the most a record holds",
                           cause="record-full", most=MAX_RECORD_MOVES)

    def events(self, since: int) -> Wire:
        """The events of every move after move ``since``, as this seat may see them."""
        if since > self.sealed.move_number:
            raise SchemaViolation("since is after the hand's last move", (FieldError(
                "/since", Text("this hand has had {moves} moves", {"moves": self.sealed.move_number})),))
        types, seat, hand = self.game.info.event_types, self.seat, self.sealed
        if since < hand.carried:  # asked for moves in the parts
            self.sealed = self.sealer.thawed(hand)
        told_moves = [(number, redacted(types, events, seat))  # every line read before a word is written
                      for number, events in self.sealed.events(since)]
        lang = current_language()
        moves = [{"move_number": number, "events": self.spoken(events, seat, lang)}
                 for number, events in told_moves]
        return {"moves": moves, "to_move": self.game.to_move(self.state), **self.ids()}

    @contextmanager
    def finishing(self) -> Iterator[None]:
        if self.game.to_move(self.state) is not None:
            raise HandNotFinished("/token", "the hand is not over: play it out first")
        try:
            yield
        except InvalidState as error:
            raise BadToken("/token", "this hand cannot be scored: {why}", why=quoted(error.detail)) from None

    def history(self) -> list[tuple[Any, Any]]:
        self.sealed = self.sealer.thawed(self.sealed)
        return self.sealed.replayed(self.game)

    def scored(self, answer: Wire) -> Wire:
        """The score, the standing sealed for the next deal, and what the hand was dealt from:
        the seeds, to check against the deal's commitment, and the whole record, to check every
        move."""
        hand, final = self.sealer.thawed(self.sealed), self.game.dump_state(self.state)
        standing = SealedMatch(hand.match_id, hand.hand_number, hand.seats, final["options"], answer["match"])
        return {
            **answer, "match_token": self.sealer.seal_match(standing),
            "state": final, "record": hand.record(self.game),
            "server_seed": hand.server_seed, "seed": hand.client_seed,
            "seed_commitment": commitment(hand.server_seed),
            "shuffle": SeedStream.VERSION, "match_id": hand.match_id, **self.ids(),
        }


class ComputerHand(TokenHand):
    """The hand a ``token`` holds, at the seat to move, which its ``computer_key`` must play: the
    computer player's seat at a person's table (``sealed/computer-move``)."""

    def __init__(self, sealer: Sealer, body: Wire, guard: ReplayGuard = NO_GUARD) -> None:
        super().__init__(sealer, body, guard)
        seats = sealer.keyring.computer_seats(self.sealed, body["computer_key"], at="/computer_key")
        to_move = self.game.to_move(self.state)
        if to_move is None:
            raise NoMove("/token", "the hand is over: nobody is to move")
        if to_move not in seats:
            raise NoMove("/computer_key", "seat {seat} is to move, and this key does not play it",
                         seat=to_move)
        self.full()
        self.seat: int = to_move

    def recalled(self) -> Any | None:
        """The move the computer already made on this token, when it is asked again (a retry):
        made again, not searched again, so that asking twice cannot fish for another reply.
        Refused (409) before any search when the hand has moved on otherwise."""
        wire = self.guard.recall(self.sealed)
        return None if wire is None else load_move(self.game, wire, "/token")


class SealedTable:
    """A sealed deal: shuffled from the server's seed joined with the client's, at the table of
    the match token's standing when one is sent."""

    def __init__(self, sealer: Sealer, body: Wire, guard: ReplayGuard = NO_GUARD) -> None:
        self.sealer, self.guard, self.standing = sealer, guard, None
        if body.get("match_token") is not None:
            self.standing = sealer.open_match(body["match_token"], "/match_token")
        players, options = self._table(body)
        self.server_seed, self.client_seed = new_server_seed(), body.get("seed")
        match = self.standing.match if self.standing else None
        self.setup = DealSetup(players, body.get("dealer"), options, match)
        self.source: DeckSource = SeedStream(shuffle_seed(self.server_seed, self.client_seed))

    def _table(self, body: Wire) -> tuple[int, Wire]:
        """Players and options: as sent, or, in a match, as its first deal made them (what is
        sent must agree: a match to 5000 cannot become one to 1)."""
        players, options, standing = body.get("players"), body.get("options") or {}, self.standing
        if standing is None:
            return players or self.sealer.game.info.default_players, options
        if players is not None and players != standing.players:
            raise WrongMode("/players", "this match is played by {players}", players=standing.players)
        for name, value in options.items():
            if standing.options.get(name) != value:
                raise WrongMode(f"/options/{name}", "this match is played with {option} {value}", option=name,
                                value=repr(standing.options.get(name)))
        return standing.players, standing.options

    @contextmanager
    def dealing(self) -> Iterator[None]:
        try:
            yield
        except InvalidState as error:
            if self.standing is None or not any(e.pointer.startswith("/match") for e in error.errors):
                raise
            raise BadToken("/match_token", "this standing deals no hand: {why}",
                           why=quoted(error.detail)) from None

    def dealt(self, state: Any) -> Wire:
        hand = self._hand(state)
        return {**self._answer(hand), "seat_keys": self.sealer.keyring.seat_keys(hand)}

    def dealt_against_computer(self, state: Any, seat: int) -> Wire:
        """The hand dealt to a person at ``seat`` and the computer player at every other: the
        person's seat key only, and the computer key that has the server play the others."""
        hand = self._hand(state)
        keyring = self.sealer.keyring
        computer = [other for other in range(hand.seats) if other != seat]
        return {**self._answer(hand), "seat": seat, "seat_key": keyring.seat_keys(hand)[seat],
                "computer_key": keyring.computer_key(hand, computer)}

    def _hand(self, state: Any) -> SealedHand:
        standing, setup, game = self.standing, self.setup, self.sealer.game
        ids = (new_id(), standing.match_id if standing else new_id(), standing.hands + 1 if standing else 1,
               self.sealer.keyring.sealing)
        epoch = self.guard.dealt(ids[0])
        return SealedHand.dealt(game, ids, (self.server_seed, self.client_seed), setup.match, state, epoch)

    def _answer(self, hand: SealedHand) -> Wire:
        return {
            "token": self.sealer.seal(hand), "seed_commitment": commitment(self.server_seed),
            "shuffle": SeedStream.VERSION, "match_id": hand.match_id, "hand_id": hand.hand_id,
            "hand_number": hand.hand_number, "move_number": hand.move_number,
            "to_move": self.sealer.game.to_move(hand.state),
        }
