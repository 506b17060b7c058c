"""Kozel states to and from the wire, the consistency check, and a seat's view."""

from __future__ import annotations

from itertools import chain

from service.cards import CARDS, Card, codes, pile
from service.errors import InvalidState
from service.games.base import Status, Wire, check_deck, check_derived, options_wire
from service.games.kozel import rules
from service.games.kozel.rules import HAND_SIZE, SEATS, TEAMS, Options, Phase, State


def load_options(wire: Wire) -> Options:
    return Options(**wire)


def load_state(wire: Wire) -> State:
    received = wire.get("received_trump")
    state = State(
        options=load_options(wire.get("options", {})), dealer=wire["dealer"], trump=wire["trump"],
        phase=Phase(wire["phase"]), first_leader=wire["first_leader"],
        hands=tuple(pile(h) for h in wire["hands"]), to_move=wire["to_move"],
        undealt=pile(wire.get("undealt", [])), turned=pile(wire.get("turned", [])),
        trick=tuple((t["seat"], CARDS[t["card"]]) for t in wire["trick"]),
        won=(pile(wire["won"][0]), pile(wire["won"][1])),
        exchange_done=tuple(wire.get("exchange_done", [False, False])), visit=wire.get("visit", 0),
        received_trump=None if received is None else CARDS[received],
        qc_captured_team=wire.get("qc_captured_team"), first_deal=wire.get("first_deal", False),
        named_by=wire.get("named_by"),
    )
    zones = _zones(state)
    check_deck(rules.DECK, list(chain.from_iterable(pile for _, pile in zones)), lambda: zones)
    if state.received_trump is not None and state.phase != Phase.EXCHANGE:
        raise InvalidState("/received_trump", "a trump is only in transit during the exchange")
    PHASE_CHECKS[state.phase](state)
    _check_won(state)
    check_derived(wire, _derived(state))
    return state


def _zones(state: State) -> list[tuple[str, tuple[Card, ...]]]:
    return [
        *((f"/hands/{s}", h) for s, h in enumerate(state.hands)),
        ("/undealt", state.undealt),
        ("/trick", tuple(c for _, c in state.trick)),
        ("/won/0", state.won[0]),
        ("/won/1", state.won[1]),
    ]


def _sizes(state: State) -> list[int]:
    return [len(h) for h in state.hands]


def _require(condition: bool, pointer: str, message: str) -> None:
    if not condition:
        raise InvalidState(pointer, message)


def _check_naming(state: State) -> None:
    left = (state.dealer + 1) % SEATS
    _require(state.trump is None, "/trump", "trump is not named yet")
    _require(not state.trick and not any(state.won), "/trick", "no card is played before trump")
    _require(state.to_move == state.first_leader == state.named_by, "/to_move",
             "the seat naming trump is to move and leads first")
    if state.undealt:  # three cards to the left; the rest waits for the deal order
        _require(state.first_leader == left, "/first_leader", "the dealer's left names trump")
        _require(_sizes(state) == [3 if s == left else 0 for s in range(SEATS)], "/hands",
                 "only the dealer's left holds cards: three")
    else:  # the jack of clubs names trump in a match's first deal
        _require(state.first_deal and state.options.jack_of_clubs_first_deal, "/phase",
                 "without undealt cards, only the jack of clubs names trump (first deal, option on)")
        _require(_sizes(state) == [HAND_SIZE] * SEATS, "/hands", "every seat holds 8 cards")
        _require(rules.JACK_OF_CLUBS in state.hands[state.first_leader], "/first_leader",
                 "the holder of the jack of clubs names trump")


def _check_trump_known(state: State) -> None:
    _require(state.trump is not None, "/trump", "trump is named before the exchange and play")
    _require(not state.undealt, "/undealt", "every card is dealt once trump is named")


