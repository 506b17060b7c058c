"""Tokens and seat keys (service.sealing): what opens, and what every kind of tampering gets."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import pickle
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lz4 import block as lz4_block

from service import sealing
from service.api.events import EVERY_SEAT, told
from service.api.sealed import (
    HANDS_KEPT,
    SEGMENT_BYTES,
    TOKEN_TAIL,
    SealedHand,
    SealedMatch,
    Sealer,
    TokenHand,
)
from service.cards import SeedStream
from service.errors import BadToken, WrongSeatKey
from service.games.base import DealSetup
from service.games.registry import GAMES
from service.sealing import (
    CIPHERS_KEPT,
    FORMAT,
    HAND,
    NONCE_BYTES,
    SALT_BYTES,
    Keyring,
    StateKey,
    _token_cipher,
    commitment,
)
from service.wire.form import GameWire, field
from service.wire.kinds import SEAT, Int

OLD, NEW = StateKey("k1", bytes(range(32))), StateKey("k2", bytes(range(32, 64)))
FIXTURES = Path(__file__).parent / "fixtures"


IDS = ("a" * 32, "b" * 32, 1, OLD.id)


def hand(game: str = "sixty-six", seed: str = "t") -> SealedHand:
    rules = GAMES[game]
    state = rules.deal(DealSetup(rules.info.default_players, None, {}, None), SeedStream(seed))
    return SealedHand.dealt(rules, IDS, ("c" * 64, None), None, state)


def sealed(value: SealedHand | None = None, *, keys: tuple[StateKey, ...] = (OLD,),
           game: str = "sixty-six") -> str:
    return Sealer(GAMES[game], Keyring(keys)).seal(value or hand(game))


def opened(token: str, *, keys: tuple[StateKey, ...] = (OLD,), game: str = "sixty-six") -> SealedHand:
    return Sealer(GAMES[game], Keyring(keys)).open(token, "/token")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_token_opens_to_the_same_hand_with_the_same_card_instances(game: str) -> None:
    value = hand(game)
    back = opened(sealed(value, game=game), game=game)
    assert back == value
    assert back.state == value.state  # cards compare by identity: each code is still one instance


@st.composite
def played(draw: st.DrawFn) -> tuple[str, SealedHand]:
    """A hand of any game and table size, played some random legal moves from a random deal."""
    game = draw(st.sampled_from(sorted(GAMES)))
    rules = GAMES[game]
    players = draw(st.sampled_from(rules.info.player_counts))
    state = rules.deal(DealSetup(players, None, {}, None), SeedStream(draw(st.text(max_size=8))))
    value = SealedHand.dealt(rules, IDS, ("c" * 64, draw(st.none() | st.text(max_size=8))), None, state)
    for _ in range(draw(st.integers(0, 300))):
        seat = rules.to_move(state)
        if seat is None:
            break
        moves = rules.legal_moves(state, seat)
        move = moves[draw(st.integers(0, len(moves) - 1))]
        state, events = rules.apply(state, move)
        value = value.after(rules.dump_move(move), told(rules.info.event_types, events, EVERY_SEAT), state)
    return game, value


@given(played())
def test_any_hand_of_any_game_comes_back_from_its_token_as_it_was_sealed(case: tuple[str, SealedHand]) -> None:
    game, value = case
    sealer = Sealer(GAMES[game], Keyring((OLD,)))
    token = sealer.seal(value)
    back = sealer.open(token, "/token")
    assert len(back.segments) == token.count(".")
    assert back.history == (b"" if back.segments else value.history)  # the parts hold the rest
    assert sealer.thawed(back) == value
    assert GAMES[game].dump_state(back.state) == GAMES[game].dump_state(value.state)


def long_hand(moves: int = 40) -> SealedHand:
    """A Bezique hand some moves in: a record past ``SEGMENT_BYTES``, so its token has parts."""
    rules, value = GAMES["bezique"], hand("bezique")
    state = value.state
    for _ in range(moves):
        move = rules.legal_moves(state, rules.to_move(state))[0]
        state, events = rules.apply(state, move)
        value = value.after(rules.dump_move(move), told(rules.info.event_types, events, EVERY_SEAT), state)
    return value


def test_a_long_record_travels_in_parts_that_a_move_carries_unopened() -> None:
    sealer, value = Sealer(GAMES["bezique"], Keyring((OLD,))), long_hand()
    token = sealer.seal(value)
    parts = token.split(".")[1:]
    assert parts and len(value.history) > SEGMENT_BYTES
    back = sealer.open(token, "/token")
    assert back.segments == tuple(parts) and len(back.history) == 0
    rules = GAMES["bezique"]
    move = rules.legal_moves(back.state, rules.to_move(back.state))[0]
    state, events = rules.apply(back.state, move)
    after = back.after(rules.dump_move(move), told(rules.info.event_types, events, EVERY_SEAT), state)
    before = _token_cipher.cache_info()
    following = sealer.seal(after)
    assert following.split(".")[1:] == parts  # carried as the text they came in
    assert _token_cipher.cache_info().hits == before.hits + 1  # and never opened: the head's seal alone
    full = sealer.thawed(sealer.open(following, "/token"))
    assert full == sealer.thawed(after) and full.history.count(b"\n") == 41


def test_a_part_of_the_record_that_is_not_the_heads_own_is_refused() -> None:
    sealer = Sealer(GAMES["bezique"], Keyring((OLD,)))
    one, other = sealer.seal(long_hand()), sealer.seal(long_hand())
    head, part = one.split(".")
    swapped = f"{head}.{other.split('.')[1]}"  # the same lines, sealed again: another part
    for token in (swapped, head, f"{head}.{part}.{part}", f"{head}.", f"{head}.{part[:-4]}"):
        with pytest.raises(BadToken, match="altered") as refused:
            sealer.open(token, "/token")
        assert refused.value.errors[0].pointer == "/token"


def test_a_part_of_the_record_is_no_hand_and_a_hand_no_part() -> None:
    sealer = Sealer(GAMES["bezique"], Keyring((OLD,)))
    head, part = sealer.seal(long_hand()).split(".")
    with pytest.raises(BadToken, match="is a part of a hand's record, not a hand token"):
        sealer.open(part, "/token")
    hand_as_part = replace(sealer.open(f"{head}.{part}", "/token"), segments=(head,))
    with pytest.raises(BadToken, match="is a hand token, not a part of a hand's record"):
        sealer.thawed(hand_as_part)


def test_an_altered_part_is_refused_where_the_record_is_read() -> None:
    sealer = Sealer(GAMES["bezique"], Keyring((OLD,)))
    head, part = sealer.seal(long_hand()).split(".")
    raw = bytearray(binascii.a2b_base64(part))
    raw[len(raw) // 2] ^= 1
    altered = binascii.b2a_base64(bytes(raw), newline=False).decode()
    assert altered[-TOKEN_TAIL:] == part[-TOKEN_TAIL:]
    carried = sealer.open(f"{head}.{altered}", "/token")  # a move carries it unread
    with pytest.raises(BadToken, match="altered"):
        sealer.thawed(carried)


def test_a_token_of_format_1_is_refused_and_says_so() -> None:
    """Sealed by the release before format 2 (a pickle), with the key ``OLD``."""
    token = (FIXTURES / "sixty-six-format-1.token").read_text().strip()
    with pytest.raises(BadToken, match=rf"format 1, which this release does not read .*format {FORMAT}"):
        opened(token)


def resealed(value: SealedHand, change: Callable[[dict[str, Any]], object]) -> str:
    """A token of ``value`` whose head ``change`` has edited, as another release would write it."""
    head, newline, history = value.plaintext(GAMES["sixty-six"]).partition(b"\n")
    edited = orjson.loads(head)
    change(edited)
    return Keyring((OLD,)).seal(HAND, "sixty-six", orjson.dumps(edited) + newline + history)


def test_a_token_sealed_before_a_field_or_an_option_was_added_opens_with_its_default() -> None:
    """What a release that adds a field with a default (or an option) meets: tokens without it."""
    value = hand()

    def older(head: dict[str, Any]) -> None:
        del head["state"]["claimed_by"], head["state"]["options"]["must_head_trick"]
    assert opened(resealed(value, older)) == value


@dataclass(frozen=True)
class Before:
    seat: int


@dataclass(frozen=True)
class After:
    seat: int
    tricks: int = 0


def test_a_record_declared_with_a_new_field_reads_what_the_old_declaration_wrote() -> None:
    """Both versions of one declaration: the old writes, the new (a field with a default) reads."""
    wire = GameWire("Versions", ("AS",), max_seats=2)
    old = wire.record("Thing", Before, {"seat": field(SEAT)})
    new = wire.record("Thing", After, {"seat": field(SEAT), "tricks": field(Int(0, 12), default=0)})
    token = Keyring((OLD,)).seal(HAND, "x", orjson.dumps(old.dump(Before(1))))
    assert new.load(orjson.loads(Keyring((OLD,)).open(HAND, "x", token, at="/token"))) == After(1, 0)


def test_a_token_whose_hand_this_release_cannot_read_is_refused_by_name() -> None:
    def newer(head: dict[str, Any]) -> None:
        del head["state"]["trump_card"]  # a field renamed or removed since
    with pytest.raises(BadToken, match=r"cannot read .*'trump_card'"):
        opened(resealed(hand(), newer))


class Loud:
    """Anything that runs on being unpickled would show here."""

    built: list[str] = []

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Loud.built.append, ("built",)


def lz4(plain: bytes) -> bytes:
    return lz4_block.compress(plain, store_size=True)


@pytest.mark.parametrize("compressed", [
    pickle.dumps(Loud()), lz4(pickle.dumps(Loud())),
    lz4(orjson.dumps({"__class__": "service.cards.Card", "__reduce__": ["builtins.print", ["x"]]})),
    lz4(orjson.dumps(["not", "an", "object"])), lz4(b"{"), b"", lz4(b""), lz4(b"x" * (2 << 20)),
    zlib.compress(b"{}"), bytes(3),
])
def test_a_token_whose_plaintext_names_a_class_or_a_function_builds_nothing(compressed: bytes) -> None:
    """Even forged with the key: the plaintext is read as JSON data, never run; nor is more than
    ``MAX_PLAIN`` bytes of it made."""
    token = Keyring((OLD,)).seal_compressed(HAND, "sixty-six", compressed)
    with pytest.raises(BadToken):
        opened(token)
    assert Loud.built == []


def test_every_single_bit_flip_is_refused_at_the_pointer() -> None:
    raw = bytearray(binascii.a2b_base64(sealed()))
    for index in range(len(raw)):
        for bit in range(8):
            flipped = bytearray(raw)
            flipped[index] ^= 1 << bit
            with pytest.raises(BadToken) as refused:
                opened(binascii.b2a_base64(bytes(flipped), newline=False).decode())
            assert refused.value.errors[0].pointer == "/token"


def test_every_truncation_is_refused() -> None:
    token = sealed()
    raw = binascii.a2b_base64(token)
    for length in range(len(raw)):
        with pytest.raises(BadToken):
            opened(binascii.b2a_base64(raw[:length], newline=False).decode())
    for length in range(len(token)):  # cut as text: not base64, or shorter
        with pytest.raises(BadToken):
            opened(token[:length])


@pytest.mark.parametrize("text", ["", "!!!!", "QUJD", "a" * 1001, "AAAA" * 40])
def test_strangers_are_refused(text: str) -> None:
    with pytest.raises(BadToken):
        opened(text)


def test_a_token_of_another_game_is_named_as_such() -> None:
    with pytest.raises(BadToken, match="is a bura token: this path is for sixty-six"):
        opened(sealed(game="bura"))


def test_a_match_token_is_not_a_hand_token() -> None:
    standing = SealedMatch("m", 1, 2, {}, {"scores": [0, 0]})
    sealer = Sealer(GAMES["sixty-six"], Keyring((OLD,)))
    match = sealer.seal_match(standing)
    with pytest.raises(BadToken, match="is a match token, not a hand token"):
        sealer.open(match, "/token")
    assert sealer.open_match(match, "/match_token") == standing
    with pytest.raises(BadToken, match="is a hand token, not a match token"):
        sealer.open_match(sealed(), "/match_token")


def test_rotation_the_first_key_seals_and_every_listed_key_opens() -> None:
    old_token = sealed(keys=(OLD,))
    assert opened(old_token, keys=(NEW, OLD)) == hand()
    new_token = sealed(keys=(NEW, OLD))
    for token, keys in ((new_token, (OLD,)), (old_token, (NEW,))):
        with pytest.raises(BadToken, match="a key this server does not hold") as refused:
            opened(token, keys=keys)
        assert "k1" not in str(refused.value) and "k2" not in str(refused.value)  # a key id is not told


def test_a_token_sealed_with_another_secret_under_the_same_id_is_altered() -> None:
    impostor = StateKey(OLD.id, bytes(32))
    with pytest.raises(BadToken, match="altered"):
        opened(sealed(keys=(impostor,)))


def test_the_same_value_seals_to_a_new_token_each_time() -> None:
    assert sealed() != sealed()


def test_a_worker_seals_under_one_key_a_fresh_nonce_each_token_and_a_new_key_in_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sealing, "TOKENS_A_KEY", 50)
    header, ring, value = 3 + len("sixty-six") + 1 + len(OLD.id), Keyring((OLD,)), hand()
    raw = [binascii.a2b_base64(ring.seal(HAND, "sixty-six", b"{}")) for _ in range(200)]
    salts = [token[header:header + SALT_BYTES] for token in raw]
    nonces = {token[header + SALT_BYTES:header + SALT_BYTES + NONCE_BYTES] for token in raw}
    assert len(nonces) == 200
    assert [len(set(salts[at:at + 50])) for at in range(0, 200, 50)] == [1, 1, 1, 1]
    assert len(set(salts)) == 4
    assert opened(Sealer(GAMES["sixty-six"], ring).seal(value)) == value


def test_a_token_of_format_3_still_opens() -> None:
    """Sealed by the release before format 4 (no parts), with the key ``OLD``."""
    token = (FIXTURES / "sixty-six-format-3.token").read_text().strip()
    assert binascii.a2b_base64(token)[0] == 3
    assert opened(token) == hand()


def test_a_token_of_format_2_still_opens() -> None:
    """Sealed by the release before format 3 (a key a token, no nonce), with the key ``OLD``."""
    token = (FIXTURES / "sixty-six-format-2.token").read_text().strip()
    assert binascii.a2b_base64(token)[0] == 2
    assert opened(token) == hand()


def test_seat_keys_prove_their_seat_and_nothing_else() -> None:
    ring, value = Keyring((OLD,)), hand()
    keys = ring.seat_keys(value)
    assert len(set(keys)) == len(keys) == value.seats
    for seat, key in enumerate(keys):
        assert ring.seat_of(value, key, at="/seat_key") == seat
    other = dataclasses.replace(value, hand_id="d" * 32)
    rng = random.Random(1)
    wrong = [ring.seat_keys(other)[0], "", "x", keys[0][:-1], keys[0] + "A", keys[1][::-1], keys[0][:2] + "é" * 21,
             base64.urlsafe_b64encode(bytes([7]) + bytes(16)).decode().rstrip("="),
             *("".join(rng.choice("ABCdef-_") for _ in range(23)) for _ in range(20))]
    for key in wrong:
        with pytest.raises(WrongSeatKey) as refused:
            ring.seat_of(value, key, at="/seat_key")
        assert refused.value.status == 403


def test_seat_keys_survive_a_rotation_while_their_key_is_listed() -> None:
    value = hand()
    keys = Keyring((OLD,)).seat_keys(value)
    assert Keyring((NEW, OLD)).seat_of(value, keys[1], at="/seat_key") == 1
    with pytest.raises(WrongSeatKey, match="no longer holds"):
        Keyring((NEW,)).seat_of(value, keys[1], at="/seat_key")


def test_state_keys_parse() -> None:
    secret = base64.urlsafe_b64encode(bytes(range(32))).decode().rstrip("=")
    assert StateKey.parse(f"k1:{secret}, k0:{secret}") == (StateKey("k1", bytes(range(32))),
                                                          StateKey("k0", bytes(range(32))))
    for bad in ("k1", f"k1:{secret[:-4]}", f"k1:{secret},k1:{secret}", f":{secret}", "k1:%%%"):
        with pytest.raises(ValueError):
            StateKey.parse(bad)


def test_commitment_is_lowercase_hex_sha256_of_the_utf8_seed() -> None:
    assert commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_a_token_key_is_derived_once_the_move_after_opens_it_from_the_cache() -> None:
    ring = Keyring((OLD,))
    token = ring.seal(HAND, "sixty-six", b"{}")
    before = _token_cipher.cache_info()
    assert ring.open(HAND, "sixty-six", token, at="/token") == b"{}"
    after = _token_cipher.cache_info()
    assert (after.hits - before.hits, after.misses - before.misses) == (1, 0)
    assert after.currsize <= CIPHERS_KEPT


def test_the_sealer_that_sealed_a_token_knows_it_again_by_its_whole_text() -> None:
    sealer, value = Sealer(GAMES["sixty-six"], Keyring((OLD,))), hand()
    token = sealer.seal(value)
    before = _token_cipher.cache_info()
    assert sealer.open(token, "/token") == value
    assert _token_cipher.cache_info() == before  # kept: its envelope is not opened
    raw = bytearray(binascii.a2b_base64(token))
    raw[len(raw) // 2] ^= 1
    altered = binascii.b2a_base64(bytes(raw), newline=False).decode()
    assert altered[-TOKEN_TAIL:] == token[-TOKEN_TAIL:]  # found by its tail, refused by its text
    with pytest.raises(BadToken, match="altered"):
        sealer.open(altered, "/token")


def test_a_sealer_keeps_its_latest_tokens_only() -> None:
    sealer, value = Sealer(GAMES["sixty-six"], Keyring((OLD,))), hand()
    first = sealer.seal(value)
    latest = [sealer.seal(value) for _ in range(HANDS_KEPT)]
    before = _token_cipher.cache_info()
    assert sealer.open(latest[0], "/token") == value
    assert _token_cipher.cache_info() == before
    assert sealer.open(first, "/token") == value  # dropped: its envelope opened, as any other's
    assert _token_cipher.cache_info().hits == before.hits + 1


def test_events_since_a_move_after_the_parts_open_no_part_and_number_every_move() -> None:
    sealer, rules = Sealer(GAMES["bezique"], Keyring((OLD,))), GAMES["bezique"]
    back = sealer.open(sealer.seal(long_hand()), "/token")
    assert (back.move_number, back.history, len(back.segments)) == (40, b"", 1)  # 40 moves in the part
    move = rules.legal_moves(back.state, rules.to_move(back.state))[0]
    state, events = rules.apply(back.state, move)
    token = sealer.seal(back.after(rules.dump_move(move), told(rules.info.event_types, events, EVERY_SEAT), state))
    before = _token_cipher.cache_info().hits
    latest = TokenHand(sealer, {"token": token}).events(40)["moves"]
    assert _token_cipher.cache_info().hits == before  # the head kept by its sealer, and no part opened
    assert [move["move_number"] for move in latest] == [41]
    every = TokenHand(sealer, {"token": token}).events(39)["moves"]
    assert _token_cipher.cache_info().hits == before + 1  # move 40 is in the part
    assert [move["move_number"] for move in every] == [40, 41] and every[-1] == latest[0]
    assert len(TokenHand(sealer, {"token": token}).events(0)["moves"]) == 41


def test_a_part_is_compressed_densely_and_the_head_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    modes: list[str | None] = []
    compress = lz4_block.compress

    def noted(data: bytes, **options: Any) -> bytes:
        modes.append(options.get("mode"))
        return compress(data, **options)

    monkeypatch.setattr(sealing.lz4.block, "compress", noted)
    Sealer(GAMES["bezique"], Keyring((OLD,))).seal(long_hand())
    assert modes == ["high_compression", None]  # the part, sealed once; then the head, every move
