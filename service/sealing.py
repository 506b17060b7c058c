"""Sealed states: a hand's full state as an opaque token that only this service can open, and the
seat keys that prove a seat. No Flask here; the HTTP layer is ``service.api.sealed``.

A token is base64 (RFC 4648, standard alphabet) of::

    version (1 byte) | kind (1: H hand, M match) | len + game id | len + key id | salt (16) | AES-256-GCM

The bytes before the salt are the AEAD's associated data, so the game and the kind are
authenticated though readable, and a token of another game or kind is named as such. Every token
is sealed under its own key, HMAC(the server key's token secret, a random 128-bit salt), so no
AES key ever meets two messages and the random-nonce limit of 2^32 messages per GCM key does not
apply (a busy service seals one token a move). The
plaintext is a pickle of ``SealedHand`` or ``SealedMatch``, read back by an unpickler that only
builds the service's own value types (see ``_Unpickler``): the token is opened only once its tag
is verified, and even a token forged with a stolen key could build nothing but those values.
Pickle and not the wire form: the game's state comes back as it was sealed, without the
consistency check an untrusted state needs (Canasta's load: 55 µs; its unpickling: 22 µs).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import io
import os
import pickle
import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass, is_dataclass
from enum import Enum
from operator import attrgetter
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from service.errors import BadToken, WrongSeatKey

VERSION = 1
HAND, MATCH = b"H", b"M"
KIND_NAMES = {HAND: "hand token", MATCH: "match token"}
SALT_BYTES = 16
NONCE = bytes(12)
"""Each token's key is used once, so a fixed nonce is safe."""
KEY_BYTES = 32
SEAT_MAC_BYTES = 16
SERVER_SEED_BYTES = 32
"""256 bits: no seed can be guessed from the cards a seat sees."""


@dataclass(frozen=True, slots=True)
class StateKey:
    """One server key of ``STATE_KEYS``: its id (written into every token it seals) and secret."""

    id: str
    secret: bytes

    def __post_init__(self) -> None:
        if not 1 <= len(self.id.encode()) <= 64:
            raise ValueError("a state key id is 1 to 64 bytes")
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


@dataclass(frozen=True, slots=True)
class SealedHand:
    """What a hand token holds."""

    hand_id: str
    match_id: str
    hand_number: int
    """The hand's place in its match, from 1."""
    seats: int
    move_number: int
    """Moves applied since the deal."""
    key_id: str
    """The key the seat keys were derived from (it may no longer be the sealing one)."""
    server_seed: str
    client_seed: str | None
    match: dict[str, Any] | None
    """The standing the hand was dealt in, for its score."""
    state: Any

    def after(self, state: Any) -> SealedHand:
        """The hand once a move has led to ``state``."""
        return SealedHand(self.hand_id, self.match_id, self.hand_number, self.seats, self.move_number + 1,
                          self.key_id, self.server_seed, self.client_seed, self.match, state)


@dataclass(frozen=True, slots=True)
class SealedMatch:
    """What a match token holds: the standing ``score`` answered, in its wire form, and the table
    it is played at, which the next deal keeps (a match to 5000 stays one)."""

    match_id: str
    hands: int
    """Hands scored so far."""
    players: int
    options: dict[str, Any]
    match: dict[str, Any]


def shuffle_seed(server_seed: str, client_seed: str | None) -> str:
    """The seed the deck is shuffled from (shuffle v1): the server's and the client's, joined."""
    return f"{server_seed}:{client_seed or ''}"


def commitment(server_seed: str) -> str:
    return hashlib.sha256(server_seed.encode()).hexdigest()


def new_id() -> str:
    return secrets.token_hex(16)


def new_server_seed() -> str:
    return secrets.token_hex(SERVER_SEED_BYTES)