def _check_exchange(state: State) -> None:
    _check_trump_known(state)
    _require(state.options.lone_trump_exchange, "/phase", "the exchange is off")
    _require(not state.trick and not any(state.won), "/trick", "no card is played in the exchange")
    _require(0 <= state.visit < SEATS, "/visit", "the exchange visits seats 0..3 from the first leader")
    visited = (state.first_leader + state.visit) % SEATS
    sizes = _sizes(state)
    if state.received_trump is None:
        _require(state.to_move == visited and rules.eligible(state, visited), "/to_move",
                 f"seat {visited} is visited and must hold a lone trump")
        _require(sizes == [HAND_SIZE] * SEATS, "/hands", "every seat holds 8 cards")
    else:
        taker = rules.partner(visited)
        _require(state.to_move == taker, "/to_move", "the partner gives a card back")
        _require(state.received_trump in state.hands[taker], "/received_trump",
                 "the received trump is in the partner's hand")
        _require(sizes[visited] == HAND_SIZE - 1 and sizes[taker] == HAND_SIZE + 1, "/hands",
                 "the giver holds 7 cards and the partner 9")


def _check_play(state: State) -> None:
    _check_trump_known(state)
    played = state.tricks_played
    leader = state.trick[0][0] if state.trick else state.to_move
    for index, (seat, _) in enumerate(state.trick):
        _require(leader is not None and seat == (leader + index) % SEATS, f"/trick/{index}/seat",
                 "cards are played clockwise from the leader")
    if leader is None:
        raise InvalidState("/to_move", "a seat is to move during play")
    _require(state.to_move == (leader + len(state.trick)) % SEATS, "/to_move",
             "the next seat clockwise is to move")
    for seat, hand in enumerate(state.hands):
        in_trick = any(s == seat for s, _ in state.trick)
        _require(len(hand) == HAND_SIZE - played - in_trick, f"/hands/{seat}",
                 f"after {played} tricks this hand holds {HAND_SIZE - played - in_trick} cards")
    if played == 0 and not state.trick:
        _require(state.to_move == state.first_leader, "/to_move", "the first leader leads first")


def _check_over(state: State) -> None:
    _check_trump_known(state)
    _require(state.to_move is None, "/to_move", "nobody moves once the hand is over")
    _require(not any(state.hands) and not state.trick, "/hands", "the hand is over when all is played")


PHASE_CHECKS = {Phase.NAME_TRUMP: _check_naming, Phase.EXCHANGE: _check_exchange, Phase.PLAY: _check_play,
                Phase.OVER: _check_over}


def _check_won(state: State) -> None:
    _require(len(state.won[0]) % SEATS == 0 and len(state.won[1]) % SEATS == 0, "/won",
             "teams take whole tricks of four cards")
    capture = state.qc_captured_team
    taken = state.won[0] + state.won[1]
    if capture is not None:
        _require(rules.QUEEN_OF_CLUBS in taken and rules.SEVEN_OF_CLUBS in taken, "/qc_captured_team",
                 "the queen and the seven of clubs have both been played")


def _derived(state: State) -> Wire:
    return {
        "status": Status.of(finished=state.phase == Phase.OVER),
        "teams": [list(team) for team in TEAMS],
        "points": [state.points(0), state.points(1)],
        "tricks_played": state.tricks_played,
    }


def _public(state: State) -> Wire:
    return {
        "game": "kozel", "seats": SEATS, "dealer": state.dealer, "to_move": state.to_move,
        **_derived(state), "options": options_wire(state.options), "trump": state.trump,
        "phase": str(state.phase), "first_leader": state.first_leader, "turned": codes(state.turned),
        "trick": [{"seat": s, "card": c.code} for s, c in state.trick],
        "won": [codes(state.won[0]), codes(state.won[1])],
        "exchange_done": list(state.exchange_done), "visit": state.visit,
        "qc_captured_team": state.qc_captured_team, "first_deal": state.first_deal,
        "named_by": state.named_by,
    }


def dump_state(state: State) -> Wire:
    received = state.received_trump
    return {**_public(state), "hands": [codes(h) for h in state.hands], "undealt": codes(state.undealt),
            "received_trump": None if received is None else received.code}


def view(state: State, seat: int | None) -> Wire:
    """Own hand only (partners do not see each other's); the turned cards; everything played.
    The lone trump passed face down is known to the two partners involved."""
    received = state.received_trump
    involved = seat is not None and state.to_move is not None and rules.team_of(seat) == rules.team_of(
        state.to_move)
    return {
        **_public(state), "seat": seat,
        "hand": None if seat is None else codes(state.hands[seat]),
        "hand_sizes": _sizes(state), "undealt_size": len(state.undealt),
        "received_trump": received.code if received is not None and involved else None,
    }
