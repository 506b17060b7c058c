"""The computer player (``service.player``) for every game, through the ``Game`` interface.

It does not peek: a position and its disguise (the same position with cards the seat cannot see
moved about, found by swapping cards and keeping only swaps that leave the seat's view as it was)
get the same answer for the same seed and sample count. The disguise is made here, not by the
game's own ``redeal``, so that a ``redeal`` that reads a hidden card's place is caught; and a
player made to peek on purpose (its ``redeal`` keeps the true deal) is caught by the same test.

The same holds of a history (the hand's moves with the states they were made in, from which the
game infers what the seat saw): two deals that differ only in cards the seat never saw, played
with the same moves, get the same answer; and an inference made to read the hands is caught.

Its moves are legal: suggestions asked in positions of random hands pass ``check``. Its
``redeal`` deals a state the rules accept, that the seat cannot tell from the true one.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from service.cards import CARDS
from service.errors import InvalidState
from service.games.advice import Known
from service.games.base import Game, accepts
from service.games.registry import GAMES
from service.player import Effort, history_of, play_out, suggest
from tests.test_conformance import deal_at_random

TABLES = [(game, players) for game in sorted(GAMES) for players in GAMES[game].info.player_counts]
SAMPLES = 3
NO_DEADLINE = float("inf")


def positions(game: Game[Any, Any], players: int, hands: int, every: int) -> Iterator[tuple[Any, int]]:
    """Every ``every``-th position of ``hands`` random hands, with the seat to move."""
    rng = random.Random(f"{game.info.id}/{players}")
    for hand in range(hands):
        state = deal_at_random(game, f"player-{hand}", players, rng)
        for number in range(1000):
            seat = game.to_move(state)
            if seat is None:
                break
            if number % every == 0:
                yield state, seat
            state, _ = game.apply(state, rng.choice(game.legal_moves(state, seat)))


def answer(game: Game[Any, Any], state: Any, seat: int) -> tuple[Any, list[tuple[Any, float | None]]]:
    found = suggest(game, state, seat, seed="same", effort=Effort(SAMPLES, NO_DEADLINE))
    return found.move, [(w.move, w.value) for w in found.weighed]


def disguised(game: Game[Any, Any], state: Any, seat: int | None, rng: random.Random, swaps: int = 60) -> Any:
    """``state`` with cards ``seat`` cannot see moved: two cards swapped wherever they lie, the swap
    kept when the rules accept the result and the seat's view is unchanged (any seat's view, for
    no seat: a state sent that no play leads to, which the consistency check still accepts)."""
    view = game.view(state, seat) if seat is not None else None
    return swapped(game, state, rng, swaps, lambda moved: seat is None or game.view(moved, seat) == view)


def swapped(game: Game[Any, Any], state: Any, rng: random.Random, swaps: int,
            keeps: Callable[[Any], bool]) -> Any:
    """``state`` with two cards swapped ``swaps`` times wherever they lie, each swap kept when
    the rules accept the result and ``keeps`` it."""
    wire = game.dump_state(state)
    places = list(_card_places(wire))
    for _ in range(swaps):
        (a_pile, a), (b_pile, b) = rng.sample(places, 2)
        if a_pile[a] == b_pile[b]:
            continue
        a_pile[a], b_pile[b] = b_pile[b], a_pile[a]
        try:
            kept = keeps(game.load_state(wire))
        except InvalidState:
            kept = False
        if not kept:
            a_pile[a], b_pile[b] = b_pile[b], a_pile[a]
    return game.load_state(wire)


def _card_places(value: Any) -> Iterator[tuple[list[Any], int]]:
    """Every card code in a wire state's lists, as (list, index), options left out."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "options":
                yield from _card_places(item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, str) and item in CARDS:
                yield value, index
            else:
                yield from _card_places(item)


