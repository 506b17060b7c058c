"""Canasta's playout policy (``playout`` in service/games/canasta/advice.py): every move it makes
is legal, it makes ``greedy``'s move without the listing (all but a rare position), and one move
in ``EXPLORE`` it draws another."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from service.cards import SeedStream
from service.games.advice import EXPLORE
from service.games.base import DealSetup, accepts
from service.games.canasta import advice
from service.games.canasta.advice import ADVICE, greedy, playout
from service.games.canasta.check import check
from service.games.canasta.moves import Discard, Draw, Meld, Move, TakePile
from service.games.canasta.rules import State
from tests.games.canasta_positions import GAME, position

TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}), (3, {}), (4, {}), (6, {}), (2, {"variant": "seed_13"}), (4, {"variant": "seed_13"}),
    (3, {"variant": "seed_108"}), (4, {"variant": "seed_108", "first_take_mode": "meld_no_minimum"}),
    (2, {"variant": "seed_108", "initial_meld_base": 40}), (4, {"ask_permission": True}),
]


class Calm(random.Random):
    """A generator whose every draw is 0.5: the policy never explores."""

    def random(self) -> float:
        return 0.5


def hands_played(seats: int, options: dict[str, Any], hands: int) -> list[tuple[State, Move]]:
    """Every (state, move) of ``hands`` hands played by the playout policy alone."""
    played = []
    for hand in range(hands):
        rng = random.Random(f"playout/{seats}/{options}/{hand}")
        state = GAME.deal(DealSetup(seats, hand % seats, options, None), SeedStream(f"playout-{hand}"))
        while (seat := GAME.to_move(state)) is not None and len(played) < 5000:
            move = playout(state, seat, rng)
            played.append((state, move))
            state, _ = GAME.apply(state, move)
    return played


@pytest.mark.parametrize(("seats", "options"), TABLES)
def test_every_playout_move_is_legal(seats: int, options: dict[str, Any]) -> None:
    for state, move in hands_played(seats, options, hands=4):
        assert accepts(check, state, move), (move, state)


def test_the_playout_rarely_lists_the_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing (the cost the policy is there to save) is asked only where its rules miss."""
    listed = Counter[str]()
    real = advice.listing

    def counted(state: State, seat: int) -> Any:
        listed["listing"] += 1
        return real(state, seat)

    monkeypatch.setattr(advice, "listing", counted)
    moves = sum(len(hands_played(seats, options, hands=2)) for seats, options in TABLES)
    assert moves > 1000
    assert listed["listing"] <= moves // 100


def test_the_playout_explores_about_one_move_in_ten() -> None:
    """Discards drawn at random (the cheapest discard is the three of clubs, §4.1.5)."""
    state = position(hands={1: "3C 9D 5H KS 7C AD"}, melds={1: {"Q": "QC QD QH"}}, turn=1, phase="play")
    rng = random.Random(3)
    drawn = [playout(state, 1, rng) for _ in range(2000)]
    assert all(isinstance(move, Discard) and accepts(check, state, move) for move in drawn)
    others = sum(1 for move in drawn if isinstance(move, Discard) and move.card.code != "3C")
    assert 0.5 * EXPLORE < others / len(drawn) < 1.5 * EXPLORE


def test_the_playout_takes_the_pile_greedy_takes() -> None:
    state = position(hands={1: "9D 9H 5S 6C"}, melds={1: {"K": "KC KD KH"}}, pile="9C 4D 7S",
                     pile_frozen=False, turn=1, phase="draw")
    move = playout(state, 1, Calm())
    assert isinstance(move, TakePile) and sorted(c.code for c in move.top_cards) == ["9D", "9H"]
    assert move == greedy(state, 1, GAME.legal_moves(state, 1))


def test_the_playout_draws_when_the_pile_cannot_be_taken() -> None:
    state = position(hands={1: "9D 5H 5S 6C"}, melds={1: {"K": "KC KD KH"}}, pile="9C 4D 7S",
                     pile_frozen=True, turn=1, phase="draw")
    assert playout(state, 1, Calm()) == Draw(1)


def test_the_playout_melds_greedy_melds_one_group_at_a_time() -> None:
    state = position(hands={1: "KC KD KH KS 7C 7D 7H 5S 9D"}, melds={1: {"Q": "QC QD QH"}}, turn=1,
                     phase="play")
    move = playout(state, 1, Calm())
    assert isinstance(move, Meld) and [(g.key, len(g.cards)) for g in move.melds] == [("K", 4)]


def test_the_playout_keeps_wild_cards_and_throws_a_black_three() -> None:
    state = position(hands={1: "2C JK 3S 9D 5H"}, melds={1: {"Q": "QC QD QH"}}, turn=1, phase="play")
    assert playout(state, 1, Calm()) == Discard(1, next(c for c in state.hands[1] if c.code == "3S"))


def test_a_first_meld_reaches_the_minimum() -> None:
    """50 points (§4.1.6): the kings alone (30) fall short, with the aces (60) they reach it."""
    state = position(hands={0: "KC KD KH AC AD AS 5S 9D 7H"}, turn=0, phase="play")
    move = playout(state, 0, Calm())
    assert isinstance(move, Meld) and accepts(check, state, move)
    assert sorted(g.key for g in move.melds) == ["A", "K"]


def test_the_playout_is_the_advice_s() -> None:
    assert ADVICE.playout is playout
