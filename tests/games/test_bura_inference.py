"""What a seat of the Bura family learns from the play (``sets_advice.infer``, Bura's and
Kozel-bura's ``Advice.infer``): every fact it states is true of the hand, it states some, and it
reads nothing the seat did not see (two histories that differ only in cards hidden from the seat
throughout give the same ``Known``)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.cards import CARDS, Card, SeedStream
from service.games.advice import Known
from service.games.base import DealSetup
from service.games.bura.advice import ADVICE as BURA_ADVICE
from service.games.bura.game import Bura
from service.games.kozel_bura.advice import ADVICE as KOZEL_BURA_ADVICE
from service.games.kozel_bura.game import KozelBura
from service.games.tricks import card_points
from service.games.tricks.sets import POINTS, Lead, Molodka, Respond, State
from tests.games import bura_laws, kozel_bura_laws

Game = Any
GAMES = {"bura": (Bura(), BURA_ADVICE, bura_laws.hidden), "kozel-bura": (KozelBura(), KOZEL_BURA_ADVICE,
                                                                          kozel_bura_laws.hidden)}


def histories(game: Game, players: int, deals: int, **options: Any) -> Iterator[tuple[list[tuple[State, Any]], State]]:
    """Every history of a few hands of random trick play (no claim or declaration: they end the
    hand), with the state it leads to."""
    for index in range(deals):
        rng = random.Random(f"infer/{index}")
        state = game.deal(DealSetup(players, index % players, dict(options), None), SeedStream(f"infer-{index}"))
        history: list[tuple[State, Any]] = []
        while (seat := game.to_move(state)) is not None:
            yield history, state
            moves = [m for m in game.legal_moves(state, seat) if isinstance(m, Lead | Molodka | Respond)]
            if not moves:
                break
            move = rng.choice(moves)
            history = [*history, (state, move)]
            state, _ = game.apply(state, move)


def holds_true(known: Known, state: State) -> bool:
    return all(set(cards) <= set(state.hands[s]) for s, cards in known.held.items()) and \
        not any(cards & set(state.hands[s]) for s, cards in known.lacking.items())


CASES = [("bura", 2, {}), ("bura", 3, {}), ("bura", 5, {}), ("bura", 2, {"open_play": True}),
         ("kozel-bura", 2, {}), ("kozel-bura", 3, {"deck": 32})]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_what_is_inferred_is_true_and_something_is(name: str, players: int, options: dict[str, Any]) -> None:
    game, advice, _ = GAMES[name]
    held = lacking = 0
    for history, state in histories(game, players, 6, **options):
        for seat in range(players):
            known = advice.infer(history, seat)
            assert holds_true(known, state), (seat, known, game.dump_state(state))
            assert seat not in known.held and seat not in known.lacking
            held += bool(known.held)
            lacking += bool(known.lacking)
    assert held > 0
    assert (lacking > 0) == (name == "bura" and not options.get("open_play", False))


def test_the_trump_card_is_held_by_its_drawer_until_played() -> None:
    """Two seats: the trump card's drawer holds it while it is in its hand, and the other seat
    knows it at every such position (it was drawn face up); a face-down discard may hide it."""
    game, advice, _ = GAMES["kozel-bura"]
    checked = 0
    for history, state in histories(game, 2, 6):
        if state.stock:
            continue
        holder = next((s for s in range(2) if state.trump_card in state.hands[s]), None)
        for seat in range(2):
            known = advice.infer(history, seat)
            expected = {holder: (state.trump_card,)} if holder is not None and holder != seat else {}
            assert known.held == expected
            checked += bool(expected)
    assert checked > 0


def test_cards_seen_played_stay_out_of_the_redealt_hands_and_stock() -> None:
    """Bura at three seats, discards face down: a redeal deals no card seen played into a hand or
    the stock (only into the won piles); at two seats once the stock is exhausted the other hand
    is exactly what is left of the cards not seen played, so every redeal deals it back."""
    game, advice, _ = GAMES["bura"]
    checked = exhausted = 0
    for players in (2, 3):
        for history, state in histories(game, players, 4):
            seat = state.to_move
            if not history or seat is None:
                continue
            known = advice.infer(history, seat)
            seen = frozenset.intersection(*known.lacking.values()) if known.lacking else frozenset()
            for draw in range(2):
                dealt = advice.redeal(state, seat, random.Random(draw), known)
                assert not seen & {*dealt.stock, *(c for s in range(players) if s != seat for c in dealt.hands[s])}
                checked += bool(seen)
                if players == 2 and not state.stock:
                    assert sorted(dealt.hands[1 - seat], key=str) == sorted(state.hands[1 - seat], key=str)
                    exhausted += 1
    assert checked > 0 and exhausted > 0


PUBLIC = {"lead", "molodka", "beat", "discard", "trump_card_drawn"}
"""The events every seat sees the cards of (a face-down discard's and a drawn card's are its
owner's alone)."""


def shown(game: Game, history: list[tuple[State, Any]]) -> set[str]:
    """The codes of the cards the history showed everyone: played face up, the trump card."""
    codes: set[str] = set()
    for state, move in history:
        for event in game.apply(state, move)[1]:
            if event.type in PUBLIC:
                codes.update(c.code for c in event.cards)
    return codes


def swapped(obj: Any, a: Card, b: Card) -> Any:
    """``obj`` (a state, a move) with the cards ``a`` and ``b`` swapped everywhere."""
    if obj is a or obj is b or isinstance(obj, Card):
        return b if obj == a else a if obj == b else obj
    if isinstance(obj, tuple):
        return tuple(swapped(x, a, b) for x in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type) and type(obj).__name__ != "Options":
        fields = {f.name: swapped(getattr(obj, f.name), a, b) for f in dataclasses.fields(obj)}
        if isinstance(obj, State):
            fields["card_points"] = tuple(card_points(pile, POINTS) for pile in fields["won"])
        return type(obj)(**fields)
    return obj


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_no_peeking(name: str, players: int, options: dict[str, Any]) -> None:
    game, advice, hidden = GAMES[name]
    rng = random.Random("peek")
    differ = 0
    for history, state in histories(game, players, 3, **options):
        for seat in range(players):
            if len(history) < 4:
                continue
            unseen = set.intersection(*(set(hidden(game.dump_state(s), seat)) for s, _ in [*history, (state, None)]))
            unseen -= shown(game, history)
            if len(unseen) < 2:
                continue
            a, b = (CARDS[c] for c in rng.sample(sorted(unseen), 2))
            other = [(swapped(s, a, b), swapped(m, a, b)) for s, m in history]
            differ += other != history
            assert advice.infer(other, seat) == advice.infer(history, seat)
    assert differ > 0

