"""Kozel-bura on the wire (docs/rules/kozel-bura.md §4.1, §7, §8): the family's state and view
(``tricks.sets_schemas``) with Kozel-bura's result, the moves, and the match standing, each field
declared once; their schemas, loaders and dumpers are generated from the declarations.

Written by hand: the consistency check a state passes beyond the family's (§6)."""

from __future__ import annotations

from service.cards import codes
from service.errors import InvalidState
from service.games.base import EventType, Saying, Wire
from service.games.kozel_bura import rules
from service.games.kozel_bura.rules import HandResult, Match, Move, Options
from service.games.tricks import sets_schemas, sets_wire
from service.games.tricks.sets import Phase, State
from service.games.tricks.sets_schemas import CARD_POINTS, TRICK_MOVES, Family, trick_events
from service.games.wired import WireForm, declared
from service.wire.form import field
from service.wire.kinds import BOOL, SEAT, Int, ListOf, OneOf

WIRE = Family("KozelBura", tuple(codes(rules.DECKS[36])), max_seats=5, game="kozel-bura",
              hand_size=rules.HAND_SIZE, phases=(Phase.PLAY, Phase.OVER), endings=("bura", "played_out"))
OPTIONS = WIRE.options(Options)

RESULT = WIRE.record("Result", HandResult, {
    "reason": field(OneOf(("bura", "played_out", "eggs"))),
    "winner": field(SEAT, nullable=True),
    "points": field(WIRE.per_seat(CARD_POINTS)),
}, "§7.1: the hand's result.")

# every card is played face up (face_down=None)
STATE, VIEW = sets_schemas.state_and_view(WIRE, options=OPTIONS, result=RESULT, outcome=rules.result,
                                          face_down=None)

MOVES = WIRE.moves_of(TRICK_MOVES)

EVENTS = {
    **trick_events(face_down=False),
    "hand_over": EventType("The hand is over, by a bura or played out, won by the player named; no player is "
                           "named when the most points are tied (eggs).", winner=True,
                           says=Saying("{seat} wins the hand", you="You win the hand",
                                       nobody="The hand is over: eggs, a tie for the most points")),
}
"""What a move may cause, each type with the fields it carries (``EventType``)."""

MATCH = WIRE.record("Match", Match, {
    "penalties": field(WIRE.per_seat(Int(0, 100_000)), attr="totals"),
    "multiplier": field(Int(1, 1 << 20), "the next hand's multiplier: 2 after eggs"),
    "over": field(BOOL),
    "losers": field(ListOf(SEAT), "the goats: seats at or past the penalty limit", nullable=True),
    "winner": field(ListOf(SEAT), "every other seat, once the match is over", nullable=True),
    "next_dealer": field(SEAT),
}, "§7.2: penalty points so far; pass it back to ``score`` and ``deal``.")

HAND_SCORE = WIRE.schema("HandScore", {
    **RESULT.fields,
    "penalties": field(WIRE.per_seat(Int(0, 1 << 24))),
    "multiplier": field(Int(1, 1 << 20)),
})


def hand_score(state: State, match: Match) -> Wire:
    """The hand's part of ``score`` (``HAND_SCORE``): its result, and the penalties it costs."""
    return {**RESULT.dump(rules.result(state)), "penalties": list(rules.penalties(state, match.multiplier)),
            "multiplier": match.multiplier}


# --- consistency (§6) --------------------------------------------------------------------------


def load_state(wire: Wire) -> State:
    """Build the state and check it; ``InvalidState`` pointers are relative to the state."""
    state = STATE.load(wire)
    sets_wire.check(state, deck=rules.DECKS[state.options.deck], variant=rules.variant(state.options))
    _check_phase(state)
    STATE.check(wire, state)
    return state


def _check_phase(state: State) -> None:
    """§6: over exactly with an ending; a bura ends the hand; played out means every card played."""
    played_out = not state.stock and not any(state.hands) and state.trick is None
    ending = state.ending
    over = state.finished
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


FORM: WireForm[State, Move] = declared(WIRE, load_state, STATE, VIEW, MOVES, options=OPTIONS, match=MATCH,
                                       hand_score=HAND_SCORE)
