"""Bezique's hand end and scores, docs/rules/bezique.md §7: the brisques and the last trick as the
hand ends, the hand's result, and the match after it."""

from __future__ import annotations

from dataclasses import dataclass

from service.cards import JOKER
from service.games.base import evolve
from service.games.bezique.rules import Phase, State, active_order
from service.games.seating import left_of


def finish(state: State) -> State:
    """§7.2: brisques and the last trick, when the options score them."""
    options, scores = state.options, list(state.scores)
    for seat in state.active:
        brisques = sum(1 for c in state.won_cards[seat] if c.rank in ("A", "10") and c is not JOKER)
        scores[seat] += options.brisque_value * brisques
    scores[state.leader] += options.last_trick_bonus
    return evolve(state, phase=Phase.FINISHED, to_move=None, scores=tuple(scores))


@dataclass(frozen=True, slots=True)
class HandResult:
    """§7.2, once the hand is finished."""

    scores: tuple[int, ...]
    tricks_played: int
    last_trick_winner: int
    hand_winners: tuple[int, ...]


def result(state: State) -> HandResult:
    """The result of a finished hand: the active seats with the top score win it."""
    top = max(state.scores[s] for s in state.active)
    winners = tuple(s for s in state.active if state.scores[s] == top)
    return HandResult(state.scores, state.tricks_played, state.leader, winners)


@dataclass(frozen=True, slots=True)
class MatchStanding:
    """§7.3: the running totals per seat, with ``target`` as the client sent it (None: not sent)
    and ``sitting_out``, the seat that sits out the next hand."""

    totals: tuple[int, ...]
    over: bool
    winner: tuple[int, ...] | None
    next_dealer: int
    target: int | None = None
    sitting_out: int | None = None


def new_match(seats: int, dealer: int) -> MatchStanding:
    return MatchStanding((0,) * seats, False, None, dealer)


def match_after(match: MatchStanding, state: State) -> MatchStanding:
    """§7.3: the totals go on; over once a seat reaches the target with a total nobody ties. The
    dealer's left deals next."""
    totals = tuple(t + s for t, s in zip(match.totals, state.scores, strict=True))
    target = state.options.target_score
    top = max(totals)
    leaders = tuple(s for s, t in enumerate(totals) if t == top)
    over = top >= target and len(leaders) == 1
    dealer = left_of(state.dealer, state.seats)
    sitting_out = None if dealer in active_order(state.seats, dealer, state.options) else dealer
    return MatchStanding(totals, over, leaders if over else None, dealer, target, sitting_out)
