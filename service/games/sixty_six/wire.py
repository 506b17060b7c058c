"""Sixty-six states and moves to and from their wire form, and the consistency check a state
passes before any rule runs. Input here has already passed the JSON schema, so types and codes
are right; what is checked is whether the position can arise under the rules."""

from __future__ import annotations

from itertools import chain

from service.cards import CARDS, Card, codes, pile
from service.errors import InvalidState
from service.games.base import Status, Wire, check_deck, check_derived, evolve, options_wire
from service.games.sixty_six import rules
from service.games.sixty_six.rules import (
    ClosedSnapshot,
    Marriage,
    Options,
    State,
)
from service.games.tricks import won_points


def load_options(wire: Wire) -> Options:
    return Options(**wire)


def _tricks(wire: list[list[str]]) -> tuple[rules.Trick, ...]:
    cards = iter(pile(chain.from_iterable(wire)))
    return tuple(zip(cards, cards, strict=True))


def load_state(wire: Wire) -> State:
    """Build the state and check it; ``InvalidState`` pointers are relative to the state."""
    snapshot = wire.get("closed_snapshot")
    hands = wire["hands"]
    tricks_won = (_tricks(wire["tricks_won"][0]), _tricks(wire["tricks_won"][1]))
    state = State(
        options=load_options(wire.get("options", {})),
        dealer=wire["dealer"],
        trump_card=CARDS[wire["trump_card"]],
        stock=pile(wire["stock"]),
        hands=(pile(hands[0]), pile(hands[1])),
        leader=wire["leader"],
        to_move=wire["to_move"],
        trick=tuple((t["seat"], CARDS[t["card"]]) for t in wire["trick"]),
        tricks_won=tricks_won,
        marriages=(
            tuple(Marriage(**m) for m in wire["marriages"][0]),
            tuple(Marriage(**m) for m in wire["marriages"][1]),
        ),
        bonus_points=(0, 0),
        stock_closed_by=wire["stock_closed_by"],
        closed_snapshot=ClosedSnapshot(**snapshot) if snapshot is not None else None,
        first_to_66=None,
        claimed_by=wire.get("claimed_by"),
        card_points=(won_points(tricks_won[0], rules.POINTS), won_points(tricks_won[1], rules.POINTS)),
    )
    found = [*state.hands[0], *state.hands[1], *state.stock, *(card for _, card in state.trick),
             *chain.from_iterable(state.tricks_won[0]), *chain.from_iterable(state.tricks_won[1])]
    check_deck(rules.DECK, found, lambda: _zones(state))
    state = _with_derived(state, wire)
    _check_play_position(state)
    _check_marriages(state)
    _check_close(state)
    check_derived(wire, _derived(state))
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
        if (first is None and reached) or (first is not None and first not in reached):
            raise InvalidState("/first_to_66", f"seats with 66 or more points: {reached}")
    elif len(reached) == 2:
        raise InvalidState("/first_to_66", "both seats have 66 or more: say which got there first")
    else:
        first = reached[0] if reached else None
    return state if first is None else evolve(state, first_to_66=first)


def _check_play_position(state: State) -> None:
    """Turn, trick and hand sizes fit the phase (§4.1, §5)."""
    sizes = (len(state.hands[0]), len(state.hands[1]))
    hands_empty = sizes == (0, 0) and not state.trick
    finished = state.claimed_by is not None or hands_empty
    if finished != (state.to_move is None):
        expected = "null: the hand is over" if finished else "a seat: the hand is in progress"
        raise InvalidState("/to_move", f"to_move must be {expected}")
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
            raise InvalidState(f"/hands/{leader}", "the leader holds one card fewer than the follower")
    else:
        if state.to_move != leader:
            raise InvalidState("/to_move", "with no card led, the leader is to move")
        if sizes[0] != sizes[1]:
            raise InvalidState("/hands/1", "both hands hold the same number of cards at a lead")
    if state.stock and state.stock_closed_by is None and sizes[follower] != rules.HAND_SIZE:
        raise InvalidState(f"/hands/{follower}", "hands hold 6 cards while the stock is open")


