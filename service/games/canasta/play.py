"""Canasta's moves and their effects, docs/rules/canasta.md §4-§6: ``apply`` gives the next state
and its events for a move that ``check`` accepted. A discard that leaves the next seat an empty
stock and no pile it may take ends the hand (§4.11): the legal-moves list answers that question
(``listing.any_take``), so this module comes after it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from service.cards import JOKER, Card, without
from service.games.base import Event, evolve, replace_at
from service.games.canasta import melds as m
from service.games.canasta import moves as mv
from service.games.canasta.listing import any_take
from service.games.canasta.rules import Group, Phase, Result, State, TurnInfo, placed
from service.games.canasta.scoring import end, went_out
from service.games.seating import left_of


def apply(state: State, move: mv.Move) -> tuple[State, list[Event]]:
    """The next state; only called with a move that ``check`` accepted."""
    return APPLY[type(move)](state, move)


def _draw(state: State, move: mv.Draw) -> tuple[State, list[Event]]:
    """§4.2: red threes drawn are laid out and replaced by the next card; a red three that was the
    stock's last card ends the hand (and when it was the only card drawn, no ``drew`` is told)."""
    seat, stock = move.seat, list(state.stock)
    drawn: list[Card] = []
    threes: list[Card] = []
    while len(drawn) < state.table.draw and stock:
        card = stock.pop(0)
        (threes if m.is_red_three(card, state.variant) else drawn).append(card)
    last_was_three = not stock and m.is_red_three(state.stock[-1], state.variant)
    told = [Event("drew", seat, tuple(drawn))] if drawn else []  # none drawn: only red threes, the last
    events = [*told, *(Event("red_three_laid", seat, (c,)) for c in threes)]
    state = evolve(state, stock=tuple(stock),
                   hands=replace_at(state.hands, seat, (*state.hands[seat], *drawn)),
                   red_threes=replace_at(state.red_threes, seat, (*state.red_threes[seat], *threes)))
    if last_was_three:
        return end(state, Result("red_three_last")), [*events, Event("hand_over", None)]
    return evolve(state, phase=Phase.PLAY, turn_info=evolve(state.turn_info, drew="stock")), events


def _lay(state: State, seat: int, groups: Sequence[Group], *, from_hand: Sequence[Card],
         into_hand: Sequence[Card] = ()) -> State:
    """Groups onto the side's melds: ``from_hand`` leaves the hand (and a taken pile's cards
    ``into_hand`` join it)."""
    side = state.side_of(seat)
    info = state.turn_info
    info = evolve(info, melded_this_turn=True,
                  added_to_old=info.added_to_old or any(g.key in info.keys_at_start for g in groups))
    hand = (*without(state.hands[seat], from_hand), *into_hand)
    return evolve(state, hands=replace_at(state.hands, seat, hand),
                  melds=replace_at(state.melds, side, placed(state.melds[side], groups)), turn_info=info)


def _take_rest(state: State, seat: int, rest: Sequence[Card]) -> tuple[State, list[Card], list[Event]]:
    """The pile's other cards: red threes to the seat's area, without replacement (§4.3); the cards
    kept for the hand, and the threes' events."""
    threes = [c for c in rest if m.is_red_three(c, state.variant)]
    kept = [c for c in rest if not m.is_red_three(c, state.variant)]
    state = evolve(state, red_threes=replace_at(state.red_threes, seat, (*state.red_threes[seat], *threes)),
                   pile=(), pile_frozen=False, phase=Phase.PLAY)
    return state, kept, [Event("red_three_laid", seat, (c,)) for c in threes]


def _take_pile(state: State, move: mv.TakePile) -> tuple[State, list[Event]]:
    top = state.pile[0]
    state, kept, laid = _take_rest(state, move.seat, state.pile[1:])
    groups = (Group(str(top.rank), (top, *move.top_cards)), *move.melds)
    named = [*move.top_cards, *(c for g in move.melds for c in g.cards)]
    state = _lay(state, move.seat, groups, from_hand=named, into_hand=kept)
    state = evolve(state, turn_info=evolve(state.turn_info, drew="pile"))
    return _after_laying(state, move.seat, _taken("took_pile", move.seat, top, kept, laid, melded=named))


def _take_upcard(state: State, move: mv.TakeUpcard) -> tuple[State, list[Event]]:
    """§4.4: the whole pile, for the natural cards shown (or, by the option, melded with it)."""
    top = state.pile[0]
    if state.options.first_take_mode == "meld_no_minimum":
        state, kept, laid = _take_rest(state, move.seat, state.pile[1:])
        state = _lay(state, move.seat, [Group(str(top.rank), (top, *move.show))], from_hand=move.show,
                     into_hand=kept)
        events = _taken("took_upcard", move.seat, top, kept, laid, melded=move.show)
        return _after_laying(evolve(state, turn_info=evolve(state.turn_info, drew="pile")), move.seat, events)
    state, kept, laid = _take_rest(state, move.seat, state.pile)
    hand = (*state.hands[move.seat], *kept)
    events = [Event("took_upcard", move.seat, tuple(kept)), *laid,
              Event("naturals_shown", move.seat, move.show)]
    return evolve(state, hands=replace_at(state.hands, move.seat, hand),
                  turn_info=evolve(state.turn_info, drew="upcard")), events


