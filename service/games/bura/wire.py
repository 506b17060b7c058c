"""Bura on the wire (docs/rules/bura.md §4.1, §7, §8): the family's state and view
(``tricks.sets_schemas``) with Bura's passes and result, the moves, and the match standing, each
field declared once; their schemas, loaders and dumpers are generated from the declarations.

Written by hand: the consistency check a state passes beyond the family's (§5.4, §6)."""

from __future__ import annotations

from service.cards import codes
from service.errors import InvalidState
from service.games.base import EventType, Saying, Wire
from service.games.bura import rules
from service.games.bura.rules import Claim, Declare, HandResult, Match, Move, Options, Pass
from service.games.seating import left_of
from service.games.tricks import sets_schemas, sets_wire
from service.games.tricks.sets import Ending, Phase, State
from service.games.tricks.sets_schemas import CARD_POINTS, TRICK_MOVES, Family, trick_events
from service.games.wired import WireForm, declared
from service.i18n import N_
from service.i18n.text import Seat
from service.wire.form import field
from service.wire.kinds import BOOL, SEAT, Int, ListOf, OneOf

WIRE = Family("Bura", tuple(codes(rules.DECK)), max_seats=6, game="bura", hand_size=rules.HAND_SIZE,
              phases=tuple(Phase), endings=("claim", "bura", "moscow", "void"))
OPTIONS = WIRE.options(Options)

RESULT = WIRE.record("Result", HandResult, {
    "reason": field(OneOf(("claim_correct", "claim_false", "bura", "moscow", "void"))),
    "seat": field(SEAT, "who claimed or declared", nullable=True),
    "winners": field(ListOf(SEAT)),
    "losers": field(ListOf(SEAT)),
    "points": field(WIRE.per_seat(CARD_POINTS)),
}, "§7.2: the hand's result.")


def _face_down(state: State) -> bool:
    """Discards lie face down unless the seats play open (seed variant 40.a)."""
    return not state.options.open_play


STATE, VIEW = sets_schemas.state_and_view(WIRE, options=OPTIONS, result=RESULT, outcome=rules.result,
                                          face_down=_face_down, extra={
    "passes": field(Int(0, 6), "seats that passed in the final claim round", default=0),
})

MOVES = WIRE.moves_of({
    **TRICK_MOVES,
    Claim: ("Claim to have the winning points, 31 unless agreed otherwise: the hand ends, and the player "
            "wins it if their tricks hold those points, or loses it if not.", {}),
    Declare: ("Show a bura (three trumps) or a Moscow (three aces) and win the hand.", {
        "combination": field(OneOf(("bura", "moscow"))),
    }),
    Pass: ("Decline to claim in the last round, once every card is played.", {}),
})

EVENTS = {
    **trick_events(face_down=True),
    "final_claims": EventType(
        "Every card is played: the last round of claims begins, with the player who took the last trick.",
        says=Saying("Every card is played: {seat} is first to claim or pass",
                    you="Every card is played: you are first to claim or pass")),
    "claimed": EventType("The player claims to have enough points to win the hand.",
                         says=Saying("{seat} claims enough points to win",
                                     you="You claim enough points to win")),
    "declared": EventType("The player shows their hand, a bura or a Moscow, and wins the hand.", cards=True,
                          kinds={"bura": N_("A bura: three trumps."), "moscow": N_("A Moscow: three aces.")},
                          says=Saying("{seat} shows {kind}: {cards}", you="You show {kind}: {cards}",
                                      kinds={"bura": N_("a bura"), "moscow": N_("a Moscow")})),
    "passed": EventType("The player declines to claim in the last round.",
                        says=Saying("{seat} passes", you="You pass")),
    "hand_over": EventType("The hand is over, won by the player named; no player is named when nobody won "
                           "the hand, or when a false claim left several winners.", winner=True,
                           says=Saying("{seat} wins the hand", you="You win the hand",
                                       nobody="The hand is over without a single winner")),
}
"""What a move may cause, each type with the fields it carries (``EventType``). Discards lie face
down unless the seats play open: the type says the most a seat may be told."""

MATCH = WIRE.record("Match", Match, {
    "match_scores": field(WIRE.per_seat(Int(0, 100_000)), attr="totals"),
    "void_streak": field(Int(0, 10_000)),
    "over": field(BOOL),
    "winner": field(ListOf(SEAT), "the seats with the most games once the match is over", nullable=True),
    "next_dealer": field(SEAT),
    "next_leader": field(SEAT),
}, "§7.3: the match so far; pass it back to ``score`` and ``deal``.")

HAND_SCORE = WIRE.schema("HandScore", {
    **RESULT.fields,
    "value": field(Int(0, 10_001), "games each winner adds (1 + void hands before it, with void_carry)"),
})


def hand_score(state: State, match: Match) -> Wire:
    """The hand's part of ``score`` (``HAND_SCORE``): its result, and what it is worth."""
    return {**RESULT.dump(rules.result(state)), "value": rules.hand_value(match, state.options)}


# --- consistency (§5.4, §6) --------------------------------------------------------------------


def load_state(wire: Wire) -> State:
    """Build the state and check it; ``InvalidState`` pointers are relative to the state."""
    state = STATE.load(wire)
    sets_wire.check(state, deck=rules.DECK, variant=rules.variant(state.options))
    _check_phase(state)
    STATE.check(wire, state)
    return state


def _check_phase(state: State) -> None:
    """§5.4, §6: the final claim round comes once every card is played; an ending ends the hand."""
    played_out = not state.stock and not any(state.hands) and state.trick is None
    ending = state.ending
    if state.finished != (ending is not None):
        raise InvalidState("/ending", "an ending is set exactly when the phase is over")
    if state.finished and state.to_move is not None:
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
        raise InvalidState("/ending/seat", "after {passes} pass(es), {seat} claims",
                           passes=state.passes, seat=Seat(in_turn))


def _check_ending(state: State, ending: Ending) -> None:
    if ending.kind == "void" and (state.passes != state.seats or ending.seat is not None):
        raise InvalidState("/ending", "a void hand is one where every seat passed")
    if ending.kind in ("bura", "moscow") and (
            ending.seat is None or not rules.forms(state, state.hands[ending.seat], ending.kind)):
        if ending.kind == "bura":
            raise InvalidState("/ending", "the declarer's hand does not form a bura")
        raise InvalidState("/ending", "the declarer's hand does not form a Moscow")
    if ending.kind == "claim" and ending.seat is None:
        raise InvalidState("/ending/seat", "a claim has a claimant")


FORM: WireForm[State, Move] = declared(WIRE, load_state, STATE, VIEW, MOVES, options=OPTIONS, match=MATCH,
                                       hand_score=HAND_SCORE)