def differences(game: Game[Any, Any], players: int, *, most: int = 24) -> tuple[int, int]:
    """Over positions of random hands (``most`` disguised ones at most: a Bezique hand has some
    200): how many were disguised (some hidden card moved), and how many of those got another
    answer than the true position."""
    rng = random.Random(f"disguise/{game.info.id}/{players}")
    disguised_count = differ = 0
    for state, seat in positions(game, players, hands=3, every=7):
        if disguised_count == most:
            break
        if len(game.legal_moves(state, seat)) < 2:
            continue
        other = disguised(game, state, seat, rng)
        if game.dump_state(other) == game.dump_state(state):
            continue
        disguised_count += 1
        differ += answer(game, state, seat) != answer(game, other, seat)
    return disguised_count, differ


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_the_same_view_gets_the_same_answer(game_id: str, players: int) -> None:
    disguised_count, differ = differences(GAMES[game_id], players)
    assert disguised_count >= 3, "too few positions had cards to hide: the test would prove nothing"
    assert differ == 0, f"{differ} of {disguised_count} disguised positions got another answer: it peeks"


class Peeking:
    """A game whose computer player reads the true deal: its ``redeal`` keeps it."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.advice = dataclasses.replace(game.advice, redeal=lambda state, seat, rng, known: state)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_player_that_peeks_is_caught(game_id: str) -> None:
    """The test above, run on a player that reads the other hands, must find it out."""
    game = GAMES[game_id]
    peeking: Any = Peeking(game)
    caught = any(differences(peeking, players, most=8)[1] for players in game.info.player_counts)
    assert caught, "a player that reads the true hands passed the no-peek test: the test is too weak"


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_redeal_keeps_the_view_and_the_rules(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    rng = random.Random(game_id)
    for state, seat in positions(game, players, hands=2, every=5):
        dealt = game.advice.redeal(state, seat, rng)
        assert game.view(dealt, seat) == game.view(state, seat)
        assert game.load_state(game.dump_state(dealt)) == dealt


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_every_suggestion_is_legal(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for state, seat in positions(game, players, hands=2, every=3):
        found = suggest(game, state, seat, seed="legal", effort=Effort(1, NO_DEADLINE))
        assert accepts(game.check, state, found.move), found.move
        assert {w.move for w in found.weighed} <= set(game.legal_moves(state, seat))


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_a_scrambled_state_the_rules_accept_gets_a_legal_answer(game_id: str, players: int) -> None:
    """Cards swapped anywhere the consistency check allows, whatever any seat sees: a state a
    client could send though no play leads to it. The search still answers a legal move."""
    game, rng = GAMES[game_id], random.Random(f"scramble/{game_id}")
    for state, seat in positions(game, players, hands=2, every=9):
        scrambled = disguised(game, state, None, rng)
        if game.to_move(scrambled) != seat:
            continue
        found = suggest(game, scrambled, seat, seed="scrambled", effort=Effort(2, NO_DEADLINE))
        assert accepts(game.check, scrambled, found.move), found.move


# --- a history, and what the seat could not see of it ------------------------------------------


def histories(game: Game[Any, Any], players: int, every: int) -> Iterator[tuple[Any, list[Any], int]]:
    """Every ``every``-th position of two hands of greedy and random moves, past the first moves:
    the state dealt, the moves since, and the seat to move."""
    rng = random.Random(f"history/{game.info.id}/{players}")
    for hand in range(2):
        start = state = deal_at_random(game, f"history-{hand}", players, rng)
        moves: list[Any] = []
        for number in range(1000):
            seat = game.to_move(state)
            if seat is None:
                break
            legal = game.legal_moves(state, seat)
            if number and number % every == 0 and len(legal) > 1:
                yield start, list(moves), seat
            move = game.advice.greedy(state, seat, legal)  # random moves claim and end a Bura hand at once
            if rng.random() < 0.5:
                move = rng.choice([m for m in legal if type(m) is type(move)])
            moves.append(move)
            state, _ = game.apply(state, move)


def seen(game: Game[Any, Any], start: Any, moves: list[Any], seat: int) -> list[Any] | None:
    """What ``seat`` saw at every step of the moves from ``start``: its view before each move, and
    the moves as they were; None when the rules refuse one of them there."""
    views, state = [], start
    for move in moves:
        views.append(game.view(state, seat))
        if not accepts(game.check, state, move):
            return None
        state, _ = game.apply(state, move)
    return [*views, game.view(state, seat)]


def history_disguised(game: Game[Any, Any], start: Any, moves: list[Any], seat: int,
                      rng: random.Random, swaps: int = 40) -> Any:
    """``start`` with cards swapped where ``seat`` could see no difference at any step of the
    moves: the same moves are legal from it and every view of the seat's is as it was."""
    truth = seen(game, start, moves, seat)
    return swapped(game, start, rng, swaps, lambda moved: seen(game, moved, moves, seat) == truth)


