"""Tricks of sets on the wire: the consistency checks every game of the Bura family makes of a
state it reads (its fields are declared in ``sets_schemas``), before the game's own."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from service.cards import Card
from service.errors import InvalidState
from service.games.decks import check_deck
from service.games.seating import clockwise
from service.games.tricks import beats_set
from service.games.tricks.sets import RANK_ORDER, Phase, State, Trick, Variant
from service.i18n.text import Seat


def check(state: State, *, deck: Sequence[Card], variant: Variant) -> None:
    """The shared checks of a state just read; pointers are relative to the state."""
    seats = state.seats
    if state.options.players != seats:
        raise InvalidState("/options/players", "players must equal seats")
    for name, per_seat in (("hands", state.hands), ("won", state.won)):
        if len(per_seat) != seats:
            raise InvalidState(f"/{name}", "{name} has one list per seat ({seats})", name=name, seats=seats)
    _check_seat_numbers(state)
    check_deck(deck, _found(state), lambda: _zones(state))
    _check_stock_and_hands(state, variant)
    if state.trick is not None:
        _check_trick(state, variant, state.trick)
    elif state.phase == Phase.PLAY and state.ending is None:
        if state.to_move != state.leader:
            raise InvalidState("/to_move", "with no card led, the leader is to move")
        if not state.hands[state.leader]:
            raise InvalidState("/leader", "the leader holds no card")
    _check_last_taker(state)


_SEAT_POINTERS = ("/dealer", "/leader", "/to_move", "/last_taker", "/ending/seat", "/trick/leader")


def _check_seat_numbers(state: State) -> None:
    """Every seat number names a seat at the table (the schema only knows the largest table)."""
    seats, ending, trick = state.seats, state.ending, state.trick
    values = [state.dealer, state.leader, state.to_move, state.last_taker,
              None if ending is None else ending.seat]
    if trick is not None:
        values += [trick.leader, *(p.seat for p in trick.plays)]
    for index, value in enumerate(values):
        if value is not None and value >= seats:
            at = _SEAT_POINTERS[index] if index < 6 else f"/trick/plays/{index - 6}/seat"
            raise InvalidState(at, "seats are 0..{last}", last=seats - 1)


def _found(state: State) -> list[Card]:
    found = [*chain.from_iterable(state.hands), *state.stock, *chain.from_iterable(state.won)]
    if state.trick is not None:
        found += chain.from_iterable(p.cards for p in state.trick.plays)
    return found


def _zones(state: State) -> list[tuple[str, tuple[Card, ...]]]:
    zones = [(f"/hands/{s}", h) for s, h in enumerate(state.hands)]
    zones.append(("/stock", state.stock))
    if state.trick is not None:
        zones += [(f"/trick/plays/{i}/cards", p.cards) for i, p in enumerate(state.trick.plays)]
    zones += [(f"/won/{s}", w) for s, w in enumerate(state.won)]
    return zones


def _check_stock_and_hands(state: State, variant: Variant) -> None:
    if state.stock and state.stock[-1] is not state.trump_card:
        raise InvalidState(f"/stock/{len(state.stock) - 1}", "the face-up trump card is drawn last")
    in_trick = [0] * state.seats
    for play in state.trick.plays if state.trick else ():
        in_trick[play.seat] += len(play.cards)
    for seat, hand in enumerate(state.hands):
        if len(hand) > variant.hand_size:
            raise InvalidState(f"/hands/{seat}", "a hand holds at most {count} cards",
                               count=variant.hand_size)
        if state.stock and len(hand) + in_trick[seat] != variant.hand_size:
            raise InvalidState(f"/hands/{seat}", "while the stock lasts, hands are refilled to {count} cards",
                               count=variant.hand_size)


def _check_trick(state: State, variant: Variant, trick: Trick) -> None:
    if state.phase not in (Phase.PLAY, Phase.OVER):
        raise InvalidState("/trick", "a trick is under way only while the cards are played")
    lead = trick.plays[0]
    if lead.seat != trick.leader or trick.leader != state.leader:
        raise InvalidState("/trick/plays/0/seat", "the lead is played by the trick's leader")
    if len(lead.cards) not in variant.lead_sizes or len({c.suit for c in lead.cards}) != 1:
        raise InvalidState("/trick/plays/0/cards", "a lead is cards of one suit, of an allowed number")
    if not lead.beat or lead.face_down:
        raise InvalidState("/trick/plays/0", "the lead is face up and winning (beat: true)")
    played = {p.seat for p in trick.plays}
    order = [s for s in clockwise(trick.leader, state.seats)[1:] if s in played or state.hands[s]]
    winning = lead
    for index, play in enumerate(trick.plays[1:], start=1):
        at = f"/trick/plays/{index}"
        if index > len(order):
            raise InvalidState(at, "every seat has already answered this trick")
        if play.seat != order[index - 1]:
            raise InvalidState(f"{at}/seat", "{seat} answers here (clockwise)", seat=Seat(order[index - 1]))
        if len(play.cards) != trick.size and state.hands[play.seat]:
            raise InvalidState(f"{at}/cards",
                               "an answer is as many cards as led ({count}), unless it empties the hand",
                               count=trick.size)
        beats = beats_set(play.cards, winning.cards, trump_suit=state.trump, order=RANK_ORDER)
        if play.beat and not beats:
            raise InvalidState(f"{at}/beat", "these cards do not beat the winning set")
        if play.face_down != (not play.beat and variant.face_down_discards):
            raise InvalidState(f"{at}/face_down", "only discards lie face down, and only without open play")
        winning = play if play.beat else winning
    remaining = order[len(trick.plays) - 1:]
    if state.phase == Phase.OVER:  # a claim or a combination may end the hand mid-trick
        return
    if not remaining or state.to_move != remaining[0]:
        raise InvalidState("/to_move", "the next seat clockwise that has not answered is to move")


def _check_last_taker(state: State) -> None:
    taken = any(state.won)
    if (state.last_taker is None) == taken:
        raise InvalidState("/last_taker", "last_taker is the seat that took the last trick, or null")
    if state.last_taker is not None and not state.won[state.last_taker]:
        raise InvalidState("/last_taker", "that seat has taken no trick")

