"""What the computer player needs of a game beyond its rules: how to deal again the cards a seat
cannot see, how to value a hand for a seat, and a simple greedy player (the playouts' policy and
the baseline the computer player is measured against); and, where it is cheap, every deal the seat
cannot tell apart and an exact solver for each; and what a seat learns of the hidden cards from
the play it saw (``Known``). Each game declares its ``Advice`` in its own ``advice`` module;
``service.player`` searches with it, through the ``Game`` interface.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Generic, TypeVar

from service.cards import Card

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Known:
    """What a seat has learnt of the others' hidden cards from the play it saw, beyond what the
    state shows: cards it saw go into a seat's hand and not come out (``held``: passed to it face
    down by this seat, taken with a pile), and cards a seat cannot hold (``lacking``: a suit it
    failed to follow or to trump showed it has none). A redeal keeps to both."""

    held: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    lacking: Mapping[int, frozenset[Card]] = field(default_factory=dict)


NOTHING_KNOWN = Known()

EXPLORE = 0.1
"""The share of playout moves chosen at random rather than greedily, in every game's playouts (the
player's own and each ``Advice.playout``): a playout of greedy moves alone repeats itself on
every sample, one of random moves alone plays too badly to tell good candidates from bad."""


@dataclass(frozen=True, slots=True)
class Advice(Generic[S, M]):
    """A game's knowledge for the computer player, as plain functions of its states."""

    redeal: Callable[[S, int, Random, Known], S]
    """``redeal(state, seat, rng, known)``: a state ``seat`` cannot tell from this one: every card
    it cannot see dealt again at random among the places it cannot see, the cards it knows the
    place of (a face-up trump, a marriage partner shown, ``known.held``) kept there, and no card
    where ``known.lacking`` rules it out. It must read nothing of the unseen cards but which they
    are: ``unseen_dealt_again`` does that part."""
    value: Callable[[S, int], float]
    """``seat``'s standing minus its opponents', in the game's hand-score units: exact for a
    finished hand, an estimate for one a playout stopped at ``horizon``."""
    greedy: Callable[[S, int, Sequence[M]], M]
    """One of ``moves`` (the seat's legal moves, never empty) chosen the simple way: take a trick
    when it can with the cheapest winning card, else throw the lowest; meld when it can."""
    horizon: int = 1_000
    """Moves a playout plays before it stops and asks ``value`` for an estimate (at two seats,
    when ``horizon_grows``)."""
    horizon_grows: bool = False
    """The horizon grows with the table: at n seats a playout plays ``horizon`` × n / 2 moves,
    so that it looks as many tricks ahead at any table (a trick is a move per seat)."""
    shortlist: int = 12
    """Candidate moves weighed at most: past it, the ones ``greedy`` would not play are cut as
    ``rank`` orders them, or at random (the melding games list many moves)."""
    rank: Callable[[S, int, Sequence[M]], list[M]] | None = None
    """``rank(state, seat, moves)``: ``moves`` (the seat's legal moves) from the likeliest best by
    a cheap estimate (no playout), a move alike enough to one before it to weigh once left out:
    past ``shortlist`` the search weighs greedy's move and the first others of it. None: the others
    are drawn at random."""
    side: Callable[[S, int], int] = lambda state, seat: seat
    """The side ``seat`` plays for (its partnership in a team game; itself otherwise): the seats
    of one side share ``value``."""
    worlds: Callable[[S, int, int, Known], Sequence[S] | None] | None = None
    """``worlds(state, seat, most, known)``: every state ``seat`` cannot tell from this one, each once,
    when there are ``most`` of them at most; None when there are more, or when the game cannot
    say (a stock still open). Like ``redeal`` it reads of the unseen cards only which they are
    and the piles' sizes: it deals them from a canonical order of their pool (as
    ``unseen_dealt_again`` does), never from where each one lies, so two states that differ only
    there give the same list; a world ``known`` rules out is left out. None: the game has no such
    list (the player samples)."""
    solve: Callable[[S, int, float], dict[M, float] | None] | None = None
    """``solve(state, seat, deadline)``: for a perfect-information position (every card taken as
    known: one of ``worlds``), each legal move of ``seat`` with its exact value for ``seat`` in
    ``value``'s units for the finished hand, both sides playing their best (alpha-beta); None
    when ``deadline`` (a ``time.perf_counter`` value) passes first, or for a position the game
    does not solve. None: the game has no solver."""
    solves_samples: bool = False
    """Whether a sampled deal is valued by ``solve`` where it answers (the rest of the hand solved
    as if every card were known) rather than by playouts: for a game whose ``solve`` takes a few
    milliseconds on any position it answers."""
    playout: Callable[[S, int, Random], M] | None = None
    """``playout(state, seat, rng)``: a legal move for ``seat`` (the one to move) for a playout,
    built without listing every legal move (in the melding games a listing costs milliseconds):
    the greedy player's move, or a better one (Bura's sees the trick through), or now and then
    another drawn with ``rng``. A playout's deal is a sampled one, so it may read every hand.
    None: the playouts list the moves and play ``greedy``'s."""
    infer: Callable[[Sequence[tuple[S, M]], int], Known] | None = None
    """``infer(history, seat)``: what ``seat`` learnt from the hand's play so far, ``history``
    being each move made with the state it was made in, in order. It may read of those states
    only what ``seat`` saw then (its own hand, cards on the table, the moves' public parts): two
    histories that differ only in what it could not see must give the same ``Known``. None: the
    game infers nothing beyond its state."""