class Keyring:
    """The server keys: the first seals new tokens, every one opens."""

    def __init__(self, keys: Sequence[StateKey]) -> None:
        if not keys:
            raise ValueError("at least one state key")
        self.sealing = keys[0].id
        self._token_secret = {k.id: _derive(k.secret, b"token") for k in keys}
        self._seat_secret = {k.id: _derive(k.secret, b"seat key") for k in keys}

    def seal(self, kind: bytes, game: str, value: SealedHand | SealedMatch) -> str:
        header, salt = _header(kind, game, self.sealing), os.urandom(SALT_BYTES)
        sealed = self._aead(self.sealing, salt).encrypt(NONCE, _pickled(value), header)
        return binascii.b2a_base64(header + salt + sealed, newline=False).decode("ascii")

    def open(self, kind: bytes, game: str, token: str, *, at: str) -> Any:
        """The value a token of ``kind`` for ``game`` holds; ``BadToken`` at ``at`` otherwise."""
        try:
            raw = binascii.a2b_base64(token, strict_mode=True)
        except (binascii.Error, ValueError):
            raise BadToken(at, "is not a token of this service (not base64)") from None
        found_kind, found_game, key_id, rest = _read_header(raw, at)
        if found_kind != kind:
            raise BadToken(at, f"is a {KIND_NAMES.get(found_kind, 'token of another kind')}, "
                               f"not a {KIND_NAMES[kind]}")
        if found_game != game:
            raise BadToken(at, f"is a {found_game} token: this path is for {game}")
        if key_id not in self._token_secret:
            raise BadToken(at, f"was sealed with key {key_id!r}, which this server does not hold "
                               "(rotated out, or another deployment's)")
        header = raw[:len(raw) - len(rest)]
        try:
            plain = self._aead(key_id, rest[:SALT_BYTES]).decrypt(NONCE, rest[SALT_BYTES:], header)
        except (InvalidTag, ValueError):
            raise BadToken(at, "has been altered or cut short") from None
        try:
            return _Unpickler(io.BytesIO(plain)).load()
        except Exception:  # an authentic token whose types this version of the service lacks
            raise BadToken(at, "was sealed by another version of the service") from None

    def _aead(self, key_id: str, salt: bytes) -> AESGCM:
        return AESGCM(hmac.digest(self._token_secret[key_id], salt, "sha256"))

    def seat_keys(self, hand: SealedHand) -> list[str]:
        return [self._seat_key(hand.key_id, hand.hand_id, seat) for seat in range(hand.seats)]

    def seat_of(self, hand: SealedHand, seat_key: str, *, at: str) -> int:
        """The seat whose key this is; ``WrongSeatKey`` (403) unless it is one of this hand's."""
        try:
            raw = _unpadded_b64decode(seat_key)
        except (binascii.Error, ValueError):
            raw = b""
        if hand.key_id not in self._seat_secret:
            raise WrongSeatKey(at, f"cannot be checked: this hand's seat keys were made with key "
                                   f"{hand.key_id!r}, which this server no longer holds")
        seat = raw[0] if len(raw) == 1 + SEAT_MAC_BYTES else hand.seats
        expected = self._seat_key(hand.key_id, hand.hand_id, seat) if seat < hand.seats else ""
        if not expected or not hmac.compare_digest(seat_key, expected):
            raise WrongSeatKey(at, "is not a seat key of this hand")
        return seat

    def _seat_key(self, key_id: str, hand_id: str, seat: int) -> str:
        mac = hmac.digest(self._seat_secret[key_id], f"{hand_id}/{seat}".encode(), "sha256")
        return base64.urlsafe_b64encode(bytes((seat,)) + mac[:SEAT_MAC_BYTES]).decode().rstrip("=")


def _derive(secret: bytes, purpose: bytes) -> bytes:
    """One key per use from a server key (HMAC-SHA-256 as the KDF: the secret is uniform)."""
    return hmac.digest(secret, b"card-rules " + purpose, "sha256")


def _unpadded_b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _header(kind: bytes, game: str, key_id: str) -> bytes:
    game_bytes, key_bytes = game.encode(), key_id.encode()
    return bytes((VERSION, *kind, len(game_bytes), *game_bytes, len(key_bytes), *key_bytes))


