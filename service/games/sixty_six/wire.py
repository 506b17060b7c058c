"""Sixty-six on the wire: the state, a seat's view, the moves, the result and the party standing
(§4.1, §7.4, §7.5, §8 of docs/rules/sixty-six.md), each field declared once; their schemas, loaders
and dumpers are generated from the declarations (``service.wire.form``).

Written by hand: the consistency check a state passes before any rule runs, and the fields that
need the whole position (``first_to_66``, the last-trick bonus). Input here has already passed
the JSON schema, so types and codes are right; what is checked is whether the position can arise
under the rules."""

from __future__ import annotations

from itertools import chain

from service.cards import Card, codes
from service.errors import InvalidState
from service.games import views
from service.games.base import EventType, Saying, Wire, evolve
from service.games.decks import check_deck
from service.games.match import Match
from service.games.sixty_six import rules, scoring
from service.games.sixty_six.rules import (
    Claim,
    Close,
    ClosedSnapshot,
    ExchangeTrump,
    Marriage,
    Move,
    Options,
    Pair,
    Play,
    State,
    Trick,
)
from service.games.sixty_six.scoring import HandResult, ResultReason
from service.games.tricks import won_points
from service.games.wired import STATUS, WireForm, declared
from service.i18n.text import Amount, Seat, Suit
from service.wire.form import GameWire, Record, computed, const, derived, field
from service.wire.kinds import BOOL, CARD, CARD_IN_LIST, SEAT, Int, Kind, ListOf, OneOf, PerSeat, Pile

WIRE = GameWire("SixtySix", tuple(codes(rules.DECK)), max_seats=2)
SUIT = OneOf(("C", "D", "H", "S"))
POINTS = Int(0, 300)
TRICKS = Int(0, 12)
BONUS = OneOf((0, 10))


def pair(kind: Kind) -> PerSeat:
    return PerSeat(kind, 2)


OPTIONS = WIRE.options(Options)

SNAPSHOT = WIRE.record("ClosedSnapshot", ClosedSnapshot, {
    "opponent_points": field(POINTS),
    "opponent_tricks": field(TRICKS),
}, "The closer's opponent at the moment of closing (§4.3).")

TRICK_CARD: Record[tuple[int, Card]] = WIRE.record("TrickCard", tuple, {
    "seat": field(SEAT),
    "card": field(CARD),
})

MARRIAGE = WIRE.record("Marriage", Marriage, {
    "suit": field(SUIT),
    "points": field(OneOf((20, 40))),
    "credited": field(BOOL, "false while pending the declarer's first trick (§4.2, D3)."),
})

RESULT = WIRE.record("Result", HandResult, {
    "winner": field(SEAT, nullable=True),
    "game_points": field(pair(Int(0, 3))),
    "draw": derived(BOOL, "draw", required=True),
    "reason": field(OneOf(ResultReason)),
    "points": field(pair(POINTS)),
    "tricks": field(pair(TRICKS)),
}, "§7.4: the hand's result.")


def _card_points(tricks_won: tuple[tuple[Trick, ...], tuple[Trick, ...]]) -> Pair:
    return won_points(tricks_won[0], rules.POINTS), won_points(tricks_won[1], rules.POINTS)


def _result(state: State) -> HandResult | None:
    return scoring.result(state) if state.finished else None


DERIVED = "Derived; checked when sent."
TABLE = {
    "game": const("sixty-six"),
    "seats": const(2),
    "dealer": field(SEAT),
    "to_move": field(SEAT, "The seat whose move it is; null once the hand is over.", nullable=True),
    "status": derived(STATUS, "finished", DERIVED),
    "options": field(OPTIONS, default={}),
    "trump_suit": derived(SUIT, "trump_suit", "Derived from trump_card; checked when sent."),
    "stock_closed_by": field(SEAT, nullable=True),
    "closed_snapshot": field(SNAPSHOT, "Required once the stock is closed.", nullable=True, default=None),
    "leader": field(SEAT),
    "trick": field(ListOf(TRICK_CARD, 0, 1), "The lead waiting for its reply, or empty."),
    "tricks_won": field(pair(ListOf(Pile(2, 2), 0, 12)), "Per seat, its tricks: lead first."),
    "card_points": derived(pair(POINTS), "card_points", DERIVED,
                           load=computed(_card_points, "tricks_won")),
    "marriages": field(pair(ListOf(MARRIAGE, 0, 4))),
    # the bonus follows from the whole position: _with_derived sets it
    "bonus_points": derived(pair(BONUS), "bonus_points",
                            "The optional last-trick bonus; derived, checked when sent."),
    # read by _with_derived, which needs the whole position: it may be left out unless both have 66
    "first_to_66": field(SEAT, "The seat that reached 66 first (§6); needed only when both have 66.",
                         nullable=True, optional=True, read=False),
    "claimed_by": field(SEAT, nullable=True, default=None),
    "tricks_played": derived(TRICKS, "tricks_played", DERIVED),
    "result": derived(RESULT, _result, "Set once the hand is finished (§7.4); checked when sent.",
                      nullable=True),
}
"""The fields the state and a seat's view share."""

