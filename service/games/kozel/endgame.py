"""Kozel's last tricks, solved exactly: the value of every card a seat may play in a position where
every card is known, by alpha-beta over the two teams (docs/rules/kozel.md): the seat's team
maximises ``advice.value`` for the seat (pairs of pips, §7.1, at multiplier 1), the other team
minimises it; a two-sided game, so the answer is exact.

The position is held compactly: the four hands, the trick on the table, the seat to play, each
team's won cards and the team whose queen of clubs fell to the other's seven (§5). The follow
rules are the game's (§4.1: follow the effective suit led, else trump if able, no duty to beat);
a trick goes to ``rules.trick_winner``; a finished hand is valued by ``advice.value`` of the
finished state, so the solver scores as the rules do (eggs, 91 and 120 points, the queen's four
pairs, ``replace`` or ``add``). A transposition table holds each position's bounds (keyed by the
hands as sets, the trick, the seat to play, the teams' points and the captured queen); the cards
are tried the cheapest first (plain before trumps, few points before many, low before high), as
the greedy player throws them, with no state built to ask it. The clock is read every
``TIME_CHECK`` + 1 nodes: past the deadline the solve answers None.

Bounded: with k cards in each hand the tree has at most (k!)^4 plays (1,296 at three, 331,776
at four), fewer under the follow rules; ``advice.worlds`` lists worlds only from
``MOST_CARDS`` cards a hand down (bench/endgame.py measures it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from service.cards import Card
from service.games.base import evolve
from service.games.kozel.rules import (
    POINTS,
    QUEEN_OF_CLUBS,
    SEATS,
    SEVEN_OF_CLUBS,
    SUIT_ORDER,
    Move,
    Phase,
    Play,
    State,
    effective_suit,
    is_trump,
    team_of,
    trick_winner,
    trump_strength,
)
from service.games.seating import left_of
from service.games.tricks.search import INFINITY, Bounds, OutOfTime


def follows(hand: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: str) -> list[Card]:
    """The cards of ``hand`` the follow rules allow on ``trick`` (§4.1)."""
    if not trick:
        return list(hand)
    led = effective_suit(trick[0][1], trump)
    same = [c for c in hand if effective_suit(c, trump) == led]
    if same:
        return same
    return [c for c in hand if is_trump(c, trump)] or list(hand)


def cost(card: Card, trump: str) -> tuple[bool, int, int]:
    """How dear a card is to part with: a trump, its points, its strength."""
    return is_trump(card, trump), POINTS[card], trump_strength(card, trump) if is_trump(card, trump) \
        else len(SUIT_ORDER) - SUIT_ORDER.index(card.rank)


class Solver:
    """One perfect-information position's search for ``seat``'s team; ``value`` is the game's
    ``Advice.value`` of a finished hand; ``bounds`` counts the positions searched."""

    def __init__(self, state: State, seat: int, value: Callable[[State, int], float],
                 deadline: float = INFINITY) -> None:
        self.base, self.seat, self.team = state, seat, team_of(seat)
        self.trump = state.trump or ""
        self.value = value
        self.seven_after_queen = state.options.queen_capture_order == "seven_after_queen"
        self.bounds = Bounds(deadline)

    def values(self, state: State, legal: Sequence[Play]) -> dict[Move, float]:
        """Each of ``legal`` with its exact value; raises ``OutOfTime``."""
        points = (state.points(0), state.points(1))
        return {move: self.play(state.hands, state.trick, move.seat, move.card, state.won, points,
                                state.qc_captured_team, -INFINITY, INFINITY) for move in legal}

    def play(self, hands: tuple[tuple[Card, ...], ...], trick: tuple[tuple[int, Card], ...], seat: int,
             card: Card, won: tuple[tuple[Card, ...], ...], points: tuple[int, int], captured: int | None,
             alpha: float, beta: float) -> float:
        """The value after ``seat`` plays ``card``; ``points`` are the teams' in ``won``."""
        rest = tuple(c for c in hands[seat] if c != card)
        hands = (*hands[:seat], rest, *hands[seat + 1:])
        trick = (*trick, (seat, card))
        if len(trick) < SEATS:
            return self.node(hands, trick, left_of(seat, SEATS), won, points, captured, alpha, beta)
        winner = trick_winner(trick, self.trump)
        team = team_of(winner)
        cards = tuple(c for _, c in trick)
        taken = sum(POINTS[c] for c in cards)
        if team == 0:
            won, points = (won[0] + cards, won[1]), (points[0] + taken, points[1])
        else:
            won, points = (won[0], won[1] + cards), (points[0], points[1] + taken)
        captured = self.capture(trick, captured)
        if not any(hands):
            return self.value(evolve(self.base, hands=hands, trick=(), won=won, qc_captured_team=captured,
                                     phase=Phase.OVER, to_move=None), self.seat)
        return self.node(hands, (), winner, won, points, captured, alpha, beta)

    def capture(self, trick: tuple[tuple[int, Card], ...], captured: int | None) -> int | None:
        """§5: the team whose queen of clubs falls to the other team's seven of clubs."""
        played = {card: (index, seat) for index, (seat, card) in enumerate(trick)}
        if QUEEN_OF_CLUBS not in played or SEVEN_OF_CLUBS not in played:
            return captured
        (q_index, q_seat), (s_index, s_seat) = played[QUEEN_OF_CLUBS], played[SEVEN_OF_CLUBS]
        if team_of(q_seat) == team_of(s_seat) or (self.seven_after_queen and s_index < q_index):
            return captured
        return team_of(q_seat)

    def node(self, hands: tuple[tuple[Card, ...], ...], trick: tuple[tuple[int, Card], ...], mover: int,
             won: tuple[tuple[Card, ...], ...], points: tuple[int, int], captured: int | None, alpha: float,
             beta: float) -> float:
        """The seat's value with ``mover`` to play, fail-soft within (``alpha``, ``beta``)."""
        key = (tuple(frozenset(hand) for hand in hands), trick, mover, points, captured)
        alpha, beta, known = self.bounds.window(key, alpha, beta)
        if known is not None:
            return known
        window = alpha, beta
        cards = sorted(follows(hands[mover], trick, self.trump), key=lambda c: cost(c, self.trump))
        maximize = team_of(mover) == self.team
        best = -INFINITY if maximize else INFINITY
        for card in cards:
            value = self.play(hands, trick, mover, card, won, points, captured, alpha, beta)
            if maximize:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        self.bounds.keep(key, best, *window)
        return best


def solve(state: State, seat: int, deadline: float, *, value: Callable[[State, int], float]
          ) -> dict[Move, float] | None:
    """``Advice.solve``: each legal card of ``seat`` (to play, in the play phase) with its exact
    value for ``seat``; None in another phase, for a seat not to play, or once ``deadline``
    passes."""
    if state.phase is not Phase.PLAY or state.to_move != seat:
        return None
    legal = [Play(seat, card) for card in follows(state.hands[seat], state.trick, state.trump or "")]
    try:
        return Solver(state, seat, value, deadline).values(state, legal)
    except OutOfTime:
        return None