def unseen_dealt_again(rng: Random, piles: Sequence[Sequence[Card]], *,
                       held: Sequence[Sequence[Card]] = (),
                       lacking: Sequence[frozenset[Card]] = ()) -> list[tuple[Card, ...]]:
    """The cards of ``piles`` dealt again at random into piles of the same sizes; pile ``i``
    keeps the cards of ``held[i]`` (those of them that are among the cards, as room allows) and
    is given none of ``lacking[i]``.

    They are pooled in a canonical order (by code) before the shuffle, so the answer depends only
    on which cards the piles hold together, on their sizes and on what is known, never on where
    each card lay: the computer player's promise not to peek rests on this. The cards fewest piles
    may take are placed first, each in a free place drawn at random among those piles; a deal that
    leaves a card no place is dealt again, ``TRIES`` times at most, and then without ``lacking``
    (knowledge that the cards cannot all satisfy is not knowledge to keep to)."""
    pool = sorted((card for pile in piles for card in pile), key=_code)
    sizes = [len(pile) for pile in piles]
    kept: list[list[Card]] = [[] for _ in piles]
    for i, cards in enumerate(held):
        for card in sorted(cards, key=_code):
            if card in pool and len(kept[i]) < sizes[i]:
                pool.remove(card)
                kept[i].append(card)
    rng.shuffle(pool)
    rooms = [size - len(cards) for size, cards in zip(sizes, kept, strict=True)]
    if any(lacking):
        for _ in range(TRIES):
            dealt = _fitted(rng, pool, rooms, lacking)
            if dealt is not None:
                return [tuple(k + d) for k, d in zip(kept, dealt, strict=True)]
    plain, at = [], 0
    for cards, room in zip(kept, rooms, strict=True):
        plain.append(tuple(cards + pool[at:at + room]))
        at += room
    return plain


TRIES = 8
"""Deals ``unseen_dealt_again`` tries before it lets ``lacking`` go: each costs a pass over the
cards, so a deal's cost stays bounded by their number whatever is known."""


def _fitted(rng: Random, pool: list[Card], rooms: list[int],
            lacking: Sequence[frozenset[Card]]) -> list[list[Card]] | None:
    """``pool`` (shuffled) placed in piles of ``rooms`` places, no card where ``lacking`` rules it
    out; None when a card is left no place."""
    def fits(card: Card) -> list[int]:
        return [i for i in range(len(rooms)) if i >= len(lacking) or card not in lacking[i]]

    places = [(card, fits(card)) for card in pool]
    places.sort(key=lambda placed: len(placed[1]))  # stable: the shuffle's order among equals
    free, dealt = list(rooms), [[] for _ in rooms]  # type: list[int], list[list[Card]]
    for card, fitting in places:
        open_places = [i for i in fitting if free[i]]
        if not open_places:
            return None
        i = rng.choices(open_places, weights=[free[i] for i in open_places])[0]
        free[i] -= 1
        dealt[i].append(card)
    return dealt


def _code(card: Card) -> str:
    return card.code