STATE = WIRE.record("State", State, {
    **TABLE,
    "trump_card": field(CARD, "The face-up card under the stock; stays as information once drawn."),
    "stock": field(Pile(0, 12), "Draw order, top first; the face-up trump card is last while undrawn."),
    "hands": field(pair(Pile(0, 6))),
}, "A Sixty-six hand (§4.1). Derived fields may be omitted; when sent they must agree.")


VIEW = WIRE.view(State, TABLE, {
    "seat": derived(SEAT, views.seat, required=True, nullable=True),
    "hand": derived(Pile(0, 6), views.hand, "The seat's own hand; null for a spectator.",
                    required=True, nullable=True),
    "hand_sizes": derived(pair(Int(0, 6)), views.hand_sizes, required=True),
    "stock_size": derived(TRICKS, views.stock_size, required=True),
    "trump_card": derived(CARD, views.face_up_trump, "Shown while it lies under the stock; null once drawn.",
                          required=True, nullable=True),
}, "What one seat (or a spectator) may see: its own hand, never the other's or the stock. It sees "
   "the sizes of the hands and stock, the face-up trump card while it lies under the stock, and "
   "everything played, which both players saw face up.")

MOVES = WIRE.moves_of({
    Play: ("Play a card: lead it, declaring a marriage or not, or answer the card led.", {
        "cards": field(CARD_IN_LIST, attr="card"),
        "marriage": field(BOOL, "Declare the marriage of the led king or queen (§4.2).", default=False),
    }),
    Close: ("Close the stock: nobody draws any more, and from now on players must follow suit, or trump "
            "when they cannot.", {}),
    ExchangeTrump: ("Exchange the nine of trumps for the face-up trump card under the stock.", {}),
    Claim: ("Stop play and claim 66 points, declaring a marriage or not.", {
        "marriage_suit": field(SUIT, nullable=True, default=None),
    }),
})

EVENTS = {
    "card_played": EventType(
        "A player plays a card to the trick.", cards=True, hand=-1,
        says=Saying("{seat} plays {cards}", you="you play {cards}")),
    "marriage_declared": EventType(
        "A player declares a marriage by leading its king or queen, or along with a claim of 66 points: "
        "it is worth 40 points in trumps and 20 in another suit.",
        points=True, suit=True,
        says=Saying("{seat} declares a marriage in {suit}: {points}",
                    you="you declare a marriage in {suit}: {points}")),
    "trick_won": EventType(
        "A player wins the trick and takes its two cards, the card led first, with the points they are "
        "worth.",
        cards=True, points=True,
        says=Saying("{seat} wins the trick: {points}", you="you win the trick: {points}")),
    "card_drawn": EventType(
        "A player draws a card from the stock after a trick, the winner of the trick first; only that "
        "player sees it.",
        cards=True, private=True, hand=1,
        says=Saying("{seat} draws {cards} from the stock", you="you draw {cards} from the stock",
                    hidden="{seat} draws a card from the stock")),
    "trump_card_drawn": EventType(
        "A player draws the face-up trump card, the last card of the stock.", cards=True, hand=1,
        says=Saying("{seat} draws the face-up trump, {cards}", you="you draw the face-up trump, {cards}")),
    "stock_closed": EventType(
        "A player closes the stock.",
        says=Saying("{seat} closes the stock", you="you close the stock")),
    "trump_exchanged": EventType(
        "A player lays the nine of trumps face up under the stock in place of the face-up trump card, which "
        "they take next.",
        cards=True, hand=-1,
        says=Saying("{seat} lays {cards} under the stock", you="you lay {cards} under the stock")),
    "trump_card_taken": EventType(
        "A player takes the face-up trump card in exchange for the nine.", cards=True, hand=1,
        says=Saying("{seat} takes {cards} from under the stock",
                    you="you take {cards} from under the stock")),
    "claimed": EventType(
        "A player stops play and claims 66 points.",
        says=Saying("{seat} stops play and claims 66 points", you="you stop play and claim 66 points")),
    "hand_over": EventType(
        "The hand is over: a player has won it, or nobody has when neither reached 66 points.", winner=True,
        says=Saying("{seat} wins the hand", you="you win the hand",
                    nobody="the hand is a draw: nobody reached 66 points")),
}
"""What a move may cause, each type with the fields it carries (``EventType``)."""

