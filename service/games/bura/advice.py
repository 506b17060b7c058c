"""Bura for the computer player: what a seat knows of the unseen cards, what a hand is worth to
it, and the greedy player."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from service.games.advice import NOTHING_KNOWN, Advice, Known
from service.games.bura.rules import Claim, Declare, Move, Pass, result
from service.games.tricks import sets_advice
from service.games.tricks.sets import Phase, State, TrickMove

TRUMP_WORTH = (0.0, 0.0, 0.1, 0.5)
"""The worth of 0..3 trumps in hand, in games: two of them wait for a third."""


def redeal(state: State, seat: int, rng: Random, known: Known = NOTHING_KNOWN) -> State:
    """The other hands, the stock under the trump card and the others' face-down discards dealt
    again; without open play the others' won piles too (a seat sees only its own pile's points,
    §4.2c), their points counted anew. Every card led or beaten with was shown, but the state
    keeps no record of where it went, so nothing more is known."""
    return sets_advice.redeal(state, seat, rng, known, won_hidden=not state.options.open_play)


def value(state: State, seat: int) -> float:
    """In games won (§7.3, one per winner, void hands before it left out): 1 for a winner, 0
    otherwise, the seat's minus the mean of the others'. Before the end, the same of an estimate
    (``_standing``), within -1 and 1."""
    others = [s for s in range(state.seats) if s != seat]
    if state.finished:
        winners = result(state).winners
        return (seat in winners) - sum(s in winners for s in others) / len(others)
    lead = _standing(state, seat) - sum(_standing(state, s) for s in others) / len(others)
    return max(-1.0, min(1.0, lead))


def _standing(state: State, seat: int) -> float:
    """The share of the points a claim needs, and the trumps in hand toward a bura (§4.2e)."""
    trumps = sum(c.suit == state.trump for c in state.hands[seat])
    needed: int = state.options.winning_points
    return state.points(seat) / needed + TRUMP_WORTH[trumps]


def greedy(state: State, seat: int, moves: Sequence[Move]) -> Move:
    """Show a bura or Moscow; claim with enough points (§4.2d), else pass in the final round;
    otherwise lead the cheapest card, take the trick with the cheapest set that beats, or throw
    the cheapest set."""
    declare = [m for m in moves if isinstance(m, Declare)]
    if declare:
        return declare[0]
    claims = state.points(seat) >= state.options.winning_points
    claim = [m for m in moves if isinstance(m, Claim | Pass) and isinstance(m, Claim) == claims]
    if claim:
        return claim[0]
    tricks: list[TrickMove] = [m for m in moves if not isinstance(m, Claim | Declare | Pass)]
    if state.phase is not Phase.PLAY or not tricks:
        return moves[0]
    return sets_advice.greedy_trick_move(state, tricks)


ADVICE = Advice(redeal=redeal, value=value, greedy=greedy, horizon=8)
