"""Sealed hands: a hand's record as an opaque token that only this service can open, and the
seat keys that prove a seat. No Flask and no game here; what a token holds is
``service.api.sealed``'s.

A token is base64 (RFC 4648, standard alphabet) of::

    format (1 byte) | kind (1: H hand, M match, R part of a record) | len + game id | len + key id
    | salt (16) | nonce (12) | AES-256-GCM

The bytes before the salt are the AEAD's associated data, so the format, the game and the kind
are authenticated though readable, and a token of another format, game or kind is named as such.
The readable header is bounded (a game id of at most 32 bytes, a key id of at most 64) and none
of its text is echoed before the tag has vouched for it: another game is named only then, and a
key id never. A hand token of format 4 may be followed by parts of its record, each sealed the
same way (kind R) and joined to it by a full stop (``service.api.sealed`` says why).
A worker seals under a key of its own, HMAC(the server key's token secret, a random 128-bit
salt), each token with a random 96-bit nonce, and takes a new salt after ``TOKENS_A_KEY`` tokens:
far inside GCM's limit of 2^32 random nonces a key (two nonces alike among 2^20: a chance of
about 2^-57). Every worker that opens a token derives its key once for all the tokens of that
salt (``CIPHERS_KEPT``), where format 2 took a key a token, derived again to seal each and to open
each at another worker. Format 2 and 3 tokens (format 2: no nonce, each its own salt and key,
used once; format 3: no record parts) still open.

The plaintext (formats 2 to 4): lines of JSON (the game's wire forms, which ``service.api.sealed``
writes and reads), compressed as an LZ4 block. Data read by a parser, never a program: nothing in
a token can name a class or a function, and an object the reader does not know is refused before
any value is built. LZ4 and not deflate, measured on a Bezique hand at move 207 (39 kB of JSON
lines, the record's events included): deflate (level 1) makes 5.3 kB in 147 µs and opens it in
59; LZ4 makes 7.7 kB in 26 µs and opens it in 13 (Sixty-six at move 23: 5.9 kB to 1.2 kB in 26
µs, or to 1.6 kB in 5). Uncompressed, a whole Bezique hand would not fit a token's 65,536
characters. JSON and not msgpack: a Bezique state at move 212 is 3.1 kB of JSON (1.6 after LZ4),
read by orjson in 20 µs and written in 9; 2.1 kB of msgpack (1.3 after LZ4), read in 32 and
written in 18; and JSON is the wire form already, which every tool reads.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import secrets
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import lz4.block
import orjson
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from service.errors import BadToken, WrongSeatKey
from service.i18n import N_, Translated

FORMAT = 4
"""The token format this release seals (1: a pickle, no longer read; 2: a key a token, read; 3: one
key a worker, read; 4: 3 with its record in parts)."""
READ_FORMATS = (2, 3, FORMAT)
"""Formats this release opens: format 2 and 3 tokens, sealed before it, play on."""
RETIRED_FORMATS = (1,)
"""Formats earlier releases sealed (1: a pickle), refused as such: deal the hand again."""
HAND, MATCH, RECORD = b"H", b"M", b"R"
KIND_NAMES = {HAND: N_("hand token"), MATCH: N_("match token"), RECORD: N_("part of a hand's record")}
SALT_BYTES = 16
NONCE_BYTES = 12
FORMAT_2_NONCE = bytes(NONCE_BYTES)
"""A format 2 token's key was used once, so its nonce was fixed."""
TOKENS_A_KEY = 1 << 20
"""Tokens a worker seals under one key (one salt) before it takes another. One key a worker
rather than one a token spares the derivation and the AES set-up on every seal (and on every
open where another worker sealed): a move's token is sealed, once compressed, in 3.5 µs against
5.5 a key a token (Sixty-six; Bura 4.7 against 8.0, Bezique 5.6 against 7.6: the bench's moves
in process, medians of 15 alternating rounds)."""
KEY_BYTES = 32
SEAT_MAC_BYTES = 16
COMPUTER = 0xC0
"""A computer key's first byte: it is never a seat (a table has six at most)."""
SERVER_SEED_BYTES = 32
"""256 bits: no seed can be guessed from the cards a seat sees."""
MAX_GAME_ID_BYTES, MAX_KEY_ID_BYTES = 32, 64
"""The most bytes a token's readable header gives a game id, and a key id (``StateKey``)."""
CIPHERS_KEPT = 4096
"""Token keys a worker keeps, each with its AES-GCM set up, the least recently used dropped first:
one for each worker whose tokens it opens (and one a format 2 token). A derivation and its
set-up cost 2.3 µs, of the 25-30 µs a move's envelope costs in process (opening one token,
sealing the next); most of the rest is LZ4 and base64 both ways."""
SEAT_KEYS_KEPT = 4096
"""Seat keys a worker keeps once made, the least recently used dropped first: each move of a
hand proves its mover's key, and a worker that has checked a seat's key once compares its next
moves' with the key kept. A move's key is checked in 0.6 µs kept, 2.7 made anew, where decoding
it and making it took 2.4 (Sixty-six, the bench's moves in process, medians of 15 rounds)."""
_URLSAFE = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"
"""URL-safe base64's alphabet, in the order of the values its characters stand for."""
DENSE: dict[str, Any] = {"mode": "high_compression", "compression": 9}
"""LZ4's high compression, for a record's parts: sealed once, so its time is spent once (a 4 kB
Bezique part: 12 µs against 2), and a quarter smaller: a played-out Bezique record's parts come to
5.8 kB, what one block of the whole record made (5.7), where they made 7.7. Opening is as fast."""
MAX_PLAIN = 1 << 20
"""Bytes a token's plaintext is at most: far above any hand's record (Bezique's, played out with
its events: 45 kB)."""


