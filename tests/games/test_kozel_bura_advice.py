"""Kozel-bura's advice for the computer player: the redeal hides nothing it should not, moves what
it cannot see and deals no bura, the greedy player answers legally and takes cheaply, the value
has the right sign."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.cards import SeedStream, card, codes
from service.games.base import DealSetup
from service.games.kozel_bura import rules
from service.games.kozel_bura.advice import redeal, value
from service.games.kozel_bura.game import KozelBura
from service.games.tricks.sets import Respond, State
from service.games.tricks.sets_advice import greedy
from tests.games.family import lead, position
from tests.games.kozel_bura_laws import hidden

GAME = KozelBura()
DECK = codes(rules.DECKS[36])


def positions(players: int, hands: int = 3, **options: Any) -> Iterator[tuple[State, int]]:
    """Every position of a few hands of random legal play, with the seat to move."""
    for index in range(hands):
        rng = random.Random(index)
        state = GAME.deal(DealSetup(players, index % players, dict(options), None), SeedStream(f"advice-{index}"))
        while (seat := GAME.to_move(state)) is not None:
            yield state, seat
            state, _ = GAME.apply(state, rng.choice(GAME.legal_moves(state, seat)))


@pytest.mark.parametrize(("players", "deck"), [(2, 36), (3, 32), (5, 36)])
def test_redeal_keeps_the_view_and_the_rules(players: int, deck: int) -> None:
    for state, seat in positions(players, deck=deck, triple_lead=players == 3):
        dealt = redeal(state, seat, random.Random(len(state.stock)))
        assert GAME.view(dealt, seat) == GAME.view(state, seat)
        assert GAME.load_state(GAME.dump_state(dealt)) == dealt


def test_redeal_keeps_the_trump_card_and_moves_hidden_cards() -> None:
    moved = 0
    for state, seat in positions(3, hands=1):
        before = GAME.dump_state(state)
        for seed in range(3):
            dealt = GAME.dump_state(redeal(state, seat, random.Random(seed)))
            if state.stock:
                assert dealt["stock"][-1] == state.trump_card.code
            assert dealt["hands"][seat] == before["hands"][seat] and dealt["won"] == before["won"]
            moved += _places(dealt, seat) != _places(before, seat)
    assert moved > 0


def _places(wire: dict[str, Any], seat: int) -> dict[str, str]:
    """Where each card hidden from ``seat`` lies."""
    places = {c: f"hand {s}" for s, hand in enumerate(wire["hands"]) for c in hand}
    return {c: places.get(c, "stock") for c in hidden(wire, seat)}


def test_redeal_deals_no_bura() -> None:
    """Six of the eight cards seat 0 cannot see are trumps: no deal may give seat 1 four."""
    state = position(GAME, DECK, hands=["6C 7C 8C 9C", "JD QD KD 6H"], trump_card="6D", leader=0,
                     stock="AD 10D 9D 7H 6D", rest_to=0)
    for seed in range(20):
        dealt = redeal(state, 0, random.Random(seed))
        assert not rules.has_bura(dealt, dealt.hands[1])


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_answers_a_legal_move(players: int) -> None:
    for state, seat in positions(players, hands=2):
        moves = GAME.legal_moves(state, seat)
        assert greedy(state, seat, moves) in moves


def test_greedy_takes_with_the_cheapest_card_that_beats() -> None:
    state = position(GAME, DECK, hands=["KC 10C AC 6H", "7D"], trump_card="6H", leader=1,
                     trick=[(1, "9C", True)], rest_to=1)
    assert greedy(state, 0, GAME.legal_moves(state, 0)) == Respond(0, (card("KC"),), "beat")


def test_greedy_leads_the_cheapest_card() -> None:
    state = position(GAME, DECK, hands=["KC 10C 6H 8S", "7D"], trump_card="6H", leader=0, rest_to=1)
    assert greedy(state, 0, GAME.legal_moves(state, 0)) == lead(0, "8S")


def test_value_of_a_played_out_hand() -> None:
    state = position(GAME, DECK, hands=["AC", "6C"], trump_card="6H", leader=0, rest_to=1)
    over, _ = GAME.apply(GAME.apply(state, lead(0, "AC"))[0], Respond(1, (card("6C"),)))
    assert over.finished
    assert value(over, 1) > 0 > value(over, 0)


def test_value_before_the_end_counts_the_points_in_hand() -> None:
    """The same cards won, the ace of clubs in the seat's hand rather than the other's: a
    playout's estimate counts it as points to come."""
    rich = position(GAME, DECK, hands=["AC 7D 8D 9D", "6C 7S 8S 9S"], trump_card="6H", leader=0, rest_to=1)
    poor = position(GAME, DECK, hands=["6C 7D 8D 9D", "AC 7S 8S 9S"], trump_card="6H", leader=0, rest_to=1)
    assert not rich.finished and rich.won == poor.won
    assert value(rich, 0) > value(poor, 0)
    assert value(rich, 1) < value(poor, 1)
