"""The Bura family's exact endgame (``tricks.sets_endgame``: Bura's and Kozel-bura's ``worlds`` and
``solve``), against the rules themselves.

The solver's values are checked against a plain paranoid minimax over the games' own
``legal_moves``, ``apply`` and ``Advice.value`` (no pruning, no memo; a molodka may seize each
lead, as the solver has it) on positions of random play once the stock is exhausted; the worlds
against what the seat knows (``infer``) and the promise not to peek.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from math import comb
from typing import Any

import pytest

from service.cards import SeedStream
from service.games.base import DealSetup
from service.games.bura.game import Bura
from service.games.bura.rules import Claim, Declare
from service.games.kozel_bura.game import KozelBura
from service.games.seating import clockwise
from service.games.tricks import sets_endgame
from service.games.tricks.sets import Lead, Molodka, Phase, Respond, State
from service.player import Effort, suggest

GAMES: dict[str, Any] = {"bura": Bura(), "kozel-bura": KozelBura()}
NO_DEADLINE = float("inf")


def endgames(name: str, players: int, count: int, *, cards: int = 9, **options: Any
             ) -> Iterator[tuple[State, int, list[tuple[State, Any]]]]:
    """Positions of random trick play once the stock is exhausted, at most ``cards`` cards in
    hands, the seat to move with two moves or more, with their histories."""
    game = GAMES[name]
    found = 0
    for index in range(10 * count):
        rng = random.Random(f"endgame/{name}/{index}")
        state = game.deal(DealSetup(players, index % players, dict(options), None), SeedStream(f"end-{index}"))
        history: list[tuple[State, Any]] = []
        while (seat := game.to_move(state)) is not None:
            legal = game.legal_moves(state, seat)
            if not state.stock and sum(map(len, state.hands)) <= cards and len(legal) > 1 and rng.random() < 0.5:
                yield state, seat, history
                found += 1
                break
            moves = [m for m in legal if isinstance(m, Lead | Molodka | Respond)]
            if not moves:
                break
            move = rng.choice(moves)
            history.append((state, move))
            state, _ = game.apply(state, move)
        if found == count:
            return


def brute(game: Any, state: State, seat: int) -> float:
    """``seat``'s value of ``state``: it maximises, every other seat minimises, a molodka may
    seize each lead (the seats after the leader first, clockwise)."""
    if state.finished:
        return float(game.advice.value(state, seat))
    mover = state.to_move
    assert mover is not None
    if state.trick is None and state.phase is Phase.PLAY:
        return seize(game, state, seat, [s for s in clockwise(mover, state.seats)[1:] if state.hands[s]])
    return pick(game, state, seat, mover, game.legal_moves(state, mover))


def seize(game: Any, state: State, seat: int, rivals: list[int]) -> float:
    mover = state.to_move
    assert mover is not None
    if not rivals:
        return pick(game, state, seat, mover, game.legal_moves(state, mover))
    molodkas = [m for m in game.legal_moves(state, rivals[0]) if isinstance(m, Molodka)]
    later = seize(game, state, seat, rivals[1:])
    if not molodkas:
        return later
    values = [later, *(brute(game, game.apply(state, m)[0], seat) for m in molodkas)]
    return max(values) if rivals[0] == seat else min(values)


def pick(game: Any, state: State, seat: int, mover: int, moves: list[Any]) -> float:
    values = [brute(game, game.apply(state, m)[0], seat) for m in moves]
    return max(values) if mover == seat else min(values)


CASES = [("bura", 2, 6, {}), ("bura", 3, 6, {"open_play": True}), ("kozel-bura", 2, 6, {}),
         ("kozel-bura", 3, 6, {}), ("kozel-bura", 2, 7, {"triple_lead": True}), ("bura", 5, 7, {"open_play": True})]


@pytest.mark.parametrize(("name", "players", "cards", "options"), CASES)
def test_the_solver_agrees_with_brute_force(name: str, players: int, cards: int, options: dict[str, Any]) -> None:
    game = GAMES[name]
    checked = 0
    for state, seat, _ in endgames(name, players, 12, cards=cards, **options):
        legal = game.legal_moves(state, seat)
        values = {m: brute(game, game.apply(state, m)[0], seat) for m in legal}
        assert game.advice.solve(state, seat, NO_DEADLINE) == values, game.dump_state(state)
        checked += 1
    assert checked >= 8


def test_the_solver_claims_and_declares_when_it_wins() -> None:
    """Bura, two seats: a claim right now, or a bura shown, is worth a won game; a wrong claim a
    lost one."""
    seen = set()
    for state, seat, _ in endgames("bura", 2, 40, cards=6):
        values = GAMES["bura"].advice.solve(state, seat, NO_DEADLINE)
        assert values is not None
        for move, value in values.items():
            if isinstance(move, Claim):
                assert value == (1 if state.points(seat) >= 31 else -1)
                seen.add(value)
            if isinstance(move, Declare):
                assert value == 1
                seen.add("declare")
    assert {1, -1} <= seen


def test_a_passed_deadline_gives_no_answer_nor_does_an_open_stock_or_a_big_endgame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline is read every 256 nodes: eight cards at two seats (``MOST_CARDS`` raised
    for it) take more."""
    state, seat, _ = next(endgames("kozel-bura", 2, 1, cards=8))
    with monkeypatch.context() as patched:
        patched.setattr(sets_endgame, "MOST_CARDS", 8)
        assert GAMES["kozel-bura"].advice.solve(state, seat, 0.0) is None
        assert GAMES["kozel-bura"].advice.solve(state, seat, NO_DEADLINE) is not None
    state, seat, _ = next(endgames("kozel-bura", 3, 1, cards=12))
    assert sum(map(len, state.hands)) > sets_endgame.MOST_CARDS
    assert GAMES["kozel-bura"].advice.solve(state, seat, NO_DEADLINE) is None
    assert GAMES["kozel-bura"].advice.worlds(state, seat, 10**6) is None
    game = GAMES["bura"]
    dealt = game.deal(DealSetup(2, 0, {}, None), SeedStream("open"))
    assert game.advice.solve(dealt, 1, NO_DEADLINE) is None
    assert game.advice.worlds(dealt, 1, 10_000) is None


