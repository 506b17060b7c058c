"""Sixty-six's exact endgame (``service.games.sixty_six.endgame``) and the worlds a seat cannot tell
apart (``advice.worlds``), against the rules themselves.

The solver's values are checked against a brute-force minimax over the game's own ``legal_moves``,
``apply`` and ``result`` (no pruning, no memo) on random positions of 2 to 4 cards a side, after
the stock is exhausted and after a close, with the table's options drawn at random: a solver that
dropped a rule (heading the trick, the last-trick bonus, a closer's penalty...) fails it.
"""

from __future__ import annotations

import random
from math import comb

import pytest

from service import player
from service.cards import CARDS
from service.games.base import evolve
from service.games.sixty_six import rules
from service.games.sixty_six.advice import ADVICE, worlds
from service.games.sixty_six.endgame import Solver, solve
from service.games.sixty_six.game import SixtySix
from service.games.sixty_six.rules import Claim, Close, Move, Options, Play, State
from service.games.tricks import beats
from service.player import Effort, suggest
from tests.games.test_sixty_six import position

GAME = SixtySix()
NO_DEADLINE = float("inf")


def random_options(rng: random.Random) -> Options:
    return Options(
        must_head_trick=rng.random() < 0.5,
        last_trick_bonus=rng.random() < 0.5,
        allow_claim=rng.random() < 0.3,
        marriage_requires_trick=rng.random() < 0.7,
        marriages_after_stock=rng.random() < 0.7,
        allow_trump_nine_exchange=rng.random() < 0.5,
        min_stock_to_close=rng.choice((1, 3, 5)),
    )


def strict_position(rng: random.Random, *, most: int, close: bool, pending: bool = False) -> State:
    """A position of random play, with the stock exhausted (or closed, at a random moment, often
    before the first trick), at most ``most`` cards in either hand and the seat to move with two
    moves or more; the play before it neither claims nor closes but when ``close`` asks to, and
    declares a marriage it can one time in two. ``pending``: a seat that has not won a trick
    declares every marriage it can and follows with a card that loses the trick, and the position
    found has a marriage pending (declared before its seat's first trick)."""
    while True:
        deck = list(rules.DECK)
        rng.shuffle(deck)
        state = rules.deal_from(tuple(deck), rng.randrange(2), random_options(rng))
        close_after = rng.choice((0, 0, 0, 1, 2, 3, 4, 5))
        while (seat := state.to_move) is not None:
            legal = GAME.legal_moves(state, seat)
            closes = [m for m in legal if isinstance(m, Close)]
            marriages = [m for m in legal if isinstance(m, Play) and m.marriage]
            closed = state.stock_closed_by is not None
            trickless = not state.tricks_won[seat]
            waiting = any(not m.credited for m in (*state.marriages[0], *state.marriages[1]))
            if state.strict and max(map(len, state.hands)) <= most and len(legal) > 1 \
                    and closed == close and (waiting or not pending) and rng.random() < 0.6:
                return state
            losing = [m for m in legal if isinstance(m, Play) and state.trick and not beats(
                m.card, state.trick[0][1], trump_suit=state.trump_suit, order=rules.RANK_ORDER)]
            if close and closes and state.tricks_played >= close_after:
                move: Move = closes[0]
            elif marriages and (rng.random() < 0.5 or (pending and trickless)):
                move = rng.choice(marriages)
            elif pending and trickless and losing:
                move = rng.choice(losing)
            else:
                move = rng.choice([m for m in legal if not isinstance(m, (Close, Claim))])
            state, _ = GAME.apply(state, move)


def brute(state: State, seat: int) -> float:
    """``seat``'s value of ``state`` under perfect play by both, by plain minimax."""
    if state.finished:
        return ADVICE.value(state, seat)
    mover = state.to_move
    assert mover is not None
    values = [brute(GAME.apply(state, move)[0], seat) for move in GAME.legal_moves(state, mover)]
    return max(values) if mover == seat else min(values)


def brute_values(state: State, seat: int) -> dict[Move, float]:
    return {move: brute(GAME.apply(state, move)[0], seat) for move in GAME.legal_moves(state, seat)}


def cases(count: int, *, close: bool, seed: str, pending: bool = False) -> list[tuple[State, int]]:
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        state = strict_position(rng, most=rng.choice((2, 3, 3, 4)), close=close, pending=pending)
        assert state.to_move is not None
        found.append((state, state.to_move))
    return found