@dataclass(frozen=True, slots=True)
class StateKey:
    """One server key of ``STATE_KEYS``: its id (written into every token it seals) and secret."""

    id: str
    secret: bytes

    def __post_init__(self) -> None:
        if not 1 <= len(self.id.encode()) <= MAX_KEY_ID_BYTES:
            raise ValueError(f"a state key id is 1 to {MAX_KEY_ID_BYTES} bytes")
        if len(self.secret) != KEY_BYTES:
            raise ValueError(f"a state key is {KEY_BYTES} bytes")

    @staticmethod
    def parse(text: str) -> tuple[StateKey, ...]:
        """``id:secret,id:secret``, the secrets in URL-safe base64; the first seals, all open."""
        keys = []
        for entry in (e.strip() for e in text.split(",")):
            key_id, colon, encoded = entry.partition(":")
            if not colon:
                raise ValueError("STATE_KEYS entries are id:secret (the secret in URL-safe base64)")
            try:
                secret = _unpadded_b64decode(encoded)
            except (binascii.Error, ValueError):
                raise ValueError(f"STATE_KEYS: the secret of {key_id!r} is not base64") from None
            keys.append(StateKey(key_id, secret))
        if len({k.id for k in keys}) != len(keys):
            raise ValueError("STATE_KEYS: every key id once")
        return tuple(keys)

    @staticmethod
    def generate(key_id: str) -> StateKey:
        return StateKey(key_id, secrets.token_bytes(KEY_BYTES))


def shuffle_seed(server_seed: str, client_seed: str | None) -> str:
    """The seed the deck is shuffled from (shuffle v1): the server's and the client's, joined."""
    return f"{server_seed}:{client_seed or ''}"


def commitment(server_seed: str) -> str:
    return hashlib.sha256(server_seed.encode()).hexdigest()


def new_id() -> str:
    return secrets.token_hex(16)


def new_server_seed() -> str:
    return secrets.token_hex(SERVER_SEED_BYTES)


class Seated(Protocol):
    """A sealed hand as its seat keys know it."""

    @property
    def hand_id(self) -> str: ...

    @property
    def key_id(self) -> str:
        """The key the seat keys are derived from (it may no longer be the sealing one)."""

    @property
    def seats(self) -> int: ...


