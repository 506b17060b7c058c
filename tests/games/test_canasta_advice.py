"""Canasta's advice for the computer player (service/games/canasta/advice.py): the deal again of
the unseen cards keeps what the seat sees and moves only what it cannot, the greedy player
answers a legal move and melds, a finished hand is valued by its score, and what a seat infers of
the other hands (the cards taken with the pile) is true and read from what it saw."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from service.cards import SeedStream
from service.games.base import DealSetup, evolve
from service.games.canasta import scoring
from service.games.canasta.advice import ADVICE, greedy, infer, redeal, value
from service.games.canasta.moves import Discard, Meld, Move, TakePile
from service.games.canasta.rules import State
from tests.games.canasta_positions import GAME, finished, position

TABLES = [(2, "classic"), (3, "classic"), (4, "classic"), (6, "classic"), (2, "seed_13"),
          (4, "seed_13"), (3, "seed_108"), (4, "seed_108")]


@cache
def played(seats: int, variant: str) -> tuple[tuple[State, int], ...]:
    """Every tenth position of two hands played by the greedy player with some random moves, with
    the seat to move; each greedy move is checked to be one of the legal moves."""
    found = []
    for hand in range(2):
        rng = random.Random(f"{seats}/{variant}/{hand}")
        state = GAME.deal(DealSetup(seats, hand % seats, {"variant": variant}, None),
                          SeedStream(f"advice-{hand}"))
        for step in range(400):
            seat = GAME.to_move(state)
            if seat is None:
                break
            moves = GAME.legal_moves(state, seat)
            move = ADVICE.greedy(state, seat, moves)
            assert move in moves
            if rng.random() < 0.3:
                move = rng.choice(moves)
            if step % 10 == 0:
                found.append((state, seat))
            state, _ = GAME.apply(state, move)
    return tuple(found)


@pytest.mark.parametrize(("seats", "variant"), TABLES)
def test_redeal_keeps_the_view_and_the_consistency(seats: int, variant: str) -> None:
    for state, seat in played(seats, variant):
        for seed in range(2):
            dealt = redeal(state, seat, random.Random(seed))
            assert GAME.view(dealt, seat) == GAME.view(state, seat)
            assert GAME.load_state(GAME.dump_state(dealt)) == dealt
            # the places the seat knows: its hand, the pile, the melds, the red threes
            assert (dealt.hands[seat], dealt.pile, dealt.melds, dealt.red_threes) == (
                state.hands[seat], state.pile, state.melds, state.red_threes)


@pytest.mark.parametrize(("seats", "variant"), TABLES)
def test_redeal_moves_the_unseen_cards(seats: int, variant: str) -> None:
    state, seat = played(seats, variant)[3]
    unseen = [h for s, h in enumerate(state.hands) if s != seat] + [state.stock]
    moved = False
    for seed in range(5):
        dealt = redeal(state, seat, random.Random(seed))
        again = [h for s, h in enumerate(dealt.hands) if s != seat] + [dealt.stock]
        assert Counter(c for pile in again for c in pile) == Counter(c for pile in unseen for c in pile)
        moved = moved or any(Counter(a) != Counter(b) for a, b in zip(again, unseen, strict=True))
    assert moved


@pytest.mark.parametrize(("seats", "variant"), [(4, "classic"), (3, "seed_13")])
def test_redeal_reads_only_which_cards_are_unseen(seats: int, variant: str) -> None:
    """Unseen cards swapped between an opponent's hand and the stock (and the stock shuffled)
    deal again the same way: the answer cannot depend on where they lay."""
    for state, seat in played(seats, variant)[:6]:
        other = (seat + 1) % seats
        hand, stock = list(state.hands[other]), list(state.stock)
        if not stock:
            continue
        hand[0], stock[-1] = stock[-1], hand[0]
        random.Random(1).shuffle(stock)
        hands = tuple(tuple(hand) if s == other else h for s, h in enumerate(state.hands))
        swapped = evolve(state, hands=hands, stock=tuple(stock))
        assert redeal(swapped, seat, random.Random(7)) == redeal(state, seat, random.Random(7))


def test_greedy_takes_the_pile_it_can_meld() -> None:
    state = position(hands={1: "9D 9H 5S 6C"}, melds={1: {"K": "KC KD KH"}}, pile="9C 4D 7S",
                     pile_frozen=False, turn=1, phase="draw")
    move = greedy(state, 1, GAME.legal_moves(state, 1))
    assert isinstance(move, TakePile)


def test_greedy_melds_the_largest_meld() -> None:
    state = position(hands={1: "KC KD KH KS 7C 7D 7H 5S 9D"}, melds={1: {"Q": "QC QD QH"}}, turn=1,
                     phase="play")
    move = greedy(state, 1, GAME.legal_moves(state, 1))
    assert isinstance(move, Meld)
    assert [(g.key, len(g.cards)) for g in move.melds] == [("K", 4)]


def test_greedy_keeps_wild_cards_and_throws_a_black_three() -> None:
    state = position(hands={1: "2C JK 3S 9D 5H"}, melds={1: {"Q": "QC QD QH"}}, turn=1, phase="play")
    move = greedy(state, 1, GAME.legal_moves(state, 1))
    assert isinstance(move, Discard) and move.card.code == "3S"


def test_value_of_a_finished_hand_is_the_score_difference() -> None:
    state = finished(hands={0: "", 1: "AS AH", 2: "9C", 3: "5D"},
                     melds={0: {"K": "KC KD KH KS KC KD 2H"}, 1: {"Q": "QC QD QH"}})
    scores = [scoring.hand_score(state, side).total for side in (0, 1)]
    assert scores[0] > scores[1]
    assert value(state, 0) == value(state, 2) == scores[0] - scores[1] > 0
    assert value(state, 1) == -value(state, 0)


def test_sides_are_partnerships_at_four_and_six() -> None:
    for seats, sides in ((2, [0, 1]), (3, [0, 1, 2]), (4, [0, 1, 0, 1]), (6, [0, 1, 0, 1, 0, 1])):
        state, _ = played(seats, "classic")[0]
        assert [ADVICE.side(state, seat) for seat in range(seats)] == sides


# --- what a seat infers from the play ---------------------------------------------------------


def history_of(seats: int, variant: str, hand: int) -> list[tuple[State, Move]]:
    """A hand played by the greedy player with some random moves, as (state, move) pairs."""
    rng = random.Random(f"infer/{seats}/{variant}/{hand}")
    state = GAME.deal(DealSetup(seats, hand % seats, {"variant": variant}, None), SeedStream(f"infer-{hand}"))
    history = []
    while (seat := GAME.to_move(state)) is not None and len(history) < 400:
        moves = GAME.legal_moves(state, seat)
        move = rng.choice(moves) if rng.random() < 0.3 else greedy(state, seat, moves)
        history.append((state, move))
        state, _ = GAME.apply(state, move)
    return history


def after(history: list[tuple[State, Move]]) -> State:
    state, move = history[-1]
    return GAME.apply(state, move)[0]


@pytest.mark.parametrize(("seats", "variant"), TABLES)
def test_what_is_inferred_is_true(seats: int, variant: str) -> None:
    """Every card inferred held is in that hand after the history's last move, and some are."""
    inferred = 0
    for hand in range(2):
        history = history_of(seats, variant, hand)
        for end in range(1, len(history) + 1, 3):
            state = after(history[:end])
            for seat in range(seats):
                known = infer(history[:end], seat)
                assert seat not in known.held
                for other, cards in known.held.items():
                    assert not Counter(cards) - Counter(state.hands[other]), (other, cards)
                    inferred += len(cards)
    assert inferred


