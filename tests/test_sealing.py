"""Tokens and seat keys (service.sealing): what opens, and what every kind of tampering gets."""

from __future__ import annotations

import base64
import binascii
import random

import pytest

from service.cards import SeedStream
from service.errors import BadToken, WrongSeatKey
from service.games import GAMES
from service.games.base import DealSetup
from service.sealing import HAND, MATCH, Keyring, SealedHand, SealedMatch, StateKey, commitment

OLD, NEW = StateKey("k1", bytes(range(32))), StateKey("k2", bytes(range(32, 64)))


def hand(game: str = "sixty-six", seed: str = "t") -> SealedHand:
    state = GAMES[game].deal(DealSetup(GAMES[game].info.default_players, None, {}, None), SeedStream(seed))
    return SealedHand("a" * 32, "b" * 32, 1, GAMES[game].info.default_players, 0, OLD.id, "c" * 64, None,
                      None, state)


def sealed(value: SealedHand | SealedMatch | None = None, *, keys: tuple[StateKey, ...] = (OLD,),
           game: str = "sixty-six", kind: bytes = HAND) -> str:
    return Keyring(keys).seal(kind, game, value or hand(game))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_token_opens_to_the_same_state_with_the_same_card_instances(game: str) -> None:
    value = hand(game)
    opened = Keyring((OLD,)).open(HAND, game, sealed(value, game=game), at="/token")
    assert opened == value
    assert opened.state == value.state  # cards compare by identity: each code is still one instance


def test_every_single_bit_flip_is_refused_at_the_pointer() -> None:
    raw = bytearray(binascii.a2b_base64(sealed()))
    ring = Keyring((OLD,))
    for index in range(len(raw)):
        for bit in range(8):
            flipped = bytearray(raw)
            flipped[index] ^= 1 << bit
            with pytest.raises(BadToken) as refused:
                ring.open(HAND, "sixty-six", binascii.b2a_base64(bytes(flipped), newline=False).decode(),
                          at="/token")
            assert refused.value.errors[0].pointer == "/token"


def test_every_truncation_is_refused() -> None:
    token, ring = sealed(), Keyring((OLD,))
    raw = binascii.a2b_base64(token)
    for length in range(len(raw)):
        cut = binascii.b2a_base64(raw[:length], newline=False).decode()
        with pytest.raises(BadToken):
            ring.open(HAND, "sixty-six", cut, at="/token")
    for length in range(len(token)):  # cut as text: not base64, or shorter
        with pytest.raises(BadToken):
            ring.open(HAND, "sixty-six", token[:length], at="/token")


@pytest.mark.parametrize("text", ["", "!!!!", "QUJD", "a" * 1001, "AAAA" * 40])
def test_strangers_are_refused(text: str) -> None:
    with pytest.raises(BadToken):
        Keyring((OLD,)).open(HAND, "sixty-six", text, at="/token")


def test_a_token_of_another_game_is_named_as_such() -> None:
    with pytest.raises(BadToken, match="is a bura token: this path is for sixty-six"):
        Keyring((OLD,)).open(HAND, "sixty-six", sealed(game="bura"), at="/token")


def test_a_match_token_is_not_a_hand_token() -> None:
    standing = SealedMatch("m", 1, 2, {}, {"scores": [0, 0]})
    match = sealed(standing, kind=MATCH)
    with pytest.raises(BadToken, match="is a match token, not a hand token"):
        Keyring((OLD,)).open(HAND, "sixty-six", match, at="/token")
    assert Keyring((OLD,)).open(MATCH, "sixty-six", match, at="/match_token") == standing


def test_rotation_the_first_key_seals_and_every_listed_key_opens() -> None:
    old_token = sealed(keys=(OLD,))
    rotated = Keyring((NEW, OLD))
    assert rotated.open(HAND, "sixty-six", old_token, at="/token") == hand()
    new_token = rotated.seal(HAND, "sixty-six", hand())
    with pytest.raises(BadToken, match="'k2', which this server does not hold"):
        Keyring((OLD,)).open(HAND, "sixty-six", new_token, at="/token")
    with pytest.raises(BadToken, match="'k1', which this server does not hold"):
        Keyring((NEW,)).open(HAND, "sixty-six", old_token, at="/token")


def test_a_token_sealed_with_another_secret_under_the_same_id_is_altered() -> None:
    impostor = StateKey(OLD.id, bytes(32))
    with pytest.raises(BadToken, match="altered"):
        Keyring((OLD,)).open(HAND, "sixty-six", sealed(keys=(impostor,)), at="/token")


def test_the_same_value_seals_to_a_new_token_each_time() -> None:
    assert sealed() != sealed()


@pytest.mark.parametrize("forged", [(print, ("owned",)), (StateKey, ("k", bytes(32)))])
def test_only_the_values_a_token_holds_are_unpickled(forged: tuple[object, tuple[object, ...]]) -> None:
    """A token forged with a stolen key still builds no callable of the attacker's choosing, nor
    any of the service's own types that a token does not hold."""
    class Evil:
        def __reduce__(self) -> tuple[object, tuple[object, ...]]:
            return forged
    ring = Keyring((OLD,))
    token = ring.seal(HAND, "sixty-six", Evil())  # type: ignore[arg-type]
    with pytest.raises(BadToken, match="another version"):
        ring.open(HAND, "sixty-six", token, at="/token")


def test_every_token_has_its_own_salt_so_no_gcm_key_meets_two_messages() -> None:
    header = 3 + len("sixty-six") + 1 + len(OLD.id)
    salts = {binascii.a2b_base64(sealed())[header:header + 16] for _ in range(200)}
    assert len(salts) == 200


def test_seat_keys_prove_their_seat_and_nothing_else() -> None:
    ring, value = Keyring((OLD,)), hand()
    keys = ring.seat_keys(value)
    assert len(set(keys)) == len(keys) == value.seats
    for seat, key in enumerate(keys):
        assert ring.seat_of(value, key, at="/seat_key") == seat
    other = SealedHand("d" * 32, *[getattr(value, f) for f in SealedHand.__slots__[1:]])
    rng = random.Random(1)
    wrong = [ring.seat_keys(other)[0], "", "x", keys[0][:-1], keys[0] + "A", keys[1][::-1],
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