class Keyring:
    """The server keys: the first seals new tokens, every one opens."""

    def __init__(self, keys: Sequence[StateKey]) -> None:
        if not keys:
            raise ValueError("at least one state key")
        self.sealing = keys[0].id
        self._sealing_salt: tuple[int, bytes, int] = (0, b"", TOKENS_A_KEY)
        """The process that took it, the salt of the key this process seals under, and the tokens
        sealed under it (a forked worker takes its own at its first token)."""
        self._token_secret = {k.id: _derive(k.secret, b"token") for k in keys}
        self._seat_secret = {k.id: _derive(k.secret, b"seat key") for k in keys}

    def seal(self, kind: bytes, game: str, plain: bytes, *, dense: bool = False) -> str:
        """A token of ``plain``, compressed; ``dense``: harder, for bytes sealed once and carried
        by every move after (a record's part: ``DENSE``)."""
        compressed = lz4.block.compress(plain, store_size=True, **DENSE) if dense else \
            lz4.block.compress(plain, store_size=True)
        return self.seal_compressed(kind, game, compressed)

    def seal_compressed(self, kind: bytes, game: str, compressed: bytes) -> str:
        """A token of these exact bytes (``seal`` writes them; tests forge them)."""
        header, salt, nonce = _header(kind, game, self.sealing), self._salt(), os.urandom(NONCE_BYTES)
        sealed = self._aead(self.sealing, salt).encrypt(nonce, compressed, header)
        return binascii.b2a_base64(header + salt + nonce + sealed, newline=False).decode("ascii")

    def _salt(self) -> bytes:
        """The salt of the key this process seals under, a new one every ``TOKENS_A_KEY`` tokens."""
        pid, salt, sealed = self._sealing_salt
        if sealed >= TOKENS_A_KEY or pid != os.getpid():
            pid, salt, sealed = os.getpid(), os.urandom(SALT_BYTES), 0
        self._sealing_salt = (pid, salt, sealed + 1)
        return salt

    def open(self, kind: bytes, game: str, token: str, *, at: str) -> bytes:
        """The plaintext a token of ``kind`` for ``game`` holds; ``BadToken`` at ``at`` otherwise."""
        try:
            raw = binascii.a2b_base64(token, strict_mode=True)
        except (binascii.Error, ValueError):
            raise BadToken(at, "is not a token of this service (not base64)",
                           cause="not-a-token") from None
        found_kind, found_game, key_id, rest = _read_header(raw, at)
        nonce, sealed = (rest[SALT_BYTES:SALT_BYTES + NONCE_BYTES], rest[SALT_BYTES + NONCE_BYTES:]) \
            if raw[0] != 2 else (FORMAT_2_NONCE, rest[SALT_BYTES:])
        if found_kind != kind:
            raise BadToken(at, "is a {found}, not a {wanted}", cause="other-kind",
                           found=Translated(KIND_NAMES.get(found_kind, N_("token of another kind"))),
                           wanted=Translated(KIND_NAMES[kind]))
        if key_id not in self._token_secret:  # the key id is not echoed: nothing has vouched for it
            raise BadToken(at, "was sealed with a key this server does not hold (rotated out, or another "
                               "deployment's)", cause="unknown-key")
        header = raw[:len(raw) - len(rest)]
        try:
            plain = self._aead(key_id, bytes(rest[:SALT_BYTES])).decrypt(nonce, sealed, header)
        except (InvalidTag, ValueError):
            raise BadToken(at, "has been altered or cut short", cause="altered") from None
        if found_game != game:  # named once the tag vouches for it: a game id this service wrote
            raise BadToken(at, "is a {found} token: this path is for {game}", found=found_game, game=game,
                           cause="other-game")
        return _decompressed(plain, at)

    def _aead(self, key_id: str, salt: bytes) -> AESGCM:
        return _token_cipher(self._token_secret[key_id], salt)

    def seat_keys(self, hand: Seated) -> list[str]:
        return [self._seat_key(hand.key_id, hand.hand_id, seat) for seat in range(hand.seats)]

    def seat_of(self, hand: Seated, seat_key: str, *, at: str) -> int:
        """The seat whose key this is; ``WrongSeatKey`` (403) unless it is one of this hand's. The
        seat is read from the key's first two characters, and the whole key compared with that
        seat's (``_seat_key``, kept once made)."""
        self._holding(hand, at)
        seat = _first_byte(seat_key)
        expected = self._seat_key(hand.key_id, hand.hand_id, seat) if 0 <= seat < hand.seats else ""
        if not expected or not seat_key.isascii() or not hmac.compare_digest(seat_key, expected):
            raise WrongSeatKey(at, "is not a seat key of this hand")
        return seat

    def computer_key(self, hand: Seated, seats: Iterable[int]) -> str:
        """The key that lets its bearer have the server play ``seats`` of this hand (the computer
        player's seats at a person's table), without holding their seat keys: the seats as a
        bit mask, and its MAC."""
        mask = sum(1 << seat for seat in seats)
        return self._computer_key(hand.key_id, hand.hand_id, mask)

    def computer_seats(self, hand: Seated, computer_key: str, *, at: str) -> frozenset[int]:
        """The seats this computer key plays; ``WrongSeatKey`` (403) unless it is this hand's."""
        raw = self._opened(hand, computer_key, at)
        mask = raw[1] if len(raw) == 2 + SEAT_MAC_BYTES and raw[0] == COMPUTER else 0
        expected = self._computer_key(hand.key_id, hand.hand_id, mask) if mask else ""
        if not expected or not hmac.compare_digest(computer_key, expected):
            raise WrongSeatKey(at, "is not this hand's computer key")
        return frozenset(seat for seat in range(hand.seats) if mask >> seat & 1)

    def _opened(self, hand: Seated, key: str, at: str) -> bytes:
        """A computer key's bytes (none, for text that is not base64)."""
        self._holding(hand, at)
        try:
            return _unpadded_b64decode(key)
        except (binascii.Error, ValueError):
            return b""

    def _holding(self, hand: Seated, at: str) -> None:
        """``WrongSeatKey`` unless this server holds the secret the hand's keys were made with."""
        if hand.key_id not in self._seat_secret:
            raise WrongSeatKey(at, "cannot be checked: this hand's seat keys were made with key '{key}', "
                                   "which this server no longer holds", cause="unknown-key", key=hand.key_id)

    def _computer_key(self, key_id: str, hand_id: str, mask: int) -> str:
        mac = hmac.digest(self._seat_secret[key_id], f"{hand_id}/computer/{mask}".encode(), "sha256")
        return base64.urlsafe_b64encode(bytes((COMPUTER, mask)) + mac[:SEAT_MAC_BYTES]).decode().rstrip("=")

    def _seat_key(self, key_id: str, hand_id: str, seat: int) -> str:
        return _seat_key(self._seat_secret[key_id], hand_id, seat)