def _short(at: str) -> BadToken:
    return BadToken(at, "is not a token of this service (cut short)")


def _read_header(raw: bytes, at: str) -> tuple[bytes, str, str, bytes]:
    """Kind, game, key id and what follows; ``BadToken`` for a token too short to hold them."""
    if len(raw) < 3:
        raise _short(at)
    if raw[0] != VERSION:
        raise BadToken(at, f"is a token of format {raw[0]}; this server reads format {VERSION}")
    kind, game_end = raw[1:2], 3 + raw[2]
    if len(raw) <= game_end:
        raise _short(at)
    key_end = game_end + 1 + raw[game_end]
    if len(raw) < key_end + SALT_BYTES + 16:
        raise _short(at)
    try:
        return kind, raw[3:game_end].decode(), raw[game_end + 1:key_end].decode(), raw[key_end:]
    except UnicodeDecodeError:
        raise BadToken(at, "is not a token of this service") from None


def _pickled(value: object) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.dispatch_table = _REDUCERS  # type: ignore[assignment]
    pickler.dump(value)
    return buffer.getvalue()


class _Reducers(dict[type, Any]):
    """How each of the service's value types is pickled, found on first use: a slotted dataclass
    as its class and field values (a dataclass's own ``__getstate__`` calls ``fields()`` for every
    instance: a Canasta state pickled in 33 µs that way), an enum or a named tuple as its values, a
    card as its code."""

    def __missing__(self, cls: type) -> Any:
        from service.cards import CARDS, Card, card

        if cls is Card:
            # A C call per card, not a Python one: each card's reduction is made once, and the
            # unpickler builds cards with CARDS.__getitem__ (a Canasta state pickled in 20 µs, not 32).
            reducer: Any = {c: (card, (c.code,)) for c in CARDS.values()}.__getitem__
        elif is_dataclass(cls) and "__slots__" in vars(cls):  # rebuilt by its constructor
            slots = vars(cls)["__slots__"]
            values = attrgetter(*slots)
            if len(slots) == 1:
                reducer = lambda obj, cls=cls: (cls, (values(obj),))  # noqa: E731
            else:
                reducer = lambda obj, cls=cls: (cls, values(obj))  # noqa: E731
        elif issubclass(cls, Enum):
            reducer = lambda member: (type(member), (member.value,))  # noqa: E731
        elif issubclass(cls, tuple) and hasattr(cls, "_fields"):  # a named tuple
            reducer = lambda row: (type(row), tuple(row))  # noqa: E731
        else:
            raise KeyError(cls)
        self[cls] = reducer
        return reducer


_REDUCERS = _Reducers()


class _Unpickler(pickle.Unpickler):
    """Builds only the values a token holds: the dataclasses, enums and named tuples of the games'
    modules and of this one, and cards (by their code, so each code stays one instance)."""

    def find_class(self, module: str, name: str) -> Any:
        found = _ALLOWED.get((module, name))
        if found is None:
            found = _ALLOWED[module, name] = _allowed(module, name)
        return found


def _allowed(module: str, name: str) -> Any:
    if (module, name) == ("service.cards", "card"):
        from service.cards import CARDS
        return CARDS.__getitem__  # what ``card`` does, without its Python frame
    if module == __name__ and name in ("SealedHand", "SealedMatch"):
        return globals()[name]
    if module.startswith("service.games.") and "." not in name:
        found = getattr(sys.modules.get(module), name, None)
        named_tuple = isinstance(found, type) and issubclass(found, tuple) and hasattr(found, "_fields")
        if isinstance(found, type) and (is_dataclass(found) or issubclass(found, Enum) or named_tuple):
            return found
    raise pickle.UnpicklingError(f"{module}.{name} is not a sealed value type")


_ALLOWED: dict[tuple[str, str], Any] = {}
