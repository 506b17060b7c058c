"""The Bura family's playout policy (``advice.playout`` of Bura and Kozel-bura,
``sets_advice.playout_trick_move``) against the greedy player and the rules: on positions of
random play, at every table size, it makes ``greedy``'s move over the listing when it does not
explore, and a legal move when it does."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.cards import SeedStream
from service.games.base import DealSetup, Game
from service.games.bura.game import Bura
from service.games.bura.rules import Claim, Declare, Pass
from service.games.kozel_bura.game import KozelBura
from service.games.tricks.sets import Lead, Respond

GAMES: dict[str, Game[Any, Any]] = {"bura": Bura(), "kozel-bura": KozelBura()}


class Never(random.Random):
    """A generator whose draws never fall under ``EXPLORE``."""

    def random(self) -> float:
        return 1.0


def positions(game: Game[Any, Any], players: int, hands: int, **options: Any) -> Iterator[tuple[Any, int]]:
    """Every position of ``hands`` hands of play, greedy but one move in three at random (no
    claim before 31, which would end a hand too soon), with the seat to move."""
    for index in range(hands):
        rng = random.Random(index)
        state = game.deal(DealSetup(players, index % players, dict(options), None), SeedStream(f"playout-{index}"))
        while (seat := game.to_move(state)) is not None:
            yield state, seat
            legal = game.legal_moves(state, seat)
            plain = [m for m in legal if not isinstance(m, Claim)] or legal
            move = game.advice.greedy(state, seat, legal) if rng.random() < 0.7 else rng.choice(plain)
            state, _ = game.apply(state, move)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_playout_makes_the_greedy_move_when_it_does_not_explore(name: str, players: int) -> None:
    game = GAMES[name]
    advice = game.advice
    assert advice.playout is not None
    kinds = set()
    for state, seat in positions(game, players, 40):
        move = advice.playout(state, seat, Never())
        assert move == advice.greedy(state, seat, game.legal_moves(state, seat))
        kinds.add(type(move) if not isinstance(move, Respond) else (Respond, move.mode))
    assert {Lead, (Respond, "beat"), (Respond, "discard")} <= kinds
    if name == "bura":
        assert {Claim, Declare} <= kinds


@pytest.mark.parametrize("winning_points", [61, 120])
def test_the_bura_playout_claims_only_with_the_points_in_the_final_round(winning_points: int) -> None:
    """Every card played (§5.4): a claim with the points that make it right, else a pass."""
    game = GAMES["bura"]
    advice = game.advice
    assert advice.playout is not None
    finals = [(s, seat) for s, seat in positions(game, 2, 60, winning_points=winning_points)
              if s.phase == "final_claims"]
    assert finals
    for state, seat in finals:
        right = state.points(seat) >= winning_points
        assert advice.playout(state, seat, Never()) == (Claim(seat) if right else Pass(seat))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_the_playout_explores_with_legal_moves(name: str, players: int) -> None:
    game = GAMES[name]
    advice = game.advice
    assert advice.playout is not None
    rng, explored = random.Random(7), 0
    for state, seat in positions(game, players, 20):
        legal = game.legal_moves(state, seat)
        greedy = advice.greedy(state, seat, legal)
        for _ in range(5):
            move = advice.playout(state, seat, rng)
            assert move in legal
            explored += move != greedy
    assert explored