@lru_cache(maxsize=SEAT_KEYS_KEPT)
def _seat_key(seat_secret: bytes, hand_id: str, seat: int) -> str:
    """A seat's key: the seat, and the MAC of the hand id and the seat (see ``SEAT_KEYS_KEPT``)."""
    mac = hmac.digest(seat_secret, f"{hand_id}/{seat}".encode(), "sha256")
    return base64.urlsafe_b64encode(bytes((seat,)) + mac[:SEAT_MAC_BYTES]).decode().rstrip("=")


def _first_byte(key: str) -> int:
    """The first byte of URL-safe base64 ``key``, from its first two characters alone; -1 for
    text that does not start with two of the alphabet's."""
    high, low = _URLSAFE.find(key[:1] or "?"), _URLSAFE.find(key[1:2] or "?")
    return -1 if high < 0 or low < 0 else high << 2 | low >> 4


@lru_cache(maxsize=CIPHERS_KEPT)
def _token_cipher(token_secret: bytes, salt: bytes) -> AESGCM:
    """A token's key, HMAC(the server key's token secret, the token's salt), set up for AES-GCM:
    derived once a token in a worker (see ``CIPHERS_KEPT``)."""
    return AESGCM(hmac.digest(token_secret, salt, "sha256"))


def _derive(secret: bytes, purpose: bytes) -> bytes:
    """One key per use from a server key (HMAC-SHA-256 as the KDF: the secret is uniform)."""
    return hmac.digest(secret, b"card-rules " + purpose, "sha256")


def _unpadded_b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _header(kind: bytes, game: str, key_id: str) -> bytes:
    game_bytes, key_bytes = game.encode(), key_id.encode()
    if len(game_bytes) > MAX_GAME_ID_BYTES:
        raise ValueError(f"a game id is at most {MAX_GAME_ID_BYTES} bytes")
    return bytes((FORMAT, *kind, len(game_bytes), *game_bytes, len(key_bytes), *key_bytes))


def _short(at: str) -> BadToken:
    return BadToken(at, "is not a token of this service (cut short)", cause="not-a-token")


def _read_header(raw: bytes, at: str) -> tuple[bytes, str, str, memoryview]:
    """Kind, game, key id and what follows (a view: the sealed bytes are not copied); ``BadToken``
    for a token too short to hold them."""
    if len(raw) < 3:
        raise _short(at)
    if raw[0] not in (*READ_FORMATS, *RETIRED_FORMATS):  # a first byte no release wrote: not a token
        raise _stranger(at)
    if raw[0] not in READ_FORMATS:
        raise BadToken(at, "is a token of format {found}, which this release does not read (it reads "
                           "format {format}): deal the hand again", cause="old-release", found=raw[0],
                           format=FORMAT)
    kind, game_end = raw[1:2], 3 + raw[2]
    if len(raw) <= game_end:
        raise _short(at)
    key_end = game_end + 1 + raw[game_end]
    if len(raw) < key_end + SALT_BYTES + (NONCE_BYTES if raw[0] != 2 else 0) + 16:
        raise _short(at)
    if raw[2] > MAX_GAME_ID_BYTES or raw[game_end] > MAX_KEY_ID_BYTES:
        raise _stranger(at)
    try:
        return kind, raw[3:game_end].decode(), raw[game_end + 1:key_end].decode(), memoryview(raw)[key_end:]
    except UnicodeDecodeError:
        raise _stranger(at) from None


def _stranger(at: str) -> BadToken:
    return BadToken(at, "is not a token of this service", cause="not-a-token")


def _decompressed(compressed: bytes, at: str) -> bytes:
    size = int.from_bytes(compressed[:4], "little")  # the block's stored size, read before any work
    try:
        if size > MAX_PLAIN:
            raise ValueError(size)
        return bytes(lz4.block.decompress(compressed))
    except (lz4.block.LZ4BlockError, ValueError):
        raise BadToken(at, "does not hold the data of a format {format} token", format=FORMAT) from None


def data(text: bytes, at: str) -> dict[str, Any]:
    """The JSON object ``text`` is: a token's parts are read as data, never run; an authentic
    token whose part is not one cannot come from this format's sealing, and is refused."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        value = None
    if not isinstance(value, dict):
        raise BadToken(at, "does not hold the data of a format {format} token", format=FORMAT)
    return value
