"""Bura's advice for the computer player: the redeal hides nothing it should not and moves what
it cannot see, the greedy player answers legally and takes cheaply, the value has the right sign."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from service.cards import SeedStream, card, codes
from service.games.base import DealSetup
from service.games.bura import rules
from service.games.bura.advice import POINT_SHARE, greedy, redeal, value
from service.games.bura.game import Bura
from service.games.bura.rules import Claim
from service.games.tricks.sets import Respond, State
from tests.games.bura_laws import hidden
from tests.games.family import position

GAME = Bura()
DECK = codes(rules.DECK)


def positions(players: int, hands: int = 3, **options: bool) -> Iterator[tuple[State, int]]:
    """Every position of a few hands of random legal play, with the seat to move."""
    for index in range(hands):
        rng = random.Random(index)
        state = GAME.deal(DealSetup(players, index % players, dict(options), None), SeedStream(f"advice-{index}"))
        while (seat := GAME.to_move(state)) is not None:
            yield state, seat
            moves = [m for m in GAME.legal_moves(state, seat) if not isinstance(m, Claim)] \
                or GAME.legal_moves(state, seat)  # claims end a hand too soon to test much
            state, _ = GAME.apply(state, rng.choice(moves))


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize("open_play", [False, True])
def test_redeal_keeps_the_view_and_the_rules(players: int, open_play: bool) -> None:
    for state, seat in positions(players, open_play=open_play):
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
            assert dealt["hands"][seat] == before["hands"][seat] and dealt["won"][seat] == before["won"][seat]
            moved += _places(dealt, seat) != _places(before, seat)
    assert moved > 0


def _places(wire: dict, seat: int) -> dict[str, str]:
    """Where each card hidden from ``seat`` lies."""
    places = {c: f"hand {s}" for s, hand in enumerate(wire["hands"]) for c in hand}
    places |= {c: f"won {s}" for s, pile in enumerate(wire["won"]) for c in pile}
    places |= {c: "stock" for c in wire["stock"]}
    return {c: places.get(c, "trick") for c in hidden(wire, seat)}


def test_redeal_counts_the_points_of_the_piles_dealt_again() -> None:
    for state, seat in positions(2, hands=1):
        dealt = redeal(state, seat, random.Random(1))
        assert dealt.card_points == GAME.load_state(GAME.dump_state(dealt)).card_points


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_answers_a_legal_move(players: int) -> None:
    for state, seat in positions(players, hands=2):
        moves = GAME.legal_moves(state, seat)
        assert greedy(state, seat, moves) in moves


def test_greedy_takes_with_the_cheapest_set_that_beats() -> None:
    state = position(GAME, DECK, hands=["KC 10C 6H", "7D"], trump_card="6D", leader=1, trick=[(1, "9C", True)],
                     stock="", rest_to=1)
    assert greedy(state, 0, GAME.legal_moves(state, 0)) == Respond(0, (card("KC"),), "beat")


def test_greedy_keeps_its_trumps_from_a_trick_without_points() -> None:
    state = position(GAME, DECK, hands=["6H 8C QS", "8D"], trump_card="6H", leader=1, trick=[(1, "7S", True)],
                     stock="", rest_to=1)
    assert greedy(state, 0, GAME.legal_moves(state, 0)) == Respond(0, (card("QS"),), "beat")
    state = position(GAME, DECK, hands=["6H 8C 9D", "8D"], trump_card="6H", leader=1, trick=[(1, "7S", True)],
                     stock="", rest_to=1)
    assert greedy(state, 0, GAME.legal_moves(state, 0)) == Respond(0, (card("8C"),), "discard")


def _with_won(pile: str, players: int = 2) -> State:
    """Seat 0 to lead, its won pile ``pile``, every other unplayed card in seat 1's."""
    hands = ["6H 8C 9D", "7S", "7C", "8S", "9S", "10S"][:players]
    rest = [c for c in DECK if c not in [*pile.split(), *" ".join(hands).split()]]
    won = [pile, " ".join(rest), *[""] * (players - 2)]
    state: State = position(GAME, DECK, hands=hands, trump_card="6H", leader=0, won=won)
    return state


def test_greedy_claims_with_31_and_not_before() -> None:
    short, enough = _with_won("AS AH QS JS"), _with_won("AS AH QS JS 10D")
    assert short.points(0) == 27 and enough.points(0) == 37
    assert greedy(short, 0, GAME.legal_moves(short, 0)) != Claim(0)
    assert greedy(enough, 0, GAME.legal_moves(enough, 0)) == Claim(0)


@pytest.mark.parametrize("players", [2, 3])
def test_value_has_the_sign_of_the_claim(players: int) -> None:
    right, _ = GAME.apply(_with_won("AS AH QS JS 10D", players), Claim(0))
    wrong, _ = GAME.apply(_with_won("AS AH QS JS", players), Claim(0))
    assert value(right, 0) == pytest.approx(1, abs=POINT_SHARE) and value(right, 1) < 0
    assert value(wrong, 0) == pytest.approx(-1, abs=POINT_SHARE) and value(wrong, 1) > 0
    assert (value(right, 0) == 1) == (players == 2)


def test_at_many_seats_points_count_within_the_outcome() -> None:
    """Three seats: more card points, more value, for the same outcome; the win's order
    stands whatever the points (a right claim with 37 over a co-win after another's false claim
    with every other point)."""
    few, _ = GAME.apply(_with_won("AS AH QS JS 10D", 3), Claim(0))
    more, _ = GAME.apply(_with_won("AS AH QS JS 10D 10H KH", 3), Claim(0))
    assert value(more, 0) > value(few, 0)
    rich = position(GAME, DECK, hands=["6H 8C 9D", "7S", "7C"], trump_card="6H", leader=1,
                    won=[" ".join(c for c in DECK if c not in ["6H", "8C", "9D", "7S", "7C", "AS"]), "AS", ""])
    cowin, _ = GAME.apply(rich, Claim(1))
    assert value(cowin, 0) > 0.5 and value(few, 0) > value(cowin, 0)


@pytest.mark.parametrize("players", [3, 6])
def test_at_many_seats_the_points_never_cross_the_win(players: int) -> None:
    """The points' term stays under half the win term's step, 1 / (seats - 1)."""
    finished = 0
    for state, _ in positions(players, hands=4):
        for claimer in range(players):
            if state.to_move == claimer:
                done, _ = GAME.apply(state, Claim(claimer))
                for seat in range(players):
                    winners = rules.result(done).winners
                    won = (seat in winners) - sum(s in winners for s in range(players) if s != seat) / (players - 1)
                    assert abs(value(done, seat) - won) <= POINT_SHARE < 1 / (2 * (players - 1))
                finished += 1
    assert finished > 0