def checked(state: State, *, deep: bool) -> float:
    """Seat 0's value of ``state`` by plain minimax over the rules, checking the solver at every
    position of the tree on the way: its moves are the rules' legal moves, its score of a
    finished hand is ``scoring.result``'s, and (``deep``) its values are the minimax's."""
    solver = Solver(state)
    if state.finished:
        assert solver.score(state) == ADVICE.value(state, 0), GAME.dump_state(state)
        return ADVICE.value(state, 0)
    mover = state.to_move
    assert mover is not None
    legal = GAME.legal_moves(state, mover)
    assert sorted(map(str, solver.moves(state))) == sorted(map(str, legal)), GAME.dump_state(state)
    values = {move: checked(GAME.apply(state, move)[0], deep=deep) for move in legal}
    if deep:
        sign = 1 if mover == 0 else -1
        assert solve(state, mover, NO_DEADLINE) == {m: sign * v for m, v in values.items()}, \
            GAME.dump_state(state)
    return max(values.values()) if mover == 0 else min(values.values())


@pytest.mark.parametrize(("close", "pending", "count"), [(False, False, 120), (True, False, 120), (True, True, 10)],
                         ids=["exhausted", "closed", "closed with a marriage pending"])
def test_the_solver_agrees_with_brute_force(close: bool, pending: bool, count: int) -> None:
    """At the root of every position, and at every position of the trees of 3 cards a side or
    fewer; the moves and the finished hands' scores everywhere."""
    for state, seat in cases(count, close=close, seed=f"endgame/{close}", pending=pending):
        sign = 1 if seat == 0 else -1
        values = {m: sign * checked(GAME.apply(state, m)[0], deep=len(state.hands[seat]) <= 3)
                  for m in GAME.legal_moves(state, seat)}
        assert solve(state, seat, NO_DEADLINE) == values, GAME.dump_state(state)


def test_the_positions_try_every_rule() -> None:
    """The random positions above reach what the solver must get right: a head-the-trick
    table, a bonus, claims, marriages led in the strict phase, a failed close."""
    seen: set[str] = set()
    for close in (False, True):
        for state, seat in cases(120, close=close, seed=f"endgame/{close}"):
            options = state.options
            seen |= {name for name, on in [
                ("head", options.must_head_trick), ("bonus", options.last_trick_bonus and not close),
                ("claims", options.allow_claim), ("closed", state.stock_closed_by is not None)] if on}
            values = brute_values(state, seat)
            if any(isinstance(m, Play) and m.marriage for m in values):
                seen.add("marriage")
            if any(v <= -2 for v in values.values()):
                seen.add("two or more lost")
    assert seen == {"head", "bonus", "claims", "closed", "marriage", "two or more lost"}


def six_a_side(rng: random.Random) -> State:
    """The first lead after the stock runs out: six cards a side."""
    while True:
        state = strict_position(rng, most=6, close=False)
        if len(state.hands[0]) == len(state.hands[1]) == 6:
            return state


def test_the_solver_keeps_its_promise_on_six_cards_a_side() -> None:
    """Right after the stock runs out, both seats playing the solver's best moves to the end
    score what the solver promised at the start."""
    rng = random.Random("six")
    for _ in range(4):
        state = six_a_side(rng)
        seat = state.to_move
        assert seat is not None
        values = solve(state, seat, NO_DEADLINE)
        assert values is not None
        promised = max(values.values()) * (1 if seat == 0 else -1)
        while (seat := state.to_move) is not None:
            found = solve(state, seat, NO_DEADLINE)
            assert found is not None
            state, _ = GAME.apply(state, max(found, key=found.__getitem__))
        assert ADVICE.value(state, 0) == promised


def test_a_passed_deadline_gives_no_answer() -> None:
    rng = random.Random("late")
    state = six_a_side(rng)
    seat = state.to_move
    assert seat is not None
    solver = Solver(state)
    while solver.values(state, seat) and solver.nodes <= 1024:  # the clock is read at 1,024
        state = six_a_side(rng)
        seat = state.to_move
        assert seat is not None
        solver = Solver(state)
    assert solve(state, seat, 0.0) is None
    assert solve(state, seat, NO_DEADLINE) is not None


def test_no_answer_while_the_stock_is_open() -> None:
    state = rules.deal_from(rules.DECK, 0, Options())
    assert solve(state, 1, NO_DEADLINE) is None
    assert worlds(state, 1, 10_000) is None


# --- worlds ------------------------------------------------------------------------------------


