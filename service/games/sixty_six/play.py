"""Sixty-six's effects, §4.2-§5 of docs/rules/sixty-six.md: a move that ``rules.check`` accepted,
applied to the state, with the events it causes."""

from __future__ import annotations

from typing import cast

from service.games.base import Event, evolve
from service.games.sixty_six.rules import (
    HAND_SIZE,
    LAST_TRICK_BONUS,
    POINTS,
    RANK_ORDER,
    TARGET,
    Claim,
    Close,
    ClosedSnapshot,
    ExchangeTrump,
    Marriage,
    Move,
    Play,
    State,
    at_seat,
    earns_last_trick_bonus,
    points,
    trump_nine,
)
from service.games.sixty_six.scoring import result
from service.games.tricks import beats, card_points, draw_events, draw_round, without


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    if isinstance(move, Play):
        return _apply_play(state, move)
    if isinstance(move, Close):
        return _apply_close(state, move)
    if isinstance(move, ExchangeTrump):
        return _apply_exchange(state, move)
    return _apply_claim(state, move)


def _declare_marriage(state: State, seat: int, suit: str) -> tuple[State, Event]:
    """§4.2: 40 in trumps, 20 otherwise; pending until the declarer's first trick (D3)."""
    worth = 40 if suit == state.trump_suit else 20
    credited = bool(state.tricks_won[seat]) or not state.options.marriage_requires_trick
    marriages = at_seat(state.marriages, seat, (*state.marriages[seat], Marriage(suit, worth, credited)))
    state = evolve(state, marriages=marriages)
    if credited:
        state = note_66(state, seat)
    return state, Event("marriage_declared", seat, points=worth, suit=suit)


def _apply_play(state: State, move: Play) -> tuple[State, list[Event]]:
    seat, card = move.seat, move.card
    events = [Event("card_played", seat, (card,))]
    if move.marriage:
        state, event = _declare_marriage(state, seat, cast(str, card.suit))
        events.append(event)
    hands = at_seat(state.hands, seat, without(state.hands[seat], card))
    if not state.trick:
        return evolve(state, hands=hands, trick=((seat, card),), to_move=1 - seat), events
    return _resolve_trick(evolve(state, hands=hands, trick=(*state.trick, (seat, card))), events)


def _resolve_trick(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """§5: the winner takes the trick, pending marriages count, then both draw, winner first."""
    (leader, lead), (follower, reply) = state.trick
    winner = follower if beats(reply, lead, trump_suit=state.trump_suit, order=RANK_ORDER) else leader
    first_trick = not state.tricks_won[winner]
    tricks_won = at_seat(state.tricks_won, winner, (*state.tricks_won[winner], (lead, reply)))
    taken = card_points((lead, reply), POINTS)
    events.append(Event("trick_won", winner, (lead, reply), taken))
    stock, hands = state.stock, state.hands
    if stock and state.stock_closed_by is None:
        stock, drawn, draws = draw_round(stock, hands, first=winner, hand_size=HAND_SIZE)
        hands = (drawn[0], drawn[1])
        events += draw_events(state.stock, draws)
    over = not hands[0] and not hands[1]
    state = evolve(state, tricks_won=tricks_won, trick=(), stock=stock, hands=hands, leader=winner,
                   to_move=None if over else winner,
                   card_points=at_seat(state.card_points, winner, state.card_points[winner] + taken))
    if first_trick:
        state = _credit_marriages(state, winner)
    if earns_last_trick_bonus(state):
        state = evolve(state, bonus_points=at_seat(state.bonus_points, winner, LAST_TRICK_BONUS))
    state = note_66(state, winner)
    if over:
        events.append(Event("hand_over", result(state).winner))
    return state, events


def _credit_marriages(state: State, seat: int) -> State:
    pending = state.marriages[seat]
    if all(m.credited for m in pending):
        return state
    credited = tuple(evolve(m, credited=True) for m in pending)
    return evolve(state, marriages=at_seat(state.marriages, seat, credited))


def _apply_close(state: State, move: Close) -> tuple[State, list[Event]]:
    opponent = 1 - move.seat
    snapshot = ClosedSnapshot(points(state, opponent), len(state.tricks_won[opponent]))
    state = evolve(state, stock_closed_by=move.seat, closed_snapshot=snapshot)
    return state, [Event("stock_closed", move.seat)]


def _apply_exchange(state: State, move: ExchangeTrump) -> tuple[State, list[Event]]:
    """§4.4: the trump nine and the face-up card change places."""
    nine, face_up = trump_nine(state), state.trump_card
    hand = (*without(state.hands[move.seat], nine), face_up)
    state = evolve(
        state,
        trump_card=nine,
        stock=(*state.stock[:-1], nine),
        hands=at_seat(state.hands, move.seat, hand),
    )
    # an event for each card's way: the nine out of the hand, the face-up card into it
    return state, [Event("trump_exchanged", move.seat, (nine,)),
                   Event("trump_card_taken", move.seat, (face_up,))]


def _apply_claim(state: State, move: Claim) -> tuple[State, list[Event]]:
    """§4.5: an optional marriage is recorded, then the hand ends at once."""
    events: list[Event] = []
    if move.marriage_suit is not None:
        state, event = _declare_marriage(state, move.seat, move.marriage_suit)
        events.append(event)
    state = evolve(state, claimed_by=move.seat, to_move=None)
    events += [Event("claimed", move.seat), Event("hand_over", result(state).winner)]
    return state, events


def note_66(state: State, seat: int) -> State:
    """§6 first_to_66: the first seat whose points reach 66 keeps the title."""
    if state.first_to_66 is None and points(state, seat) >= TARGET:
        return evolve(state, first_to_66=seat)
    return state