def _taken(kind: str, seat: int, top: Card, kept: Sequence[Card], laid: list[Event], *,
           melded: Sequence[Card]) -> list[Event]:
    """A pile taken and its top card melded at once: told as if the top card joined the hand and
    left it with the hand's cards, so that every card is told with the hand it enters or leaves."""
    return [Event(kind, seat, (top, *kept)), *laid, Event("melded", seat, (top, *melded))]


def _meld(state: State, move: mv.Meld) -> tuple[State, list[Event]]:
    named = [c for g in move.melds for c in g.cards]
    state = _lay(state, move.seat, move.melds, from_hand=named)
    state = evolve(state, turn_info=evolve(state.turn_info, actions=state.turn_info.actions + 1))
    return _after_laying(state, move.seat, [Event("melded", move.seat, tuple(named))])


def _after_laying(state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
    return (state, events) if state.hands[seat] else _out(state, seat, events)


def _out(state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
    """§4.10: the seat has laid or discarded its last card, and the hand is over."""
    return went_out(state, seat), [*events, Event("went_out", seat), Event("hand_over", None)]


def _exchange(state: State, move: mv.ExchangeJoker) -> tuple[State, list[Event]]:
    """§4.6: the joker to the hand, the natural card into the opponent's meld in its place."""
    theirs = dict(state.melds[move.from_side])
    theirs[move.rank] = (*without(theirs[move.rank], [JOKER]), move.card)
    hand = (*without(state.hands[move.seat], [move.card]), JOKER)
    info = evolve(state.turn_info, actions=state.turn_info.actions + 1)
    return evolve(state, hands=replace_at(state.hands, move.seat, hand), turn_info=info,
                  melds=replace_at(state.melds, move.from_side, theirs)), [
        Event("joker_exchanged", move.seat, (move.card,)), Event("joker_taken", move.seat, (JOKER,))]


def _discard(state: State, move: mv.Discard) -> tuple[State, list[Event]]:
    """§4.7: the discard ends the turn, or the hand when it was the last card."""
    seat = move.seat
    state = evolve(state, hands=replace_at(state.hands, seat, without(state.hands[seat], [move.card])),
                   pile=(move.card, *state.pile), pile_frozen=state.pile_frozen or m.is_wild(move.card))
    events = [Event("discarded", seat, (move.card,))]
    if not state.hands[seat]:
        return _out(state, seat, events)
    return _next_turn(state, seat, events)


def _next_turn(state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
    """The next seat's draw, or the hand's end when the stock is gone and that seat may not take
    the pile (§4.11)."""
    nxt = left_of(seat, state.seats)
    melded = state.has_melded[seat] or state.turn_info.melded_this_turn
    state = evolve(
        state, has_melded=replace_at(state.has_melded, seat, melded),
        turn=nxt, to_move=nxt, turn_index=state.turn_index + 1, phase=Phase.DRAW,
        turn_info=TurnInfo(keys_at_start=frozenset(state.melds[state.side_of(nxt)])),
    )
    if not state.stock and not any_take(state, nxt):
        return end(state, Result("stock_exhausted")), [*events, Event("hand_over", None)]
    return state, events


def _ask(state: State, move: mv.AskGoOut) -> tuple[State, list[Event]]:
    return evolve(state, phase=Phase.AWAIT_ANSWER, to_move=left_of(move.seat, state.seats, 2),
                  turn_info=evolve(state.turn_info, asked=True)), [Event("asked_to_go_out", move.seat)]


def _answer(state: State, move: mv.AnswerGoOut) -> tuple[State, list[Event]]:
    return evolve(state, phase=Phase.PLAY, to_move=state.turn,
                  turn_info=evolve(state.turn_info, permission="yes" if move.answer else "no")), [
        Event("answered", move.seat, kind="yes" if move.answer else "no")]


def _decline(state: State, move: mv.DeclinePile) -> tuple[State, list[Event]]:
    events = [Event("declined_pile", move.seat), Event("hand_over", None)]
    return end(state, Result("stock_exhausted")), events


APPLY: dict[type, Callable[[State, Any], tuple[State, list[Event]]]] = {
    mv.Draw: _draw, mv.TakePile: _take_pile, mv.TakeUpcard: _take_upcard, mv.Meld: _meld,
    mv.ExchangeJoker: _exchange, mv.Discard: _discard, mv.AskGoOut: _ask, mv.AnswerGoOut: _answer,
    mv.DeclinePile: _decline,
}