MATCH = WIRE.record("Match", Match, {
    "party_score": field(pair(Int(0, 10_000)), attr="totals"),
    "over": field(BOOL),
    "winner": field(SEAT, nullable=True),
    "next_dealer": field(SEAT),
}, "§7.5: the party so far; pass it back to ``score`` and ``deal``.")

HAND_SCORE = WIRE.schema("HandScore", {
    **RESULT.fields,
    "card_points": field(pair(POINTS)),
    "marriage_points": field(pair(POINTS), "Credited marriage points."),
    "bonus_points": field(pair(BONUS)),
})


def hand_score(state: State, result: HandResult) -> Wire:
    """The hand's part of ``score`` (``HAND_SCORE``): its result, and the points by their kind."""
    return {
        **RESULT.dump(result),
        "card_points": list(state.card_points),
        "marriage_points": [sum(m.points for m in state.marriages[s] if m.credited) for s in (0, 1)],
        "bonus_points": list(state.bonus_points),
    }


# --- the consistency check ---------------------------------------------------------------------


def load_state(wire: Wire) -> State:
    """Build the state and check it; ``InvalidState`` pointers are relative to the state."""
    state = STATE.load(wire)
    tricks = state.tricks_won
    found = [*state.hands[0], *state.hands[1], *state.stock, *(card for _, card in state.trick),
             *chain.from_iterable(tricks[0]), *chain.from_iterable(tricks[1])]
    check_deck(rules.DECK, found, lambda: _zones(state))
    state = _with_derived(state, wire)
    _check_play_position(state)
    _check_marriages(state)
    _check_close(state)
    STATE.check(wire, state)
    return state


def _zones(state: State) -> list[tuple[str, tuple[Card, ...]]]:
    zones = [
        ("/hands/0", state.hands[0]),
        ("/hands/1", state.hands[1]),
        ("/stock", state.stock),
        ("/trick", tuple(card for _, card in state.trick)),
    ]
    for seat in (0, 1):
        for index, trick in enumerate(state.tricks_won[seat]):
            zones.append((f"/tricks_won/{seat}/{index}", trick))
    return zones


def _with_derived(state: State, wire: Wire) -> State:
    """Fill in the bonus and ``first_to_66``, which follow from the rest (§5.3, §6)."""
    if state.to_move is None and state.claimed_by is None and rules.earns_last_trick_bonus(state):
        state = evolve(state, bonus_points=rules.at_seat((0, 0), state.leader, rules.LAST_TRICK_BONUS))
    reached = [s for s in (0, 1) if rules.points(state, s) >= rules.TARGET]
    if "first_to_66" in wire:
        first = wire["first_to_66"]
        if first is not None and not reached:
            raise InvalidState("/first_to_66", "nobody has 66 points or more, so nobody reached 66 first")
        if (first is None and reached) or (first is not None and first not in reached):
            raise InvalidState("/first_to_66",
                               "the first to reach 66 must be a player with 66 points or more: {seats}",
                               seats=[Seat(s) for s in reached])
    elif len(reached) == 2:
        raise InvalidState("/first_to_66", "both players have 66 points or more: say which got there first")
    else:
        first = reached[0] if reached else None
    return state if first is None else evolve(state, first_to_66=first)


HANDS = ("/hands/0", "/hands/1")
"""Each seat's hand, by its pointer."""


