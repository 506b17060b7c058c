"""Kozel's advice for the computer player: the deal again keeps what each seat sees and knows,
the greedy player answers legal moves and takes tricks cheaply, the value has the right sign."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.cards import CARDS, SeedStream, codes
from service.games.base import DealSetup
from service.games.kozel import rules, wire
from service.games.kozel.advice import ADVICE
from service.games.kozel.game import Kozel
from service.games.kozel.rules import Phase, Play, State

GAME = Kozel()
VARIANTS: list[dict[str, Any]] = [{}, {"trump_method": "three_cards"}, {"trump_method": "first_card"},
                                  {"jack_of_clubs_first_deal": True}]


def positions(options: dict[str, Any], deals: int = 8) -> Iterator[State]:
    """Every position of a few hands played at random from seeded deals."""
    for index in range(deals):
        rng = random.Random(f"{options}/{index}")
        state = GAME.deal(DealSetup(4, index % 4, options, None), SeedStream(f"advice-{index}"))
        yield state
        while (seat := GAME.to_move(state)) is not None:
            state, _ = GAME.apply(state, rng.choice(GAME.legal_moves(state, seat)))
            yield state


def where(state: State) -> dict[str, str]:
    """Each card's place: a hand, the undealt cards, the trick or a team's won cards."""
    places = {c.code: f"hand {s}" for s, hand in enumerate(state.hands) for c in hand}
    places.update({c.code: "undealt" for c in state.undealt})
    places.update({c.code: "trick" for _, c in state.trick})
    places.update({c.code: f"won {t}" for t, won in enumerate(state.won) for c in won})
    return places


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: str(o) or "default")
def test_redeal_keeps_the_view_and_the_consistency(options: dict[str, Any]) -> None:
    phases = set()
    for number, state in enumerate(positions(options)):
        phases.add(state.phase)
        for seat in range(4):
            again = ADVICE.redeal(state, seat, random.Random(f"{number}/{seat}"))
            assert GAME.view(again, seat) == GAME.view(state, seat)
            GAME.load_state(GAME.dump_state(again))
    assert Phase.PLAY in phases and Phase.OVER in phases


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: str(o) or "default")
def test_redeal_keeps_known_cards_in_place(options: dict[str, Any]) -> None:
    for number, state in enumerate(positions(options)):
        before = where(state)
        for seat in range(4):
            after = where(ADVICE.redeal(state, seat, random.Random(number)))
            known = {c.code for c in state.turned}
            if options.get("jack_of_clubs_first_deal"):
                known.add("JC")
            if state.received_trump is not None and rules.team_of(seat) == rules.team_of(state.to_move or 0):
                known.add(state.received_trump.code)
            seen = {c.code for c in state.hands[seat]} | {c for c, place in before.items()
                                                          if not place.startswith(("hand", "undealt"))}
            for code in known | seen:
                assert after[code] == before[code], (code, seat)


def test_redeal_moves_unseen_cards() -> None:
    state = GAME.deal(DealSetup(4, 0, {}, None), SeedStream("moves"))
    before = where(state)
    moved = set()
    for k in range(5):
        after = where(ADVICE.redeal(state, 0, random.Random(k)))
        moved |= {code for code in before if after[code] != before[code]}
    assert moved and not moved & {c.code for c in state.hands[0]}


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: str(o) or "default")
def test_greedy_answers_a_legal_move(options: dict[str, Any]) -> None:
    for state in positions(options, deals=4):
        if (seat := GAME.to_move(state)) is not None:
            moves = GAME.legal_moves(state, seat)
            assert ADVICE.greedy(state, seat, moves) in moves


def playing(trump: str, trick: list[tuple[int, str]], follower: int, hand: str) -> State:
    """``trick`` led; ``follower`` next to play holds ``hand``; the other cards of the deck filled
    into the hands still to play, the rest taken by team 0."""
    played = [card for _, card in trick]
    pool = [c for c in codes(rules.DECK) if c not in [*hand.split(), *played]]
    size = len(hand.split())
    hands: list[list[str]] = [[] for _ in range(4)]
    hands[follower] = hand.split()
    for seat in range(4):
        if seat != follower:
            in_trick = any(s == seat for s, _ in trick)
            take = size - 1 if in_trick else size
            hands[seat], pool = pool[:take], pool[take:]
    wire_state = {"game": "kozel", "seats": 4, "dealer": 3, "to_move": follower, "trump": trump,
                  "phase": "play", "first_leader": 0, "hands": hands,
                  "trick": [{"seat": s, "card": c} for s, c in trick], "won": [pool, []]}
    return wire.load_state(wire_state)


@pytest.mark.parametrize(("trick", "hand", "expected"), [
    ([(0, "KS")], "AS 10S 9S", "10S"),  # the cheapest spade that takes the king
    ([(0, "KS")], "QC JD 7H 8D", "7H"),  # void in spades: the lowest trump takes it
    ([(0, "AS")], "KS 9S", "9S"),  # cannot take: the cheapest card
    ([(3, "KS"), (0, "AS")], "10S 7S", "7S"),  # the partner (seat 0) takes it already
])
def test_greedy_takes_with_the_cheapest_winning_card(trick: list[tuple[int, str]], hand: str,
                                                     expected: str) -> None:
    follower = (trick[-1][0] + 1) % 4
    state = playing("H", trick, follower, hand)
    moves = GAME.legal_moves(state, follower)
    assert ADVICE.greedy(state, follower, moves) == Play(follower, CARDS[expected])


def test_value_has_the_sign_of_the_hand() -> None:
    rich = [f"{rank}{suit}" for rank in ("A", "10", "7", "8") for suit in "CDHS"]  # 84 card points
    rest = [c for c in codes(rules.DECK) if c not in rich]
    state = wire.load_state({"game": "kozel", "seats": 4, "dealer": 3, "to_move": None, "trump": "H",
                             "phase": "over", "first_leader": 0, "hands": [[], [], [], []], "trick": [],
                             "won": [rich, rest]})
    assert state.points(0) == 84
    assert ADVICE.value(state, 0) == ADVICE.value(state, 2) == 1.0  # 84 points: the others open one pair
    assert ADVICE.value(state, 1) == -1.0
