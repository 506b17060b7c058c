"""Every hand token this server can open but not read is refused cleanly: a 422 naming `/token`
(a `bad-token` problem), never a 500, whatever its lines hold. Such a token is sealed with the
server's key by another release (one that renamed an event type makes every hand in play one),
so these are forged with the test key. And a token's readable header, which nothing vouches for
until the tag is checked, is bounded and never echoed."""

from __future__ import annotations

import binascii
import os
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from service import create_app
from service.api.sealed import Sealer, TokenHand
from service.config import Settings
from service.errors import BadToken
from service.games.registry import GAMES
from service.sealing import FORMAT, HAND, MAX_GAME_ID_BYTES, MAX_KEY_ID_BYTES, SALT_BYTES
from tests.api.test_sealed_games import KEY, RING
from tests.api.test_sealed_http import deal, play_out, problem

GAME = "sixty-six"
PATH = f"/v1/games/{GAME}/sealed"
BROKEN = 2
"""The move whose line is broken (of a record of more)."""


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app(Settings(state_keys=(KEY,), replay_store="off")).test_client()


def played(client: Any, moves: int) -> dict[str, Any]:
    """A sealed Sixty-six hand after ``moves`` moves: its token, its seat keys and a legal move."""
    dealt = deal(client)
    token, keys, seat = dealt["token"], dealt["seat_keys"], dealt["to_move"]
    for number in range(moves + 1):
        move = client.post(f"{PATH}/legal-moves", json={"token": token, "seat_key": keys[seat]}).json["moves"][0]
        if number == moves:
            return {"token": token, "seat_key": keys[seat], "move": move}
        answer = client.post(f"{PATH}/validate", json={"token": token, "seat_key": keys[seat], "move": move})
        token, seat = answer.json["token"], answer.json["to_move"]
    raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def hands(client: Any) -> dict[str, dict[str, Any]]:
    """A hand in play (after 4 moves) and one played out, both past move ``BROKEN``."""
    return {"in play": played(client, 4), "over": {"token": play_out(client, deal(client))}}


def lines(token: str) -> list[bytes]:
    """The lines of the token's plaintext, the parts of its record opened (the head names none)."""
    sealer = Sealer(GAMES[GAME], RING)
    return sealer.thawed(sealer.open(token, "/token")).plaintext(GAMES[GAME]).split(b"\n")


def resealed(token: str, change: Callable[[list[bytes]], list[bytes]]) -> str:
    """The token's plaintext as ``change`` makes it, sealed again with the server's key."""
    return RING.seal(HAND, GAME, b"\n".join(change(lines(token))))


def moved(line: Callable[[dict[str, Any]], object]) -> Callable[[list[bytes]], list[bytes]]:
    """Move ``BROKEN``'s line replaced with what ``line`` makes of it (bytes, or a value written as JSON)."""
    def change(parts: list[bytes]) -> list[bytes]:
        made = line(orjson.loads(parts[BROKEN]))
        return [*parts[:BROKEN], made if isinstance(made, bytes) else orjson.dumps(made), *parts[BROKEN + 1:]]
    return change


def renamed(line: dict[str, Any]) -> dict[str, Any]:
    """What a release that renamed every event type writes."""
    return {**line, "events": [{**event, "type": f"{event['type']}_v2"} for event in line["events"]]}


