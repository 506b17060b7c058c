"""Bura for the computer player: what a seat knows of the unseen cards, what a hand is worth to
it, the greedy player and the playouts' policy (the greedy player's moves without the listing)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from service.games.advice import NOTHING_KNOWN, Advice, Known
from service.games.base import accepts
from service.games.bura.rules import (
    Claim,
    Declare,
    Move,
    Pass,
    apply,
    candidate_moves,
    check,
    forms,
    result,
    variant,
)
from service.games.tricks import sets_advice, sets_endgame
from service.games.tricks.sets import Phase, State, TrickMove

TRUMP_WORTH = (0.0, 0.0, 0.1, 0.5)
"""The worth of 0..3 trumps in hand, in games: two of them wait for a third."""


def redeal(state: State, seat: int, rng: Random, known: Known = NOTHING_KNOWN) -> State:
    """The other hands, the stock under the trump card and the others' face-down discards dealt
    again; without open play the others' won piles too (a seat sees only its own pile's points,
    §4.2c), their points counted anew; the others' hands keep to ``known`` (``infer``: the
    trump card's drawer, the cards seen played)."""
    return sets_advice.redeal(state, seat, rng, known, won_hidden=not state.options.open_play)


def infer(history: Sequence[tuple[State, Move]], seat: int) -> Known:
    """No duty to follow or to beat (§4.2c): a play shows no void. What ``seat`` learns is where
    cards went: the trump card to the seat that drew it (§5.4), and, discards lying face down,
    every card seen played into a won pile (``sets_advice.infer``)."""
    if not history:
        return NOTHING_KNOWN
    options = history[0][0].options
    return sets_advice.infer(history, seat, variant(options), won_hidden=not options.open_play)


def value(state: State, seat: int) -> float:
    """In games won (§7.3, one per winner, void hands before it left out): 1 for a winner, 0
    otherwise, the seat's minus the mean of the others'. At three seats or more, where a hand is
    often thrown in void (§6.4) and a won one is rare, the card points taken count too, as
    ``POINT_SHARE`` of the seat's lead in them over the others' mean, per 120 (every card's):
    a tie-break within one outcome of the win that never crosses into another (``POINT_SHARE``).
    Before the end, the same of an estimate (``_standing``), within -1 and 1."""
    others = [s for s in range(state.seats) if s != seat]
    if state.finished:
        winners = result(state).winners
        won = (seat in winners) - sum(s in winners for s in others) / len(others)
        if len(others) == 1:
            return won
        points = state.points(seat) - sum(state.points(s) for s in others) / len(others)
        return won + POINT_SHARE * points / ALL_POINTS
    lead = _standing(state, seat) - sum(_standing(state, s) for s in others) / len(others)
    return max(-1.0, min(1.0, lead))


POINT_SHARE = 0.09
"""The card points' weight in a finished hand's value at three seats or more, for a lead of all
120: the seat's win term moves in steps of 1/(seats - 1), 0.2 at six, and the points' term
spans at most twice this, 0.18, so a better outcome of the win is always worth more whatever the
points. Two seats keep the win alone: it is their hand score, and the strength table's share."""
ALL_POINTS = 120
"""The card points of the pack (§7.1)."""


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
    return sets_advice.greedy(state, seat, tricks)


def playout(state: State, seat: int, rng: Random) -> Move:
    """Show a bura or Moscow, claim with the points (§4.2d), else pass in the final round, as
    ``greedy`` does; otherwise the trick move that gains most in the trick, every hand read (in a
    playout's deal every card is placed: ``sets_advice.lookahead_trick_move``), one in its
    ``EXPLORE`` drawn at random."""
    if state.phase is Phase.FINAL_CLAIMS:
        return Claim(seat) if state.points(seat) >= state.options.winning_points else Pass(seat)
    for combination in ("bura", "moscow"):
        if (combination == "bura" or state.options.moscow) and forms(state, state.hands[seat], combination):
            return Declare(seat, combination)
    if state.points(seat) >= state.options.winning_points:
        return Claim(seat)
    return sets_advice.lookahead_trick_move(state, variant(state.options), seat, rng)


def worlds(state: State, seat: int, most: int, known: Known = NOTHING_KNOWN) -> list[State] | None:
    """Once the stock is exhausted, every deal ``seat`` cannot tell apart
    (``sets_endgame.worlds``): at two seats, discards face down, the other hand and won pile,
    which ``infer``'s cards seen played leave one world (every card in the other's pile was
    seen: its leads and beats face up, ``seat``'s own discards); with open play (§8), the other
    hands, at any table; none listed for face-down discards at three seats or more."""
    return sets_endgame.worlds(state, seat, most, known, won_hidden=not state.options.open_play)


def solve(state: State, seat: int, deadline: float) -> dict[Move, float] | None:
    """``Advice.solve`` once the stock is exhausted: the paranoid alpha-beta of
    ``sets_endgame``, over the rules' own moves (claims, declarations, molodkas, the final claim
    round), in ``value``'s units."""
    legal = [m for m in candidate_moves(state, seat) if accepts(check, state, m)]
    return sets_endgame.solve(state, seat, deadline, legal=legal, moves=candidate_moves, apply=apply,
                              value=value, greedy=greedy)


ADVICE = Advice(redeal=redeal, value=value, greedy=greedy, horizon=8, horizon_grows=True, infer=infer,
                worlds=worlds, solve=solve, playout=playout)
