"""Canasta's hand end and scores, docs/rules/canasta.md §4.10 and §7: how a hand ends, what each
side scores for it (the parts are ``melds.side_score``'s), and the match after it."""

from __future__ import annotations

from dataclasses import dataclass

from service.games.base import evolve
from service.games.canasta import melds as m
from service.games.canasta.melds import CLASSIC, SEED_13
from service.games.canasta.rules import Phase, Result, State
from service.games.seating import left_of

# --- the hand's end (§4.10) --------------------------------------------------------------------


def went_out(state: State, seat: int) -> State:
    """§4.10: concealed when the seat had not melded before this turn, added nothing to an old
    meld, and made a canasta of a new one."""
    info = state.turn_info
    new_canasta = any(len(cards) >= 7 for key, cards in state.melds[state.side_of(seat)].items()
                      if key not in info.keys_at_start)
    concealed = not state.has_melded[seat] and not info.added_to_old and new_canasta
    return end(state, Result("went_out", seat, concealed))


def end(state: State, result: Result) -> State:
    return evolve(state, phase=Phase.HAND_OVER, to_move=None, result=result)


# --- scoring (§7) ------------------------------------------------------------------------------


def going_out_bonus(state: State, side: int) -> int:
    result = state.result
    if result is None or result.went_out is None or state.side_of(result.went_out) != side:
        return 0
    if state.variant == SEED_13:
        return state.options.concealed_going_out_bonus if result.concealed else 200
    return 200 if result.concealed and state.variant == CLASSIC else 100


def hand_score(state: State, side: int) -> m.SideScore:
    """§7.1 for one side of a finished hand."""
    members = state.table.sides.members(side)
    return m.side_score(
        state.melds[side], sum(len(state.red_threes[s]) for s in members), (state.hands[s] for s in members),
        variant=state.variant, big_deck=state.table.big_deck, going_out_bonus=going_out_bonus(state, side))


@dataclass(frozen=True, slots=True)
class Standing:
    """§7.2: the match so far, per side. ``target`` and ``next_minimums`` are told the client
    (``score`` answers them) and never read back: a standing sent with ``deal`` or ``score`` is
    checked by its totals, ``over``, ``winner`` and next dealer (``MatchRules``)."""

    totals: tuple[int, ...]
    over: bool
    winner: tuple[int, ...] | None
    """The winning side's seats, once over."""
    next_dealer: int
    target: int = 0
    next_minimums: tuple[int, ...] = ()


def match_after(state: State, totals: tuple[int, ...]) -> Standing:
    """§7.2: over once the top total reaches the target and nobody shares it."""
    target, spec = state.target(), state.table
    top = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == top]
    over = top >= target and len(leaders) == 1
    minimums = tuple(m.min_req(t, state.variant, seats=state.seats, base=state.options.initial_meld_base)
                     for t in totals)
    return Standing(totals, over, spec.sides.members(leaders[0]) if over else None,
                    left_of(state.dealer, state.seats), target, minimums)
