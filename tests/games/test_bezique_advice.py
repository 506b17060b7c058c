"""Bezique's advice for the computer player (service/games/bezique/advice.py): the redeal hides
nothing more and reveals nothing, the greedy player answers legal moves and plays as it says, the
value has the right sign, and what a seat infers of the other hands (the turned card taken, the
cards whose every copy it has seen) is true and read from what it saw."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from service.cards import CARDS, JOKER, SeedStream
from service.games.advice import Known
from service.games.base import DealSetup, evolve
from service.games.bezique.advice import ADVICE, greedy, infer, redeal, value
from service.games.bezique.rules import Declare, ExchangeTrump, Move, Pass, Play, State
from tests.games.bezique_positions import GAME, position, shown


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


# --- what a seat infers from the play ---------------------------------------------------------


def history_of(players: int, seed: int) -> list[tuple[State, Move]]:
    """A hand played at random, as (state, move) pairs; the exchange made whenever it may be."""
    rng = random.Random(seed)
    state = GAME.deal(DealSetup(players, seed % players, {}, None), SeedStream(f"infer-{seed}"))
    history = []
    while (seat := GAME.to_move(state)) is not None:
        moves = GAME.legal_moves(state, seat)
        move = ExchangeTrump(seat) if ExchangeTrump(seat) in moves else rng.choice(moves)
        history.append((state, move))
        state, _ = GAME.apply(state, move)
    return history


def after(history: list[tuple[State, Move]]) -> State:
    state, move = history[-1]
    return GAME.apply(state, move)[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_what_is_inferred_is_true(players: int) -> None:
    """After every move: each card inferred held is in that hand, and a card inferred lacking is
    not, beyond the copies held; some cards are inferred of each kind."""
    held = lacking = 0
    for seed in range(2):
        history = history_of(players, seed)
        for end in range(1, len(history) + 1, 4):
            state = after(history[:end])
            for seat in state.active:
                known = infer(history[:end], seat)
                assert seat not in known.held and seat not in known.lacking
                for other in known.lacking:
                    hand, kept = Counter(state.hands[other]), Counter(known.held.get(other, ()))
                    assert not kept - hand
                    assert all(hand[card] <= kept[card] for card in known.lacking[other])
                    held += len(kept)
                    lacking += len(known.lacking[other])
    assert held and lacking


def test_the_turned_card_taken_is_held_until_a_copy_leaves_the_hand() -> None:
    state = position(hands={1: "9H QH"}, phase="declare", trump_suit="H", trump_card="AH", tricks_played=12,
                     leader=1)
    exchanged, _ = GAME.apply(state, ExchangeTrump(1))
    assert infer([(state, ExchangeTrump(1))], 0).held == {1: (CARDS["AH"],)}
    passed, _ = GAME.apply(exchanged, Pass(1))
    history = [(state, ExchangeTrump(1)), (exchanged, Pass(1)), (passed, Play(1, CARDS["AH"]))]
    assert infer(history, 0).held == {}
    assert infer(history[:1], 1) == Known(held={}, lacking={0: frozenset()})  # its own hand it sees


def test_every_copy_seen_is_lacking_in_the_other_hands() -> None:
    """Both wild cards in sight, one in the seat's hand and one exposed: no other hand holds one."""
    state = position(hands={0: "JK AC"}, exposed={1: [shown("JK", "bezique", as_="JD"), shown("QH", "bezique")]},
                     trump_suit="H")
    known = infer([(state, Play(0, CARDS["AC"]))], 0)
    assert JOKER in known.lacking[1] and CARDS["AC"] not in known.lacking[1]


def test_no_failure_to_follow_shows_a_void() -> None:
    """§4.2: no duty to follow, so a diamond on a club lead tells nothing of the clubs."""
    state = position(hands={1: "10D"}, trick=["AC"], phase="follow", trump_suit="H")
    known = infer([(state, Play(1, CARDS["10D"]))], 0)
    assert not any(card.suit == "C" for card in known.lacking[1])


@pytest.mark.parametrize("players", [2, 3])
def test_inference_reads_nothing_hidden(players: int) -> None:
    """The same history with the cards the seat cannot see dealt again in every state (the other
    hands, the face-down stock, the tricks won) infers the same."""
    history = history_of(players, 5)
    for seat in history[0][0].active:
        rng = random.Random(seat)
        disguised = [(hidden_moved(state, seat, rng), move) for state, move in history]
        assert disguised != history
        assert infer(disguised, seat) == infer(history, seat)


def hidden_moved(state: State, seat: int, rng: random.Random) -> State:
    others = [s for s in state.active if s != seat]
    piles = [*(state.hands[s] for s in others), state.stock[:-1], *state.won_cards]
    pool = [c for pile in piles for c in pile]
    rng.shuffle(pool)
    dealt, at = [], 0
    for pile in piles:
        dealt.append(tuple(pool[at:at + len(pile)]))
        at += len(pile)
    hands = list(state.hands)
    for s, hand in zip(others, dealt, strict=False):
        hands[s] = hand
    return evolve(state, hands=tuple(hands), stock=dealt[len(others)] + state.stock[-1:],
                  won_cards=tuple(dealt[len(others) + 1:]))


def test_infer_is_the_advice_s() -> None:
    assert ADVICE.infer is infer