def _check_play_position(state: State) -> None:
    """Turn, trick and hand sizes fit the phase (§4.1, §5)."""
    sizes = (len(state.hands[0]), len(state.hands[1]))
    hands_empty = sizes == (0, 0) and not state.trick
    finished = state.claimed_by is not None or hands_empty
    if finished and state.to_move is not None:
        raise InvalidState("/to_move", "the hand is over: nobody is to move")
    if not finished and state.to_move is None:
        raise InvalidState("/to_move", "the hand is not over: a player must be to move")
    if hands_empty:
        return
    if state.claimed_by is not None:  # a claim is made on lead (§4.5), then nothing moves
        if state.trick or sizes[0] != sizes[1]:
            raise InvalidState("/trick", "a claim is made on lead: no card led, equal hands")
        return
    leader, follower = state.leader, 1 - state.leader
    if state.trick:
        if state.trick[0][0] != leader:
            raise InvalidState("/trick/0/seat", "the lead is played by the leader")
        if state.to_move != follower:
            raise InvalidState("/to_move", "after the lead, the other seat replies")
        if sizes[leader] != sizes[follower] - 1:
            raise InvalidState(HANDS[leader], "the leader holds one card fewer than the follower")
    else:
        if state.to_move != leader:
            raise InvalidState("/to_move", "no card is led yet, so the player on lead is to move")
        if sizes[0] != sizes[1]:
            raise InvalidState("/hands/1", "both hands hold the same number of cards at a lead")
    if state.stock and state.stock_closed_by is None and sizes[follower] != rules.HAND_SIZE:
        raise InvalidState(HANDS[follower], "hands hold 6 cards while the stock is open")


def _check_marriages(state: State) -> None:
    declared: set[str] = set()
    for seat in (0, 1):
        credited = bool(state.tricks_won[seat]) or not state.options.marriage_requires_trick
        for index, marriage in enumerate(state.marriages[seat]):
            at = f"/marriages/{seat}/{index}"
            if marriage.suit in declared:
                raise InvalidState(at, "the marriage in {suit} is declared twice", suit=Suit(marriage.suit))
            declared.add(marriage.suit)
            worth = 40 if marriage.suit == state.trump_suit else 20
            if marriage.points != worth:
                raise InvalidState(at + "/points", "a marriage in {suit} is worth {points}",
                                   suit=Suit(marriage.suit), points=Amount(worth, "point"))
            if marriage.credited != credited and credited:
                raise InvalidState(at + "/credited", "this marriage's points already count: its player has "
                                                     "won a trick, or this table counts marriages at once")
            if marriage.credited != credited:
                raise InvalidState(at + "/credited",
                                   "this marriage's points cannot count yet: its player has not won a trick")


def _check_close(state: State) -> None:
    """§4.3: a closed stock stays as it was, with its snapshot; open stock ends in the trump card."""
    if state.stock and state.stock[-1] is not state.trump_card:
        last = f"/stock/{len(state.stock) - 1}"
        raise InvalidState(last, "the face-up trump card is drawn last")
    closer, snapshot = state.stock_closed_by, state.closed_snapshot
    if (closer is None) != (snapshot is None):
        raise InvalidState("/closed_snapshot", "the opponent's points and tricks at the closing are given "
                                               "exactly when the stock is closed")
    if closer is None or snapshot is None:
        return
    if len(state.stock) < state.options.min_stock_to_close:
        raise InvalidState("/stock", "the stock was too small to close")
    opponent = 1 - closer
    tricks_before_close = (len(rules.DECK) - 2 * rules.HAND_SIZE - len(state.stock)) // 2
    if snapshot.opponent_tricks > min(len(state.tricks_won[opponent]), tricks_before_close):
        raise InvalidState("/closed_snapshot/opponent_tricks", "more tricks than the opponent had")
    if snapshot.opponent_points > rules.points(state, opponent):
        raise InvalidState("/closed_snapshot/opponent_points", "more points than the opponent has")


def rebuild(wire: Wire) -> State:
    """A state this service dumped (a sealed token's): built, and ``first_to_66`` read, unchecked."""
    return _with_derived(STATE.load(wire), wire)


FORM: WireForm[State, Move] = declared(WIRE, load_state, STATE, VIEW, MOVES, options=OPTIONS, match=MATCH,
                                       hand_score=HAND_SCORE, rebuild=rebuild)
