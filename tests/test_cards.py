"""Card notation, decks, and the documented shuffle v1, recomputed here from its description."""

from __future__ import annotations

import hashlib

import pytest

from service.cards import CARDS, SeedStream, card, cards, codes, deck, shuffle
from service.games.sixty_six.rules import DECK


def reference_shuffle(items: list[str], seed: str) -> list[str]:
    """The README's words, written out independently of service.cards."""
    words: list[int] = []
    block = 0

    def next_u64() -> int:
        nonlocal block
        if not words:
            digest = hashlib.sha256(seed.encode() + block.to_bytes(8, "big")).digest()
            words.extend(int.from_bytes(digest[i:i + 8], "big") for i in range(0, 32, 8))
            block += 1
        return words.pop(0)

    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        n = i + 1
        while (x := next_u64()) >= 2**64 - 2**64 % n:
            pass
        j = x % n
        result[i], result[j] = result[j], result[i]
    return result


@pytest.mark.parametrize("seed", ["README", "", "ü-seed", "1" * 128])
def test_shuffle_v1_matches_its_description(seed):
    assert codes(shuffle(DECK, SeedStream(seed))) == reference_shuffle(codes(DECK), seed)


def test_shuffle_v1_pinned_vector():
    assert codes(shuffle(DECK, SeedStream("README")))[:6] == ["QD", "10C", "KD", "9D", "JC", "9H"]


def test_below_is_in_range():
    stream = SeedStream("range")
    assert all(0 <= stream.below(n) < n for n in range(1, 200))
    with pytest.raises(ValueError):
        stream.below(0)


def test_notation():
    assert card("10H").rank == "10" and card("10H").suit == "H" and card("JK").suit is None
    assert codes(cards("AS 10H QC")) == ["AS", "10H", "QC"] and card("AS") is CARDS["AS"]
    with pytest.raises(KeyError):
        card("1H")


def test_deck_builder_repeats_cards_for_multi_deck_games():
    two = deck(("A", "K"), copies=2)
    assert len(two) == 16 and two.count(CARDS["AS"]) == 2
