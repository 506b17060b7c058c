"""What a Kozel seat learns from the play (``advice.infer``): every fact it states is true of the
hand to its end, the follow rules' voids and the exchange's gifts are found, and it reads nothing
the seat did not see."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.cards import CARDS, Card, SeedStream, cards
from service.games.base import DealSetup, evolve
from service.games.kozel.advice import ADVICE, infer
from service.games.kozel.game import Kozel
from service.games.kozel.rules import (
    DECK,
    GiveBack,
    GiveTrump,
    Move,
    Options,
    Phase,
    Play,
    State,
    effective_suit,
    is_trump,
    partner,
)
from tests.games import kozel_laws

GAME = Kozel()
VARIANTS: list[dict[str, Any]] = [{}, {"trump_method": "three_cards"}, {"jack_of_clubs_first_deal": True}]


def histories(options: dict[str, Any], deals: int) -> Iterator[tuple[list[tuple[State, Move]], State]]:
    """Every history of a few hands of random play, with the state it leads to; a seat with a lone
    trump gives it one time in two."""
    for index in range(deals):
        rng = random.Random(f"infer/{options}/{index}")
        state = GAME.deal(DealSetup(4, index % 4, options, None), SeedStream(f"infer-{index}"))
        history: list[tuple[State, Move]] = []
        while (seat := GAME.to_move(state)) is not None:
            yield history, state
            legal = GAME.legal_moves(state, seat)
            gives = [m for m in legal if isinstance(m, GiveTrump)]
            move = gives[0] if gives and rng.random() < 0.5 else rng.choice(legal)
            history = [*history, (state, move)]
            state, _ = GAME.apply(state, move)
        yield history, state


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: str(o) or "default")
def test_what_is_inferred_is_true_to_the_end(options: dict[str, Any]) -> None:
    held = lacking = 0
    for history, state in histories(options, 8):
        for seat in range(4):
            known = infer(history, seat)
            for s, given in known.held.items():
                assert s == partner(seat) and set(given) <= {*state.hands[s], *_played(state)}
            for s, void in known.lacking.items():
                assert s != seat and not void & set(state.hands[s])
            held += bool(known.held)
            lacking += bool(known.lacking)
    assert lacking > 0 and (held > 0 or options != {})
    assert ADVICE.infer is infer


def _played(state: State) -> set[Card]:
    return {*(c for pile in state.won for c in pile), *(c for _, c in state.trick)}


def play_state(hands: list[str], trump: str, trick: list[tuple[int, str]]) -> State:
    return State(Options(), 3, trump, Phase.PLAY, trick[0][0] if trick else 0,
                 tuple(cards(h) for h in hands), (trick[-1][0] + 1) % 4 if trick else 0,
                 trick=tuple((s, CARDS[c]) for s, c in trick))


def test_a_failure_to_follow_shows_the_suit_and_the_trumps() -> None:
    """Hearts trump; a plain diamond led: a plain spade shows no diamond and no trump, a heart
    (a trump) no diamond only; a diamond shows nothing; hearts led (trumps), the jack of spades
    (a permanent trump) follows and shows nothing."""
    state = play_state(["AD 9D", "AS 8S", "KH 8C", "10D 7D"], "H", [(0, "AD")])
    known = infer([(state, Play(1, CARDS["AS"]))], 0)
    diamonds = {c for c in DECK if effective_suit(c, "H") == "D"}
    trumps = {c for c in DECK if is_trump(c, "H")}
    assert known.lacking == {1: frozenset(diamonds | trumps)}
    assert CARDS["QD"] not in diamonds and CARDS["QD"] in trumps  # §2.3: a queen is a trump
    after = evolve(state, trick=((0, CARDS["AD"]), (1, CARDS["AS"])), to_move=2)
    assert infer([(after, Play(2, CARDS["KH"]))], 0).lacking == {2: frozenset(diamonds)}
    last = evolve(after, trick=(*after.trick, (2, CARDS["KH"])), to_move=3)
    assert infer([(last, Play(3, CARDS["10D"]))], 0).lacking == {}
    led = play_state(["AH 9D", "JS 8S", "", ""], "H", [(0, "AH")])
    assert infer([(led, Play(1, CARDS["JS"]))], 0).lacking == {}
    assert infer([(led, Play(1, CARDS["8S"]))], 0).lacking == {1: frozenset(trumps)}


def test_a_card_passed_to_the_partner_is_held_there() -> None:
    state = play_state(["QC 8D", "", "9S 8S", ""], "H", [])
    assert infer([(state, GiveTrump(0, CARDS["QC"]))], 0).held == {2: (CARDS["QC"],)}
    assert infer([(state, GiveBack(0, CARDS["8D"]))], 0).held == {2: (CARDS["8D"],)}
    assert infer([(state, GiveTrump(2, CARDS["9S"]))], 0).held == {}  # the partner's gift: seen only by it


def swapped(obj: Any, a: Card, b: Card) -> Any:
    """``obj`` (a state, a move) with the cards ``a`` and ``b`` swapped everywhere."""
    if isinstance(obj, Card):
        return b if obj == a else a if obj == b else obj
    if isinstance(obj, tuple):
        return tuple(swapped(x, a, b) for x in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type | Options):
        return type(obj)(**{f.name: swapped(getattr(obj, f.name), a, b) for f in dataclasses.fields(obj)})
    return obj


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: str(o) or "default")
def test_no_peeking(options: dict[str, Any]) -> None:
    """Two cards hidden from the seat all along (never in its view, never played) swapped through
    the whole history: the same ``Known``."""
    rng = random.Random("peek")
    differ = 0
    for history, state in histories(options, 3):
        if len(history) < 6 or rng.random() < 0.7:
            continue
        for seat in range(4):
            unseen = set.intersection(*(set(kozel_laws.hidden(GAME.dump_state(s), seat))
                                        for s, _ in [*history, (state, None)]))
            unseen -= {c.code for s, m in history if isinstance(m, Play) for c in (m.card,)}
            if len(unseen) < 2:
                continue
            a, b = (CARDS[c] for c in rng.sample(sorted(unseen), 2))
            other = [(swapped(s, a, b), swapped(m, a, b)) for s, m in history]
            differ += other != history
            assert infer(other, seat) == infer(history, seat)
    assert differ > 0
