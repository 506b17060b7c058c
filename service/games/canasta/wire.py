"""Canasta states and moves to and from the wire, the consistency check, and a seat's view."""

from __future__ import annotations

from itertools import chain

from service.cards import CARDS, Card, codes, pile
from service.errors import InvalidState
from service.games.base import Status, Wire, check_deck, check_derived, options_wire
from service.games.canasta import families, rules
from service.games.canasta import melds as m
from service.games.canasta.rules import (
    AnswerGoOut,
    AskGoOut,
    DeclinePile,
    Discard,
    Draw,
    ExchangeJoker,
    Group,
    Meld,
    Move,
    Options,
    Phase,
    Result,
    State,
    TakePile,
    TakeUpcard,
    TurnInfo,
)


def load_options(wire: Wire) -> Options:
    return Options(**wire)


# --- moves -------------------------------------------------------------------------------------


def _groups(wire: list[Wire]) -> tuple[Group, ...]:
    return tuple(Group(g["rank"], pile(g["cards"])) for g in wire)


def load_move(wire: Wire) -> Move:
    kind, seat = wire["type"], wire["seat"]
    if kind == TakePile.kind:
        return TakePile(seat, pile(wire.get("top_cards", ())), _groups(wire.get("melds", [])))
    if kind == TakeUpcard.kind:
        return TakeUpcard(seat, pile(wire["show"]))
    if kind == Meld.kind:
        return Meld(seat, _groups(wire["melds"]))
    if kind == ExchangeJoker.kind:
        return ExchangeJoker(seat, wire["from_side"], wire["rank"], CARDS[wire["cards"][0]])
    if kind == Discard.kind:
        return Discard(seat, CARDS[wire["cards"][0]])
    if kind == AnswerGoOut.kind:
        return AnswerGoOut(seat, wire["answer"])
    simple: dict[str, type[Draw | AskGoOut | DeclinePile]] = {
        Draw.kind: Draw, AskGoOut.kind: AskGoOut, DeclinePile.kind: DeclinePile}
    return simple[kind](seat)


def _groups_wire(groups: tuple[Group, ...]) -> list[Wire]:
    return [{"rank": g.key, "cards": codes(g.cards)} for g in groups]


def dump_move(move: Move) -> Wire:
    wire: Wire = {"seat": move.seat, "type": move.kind}
    if isinstance(move, TakePile):
        wire.update(top_cards=codes(move.top_cards), melds=_groups_wire(move.melds))
    elif isinstance(move, TakeUpcard):
        wire["show"] = codes(move.show)
    elif isinstance(move, Meld):
        wire["melds"] = _groups_wire(move.melds)
    elif isinstance(move, ExchangeJoker):
        wire.update(from_side=move.from_side, rank=move.rank, cards=[move.card.code])
    elif isinstance(move, Discard):
        wire["cards"] = [move.card.code]
    elif isinstance(move, AnswerGoOut):
        wire["answer"] = move.answer
    return wire


def _choice_wire(group: families.GroupChoice) -> Wire:
    return {"rank": group.key, "naturals": codes(group.naturals), "least": group.least,
            "most_wild": group.most_wild, "points": group.natural_points}


def dump_family(family: families.Family) -> Wire:
    low, high = family.cards_left
    return {"seat": family.seat, "type": family.kind,
            "top": _choice_wire(family.top) if family.top else None,
            "groups": [_choice_wire(g) for g in family.groups], "twos": codes(family.twos),
            "jokers": family.jokers, "two_points": family.two_points, "joker_points": family.joker_points,
            "top_card_points": family.top_card_points, "least_points": family.least_points,
            "cards": family.cards, "cards_left": {"least": low, "most": high},
            "least_canastas": family.least_canastas}


# --- states ------------------------------------------------------------------------------------


def _require(condition: bool, pointer: str, message: str) -> None:
    if not condition:
        raise InvalidState(pointer, message)


def _turn_info(wire: Wire) -> TurnInfo:
    return TurnInfo(wire["drew"], frozenset(wire["keys_at_start"]), wire["added_to_old"],
                    wire["melded_this_turn"], wire["actions"], wire["asked"], wire["permission"])