def history_answer(game: Game[Any, Any], start: Any, moves: list[Any], seat: int) -> Any:
    history = history_of(game, start, moves)
    state = game.apply(*history[-1])[0]
    found = suggest(game, state, seat, seed="same", effort=Effort(SAMPLES, NO_DEADLINE), history=history)
    return found.move, [(w.move, w.value) for w in found.weighed]


def history_differences(game: Game[Any, Any], players: int, most: int = 4) -> tuple[int, int]:
    """Over positions of random hands: how many histories were disguised (a card the seat never
    saw moved in the deal), and how many of those got another answer than the true history."""
    rng = random.Random(f"history-disguise/{game.info.id}/{players}")
    disguised_count = differ = 0
    for start, moves, seat in histories(game, players, every=4):
        if disguised_count == most:
            break
        other = history_disguised(game, start, moves, seat, rng)
        if game.dump_state(other) == game.dump_state(start):
            continue
        disguised_count += 1
        differ += history_answer(game, start, moves, seat) != history_answer(game, other, moves, seat)
    return disguised_count, differ


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_two_histories_the_seat_cannot_tell_apart_get_the_same_answer(game_id: str, players: int) -> None:
    disguised_count, differ = history_differences(GAMES[game_id], players)
    assert disguised_count >= 2, "too few histories had cards to hide: the test would prove nothing"
    assert differ == 0, f"{differ} of {disguised_count} disguised histories got another answer: it peeks"


class PeekingInference:
    """A game whose inference reads the other hands as they were before the last move."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.advice = dataclasses.replace(game.advice, infer=lambda history, seat: Known(held={
            s: tuple(hand) for s, hand in enumerate(history[-1][0].hands) if s != seat}))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_inference_that_peeks_is_caught(game_id: str) -> None:
    game = GAMES[game_id]
    peeking: Any = PeekingInference(game)
    caught = any(history_differences(peeking, players, most=4)[1] for players in game.info.player_counts)
    assert caught, "an inference that reads the true hands passed the no-peek test: the test is too weak"


class Counting:
    """A game that counts the moves applied to it."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game, self.applied = game, 0

    def apply(self, state: Any, move: Any) -> Any:
        self.applied += 1
        return self.game.apply(state, move)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_horizon_that_grows_looks_as_many_tricks_ahead_at_any_table(players: int) -> None:
    """Bura's playouts stop after 8 moves at two seats, a trick's worth more per seat past two."""
    game = GAMES["bura"]
    assert game.advice.horizon_grows
    depth = game.advice.horizon * players // 2
    rng = random.Random(f"horizon/{players}")
    stopped = 0
    for hand in range(20):
        counting: Any = Counting(game)
        state = deal_at_random(game, f"horizon-{hand}", players, rng)
        played = play_out(counting, game.advice, state, rng, NO_DEADLINE)
        assert played is not None and counting.applied <= depth
        stopped += game.to_move(played) is not None and counting.applied == depth
    assert stopped, "no playout reached its horizon: the test would prove nothing"
