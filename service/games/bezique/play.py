"""Bezique's effects, docs/rules/bezique.md §4-§5: a card played, the trick won, a declaration's
cards shown and scored, the trump exchange, and the draw that closes each declaration window (the
hand's end is ``scoring``'s). Only called with a move that ``rules.check`` accepted."""

from __future__ import annotations

from service.cards import CARDS, Card, without
from service.games.base import Event, evolve, replace_at
from service.games.bezique import declarations as decl
from service.games.bezique.declarations import LADDERED
from service.games.bezique.rules import (
    Declare,
    ExchangeTrump,
    Exposed,
    Move,
    Options,
    Phase,
    Play,
    Played,
    State,
    exposed_card,
    extra_count,
    next_active,
    rank_order,
)
from service.games.bezique.scoring import finish, result
from service.games.tricks import draw_events


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The next state; only called with a move that ``check`` accepted."""
    if isinstance(move, Play):
        return _play(state, move)
    if isinstance(move, ExchangeTrump):
        return _exchange(state, move.seat)
    if isinstance(move, Declare):
        state, event = _declare(state, move)
        return _close_window(state, [event])
    return _close_window(evolve(state, declared_in_window=True), [Event("passed", move.seat)])


def _play(state: State, move: Play) -> tuple[State, list[Event]]:
    seat = move.seat
    if move.exposed_id is not None:
        shown = exposed_card(state, seat, move.exposed_id)
        assert shown is not None  # check() refused anything else
        played = Played(seat, shown.card, shown.as_, "table")
        state = evolve(state, exposed=replace_at(state.exposed, seat, tuple(
            e for e in state.exposed[seat] if e.id != move.exposed_id)))
        event = Event("table_card_played", seat, (played.card,))
    else:
        card = move.card
        assert card is not None
        played = Played(seat, card, move.as_ or card, "hand")
        state = evolve(state, hands=replace_at(state.hands, seat, without(state.hands[seat], [card])))
        event = Event("card_played", seat, (played.card,))
    trick = (*state.trick, played)
    events = [event]
    if len(trick) < len(state.active):
        return evolve(state, trick=trick, phase=Phase.FOLLOW, to_move=next_active(state.active, seat)), events
    return _resolve(evolve(state, trick=trick), events)


def beats(card: Card, best: Card, trump: str, order: dict[str, int]) -> bool:
    """§5.1: a trump covers a plain card; a higher card of the same suit covers."""
    if card.suit == trump and best.suit != trump:
        return True
    return card.suit == best.suit and order[card.rank] > order[best.rank]


def trick_winner(trick: tuple[Played, ...], trump: str, options: Options) -> int:
    order = rank_order(options)
    best = trick[0]
    for played in trick[1:]:
        if beats(played.as_, best.as_, trump, order):
            best = played
    return best.seat


def _resolve(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """§5.2: the winner takes the cards and may declare before the draw."""
    winner = trick_winner(state.trick, state.trump_suit, state.options)
    taken = tuple(p.card for p in state.trick)
    events.append(Event("trick_won", winner, taken))
    return evolve(
        state, won_cards=replace_at(state.won_cards, winner, state.won_cards[winner] + taken), trick=(),
        tricks_played=state.tricks_played + 1, phase=Phase.DECLARE, declared_in_window=False,
        leader=winner, to_move=winner, trick_winner=winner,
    ), events


def _declare(state: State, move: Declare) -> tuple[State, Event]:
    """§4.3 effects: the hand cards go on the table with new ids; the table cards used gain the
    kind; the points of §7.1."""
    seat, kind = move.seat, move.declaration
    c = extra_count(state, seat, kind) + 1 if kind in decl.EXTRA_OF else 0
    ladder = LADDERED.index(kind) if kind in LADDERED else None
    counts = state.decl_counts[seat]
    gained = decl.points(kind, 0 if ladder is None else counts[ladder], move.multiplicity, c)
    used = set(move.from_table)
    tagged = tuple(e._replace(tags=e.tags | {kind}) if e.id in used else e for e in state.exposed[seat])
    first = state.next_exposed_id
    new = tuple(Exposed(first + i, card, as_ or card, frozenset([kind]))
                for i, (card, as_) in enumerate(move.from_hand))
    if ladder is not None:
        counts = replace_at(counts, ladder, counts[ladder] + 1)
    laid = tuple(card for card, _ in move.from_hand)
    hand = without(state.hands[seat], laid)
    return evolve(
        state, hands=replace_at(state.hands, seat, hand),
        exposed=replace_at(state.exposed, seat, tagged + new), next_exposed_id=first + len(new),
        decl_counts=replace_at(state.decl_counts, seat, counts),
        scores=replace_at(state.scores, seat, state.scores[seat] + gained),
        last_declared_after_trick=replace_at(state.last_declared_after_trick, seat, state.tricks_played),
        declared_in_window=True,
    ), Event("declared", seat, laid, gained, kind=kind)


def _exchange(state: State, seat: int) -> tuple[State, list[Event]]:
    """§4.4: the trump nine and the turned card change places."""
    nine, turned = CARDS["9" + state.trump_suit], state.stock[-1]
    hand = (*without(state.hands[seat], [nine]), turned)
    scores = replace_at(state.scores, seat, state.scores[seat] + state.options.exchange_points)
    # an event for each card's way: the nine out of the hand, the turned card into it
    return evolve(state, hands=replace_at(state.hands, seat, hand), stock=(*state.stock[:-1], nine),
                  scores=scores), [Event("trump_exchanged", seat, (nine,), state.options.exchange_points),
                                   Event("trump_card_taken", seat, (turned,))]


def _close_window(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """§5.3: everyone draws, the winner first; the hand ends when the stock cannot serve all."""
    active, winner = state.active, state.leader
    start = active.index(winner)
    order = active[start:] + active[:start]
    draws = list(zip(order, state.stock, strict=False))
    hands = list(state.hands)
    for seat, card in draws:
        hands[seat] = (*hands[seat], card)
    events += draw_events(state.stock, draws)
    stock = state.stock[len(order):]
    state = evolve(state, hands=tuple(hands), stock=stock, trick_winner=None, phase=Phase.LEAD)
    if len(stock) >= len(active):
        return state, events
    state = finish(state)
    winners = result(state).hand_winners
    events.append(Event("hand_over", winners[0] if len(winners) == 1 else None))
    return state, events
