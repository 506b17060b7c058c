"""Bezique's advice for the computer player (service/games/bezique/advice.py): the redeal hides
nothing more and reveals nothing, the greedy player answers legal moves and plays as it says, and
the value has the right sign."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from service.cards import CARDS, SeedStream
from service.games.base import DealSetup
from service.games.bezique.advice import ADVICE, greedy, redeal, value
from service.games.bezique.rules import Declare, Play, State
from tests.games.bezique_positions import GAME, position


def positions(players: int, seed: int, every: int = 23) -> Iterator[tuple[State, int]]:
    """Positions of a hand dealt from ``seed`` and played at random, one in ``every`` moves,
    each with the seat to move."""
    rng = random.Random(seed)
    state = GAME.deal(DealSetup(players, seed % players, {}, None), SeedStream(f"advice-{seed}"))
    played = 0
    while (seat := GAME.to_move(state)) is not None:
        if played % every == 0:
            yield state, seat
        state, _ = GAME.apply(state, rng.choice(GAME.legal_moves(state, seat)))
        played += 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_redeal_keeps_the_view_and_the_state_consistent(players: int) -> None:
    for state, seat in positions(players, seed=players):
        dealt = redeal(state, seat, random.Random(7))
        assert GAME.view(dealt, seat) == GAME.view(state, seat)
        assert GAME.load_state(GAME.dump_state(dealt)) == dealt


@pytest.mark.parametrize("players", [2, 3])
def test_redeal_keeps_what_the_seat_knows_and_moves_the_rest(players: int) -> None:
    for state, seat in positions(players, seed=10 + players, every=41):
        dealts = [redeal(state, seat, random.Random(r)) for r in range(4)]
        for dealt in dealts:
            assert dealt.hands[seat] == state.hands[seat]
            assert dealt.exposed == state.exposed and dealt.trick == state.trick
            assert dealt.stock[-1:] == state.stock[-1:]  # the face-up trump card
        others = [s for s in state.active if s != seat]
        assert any(dealt.hands[s] != state.hands[s] for dealt in dealts for s in others)
        assert any(dealt.stock != state.stock for dealt in dealts)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_answers_a_legal_move(players: int) -> None:
    for state, seat in positions(players, seed=20 + players, every=3):
        moves = GAME.legal_moves(state, seat)
        assert greedy(state, seat, moves) in moves


def test_greedy_takes_the_trick_with_the_cheapest_card_it_can_spare() -> None:
    """Hearts trumps: the trump nine covers the ace of clubs and is worth least of the trumps
    that could (it only buys the exchange)."""
    state = position(hands={0: "KH AH JH 9H" + " 10D" * 7 + " 10S" * 7}, trick=["AC"], phase="follow",
                     trump_suit="H")
    assert greedy(state, 0, GAME.legal_moves(state, 0)) == Play(0, CARDS["9H"])


def test_greedy_keeps_its_trump_queens_when_only_they_cover() -> None:
    """Three trump queens and a bezique jack promise beziques and four trump queens (176)."""
    state = position(hands={0: "QH QH QH JD" + " 10D" * 7 + " 10S" * 7}, trick=["AC"], phase="follow",
                     trump_suit="H")
    move = greedy(state, 0, GAME.legal_moves(state, 0))
    assert isinstance(move, Play) and move.card is not None and move.card.code in ("10D", "10S")


def test_greedy_declares_what_scores_most() -> None:
    """Four trump queens (176) rather than a bezique (25) or four queens (6)."""
    state = position(hands={1: "QH QH QH QH JD"}, phase="declare", trump_suit="H")
    move = greedy(state, 1, GAME.legal_moves(state, 1))
    assert isinstance(move, Declare) and (move.declaration, move.multiplicity) == ("four_trump_queens", 1)


def test_greedy_declares_the_ladder_one_at_a_time() -> None:
    """Two beziques at once score 50 and move the ladder one step; one now scores 25, the next 50."""
    state = position(hands={1: "QH QH JD JD"}, phase="declare", trump_suit="H")
    move = greedy(state, 1, GAME.legal_moves(state, 1))
    assert isinstance(move, Declare) and (move.declaration, move.multiplicity) == ("bezique", 1)


def test_value_of_a_finished_hand() -> None:
    state = position(phase="finished", scores={0: 100, 1: 40})
    assert value(state, 0) == 60 and value(state, 1) == -60


def test_value_of_a_finished_hand_at_three_with_the_dealer_out() -> None:
    state = position(phase="finished", seats=3, dealer=0, scores={1: 25, 2: 75})
    assert value(state, 2) == 50 and value(state, 1) == -50 and value(state, 0) == 0


def test_a_playout_sample_is_cheap_enough() -> None:
    """The search's settings: a short horizon and shortlist (a hand is some 200 moves)."""
    assert ADVICE.horizon <= 20 and ADVICE.shortlist <= 8
