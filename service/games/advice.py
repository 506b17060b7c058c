"""What the computer player needs of a game beyond its rules: how to deal again the cards a seat
cannot see, how to value a hand for a seat, and a simple greedy player (the playouts' policy and
the baseline the computer player is measured against); and, where it is cheap, every deal the seat
cannot tell apart and an exact solver for each. Each game declares its ``Advice`` in its own
``advice`` module; ``service.player`` searches with it, through the ``Game`` interface.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Generic, TypeVar

from service.cards import Card

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Advice(Generic[S, M]):
    """A game's knowledge for the computer player, as plain functions of its states."""

    redeal: Callable[[S, int, Random], S]
    """A state ``seat`` cannot tell from this one: every card it cannot see dealt again at random
    among the places it cannot see, the cards it knows the place of (a face-up trump, a marriage
    partner shown) kept there. It must read nothing of the unseen cards but which they are:
    ``unseen_dealt_again`` does that part."""
    value: Callable[[S, int], float]
    """``seat``'s standing minus its opponents', in the game's hand-score units: exact for a
    finished hand, an estimate for one a playout stopped at ``horizon``."""
    greedy: Callable[[S, int, Sequence[M]], M]
    """One of ``moves`` (the seat's legal moves, never empty) chosen the simple way: take a trick
    when it can with the cheapest winning card, else throw the lowest; meld when it can."""
    horizon: int = 1_000
    """Moves a playout plays before it stops and asks ``value`` for an estimate."""
    shortlist: int = 12
    """Candidate moves weighed at most: past it, the ones ``greedy`` would not play are cut at
    random (the melding games list many moves)."""
    side: Callable[[S, int], int] = lambda state, seat: seat
    """The side ``seat`` plays for (its partnership in a team game; itself otherwise): the seats
    of one side share ``value``."""
    worlds: Callable[[S, int, int], Sequence[S] | None] | None = None
    """``worlds(state, seat, most)``: every state ``seat`` cannot tell from this one, each once,
    when there are ``most`` of them at most; None when there are more, or when the game cannot
    say (a stock still open). Like ``redeal`` it reads of the unseen cards only which they are
    and the piles' sizes: it deals them from a canonical order of their pool (as
    ``unseen_dealt_again`` does), never from where each one lies, so two states that differ only
    there give the same list. None: the game has no such list (the player samples)."""
    solve: Callable[[S, int, float], dict[M, float] | None] | None = None
    """``solve(state, seat, deadline)``: for a perfect-information position (every card taken as
    known: one of ``worlds``), each legal move of ``seat`` with its exact value for ``seat`` in
    ``value``'s units for the finished hand, both sides playing their best (alpha-beta); None
    when ``deadline`` (a ``time.perf_counter`` value) passes first, or for a position the game
    does not solve. None: the game has no solver."""


def unseen_dealt_again(rng: Random, piles: Sequence[Sequence[Card]]) -> list[tuple[Card, ...]]:
    """The cards of ``piles`` dealt again at random into piles of the same sizes.

    They are pooled in a canonical order (by code) before the shuffle, so the answer depends only
    on which cards the piles hold together and on their sizes, never on where each card lay: the
    computer player's promise not to peek rests on this."""
    pool = sorted((card for pile in piles for card in pile), key=_code)
    rng.shuffle(pool)
    dealt, at = [], 0
    for pile in piles:
        dealt.append(tuple(pool[at:at + len(pile)]))
        at += len(pile)
    return dealt


def _code(card: Card) -> str:
    return card.code