def test_a_pile_taken_is_held_until_it_leaves_the_hand() -> None:
    """Seat 1 takes 9C 4D 7S 3H with its nines: 4D and 7S join its hand (the red three its area);
    it discards 7S, and 4D is still known to be there."""
    state = position(hands={1: "9D 9H 5S 6C"}, melds={1: {"K": "KC KD KH"}}, pile="9C 4D 7S 3H",
                     pile_frozen=False, turn=1, phase="draw")
    take = TakePile(1, tuple(c for c in state.hands[1] if c.rank == "9"))
    taken, _ = GAME.apply(state, take)
    seven = next(c for c in taken.hands[1] if c.code == "7S")
    history = [(state, take), (taken, Discard(1, seven))]
    assert [c.code for c in infer(history[:1], 0).held[1]] == ["4D", "7S"]
    assert [c.code for c in infer(history, 0).held[1]] == ["4D"]
    assert infer(history, 1).held == {}  # its own hand it sees
    four = next(c for c in taken.hands[1] if c.code == "4D")
    for seed in range(5):
        assert four in redeal(after(history), 0, random.Random(seed), infer(history, 0)).hands[1]


@pytest.mark.parametrize(("seats", "variant"), [(4, "classic"), (3, "seed_108")])
def test_inference_reads_nothing_hidden(seats: int, variant: str) -> None:
    """The same history with the cards the seat cannot see dealt again in every state (the other
    hands and the stock) infers the same."""
    history = history_of(seats, variant, 0)
    for seat in range(seats):
        rng = random.Random(seat)
        disguised = [(hidden_moved(state, seat, rng), move) for state, move in history]
        assert disguised != history
        assert infer(disguised, seat) == infer(history, seat)


def hidden_moved(state: State, seat: int, rng: random.Random) -> State:
    others = [s for s in range(state.seats) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.stock)
    rng.shuffle(pool)
    hands, at = list(state.hands), 0
    for s in others:
        hands[s] = tuple(pool[at:at + len(state.hands[s])])
        at += len(state.hands[s])
    return evolve(state, hands=tuple(hands), stock=tuple(pool[at:]))


def test_infer_is_the_advice_s() -> None:
    assert ADVICE.infer is infer
