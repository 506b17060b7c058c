"""Kozel-bura for the computer player: what a seat knows of the unseen cards, what a hand is worth
to it, the greedy player and the playouts' policy (the greedy player's moves without the listing)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from service.games.advice import NOTHING_KNOWN, Advice, Known
from service.games.base import accepts
from service.games.kozel_bura.rules import Move, apply, candidate_moves, check, has_bura, penalties, variant
from service.games.tricks import sets_advice, sets_endgame
from service.games.tricks.sets import POINTS, State

DEALS = 100
"""Deals tried for one without a bura: the true one is such a deal, so some deal of the same
cards is, and a handful of tries finds one. A state sent with a bura in a hand still in play
has none: its last deal is taken (the bound keeps a sample's cost)."""

TRUMP_WORTH = (0.0, 0.0, 0.3, 1.2, 1.2)
"""The worth of 0..4 trumps in hand, in penalty points: three of them wait for a fourth."""

HAND_WORTH = 0.3
"""The share of a hand's card points ``_standing`` counts as won. Against today's player at two
seats, 200 hands on deals 0 to 99: 55 % (49 % to 61 %), and 57 % (51 % to 63 %) on deals 100 to
199, 56 % (52 % to 61 %) over the 400 (`make strength`'s run); without it (0) 54 % (47 % to 60 %)
on deals 0 to 99."""


def redeal(state: State, seat: int, rng: Random, known: Known = NOTHING_KNOWN) -> State:
    """The other hands and the stock under the trump card dealt again (every card played lies
    face up, §4.2c). A hand still in play is no bura (§6.1 would have ended it), so a deal that
    gives one is dealt again."""
    for _ in range(DEALS):
        dealt = sets_advice.redeal(state, seat, rng, known, won_hidden=False)
        if state.finished or not any(has_bura(dealt, hand) for hand in dealt.hands):
            break
    return dealt


def infer(history: Sequence[tuple[State, Move]], seat: int) -> Known:
    """No duty to follow or to beat (§4.2c): a play shows no void, and every card played lies
    face up in a won pile the state keeps. What ``seat`` learns is the face-up trump card's
    place: the hand of the seat that drew it (§5.2), until it plays it
    (``sets_advice.infer``)."""
    if not history:
        return NOTHING_KNOWN
    return sets_advice.infer(history, seat, variant(history[0][0].options), won_hidden=False)


def value(state: State, seat: int) -> float:
    """In penalty points (§7.2, the multiplier 1): the others' mean penalty minus the seat's.
    Before the end, the same of an estimate (``_standing``)."""
    others = [s for s in range(state.seats) if s != seat]
    if state.finished:
        paid = penalties(state, 1)
        return sum(paid[s] for s in others) / len(others) - paid[seat]
    return _standing(state, seat) - sum(_standing(state, s) for s in others) / len(others)


def _standing(state: State, seat: int) -> float:
    """A penalty point per 15 card points, the points in hand counted as ``HAND_WORTH`` of as
    many won (a hand's aces and tens are points to come, which the card points won so far
    miss), and the trumps in hand toward a bura (§6.1)."""
    hand = state.hands[seat]
    trumps = sum(c.suit == state.trump for c in hand)
    held = sum(POINTS[c] for c in hand)
    return (state.points(seat) + HAND_WORTH * held) / 15 + TRUMP_WORTH[trumps]


def worlds(state: State, seat: int, most: int, known: Known = NOTHING_KNOWN) -> list[State] | None:
    """Once the stock is exhausted, every deal of the other hands ``seat`` cannot tell apart
    (``sets_endgame.worlds``; every card played lies face up, so the won piles are no secret):
    at two seats one world, the rest of the pack; a four-card hand that is a bura is no world
    (§6.1: the check after the last draw would have ended the hand)."""
    return sets_endgame.worlds(state, seat, most, known, won_hidden=False,
                               keep=lambda world: not any(has_bura(world, hand) for hand in world.hands))


def solve(state: State, seat: int, deadline: float) -> dict[Move, float] | None:
    """``Advice.solve`` once the stock is exhausted: the paranoid alpha-beta of
    ``sets_endgame`` over the rules' own moves, in ``value``'s penalty points."""
    legal = [m for m in candidate_moves(state, seat) if accepts(check, state, m)]
    return sets_endgame.solve(state, seat, deadline, legal=legal, moves=candidate_moves, apply=apply,
                              value=value, greedy=sets_advice.greedy)


ADVICE = Advice(redeal=redeal, value=value, greedy=sets_advice.greedy, horizon=10, horizon_grows=True,
                infer=infer, worlds=worlds, solve=solve, playout=sets_advice.playout_of(variant))