# --- worlds ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["bura", "kozel-bura"])
def test_at_two_seats_what_the_seat_saw_leaves_one_world_the_true_one(name: str) -> None:
    """Bura with its discards face down needs ``infer`` for it (the cards seen played); without,
    the other hand and won pile are any split of their cards."""
    game = GAMES[name]
    for state, seat, history in endgames(name, 2, 10, cards=sets_endgame.MOST_CARDS):
        known = game.advice.infer(history, seat)
        found = game.advice.worlds(state, seat, 200, known)
        assert found is not None and len(found) == 1
        assert set(found[0].hands[1 - seat]) == set(state.hands[1 - seat])
        assert found[0].card_points == state.card_points
        unknown = game.advice.worlds(state, seat, 100_000)
        pool = len(state.hands[1 - seat]) + (len(state.won[1 - seat]) if name == "bura" else 0)
        assert unknown is not None and len(unknown) == comb(pool, len(state.hands[1 - seat]))


def test_open_bura_lists_every_deal_of_the_other_hands_and_face_down_bura_none() -> None:
    game = GAMES["bura"]
    for state, seat, _ in endgames("bura", 3, 10, cards=sets_endgame.MOST_CARDS, open_play=True):
        others = [s for s in range(3) if s != seat]
        found = game.advice.worlds(state, seat, 10_000)
        sizes = [len(state.hands[s]) for s in others]
        assert found is not None and len(found) == sets_endgame.most_deals(sum(sizes), sizes)
        assert any(all(set(w.hands[s]) == set(state.hands[s]) for s in others) for w in found)
        assert game.advice.worlds(state, seat, len(found) - 1) is None
    for state, seat, history in endgames("bura", 3, 3):
        assert game.advice.worlds(state, seat, 10_000, game.advice.infer(history, seat)) is None


@pytest.mark.parametrize(("name", "players", "options"), [("bura", 2, {}), ("bura", 3, {"open_play": True}),
                                                         ("kozel-bura", 3, {})])
def test_worlds_do_not_peek(name: str, players: int, options: dict[str, Any]) -> None:
    """A state dealt again (what the seat cannot see moved, what it knows kept) lists the same
    worlds."""
    game = GAMES[name]
    differ = 0
    for state, seat, history in endgames(name, players, 10, cards=sets_endgame.MOST_CARDS, **options):
        known = game.advice.infer(history, seat)
        other = game.advice.redeal(state, seat, random.Random(len(history)), known)
        assert game.view(other, seat) == game.view(state, seat)
        differ += other != state
        assert game.advice.worlds(state, seat, 10_000, known) == game.advice.worlds(other, seat, 10_000, known)
    assert differ > 0


def test_kozel_bura_lists_no_world_with_a_bura_in_a_full_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full hands after the stock runs out come at three seats with twelve cards, past
    ``MOST_CARDS``: raised here to list them."""
    monkeypatch.setattr(sets_endgame, "MOST_CARDS", 12)
    game = GAMES["kozel-bura"]
    full = 0
    for state, seat, _ in endgames("kozel-bura", 3, 20, cards=12):
        found = game.advice.worlds(state, seat, 100_000) or []
        full += any(len(hand) == 4 for hand in state.hands)
        for world in found:
            assert not any(len(h) == 4 and (all(c.suit == world.trump for c in h) or all(c.rank == "A" for c in h))
                           for h in world.hands)
    assert full > 0


# --- the player --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["bura", "kozel-bura"])
def test_the_player_plays_the_best_move_once_the_stock_is_exhausted(name: str) -> None:
    game = GAMES[name]
    for state, seat, history in endgames(name, 2, 8, cards=6):
        values = {m: brute(game, game.apply(state, m)[0], seat) for m in game.legal_moves(state, seat)}
        found = suggest(game, state, seat, seed="exact", effort=Effort(4, NO_DEADLINE), history=history)
        assert found.samples == 1 and values[found.move] == max(values.values())


def test_a_molodka_may_seize_the_lead(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kozel-bura with triple leads at two seats, hearts trump, seat 0 to lead: seat 1 holds three
    diamonds, a molodka, now and, if it keeps them, at every later lead; the solver weighs seizing
    the lead with it there as the brute force does (eight cards: ``MOST_CARDS`` raised for it)."""
    monkeypatch.setattr(sets_endgame, "MOST_CARDS", 8)
    from service.games.kozel_bura import rules
    from tests.games.family import position
    deck = [c.code for c in rules.DECKS[36]]
    hands = ["AC 10C 7H 9S", "6D 7D 8D KS"]
    rest = [c for c in deck if c not in " ".join(hands).split() and c != "6H"]
    game = GAMES["kozel-bura"]
    state = position(game, deck, hands=hands, trump_card="6H", leader=0,
                     won=[" ".join(rest[::2]) + " 6H", " ".join(rest[1::2])], options={"triple_lead": True})
    assert any(isinstance(m, Molodka) for m in game.legal_moves(state, 1))
    for seat in range(2):
        legal = game.legal_moves(state, seat)
        values = {m: brute(game, game.apply(state, m)[0], seat) for m in legal}
        assert game.advice.solve(state, seat, NO_DEADLINE) == values