def moved(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with the cards ``seat`` cannot see (the other hand and the stock under the trump
    card) dealt again among those places, the shown marriage partners left in the hand."""
    dealt = ADVICE.redeal(state, seat, rng)
    other = 1 - seat
    hand = list(dealt.hands[other])
    rng.shuffle(hand)
    hands = (tuple(hand), dealt.hands[1]) if other == 0 else (dealt.hands[0], tuple(hand))
    return evolve(dealt, hands=hands)


@pytest.mark.parametrize("close", [False, True], ids=["exhausted", "closed"])
def test_worlds_do_not_peek(close: bool) -> None:
    rng = random.Random(f"peek/{close}")
    differ = 0
    for state, seat in cases(40, close=close, seed=f"worlds/{close}"):
        other = moved(state, seat, rng)
        assert GAME.view(other, seat) == GAME.view(state, seat)
        differ += other != state
        assert worlds(state, seat, 10_000) == worlds(other, seat, 10_000)
    assert differ > 10


def test_after_exhaustion_there_is_one_world_the_open_hand() -> None:
    for state, seat in cases(20, close=False, seed="one world"):
        found = worlds(state, seat, 1)
        assert found is not None and len(found) == 1
        assert set(found[0].hands[1 - seat]) == set(state.hands[1 - seat])
        assert found[0].hands[seat] == state.hands[seat]


def test_after_a_close_the_worlds_are_every_hand_of_the_unseen_cards() -> None:
    for state, seat in cases(30, close=True, seed="close worlds"):
        other = 1 - seat
        unseen = {*state.hands[other], *state.stock[:-1]}
        size = len(state.hands[other])
        found = worlds(state, seat, 100_000)
        assert found is not None
        shown = set.intersection(*(set(w.hands[other]) for w in found))
        assert len(found) == comb(len(unseen) - len(shown & unseen), size - len(shown))
        assert len({frozenset(w.hands[other]) for w in found}) == len(found)
        for world in found:
            assert {*world.hands[other], *world.stock[:-1]} == unseen
            assert world.stock[-1:] == state.stock[-1:]
            assert GAME.view(world, seat) == GAME.view(state, seat)
        assert worlds(state, seat, len(found) - 1) is None


def test_a_shown_marriage_partner_stays_in_the_hand() -> None:
    """Seat 1 led KH as a marriage after seat 0 closed; QH is still in its hand, and so in
    every world's."""
    state = position(hands=("AC 10C 9S QS", "QH JD 9D"), stock="KC QC JC 9C AD AS", trump="AS",
                     trick="KH", leader=1, won=("10H JH 9H 10S KS JS", "10D KD QD AH"), closed_by=0,
                     snapshot=(0, 0), marriages=([], [{"suit": "H", "points": 20, "credited": True}]))
    found = worlds(state, 0, 1_000)
    assert found is not None and len(found) == comb(7, 2)
    assert all(CARDS["QH"] in w.hands[1] for w in found)


# --- the player --------------------------------------------------------------------------------


def test_the_player_plays_the_best_move_once_the_stock_is_exhausted() -> None:
    for state, seat in cases(25, close=False, seed="player"):
        values = brute_values(state, seat)
        found = suggest(GAME, state, seat, seed="exact", effort=Effort(4, NO_DEADLINE))
        assert values[found.move] == max(values.values())
        assert found.samples == 1


def test_the_player_samples_when_time_is_short_and_plays_greedy_when_told_to() -> None:
    """A deadline already passed: the exact search gives up and the sampled search answers (no
    sample in no time: the greedy move); ``samples`` 0 (the levels that do not search): the
    greedy move, no world solved."""
    for state, seat in cases(5, close=False, seed="short"):
        greedy = ADVICE.greedy(state, seat, GAME.legal_moves(state, seat))
        for effort in (Effort(4, 0.0), Effort(0, NO_DEADLINE)):
            found = suggest(GAME, state, seat, seed="short", effort=effort)
            assert (found.move, found.samples) == (greedy, 0)


def test_after_a_close_the_player_weighs_every_world() -> None:
    for state, seat in cases(10, close=True, seed="player closed"):
        found = suggest(GAME, state, seat, seed="exact", effort=Effort(4, NO_DEADLINE))
        every = worlds(state, seat, 10_000)
        assert every is not None
        if len(every) > 64:
            continue
        means = {m: 0.0 for m in GAME.legal_moves(state, seat)}
        for world in every:
            values = brute_values(world, seat)
            for move in means:
                means[move] += values[move] / len(every)
        assert found.samples == len(every)
        assert means[found.move] == pytest.approx(max(means.values()))


def test_past_the_worlds_listed_the_player_solves_each_sampled_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """More worlds than it lists (none here): each sampled deal is solved exactly, not played out,
    so each move's value is its mean exact value over the deals the samples drew."""
    monkeypatch.setattr(player, "MOST_WORLDS", 0)
    for state, seat in cases(5, close=True, seed="sampled solves"):
        found = suggest(GAME, state, seat, seed="deals", effort=Effort(6, NO_DEADLINE))
        means = dict.fromkeys(GAME.legal_moves(state, seat), 0.0)
        for index in range(6):
            dealt = ADVICE.redeal(state, seat, random.Random(f"deals/{index}"))
            for move, value in brute_values(dealt, seat).items():
                means[move] += value / 6
        assert found.samples == 6
        assert {w.move: w.value for w in found.weighed} == pytest.approx(means)
