"""The Bura family's playout policies (``advice.playout``) against the greedy player and the
rules, on positions of random play at every table size: Kozel-bura's
(``sets_advice.playout_trick_move``) makes ``greedy``'s move over the listing when it does not
explore; Bura's (``sets_advice.lookahead_trick_move``) claims and declares as greedy does and
never does worse than greedy's move in the trick itself, as the rules play it out; both make a
legal move when they explore."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.cards import SeedStream, codes
from service.games.base import DealSetup, Game
from service.games.bura import rules
from service.games.bura.game import Bura
from service.games.bura.rules import Claim, Declare, Pass
from service.games.kozel_bura.game import KozelBura
from service.games.tricks import sets_advice
from service.games.tricks.sets import Lead, Respond
from tests.games.family import position

GAMES: dict[str, Game[Any, Any]] = {"bura": Bura(), "kozel-bura": KozelBura()}
DECK = codes(rules.DECK)


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


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_kozel_bura_playout_makes_the_greedy_move_when_it_does_not_explore(players: int) -> None:
    game = GAMES["kozel-bura"]
    advice = game.advice
    assert advice.playout is not None
    kinds = set()
    for state, seat in positions(game, players, 40):
        move = advice.playout(state, seat, Never())
        assert move == advice.greedy(state, seat, game.legal_moves(state, seat))
        kinds.add(type(move) if not isinstance(move, Respond) else (Respond, move.mode))
    assert {Lead, (Respond, "beat"), (Respond, "discard")} <= kinds


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_bura_playout_does_no_worse_in_the_trick_than_greedy(players: int) -> None:
    """Each seat still to answer answering as greedy does, the trick's points the seat takes less
    those another takes, less ``TRUMP_SPENT`` a trump the seat parts with: at least greedy's, and
    more in some positions (it leads an ace the others cannot take where greedy leads its lowest
    card)."""
    game = GAMES["bura"]
    advice = game.advice
    assert advice.playout is not None
    kinds, better = set(), 0
    for state, seat in positions(game, players, 40):
        legal = game.legal_moves(state, seat)
        move, greedy = advice.playout(state, seat, Never()), advice.greedy(state, seat, legal)
        assert move in legal
        kinds.add(type(move) if not isinstance(move, Respond) else (Respond, move.mode))
        if not isinstance(greedy, Lead | Respond):
            assert move == greedy
            continue
        gained, greedy_gained = _in_the_trick(game, state, seat, move), _in_the_trick(game, state, seat, greedy)
        assert gained >= greedy_gained
        better += gained > greedy_gained
    assert {Lead, (Respond, "beat"), (Respond, "discard"), Claim, Declare} <= kinds
    assert better


def _in_the_trick(game: Game[Any, Any], state: Any, seat: int, move: Lead | Respond) -> int:
    """What ``move`` gains ``seat`` in its trick, by the rules: played, then every seat still to
    answer answering with greedy's trick move (no claim), until the trick is taken."""
    before = state.card_points
    state, _ = game.apply(state, move)
    while state.trick is not None and not state.finished:
        mover = game.to_move(state)
        tricks = [m for m in game.legal_moves(state, mover) if isinstance(m, Respond)]
        state, _ = game.apply(state, sets_advice.greedy(state, mover, tricks))
    taken = [after - was for after, was in zip(state.card_points, before, strict=True)]
    mine, spent = taken[seat], sum(c.suit == state.trump for c in move.cards)
    return mine - (sum(taken) - mine) - sets_advice.TRUMP_SPENT * spent


@pytest.mark.parametrize(("hands", "led"), [
    (["AS 6C 7D", "8C 9D KD"], "AS"),  # the ace no card of the other's takes, not the six
    (["AS 10S 6C", "KS 9D 8D"], "AS 10S"),  # the pair the other cannot beat card for card
])
def test_the_bura_playout_leads_what_takes_most(hands: list[str], led: str) -> None:
    state = position(GAMES["bura"], DECK, hands=hands, trump_card="6H", leader=0,
                     options={"winning_points": 120})  # the cards left lie won: no claim yet
    move = GAMES["bura"].advice.playout(state, 0, Never())
    assert isinstance(move, Lead) and codes(move.cards) == led.split()


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
