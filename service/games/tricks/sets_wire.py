"""Tricks of sets on the wire: the Bura family's states to and from their wire form, the
consistency checks both games share, the shared part of a seat's view, and the trick moves."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

from service.cards import CARDS, Card, codes, pile
from service.errors import InvalidState
from service.games.base import Status, Wire, check_deck
from service.games.seating import clockwise
from service.games.tricks import beats_set, card_points
from service.games.tricks.sets import (
    POINTS,
    RANK_ORDER,
    Ending,
    Lead,
    Molodka,
    Phase,
    Played,
    Respond,
    State,
    Trick,
    TrickMove,
    Variant,
)


def _trick(wire: Wire | None) -> Trick | None:
    if wire is None:
        return None
    plays = tuple(
        Played(p["seat"], pile(p["cards"]), p["beat"], p["face_down"]) for p in wire["plays"]
    )
    return Trick(wire["leader"], plays)


def load(wire: Wire, *, options: Any, deck: Sequence[Card], variant: Variant) -> State:
    """The shared fields, checked; pointers are relative to the state."""
    seats = wire["seats"]
    if options.players != seats:
        raise InvalidState("/options/players", "players must equal seats")
    for name in ("hands", "won"):
        if len(wire[name]) != seats:
            raise InvalidState(f"/{name}", f"{name} has one list per seat ({seats})")
    ending = wire.get("ending")
    _check_seat_numbers(wire, seats)
    won = tuple(map(pile, wire["won"]))
    state = State(
        options=options, seats=seats, dealer=wire["dealer"], trump_card=CARDS[wire["trump_card"]],
        stock=pile(wire["stock"]), hands=tuple(map(pile, wire["hands"])),
        won=won, leader=wire["leader"], to_move=wire["to_move"],
        trick=_trick(wire["trick"]), phase=Phase(wire["phase"]), passes=wire.get("passes", 0),
        ending=None if ending is None else Ending(ending["kind"], ending["seat"]),
        last_taker=wire.get("last_taker"), card_points=tuple([card_points(w, POINTS) for w in won]),
    )
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
    return state


_SEAT_POINTERS = ("/dealer", "/leader", "/to_move", "/last_taker", "/ending/seat", "/trick/leader")


def _check_seat_numbers(wire: Wire, seats: int) -> None:
    """Every seat number names a seat at the table (the schema only knows the largest table)."""
    ending, trick = wire.get("ending"), wire["trick"]
    values = [wire.get(name) for name in ("dealer", "leader", "to_move", "last_taker")]
    values.append(ending and ending["seat"])
    if trick is not None:
        values += [trick["leader"], *(p["seat"] for p in trick["plays"])]
    for index, value in enumerate(values):
        if value is not None and value >= seats:
            at = _SEAT_POINTERS[index] if index < 6 else f"/trick/plays/{index - 6}/seat"
            raise InvalidState(at, f"seats are 0..{seats - 1}")


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
            raise InvalidState(f"/hands/{seat}", f"a hand holds at most {variant.hand_size} cards")
        if state.stock and len(hand) + in_trick[seat] != variant.hand_size:
            raise InvalidState(f"/hands/{seat}",
                               f"while the stock lasts, hands are refilled to {variant.hand_size}")


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
            raise InvalidState(f"{at}/seat", f"seat {order[index - 1]} answers here (clockwise)")
        if len(play.cards) != trick.size and state.hands[play.seat]:
            raise InvalidState(f"{at}/cards", f"an answer is {trick.size} card(s)")
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


def status(state: State) -> str:
    return Status.of(finished=state.phase == Phase.OVER)


def _trick_wire(trick: Trick | None, *, hide_from: int | None = None, hide: bool = False) -> Wire | None:
    if trick is None:
        return None
    winning = trick.winning

    def cards(play: Played) -> list[str] | None:
        return None if hide and play.face_down and play.seat != hide_from else codes(play.cards)

    return {
        "leader": trick.leader,
        "size": trick.size,
        "plays": [{"seat": p.seat, "cards": cards(p), "beat": p.beat, "face_down": p.face_down}
                  for p in trick.plays],
        "winning_seat": winning.seat,
        "winning_set": codes(winning.cards),
    }


def dump(state: State, *, game: str, options: Wire) -> Wire:
    return {
        "game": game, "seats": state.seats, "dealer": state.dealer, "to_move": state.to_move,
        "status": status(state), "options": options,
        "trump": state.trump, "trump_card": state.trump_card.code, "stock": codes(state.stock),
        "hands": [codes(h) for h in state.hands], "won": [codes(w) for w in state.won],
        "points": list(state.card_points),
        "leader": state.leader, "trick": _trick_wire(state.trick), "phase": str(state.phase),
        "ending": None if state.ending is None else {"kind": state.ending.kind, "seat": state.ending.seat},
        "last_taker": state.last_taker,
    }


_PRIVATE = frozenset(("stock", "hands", "won", "trick", "trump_card", "points"))


def view(state: State, seat: int | None, *, dumped: Wire, face_down_play: bool) -> Wire:
    """A seat sees its own hand and won pile, hand and pile sizes, the stock's size and the trump
    card under it, and the trick; cards played face down only by the seat that played them.
    Other seats' won piles are shown only when every card is played face up. ``dumped`` is the
    state's wire form, whose other fields are public."""
    return {
        **{k: v for k, v in dumped.items() if k not in _PRIVATE},
        "seat": seat,
        "hand": None if seat is None else codes(state.hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "stock_size": len(state.stock),
        "trump_card": state.trump_card.code if state.stock else None,
        "won": [codes(w) if s == seat or not face_down_play else None for s, w in enumerate(state.won)],
        "won_sizes": [len(w) for w in state.won],
        "points": [state.points(s) if s == seat or not face_down_play else None
                   for s in range(state.seats)],
        "trick": _trick_wire(state.trick, hide_from=seat, hide=face_down_play),
    }


def load_trick_move(move: Wire) -> TrickMove:
    """A lead, molodka or answer (a move of one of those types) from the wire."""
    kind, seat, cards = move["type"], move["seat"], pile(move["cards"])
    if kind == Lead.kind:
        return Lead(seat, cards)
    if kind == Molodka.kind:
        return Molodka(seat, cards)
    return Respond(seat, cards, move.get("mode"))


def dump_trick_move(move: TrickMove) -> Wire:
    wire: Wire = {"seat": move.seat, "type": move.kind, "cards": codes(move.cards)}
    if isinstance(move, Respond):
        wire["mode"] = move.mode
    return wire


def check_match_seats(match: Wire, field: str, seats: int) -> None:
    if len(match[field]) != seats:
        raise InvalidState(f"/match/{field}", f"one entry per seat ({seats})")