def _check_marriages(state: State) -> None:
    declared: set[str] = set()
    for seat in (0, 1):
        credited = bool(state.tricks_won[seat]) or not state.options.marriage_requires_trick
        for index, marriage in enumerate(state.marriages[seat]):
            at = f"/marriages/{seat}/{index}"
            if marriage.suit in declared:
                raise InvalidState(at, f"the marriage in {marriage.suit} is declared twice")
            declared.add(marriage.suit)
            worth = 40 if marriage.suit == state.trump_suit else 20
            if marriage.points != worth:
                raise InvalidState(f"{at}/points", f"a marriage in {marriage.suit} is worth {worth}")
            if marriage.credited != credited:
                raise InvalidState(f"{at}/credited", f"credited must be {str(credited).lower()}")


def _check_close(state: State) -> None:
    """§4.3: a closed stock stays as it was, with its snapshot; open stock ends in the trump card."""
    if state.stock and state.stock[-1] is not state.trump_card:
        raise InvalidState(f"/stock/{len(state.stock) - 1}", "the face-up trump card is drawn last")
    closer, snapshot = state.stock_closed_by, state.closed_snapshot
    if (closer is None) != (snapshot is None):
        raise InvalidState("/closed_snapshot", "closed_snapshot is set exactly when the stock is closed")
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


def _derived(state: State) -> Wire:
    """The fields that follow from the rest of the state."""
    return {
        "status": Status.of(finished=state.finished),
        "trump_suit": state.trump_suit,
        "card_points": [rules.trick_card_points(state, 0), rules.trick_card_points(state, 1)],
        "bonus_points": list(state.bonus_points),
        "tricks_played": state.tricks_played,
        "result": result_wire(state) if state.finished else None,
    }


def result_wire(state: State) -> Wire:
    result = rules.result(state)
    return {
        "winner": result.winner,
        "game_points": list(result.game_points),
        "draw": result.draw,
        "reason": result.reason.value,
        "points": list(result.points),
        "tricks": list(result.tricks),
    }


def _table(state: State) -> Wire:
    """Fields shared by the state and the views."""
    snapshot = state.closed_snapshot
    return {
        "game": "sixty-six",
        "seats": 2,
        "dealer": state.dealer,
        "to_move": state.to_move,
        "status": Status.of(finished=state.finished),
        "options": options_wire(state.options),
        "trump_suit": state.trump_suit,
        "stock_closed_by": state.stock_closed_by,
        "closed_snapshot": None if snapshot is None else {
            "opponent_points": snapshot.opponent_points,
            "opponent_tricks": snapshot.opponent_tricks,
        },
        "leader": state.leader,
        "trick": [{"seat": seat, "card": card.code} for seat, card in state.trick],
        "tricks_won": [[[a.code, b.code] for a, b in state.tricks_won[s]] for s in (0, 1)],
        "card_points": [rules.trick_card_points(state, 0), rules.trick_card_points(state, 1)],
        "marriages": [
            [{"suit": m.suit, "points": m.points, "credited": m.credited} for m in state.marriages[s]]
            for s in (0, 1)
        ],
        "bonus_points": list(state.bonus_points),
        "first_to_66": state.first_to_66,
        "claimed_by": state.claimed_by,
        "tricks_played": state.tricks_played,
        "result": result_wire(state) if state.finished else None,
    }


def dump_state(state: State) -> Wire:
    return {
        **_table(state),
        "trump_card": state.trump_card.code,
        "stock": codes(state.stock),
        "hands": [codes(state.hands[0]), codes(state.hands[1])],
    }


def view(state: State, seat: int | None) -> Wire:
    """A seat sees its own hand, the sizes of the hands and stock, the face-up trump card while
    it lies under the stock, and everything played, which both players saw face up."""
    return {
        **_table(state),
        "seat": seat,
        "hand": None if seat is None else codes(state.hands[seat]),
        "hand_sizes": [len(state.hands[0]), len(state.hands[1])],
        "stock_size": len(state.stock),
        "trump_card": state.trump_card.code if state.stock else None,
    }
