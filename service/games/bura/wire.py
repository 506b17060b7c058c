"""Bura's states and moves to and from their wire form (docs/rules/bura.md §4.1, §7, §8), the
consistency check a state passes beyond the family's, and the views."""

from __future__ import annotations

from service.errors import InvalidState
from service.games.base import Wire, check_derived, options_wire
from service.games.bura import rules
from service.games.bura.rules import Claim, Declare, Move, Options, Pass
from service.games.seating import left_of
from service.games.tricks import sets_wire
from service.games.tricks.sets import Ending, Lead, Molodka, Phase, Respond, State


def load_state(wire: Wire) -> State:
    """Build the state and check it; ``InvalidState`` pointers are relative to the state."""
    options = Options(**wire.get("options", {}))
    state = sets_wire.load(wire, options=options, deck=rules.DECK, variant=rules.variant(options))
    _check_phase(state)
    check_derived(wire, {"result": result_wire(state) if state.ending else None,
                         "status": sets_wire.status(state), "trump": state.trump,
                         "points": list(state.card_points)})
    return state


def dump_state(state: State) -> Wire:
    dumped = sets_wire.dump(state, game="bura", options=options_wire(state.options))
    dumped["passes"] = state.passes
    dumped["result"] = result_wire(state) if state.ending else None
    return dumped


def result_wire(state: State) -> Wire:
    outcome = rules.result(state)
    return {"reason": outcome.reason, "seat": outcome.seat, "winners": list(outcome.winners),
            "losers": list(outcome.losers), "points": list(state.card_points)}


def view(state: State, seat: int | None) -> Wire:
    hidden = not state.options.open_play
    return sets_wire.view(state, seat, dumped=dump_state(state), face_down_play=hidden)


def load_move(move: Wire) -> Move:
    kind, seat = move["type"], move["seat"]
    if kind == Claim.kind:
        return Claim(seat)
    if kind == Declare.kind:
        return Declare(seat, move["combination"])
    if kind == Pass.kind:
        return Pass(seat)
    return sets_wire.load_trick_move(move)


def dump_move(move: Move) -> Wire:
    if isinstance(move, Lead | Molodka | Respond):
        return sets_wire.dump_trick_move(move)
    if isinstance(move, Declare):
        return {"seat": move.seat, "type": move.kind, "combination": move.combination}
    return {"seat": move.seat, "type": move.kind}


# --- consistency (§5.4, §6) --------------------------------------------------------------------


def _check_phase(state: State) -> None:
    """§5.4, §6: the final claim round comes once every card is played; an ending ends the hand."""
    played_out = not state.stock and not any(state.hands) and state.trick is None
    ending = state.ending
    if (state.phase == Phase.OVER) != (ending is not None):
        raise InvalidState("/ending", "an ending is set exactly when the phase is over")
    if state.phase == Phase.OVER and state.to_move is not None:
        raise InvalidState("/to_move", "nobody moves once the hand is over")
    if state.phase == Phase.PLAY and played_out:
        raise InvalidState("/phase", "every card is played: the phase is final_claims")
    if state.phase == Phase.FINAL_CLAIMS:
        if not played_out or state.last_taker is None:
            raise InvalidState("/phase", "final claims come once every card is played")
        in_turn = left_of(state.last_taker, state.seats, state.passes)
        if state.passes >= state.seats or state.to_move != in_turn:
            raise InvalidState("/to_move", "the final round goes clockwise from the last trick's taker")
    elif ending is not None and played_out:
        _check_final_round_ending(state, ending)
    elif state.passes:
        raise InvalidState("/passes", "passes count only in the final claim round")
    if ending is not None:
        _check_ending(state, ending)


def _check_final_round_ending(state: State, ending: Ending) -> None:
    """§4.2(f), §6: a hand that ended in the final claim round keeps its passes: it ended with a
    claim by the seat whose turn came after them, or void once every seat passed."""
    if state.last_taker is None or state.passes > state.seats:
        raise InvalidState("/passes", "the final round has one turn per seat")
    in_turn = left_of(state.last_taker, state.seats, state.passes)
    if ending.kind == "claim" and (state.passes == state.seats or ending.seat != in_turn):
        raise InvalidState("/ending/seat", f"after {state.passes} pass(es), seat {in_turn} claims")


def _check_ending(state: State, ending: Ending) -> None:
    if ending.kind == "void" and (state.passes != state.seats or ending.seat is not None):
        raise InvalidState("/ending", "a void hand is one where every seat passed")
    if ending.kind in ("bura", "moscow") and (
            ending.seat is None or not rules.forms(state, state.hands[ending.seat], ending.kind)):
        raise InvalidState("/ending", f"the declarer's hand does not form {ending.kind}")
    if ending.kind == "claim" and ending.seat is None:
        raise InvalidState("/ending/seat", "a claim has a claimant")