def first_event(**change: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda line: {**line, "events": [{**line["events"][0], **change}, *line["events"][1:]]}


def without(name: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda line: {key: value for key, value in line.items() if key != name}


MOVE_LINES: dict[str, Callable[[dict[str, Any]], object]] = {
    "an event type renamed": renamed,
    "an unknown event type": lambda line: {**line, "events": [*line["events"], {"type": "card_tossed", "seat": 0}]},
    "an event type that is a number": first_event(type=7),
    "an event type that is a list": first_event(type=["card_played"]),
    "an event type that is an object": first_event(type={"card_played": 1}),
    "an event without its type": lambda line: {**line, "events": [{"seat": 0}]},
    "an event without its seat": lambda line: {**line, "events": [{"type": "card_drawn", "cards": ["AS"], "count": 1}]},
    "no move": without("move"),
    "no events": without("events"),
    "a move that is a string": lambda line: {**line, "move": "play AS"},
    "a move that is null": lambda line: {**line, "move": None},
    "a move that is a list": lambda line: {**line, "move": [line["move"]]},
    "events that are an object": lambda line: {**line, "events": line["events"][0]},
    "events that are null": lambda line: {**line, "events": None},
    "events that are strings": lambda line: {**line, "events": ["card_played"]},
    "events that are numbers": lambda line: {**line, "events": [1, 2]},
    "events that are lists": lambda line: {**line, "events": [[line["events"][0]]]},
    "malformed JSON": lambda line: orjson.dumps(line)[:-3],
    "a JSON array": lambda line: [line["move"], line["events"]],
    "a JSON number": lambda line: 7,
    "a JSON string": lambda line: "move",
    "JSON null": lambda line: None,
    "an empty line": lambda line: b"",
    "bytes that are not UTF-8": lambda line: b"\xff\xfe{}",
    "JSON nested past any parser's depth": lambda line: b"[" * 5000 + b"]" * 5000,
}


def head(change: Callable[[dict[str, Any]], object]) -> Callable[[list[bytes]], list[bytes]]:
    """The head line replaced with what ``change`` makes of it (bytes, or a value written as JSON)."""
    def edit(parts: list[bytes]) -> list[bytes]:
        made = change(orjson.loads(parts[0]))
        return [made if isinstance(made, bytes) else orjson.dumps(made), *parts[1:]]
    return edit


def setting(name: str, value: Any) -> Callable[[list[bytes]], list[bytes]]:
    return head(lambda wire: {**wire, name: value})


RECORDS: dict[str, Callable[[list[bytes]], list[bytes]]] = {
    **{f"a move line holding {kind}": moved(line) for kind, line in MOVE_LINES.items()},
    "a move line missing": lambda parts: [*parts[:BROKEN], *parts[BROKEN + 1:]],
    "a move line too many": lambda parts: [*parts, parts[-1]],
    "a head counting more moves than its lines": setting("move_number", 99),
}
"""The record broken, the head readable: the token opens, and whatever reads its record refuses it."""


HEADS: dict[str, Callable[[list[bytes]], list[bytes]]] = {
    "a hand id that is a number": setting("hand_id", 7),
    "a key id that is a list": setting("key_id", [KEY.id]),
    "a server seed that is a number": setting("server_seed", 7),
    "a client seed that is an object": setting("client_seed", {}),
    "a match id that is null": setting("match_id", None),
    "a match that is a list": setting("match", []),
    "a hand number that is a string": setting("hand_number", "1"),
    "a move number that is a string": setting("move_number", "4"),
    "a move number that is a fraction": setting("move_number", 4.5),
    "a state that is a list": setting("state", []),
    "no hand id": head(lambda wire: {name: value for name, value in wire.items() if name != "hand_id"}),
    "a head that is an array": head(lambda wire: [wire]),
    "a head of malformed JSON": head(lambda wire: b'{"hand_id": '),
}
"""The head broken, the record as it was: refused on opening, by every operation that opens it."""


def refused(answer: Any) -> str:
    message = problem(answer, 422, "/token")
    assert answer.json["type"] == "urn:card-rules:problem:bad-token", answer.json
    return message


@pytest.mark.parametrize("kind", RECORDS)
def test_events_refuse_a_record_they_cannot_read(client: Any, hands: dict[str, dict[str, Any]], kind: str) -> None:
    token = resealed(hands["in play"]["token"], RECORDS[kind])
    assert "deal the hand again" in refused(client.post(f"{PATH}/events", json={"token": token}))


@pytest.mark.parametrize("kind", RECORDS)
def test_score_refuses_a_record_it_cannot_read(client: Any, hands: dict[str, dict[str, Any]], kind: str) -> None:
    token = resealed(hands["over"]["token"], RECORDS[kind])
    answer = client.post(f"{PATH}/score", json={"token": token})
    assert "deal the hand again" in refused(answer)
    assert "server_seed" not in answer.get_data(as_text=True)


@pytest.mark.parametrize("kind", RECORDS)
def test_a_move_on_a_broken_record_is_made_and_its_token_refused_where_read(client: Any, hands: dict[str, dict[str, Any]], kind: str) -> None:
    """A move reads the head only and carries the record unread, so that a move costs the same
    at the last move as at the first: it is made (its own events are told), and the token it
    answers is refused wherever its record is read."""
    body = {**hands["in play"], "token": resealed(hands["in play"]["token"], RECORDS[kind])}
    answer = client.post(f"{PATH}/validate", json=body)
    assert answer.status_code == 200 and answer.json["legal"], answer.json
    refused(client.post(f"{PATH}/events", json={"token": answer.json["token"]}))


@pytest.mark.parametrize("path", ["validate", "events", "score", "view", "legal-moves"])
@pytest.mark.parametrize("kind", HEADS)
def test_every_operation_refuses_a_head_it_cannot_read(client: Any, hands: dict[str, dict[str, Any]], kind: str,
                                                     path: str) -> None:
    hand = hands["over" if path == "score" else "in play"]
    body = {**hand, "token": resealed(hand["token"], HEADS[kind])}
    if path in ("events", "score"):
        body = {"token": body["token"]}
    elif path != "validate":
        body.pop("move")
    refused(client.post(f"{PATH}/{path}", json=body))


def test_events_read_only_the_lines_they_answer(client: Any, hands: dict[str, dict[str, Any]]) -> None:
    token = resealed(hands["in play"]["token"], moved(renamed))
    assert client.post(f"{PATH}/events", json={"token": token, "since": BROKEN}).status_code == 200
    refused(client.post(f"{PATH}/events", json={"token": token, "since": BROKEN - 1}))


@pytest.mark.parametrize("kind", RECORDS)
def test_a_record_that_cannot_be_read_is_counted_as_an_old_release(hands: dict[str, dict[str, Any]], kind: str) -> None:
    """The metrics' cause, for the events and for the score."""
    sealer = Sealer(GAMES[GAME], RING)
    for hand, read in ((hands["in play"], lambda held: held.events(0)),
                       (hands["over"], lambda held: held.sealed.record(GAMES[GAME]))):
        held = TokenHand(sealer, {"token": resealed(hand["token"], RECORDS[kind])})
        with pytest.raises(BadToken) as refusal:
            read(held)
        assert (refusal.value.status, refusal.value.cause) == (422, "old-release")
        assert refusal.value.errors[0].pointer == "/token"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_renamed_event_type_is_refused_in_every_game(client: Any, game: str) -> None:
    dealt = deal(client, game)
    token, keys, seat = dealt["token"], dealt["seat_keys"], dealt["to_move"]
    move = client.post(f"/v1/games/{game}/sealed/legal-moves", json={"token": token, "seat_key": keys[seat]}).json
    token = client.post(f"/v1/games/{game}/sealed/validate",
                        json={"token": token, "seat_key": keys[seat], "move": move["moves"][0]}).json["token"]
    plain = RING.open(HAND, game, token, at="/token").split(b"\n")
    assert orjson.loads(plain[1])["events"]
    forged = RING.seal(HAND, game, b"\n".join([*plain[:1], orjson.dumps(renamed(orjson.loads(plain[1])))]))
    for seat_key in (*keys, None):
        body = {"token": forged} if seat_key is None else {"token": forged, "seat_key": seat_key}
        refused(client.post(f"/v1/games/{game}/sealed/events", json=body))


def raw_token(game: bytes, key_id: bytes, sealed: bytes = bytes(40)) -> str:
    """A token of this format with this readable header, and what follows it (no seal of ours)."""
    header = bytes((FORMAT, *HAND, len(game), *game, len(key_id), *key_id))
    return binascii.b2a_base64(header + os.urandom(SALT_BYTES) + sealed, newline=False).decode()


HEADERS = {
    "a game id past its bound": (GAME.encode() + b"-" + b"x" * MAX_GAME_ID_BYTES, KEY.id.encode()),
    "a key id past its bound": (GAME.encode(), b"k" * (MAX_KEY_ID_BYTES + 1)),
    "the longest header": (b"g" * 255, b"k" * 255),
    "a key id this server does not hold": (GAME.encode(), b"<b>zzkey</b>"),
    "another game's id, forged": (b"zzgame", KEY.id.encode()),
    "another game's id, forged, with a key it does not hold": (b"zzgame", b"zzkey"),
}


@pytest.mark.parametrize("kind", HEADERS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_readable_header_is_bounded_and_never_echoed(client: Any, kind: str, lang: str) -> None:
    game, key_id = HEADERS[kind]
    answer = client.post(f"{PATH}/spectator-view?lang={lang}", json={"token": raw_token(game, key_id)})
    refused(answer)
    text = answer.get_data(as_text=True)
    assert "zz" not in text and "xxxx" not in text and "kkkk" not in text and "ggg" not in text, text


def test_a_token_of_another_game_is_named_once_its_seal_vouches_for_it(client: Any) -> None:
    authentic = deal(client, "bura")["token"]
    assert "is a bura token" in refused(client.post(f"{PATH}/spectator-view", json={"token": authentic}))
    raw = bytearray(binascii.a2b_base64(authentic))
    raw[-1] ^= 1  # the same header, its seal broken: nothing vouches for the game it names
    altered = binascii.b2a_base64(bytes(raw), newline=False).decode()
    assert "bura" not in refused(client.post(f"{PATH}/spectator-view", json={"token": altered}))


def test_no_token_is_sealed_with_a_header_past_its_bounds() -> None:
    with pytest.raises(ValueError, match="game id"):
        RING.seal(HAND, "g" * (MAX_GAME_ID_BYTES + 1), b"{}")
