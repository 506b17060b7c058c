"""Kozel-bura's states and moves to and from their wire form (docs/rules/kozel-bura.md §4.1, §7,
§8), the consistency check a state passes beyond the family's, and the views."""

from __future__ import annotations

from service.errors import InvalidState
from service.games.base import Wire, check_derived, options_wire
from service.games.kozel_bura import rules
from service.games.kozel_bura.rules import Move, Options
from service.games.tricks import sets_wire
from service.games.tricks.sets import Phase, State


def load_state(wire: Wire) -> State:
    """Build the state and check it; ``InvalidState`` pointers are relative to the state."""
    options = Options(**wire.get("options", {}))
    state = sets_wire.load(wire, options=options, deck=rules.DECKS[options.deck],
                           variant=rules.variant(options))
    _check_phase(state)
    check_derived(wire, {"status": sets_wire.status(state), "trump": state.trump,
                         "points": list(state.card_points),
                         "result": result_wire(state) if state.ending else None})
    return state


def dump_state(state: State) -> Wire:
    dumped = sets_wire.dump(state, game="kozel-bura", options=options_wire(state.options))
    dumped["result"] = result_wire(state) if state.ending else None
    return dumped


def result_wire(state: State) -> Wire:
    outcome = rules.result(state)
    return {"reason": outcome.reason, "winner": outcome.winner, "points": list(state.card_points)}


def view(state: State, seat: int | None) -> Wire:
    return sets_wire.view(state, seat, dumped=dump_state(state), face_down_play=False)


def load_move(move: Wire) -> Move:
    return sets_wire.load_trick_move(move)


def dump_move(move: Move) -> Wire:
    return sets_wire.dump_trick_move(move)


def _check_phase(state: State) -> None:
    """§6: over exactly with an ending; a bura ends the hand; played out means every card played."""
    played_out = not state.stock and not any(state.hands) and state.trick is None
    ending = state.ending
    over = state.phase == Phase.OVER
    if over != (ending is not None) or over != (state.to_move is None):
        raise InvalidState("/phase", "the phase is over exactly when the hand has an ending")
    if ending is None:
        holders = [s for s in range(state.seats) if rules.has_bura(state, state.hands[s])]
        if holders:
            raise InvalidState(f"/hands/{holders[0]}", "this hand is a bura: the hand would be over")
        if played_out:
            raise InvalidState("/phase", "every card is played: the hand is over")
    elif ending.kind == "bura":
        if ending.seat is None or not rules.has_bura(state, state.hands[ending.seat]):
            raise InvalidState("/ending", "the winner's hand is not a bura")
    elif not played_out or ending.seat is not None:
        raise InvalidState("/ending", "played_out means every card is played, with no seat")