def _result(wire: Wire | None) -> Result | None:
    return None if wire is None else Result(wire["reason"], wire["went_out"], wire["concealed"])


def load_state(wire: Wire) -> State:
    options = load_options(wire.get("options", {}))
    seats = wire["seats"]
    _require(seats in rules.PLAYER_COUNTS[options.variant], "/seats",
             f"{options.variant} is played by {rules.PLAYER_COUNTS[options.variant]} players")
    sides = rules.table(seats, options.variant).sides.count
    for name, count in (("hands", seats), ("red_threes", seats), ("has_melded", seats),
                        ("side_scores", sides), ("melds", sides)):
        per = "seat" if count == seats else "side"
        _require(len(wire[name]) == count, f"/{name}", f"one entry per {per}: {count}")
    _require(wire["dealer"] < seats, "/dealer", f"seats are 0..{seats - 1}")
    _require(wire["turn"] < seats, "/turn", f"seats are 0..{seats - 1}")
    state = State(
        options=options, seats=seats, dealer=wire["dealer"], side_scores=tuple(wire["side_scores"]),
        hands=tuple(pile(h) for h in wire["hands"]), stock=pile(wire["stock"]), pile=pile(wire["pile"]),
        pile_frozen=wire["pile_frozen"],
        melds=tuple({key: pile(cards) for key, cards in side.items()} for side in wire["melds"]),
        red_threes=tuple(pile(r) for r in wire["red_threes"]), turn=wire["turn"], to_move=wire["to_move"],
        phase=Phase(wire["phase"]), turn_index=wire["turn_index"], has_melded=tuple(wire["has_melded"]),
        turn_info=_turn_info(wire["turn_info"]), result=_result(wire.get("result")),
    )
    _check_cards(state)
    _check_melds(state)
    _check_turn(state)
    check_derived(wire, _derived(state))
    return state


def _zones(state: State) -> list[tuple[str, tuple[Card, ...]]]:
    return [
        ("/stock", state.stock), ("/pile", state.pile),
        *((f"/hands/{s}", h) for s, h in enumerate(state.hands)),
        *((f"/red_threes/{s}", r) for s, r in enumerate(state.red_threes)),
        *((f"/melds/{side}/{key}", cards)
          for side, melds in enumerate(state.melds) for key, cards in melds.items()),
    ]


def _check_cards(state: State) -> None:
    """Every card of the deck once as often as it holds it; red threes only laid out (or buried
    in the pile by the deal) where they are bonus cards."""
    found = [*state.stock, *state.pile, *chain.from_iterable(state.hands),
             *chain.from_iterable(state.red_threes),
             *(c for melds in state.melds for cards in melds.values() for c in cards)]
    check_deck(rules.full_deck(state.seats), found, lambda: _zones(state))
    special = m.threes_special(state.variant)
    for seat, hand in enumerate(state.hands):
        if special and not m.RED_THREES.isdisjoint(hand):
            raise InvalidState(f"/hands/{seat}", "a red three is laid out at once, never held")
    for seat, threes in enumerate(state.red_threes):
        if threes and not (special and m.RED_THREES.issuperset(threes)):
            raise InvalidState(f"/red_threes/{seat}", "only red threes are laid out here (none in seed_13)")
    _require(not state.pile or not m.is_red_three(state.pile[0], state.variant), "/pile/0",
             "a red three is never the pile's top card")
    _require(bool(state.pile) or not state.pile_frozen, "/pile_frozen", "an empty pile is not frozen")


def _check_melds(state: State) -> None:
    known = m.keys(state.variant)
    for side, melds in enumerate(state.melds):
        for key, cards in melds.items():
            if key not in known or not m.meld_valid(key, cards, state.variant):
                raise InvalidState(f"/melds/{side}/{key}", f"not a valid {key} meld of {state.variant}")
    for seat, melded in enumerate(state.has_melded):
        _require(not melded or bool(state.melds[state.side_of(seat)]), f"/has_melded/{seat}",
                 "a seat that has melded has a side with melds")


