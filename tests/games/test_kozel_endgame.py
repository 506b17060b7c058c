"""Kozel's exact last tricks (``kozel.endgame``, ``advice.worlds`` and ``advice.solve``), against
the rules themselves: the solver's values against a plain minimax of the two teams over the game's
own ``legal_moves``, ``apply`` and ``Advice.value`` (no pruning, no memo) on positions of random
play with the table's scoring options drawn at random; the worlds against what the seat knows
(``infer``) and the promise not to peek."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.cards import SeedStream
from service.games.base import DealSetup
from service.games.kozel import endgame
from service.games.kozel.advice import ADVICE, MOST_CARDS, _known, infer, solve, worlds
from service.games.kozel.game import Kozel
from service.games.kozel.rules import Move, Phase, State, team_of
from service.games.tricks.sets_endgame import most_deals
from service.player import Effort, suggest

GAME = Kozel()
NO_DEADLINE = float("inf")


def endgames(count: int, *, cards: int, seed: str = "") -> Iterator[tuple[State, int, list[tuple[State, Move]]]]:
    """Positions of random play with ``cards`` cards at most in the hand to play, two legal cards
    or more, with their histories; the scoring options drawn at random."""
    found = 0
    for index in range(20 * count):
        rng = random.Random(f"kozel endgame/{seed}/{index}")
        options = {"queen_capture": rng.choice(("replace", "add")),
                   "queen_capture_order": rng.choice(("any", "seven_after_queen"))}
        state = GAME.deal(DealSetup(4, index % 4, options, None), SeedStream(f"kozel-end-{seed}-{index}"))
        history: list[tuple[State, Move]] = []
        while (seat := GAME.to_move(state)) is not None:
            legal = GAME.legal_moves(state, seat)
            if state.phase is Phase.PLAY and len(state.hands[seat]) <= cards and len(legal) > 1:
                yield state, seat, history
                found += 1
                break
            move = rng.choice(legal)
            history.append((state, move))
            state, _ = GAME.apply(state, move)
        if found == count:
            return


def brute(state: State, seat: int) -> float:
    """``seat``'s value of ``state``: its team maximises, the other minimises."""
    if state.finished:
        return ADVICE.value(state, seat)
    mover = state.to_move
    assert mover is not None
    values = [brute(GAME.apply(state, move)[0], seat) for move in GAME.legal_moves(state, mover)]
    return max(values) if team_of(mover) == team_of(seat) else min(values)


def test_the_solver_agrees_with_brute_force() -> None:
    seen = set()
    for state, seat, _ in endgames(40, cards=3):
        values = {m: brute(GAME.apply(state, m)[0], seat) for m in GAME.legal_moves(state, seat)}
        found = endgame.solve(state, seat, NO_DEADLINE, value=ADVICE.value)
        assert found == values, GAME.dump_state(state)
        if len(state.hands[seat]) <= MOST_CARDS:
            assert solve(state, seat, NO_DEADLINE) == values
        seen |= {v for v in values.values()}
        seen.add(state.options.queen_capture)
    assert {"replace", "add"} <= seen and len(seen) > 6  # many outcomes: points, eggs, the queen


def test_a_passed_deadline_gives_no_answer() -> None:
    """Eight cards a hand (``advice.solve`` declines them: the tree is far too big) and the
    deadline already passed: the solver gives up at its first reading of the clock."""
    state, seat, _ = next(endgames(1, cards=8, seed="late"))
    assert len(state.hands[seat]) == 8 and solve(state, seat, NO_DEADLINE) is None
    assert endgame.solve(state, seat, 0.0, value=ADVICE.value) is None


def test_the_worlds_are_every_deal_and_keep_to_what_is_known() -> None:
    """Nothing known: every deal of the unseen cards, the true one among them. Known (the voids
    and gifts ``infer`` finds): the worlds that keep to it, the true one still among them."""
    narrowed = 0
    for state, seat, history in endgames(30, cards=MOST_CARDS, seed="worlds"):
        others = [s for s in range(4) if s != seat]
        placed = _known(state, seat)  # the turned cards (§3.1), shown to all
        sizes = [len(set(state.hands[s]) - placed) for s in others]
        every = worlds(state, seat, 100_000)
        assert every is not None and len(every) == most_deals(sum(sizes), sizes)
        known = infer(history, seat)
        kept = worlds(state, seat, 100_000, known)
        assert kept is not None
        assert any(all(set(w.hands[s]) == set(state.hands[s]) for s in range(4)) for w in kept)
        for world in kept:
            assert GAME.view(world, seat) == GAME.view(state, seat)
            assert not any(known.lacking.get(s, frozenset()) & set(world.hands[s]) for s in others)
        narrowed += len(kept) < len(every)
        assert worlds(state, seat, len(kept) - 1, known) is None if len(kept) > 1 else True
    assert narrowed > 0


def test_worlds_do_not_peek() -> None:
    differ = 0
    for state, seat, history in endgames(20, cards=MOST_CARDS, seed="peek"):
        known = infer(history, seat)
        other = ADVICE.redeal(state, seat, random.Random(len(history)), known)
        assert GAME.view(other, seat) == GAME.view(state, seat)
        differ += other != state
        assert worlds(state, seat, 10_000, known) == worlds(other, seat, 10_000, known)
    assert differ > 0


def test_no_worlds_past_the_last_tricks_nor_before_the_play() -> None:
    state = GAME.deal(DealSetup(4, 0, {}, None), SeedStream("early"))
    assert worlds(state, 1, 10**9) is None and solve(state, state.to_move or 0, NO_DEADLINE) is None
    for state, seat, _ in endgames(3, cards=8, seed="early"):
        if len(state.hands[seat]) > MOST_CARDS:
            assert worlds(state, seat, 10**9) is None


def test_the_player_weighs_every_world() -> None:
    weighed = 0
    for state, seat, history in endgames(8, cards=MOST_CARDS, seed="player"):
        known = infer(history, seat)
        every = worlds(state, seat, 200, known)
        found = suggest(GAME, state, seat, seed="exact", effort=Effort(4, NO_DEADLINE), history=history)
        if every is None:
            continue
        means: dict[Any, float] = {m: 0.0 for m in GAME.legal_moves(state, seat)}
        for world in every:
            for move in means:
                means[move] += brute(GAME.apply(world, move)[0], seat) / len(every)
        assert found.samples == len(every)
        assert means[found.move] == pytest.approx(max(means.values()))
        weighed += 1
    assert weighed > 4