def _check_turn(state: State) -> None:
    phase, info, n = state.phase, state.turn_info, state.seats
    _require(state.turn == (state.dealer + 1 + state.turn_index) % n, "/turn",
             "turns go clockwise from the dealer's left: turn = dealer + 1 + turn_index")
    over = phase == Phase.HAND_OVER
    _require((state.result is not None) == over, "/result", "a result exactly once the hand is over")
    expected = None if over else (state.turn + 2) % n if phase == Phase.AWAIT_ANSWER else state.turn
    _require(state.to_move == expected, "/to_move", f"seat {expected} is to move")
    if over:
        _check_result(state)
        return
    for seat, hand in enumerate(state.hands):
        _require(bool(hand), f"/hands/{seat}", "a hand in progress leaves every player a card")
    _require(set(info.keys_at_start) <= set(state.melds[state.side_of(state.turn)]),
             "/turn_info/keys_at_start",
             "the side's melds when the turn began are still its melds")
    if phase == Phase.DRAW:
        _require(info == TurnInfo(keys_at_start=info.keys_at_start), "/turn_info",
                 "nothing has happened yet in a turn that is to draw")
        _require(info.keys_at_start == frozenset(state.melds[state.side_of(state.turn)]),
                 "/turn_info/keys_at_start", "the side's meld keys as the turn begins")
    else:
        _require(info.drew is not None, "/turn_info/drew", "the turn has drawn")
        _require(info.asked == (info.permission is not None) or phase == Phase.AWAIT_ANSWER,
                 "/turn_info/permission", "an answer only to a question")
    if phase == Phase.AWAIT_ANSWER:
        _require(info.asked and info.permission is None and state.options.ask_permission and n in (4, 6),
                 "/turn_info/asked", "a question is waiting for its answer")


def _check_result(state: State) -> None:
    result = state.result
    assert result is not None
    if result.reason == "went_out":
        seat = result.went_out
        _require(seat is not None and seat < state.seats and not state.hands[seat], "/result/went_out",
                 "the seat that went out holds no card")
    else:
        _require(result.went_out is None and not result.concealed, "/result/went_out",
                 "nobody went out")


def _derived(state: State) -> Wire:
    return {"status": Status.of(finished=state.phase == Phase.HAND_OVER),
            "teams": [list(state.table.sides.members(s)) for s in range(state.table.sides.count)]}


def _melds_wire(melds: rules.Melds) -> Wire:
    return {key: codes(melds[key]) for key in m.KEY_ORDER if key in melds}


def _public(state: State) -> Wire:
    info, result = state.turn_info, state.result
    return {
        "game": "canasta", "seats": state.seats, "dealer": state.dealer, "to_move": state.to_move,
        **_derived(state), "options": options_wire(state.options), "side_scores": list(state.side_scores),
        "pile": codes(state.pile), "pile_frozen": state.pile_frozen,
        "melds": [_melds_wire(melds) for melds in state.melds],
        "red_threes": [codes(r) for r in state.red_threes], "turn": state.turn, "phase": str(state.phase),
        "turn_index": state.turn_index, "has_melded": list(state.has_melded),
        "turn_info": {"drew": info.drew, "keys_at_start": [k for k in m.KEY_ORDER if k in info.keys_at_start],
                      "added_to_old": info.added_to_old, "melded_this_turn": info.melded_this_turn,
                      "actions": info.actions, "asked": info.asked, "permission": info.permission},
        "result": None if result is None else {"reason": result.reason, "went_out": result.went_out,
                                               "concealed": result.concealed},
    }


def dump_state(state: State) -> Wire:
    return {**_public(state), "hands": [codes(h) for h in state.hands], "stock": codes(state.stock)}


def view(state: State, seat: int | None) -> Wire:
    """API.md: the own hand; the other hands and the stock as counts; the pile, the melds and
    the red threes public."""
    return {**_public(state), "seat": seat, "hand": None if seat is None else codes(state.hands[seat]),
            "hand_sizes": [len(h) for h in state.hands], "stock_size": len(state.stock)}
