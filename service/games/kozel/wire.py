"""Kozel on the wire: the state, a seat's view, the moves, the hand's score and the match standing
(§3, §4, §7, §8 of docs/rules/kozel.md), each field declared once; their schemas, loaders and
dumpers are generated from the declarations (``service.wire.form``).

Written by hand: the consistency check a state passes before any rule runs. Input here has
already passed the JSON schema, so types and codes are right; what is checked is whether the
position can arise under the rules."""

from __future__ import annotations

from service.cards import Card, codes
from service.errors import InvalidState
from service.games import views
from service.games.base import EventType, Saying, Wire
from service.games.decks import check_deck
from service.games.kozel import rules
from service.games.kozel.rules import (
    HAND_SIZE,
    SEATS,
    TEAMS,
    GiveBack,
    GiveTrump,
    Move,
    NameTrump,
    Options,
    Pass,
    Phase,
    Play,
    State,
)
from service.games.kozel.scoring import HandResult, Match
from service.games.seating import left_of
from service.games.wired import STATUS, WireForm, declared
from service.i18n import N_
from service.wire.form import GameWire, Record, const, derived, field
from service.wire.kinds import BOOL, CARD, CARD_IN_LIST, SEAT, Int, Kind, ListOf, OneOf, PerSeat, Pile

WIRE = GameWire("Kozel", tuple(codes(rules.DECK)), max_seats=SEATS)
SUIT = OneOf(("C", "D", "H", "S"))
TEAM = PerSeat(SEAT, 2)
"""A team on the wire: its two seats."""
MULTIPLIER = Int(1, 1 << 20)


def per_team(kind: Kind) -> PerSeat:
    return PerSeat(kind, 2)


OPTIONS = WIRE.options(Options)

TRICK_CARD: Record[tuple[int, Card]] = WIRE.record("TrickCard", tuple, {
    "seat": field(SEAT),
    "card": field(CARD),
})


def _teams(state: State) -> tuple[tuple[int, ...], ...]:
    return TEAMS


def _points(state: State) -> tuple[int, int]:
    return state.points(0), state.points(1)


TABLE = {
    "game": const("kozel"),
    "seats": const(SEATS),
    "dealer": field(SEAT),
    "to_move": field(SEAT, nullable=True),
    "status": derived(STATUS, "finished", "derived"),
    "options": field(OPTIONS, default={}),
    "teams": derived(PerSeat(TEAM, 2), _teams, "always [[0, 2], [1, 3]]"),
    "trump": field(SUIT, "null until named", nullable=True),
    "phase": field(OneOf(Phase)),
    "first_leader": field(SEAT),
    "turned": field(Pile(0, 9), "cards shown to all while trump was fixed", default=[]),
    "trick": field(ListOf(TRICK_CARD, 0, 3)),
    "won": field(per_team(Pile(0, 32)), "per team"),
    "points": derived(per_team(Int(0, 120)), _points, "per team; derived"),
    "tricks_played": derived(Int(0, 8), "tricks_played", "derived"),
    "exchange_done": field(per_team(BOOL), default=[False, False]),
    "visit": field(Int(0, 4), "seats the lone-trump exchange has visited, from the first leader", default=0),
    "qc_captured_team": field(Int(0, 1), nullable=True, default=None),
    "first_deal": field(BOOL, "the match's first deal", default=False),
    "named_by": field(SEAT, "who names (named) trump: the dealer's left (three cards) or the JC holder",
                      nullable=True, default=None),
}
"""The fields the state and a seat's view share."""


STATE_FIELDS = {
    **TABLE,
    "hands": field(PerSeat(Pile(0, 9), SEATS)),
    "undealt": field(Pile(0, 29), "three-card method: the cards waiting for name_trump", default=[]),
    "received_trump": field(CARD, "the lone trump just given, while the partner's give_back is pending",
                            nullable=True, default=None),
}
STATE_DOC = "A Kozel hand; derived fields may be left out, and must agree when sent."
STATE = WIRE.record("State", State, STATE_FIELDS, STATE_DOC)


def _undealt_size(state: State, seat: int | None) -> int:
    return len(state.undealt)


def _received_trump(state: State, seat: int | None) -> Card | None:
    """The lone trump passed face down is known to the two partners involved."""
    mover = state.to_move
    if seat is None or mover is None or rules.team_of(seat) != rules.team_of(mover):
        return None
    return state.received_trump


VIEW_FIELDS = {
    "seat": derived(SEAT, views.seat, required=True, nullable=True),
    "hand": derived(Pile(0, 9), views.hand, required=True, nullable=True),
    "hand_sizes": derived(PerSeat(Int(0, 9), SEATS), views.hand_sizes, required=True),
    "undealt_size": derived(Int(0, 29), _undealt_size, required=True),
    "received_trump": derived(CARD, _received_trump, "shown to the two partners of a pending exchange only",
                              required=True, nullable=True),
}
"""Own hand only (partners do not see each other's); the turned cards; everything played."""
VIEW = WIRE.view(State, TABLE, VIEW_FIELDS)

MOVES = WIRE.moves_of({
    Play: ("Play a card to the trick.", {"cards": field(CARD_IN_LIST, attr="card")}),
    NameTrump: ("Name trump: a suit. In the three-card deal, name a suit or say \"by the last\", and say "
                "in what order the rest of the cards are dealt.", {
        "suit": field(SUIT, nullable=True, default=None),
        "by_last": field(BOOL, "three cards: the printed suit of the last card the namer receives",
                         default=False),
        "deal_order": field(ListOf(SEAT, SEATS, SEATS),
                            "three cards: the order in which the seats are dealt their packets",
                            nullable=True, default=None),
    }),
    GiveTrump: ("Pass your lone trump face down to your partner.",
                {"cards": field(CARD_IN_LIST, attr="card")}),
    GiveBack: ("Give your partner a card back for the trump: any card but that trump.",
               {"cards": field(CARD_IN_LIST, attr="card")}),
    Pass: ("Keep your lone trump: no exchange.", {}),
})

EVENTS = {
    "cards_dealt": EventType(
        "In the three-card deal, a player is dealt the rest of the hand, in the order the player naming "
        "trump chose.", cards=True, private=True, hand=1, says=Saying(
            "{seat} is dealt {cards}", you="You are dealt {cards}", hidden="{seat} is dealt {count}")),
    "trump_named": EventType("A player names trump.", suit=True, says=Saying(
        "{seat} names trump: {suit}", you="You name trump: {suit}")),
    "trump_given": EventType(
        "A player passes a lone trump face down to the partner.", cards=True, to=True, private=True,
        says=Saying("{seat} passes a lone trump to {to}: {cards}",
                    you="You pass your lone trump to {to}: {cards}",
                    hidden="{seat} passes a lone trump face down to {to}")),
    "card_given_back": EventType(
        "A player gives the partner a card back for the trump.", cards=True, to=True, private=True,
        says=Saying("{seat} gives {to} {cards} in return", you="You give {to} {cards} in return",
                    hidden="{seat} gives {to} a card in return")),
    "passed": EventType("A player keeps a lone trump and does not exchange it.", says=Saying(
        "{seat} keeps the lone trump", you="You keep your lone trump")),
    "card_played": EventType("A player plays a card to the trick.", cards=True, hand=-1, says=Saying(
        "{seat} plays {cards}", you="You play {cards}")),
    "trick_won": EventType("A player takes the trick for the team: its cards and the points they are worth.",
                           cards=True, points=True, says=Saying(
                               "{seat} takes the trick: {points}", you="You take the trick: {points}")),
    "hand_over": EventType("Every trick has been played. There is no single winner: the hand is scored by "
                           "team, on the points each team took.", winner=True, says=Saying(
                               "The hand is over", nobody="The hand is over")),
}
"""What a move may cause, each type with the fields it carries (``EventType``)."""

MATCH = WIRE.record("Match", Match, {
    "pairs_opened": field(per_team(Int(0, 100_000)), attr="totals"),
    "multiplier": field(MULTIPLIER),
    "over": field(BOOL),
    "winner": field(TEAM, "a team", nullable=True),
    "loser": field(TEAM, "the goat", nullable=True),
    "next_dealer": field(SEAT),
    # written with the standing after a hand; when sent, not checked (as ever)
    "pips_opened": derived(per_team(Int(0, 200_000)), "pips_opened", "derived: two pips a pair",
                           checked=False),
    "pairs_left": derived(per_team(Int(0, 1000)), "pairs_left", "derived", checked=False),
}, "§7.2-7.3: pairs uncovered per team; pass it back to ``score`` and ``deal``.")

HAND_SCORE = WIRE.record("HandScore", HandResult, {
    "points": field(per_team(Int(0, 120))),
    "pairs_opened_this_hand": field(per_team(Int(0, 1 << 24)), attr="pairs"),
    "eggs": field(BOOL),
    "qc_captured_team": field(Int(0, 1), nullable=True),
    "multiplier": field(MULTIPLIER),
    "next_multiplier": field(Int(1, 1 << 21)),
})


# --- the consistency check ---------------------------------------------------------------------


def load_state(wire: Wire) -> State:
    """Build the state and check it; ``InvalidState`` pointers are relative to the state."""
    state = STATE.load(wire)
    hands, won = state.hands, state.won
    found = [*hands[0], *hands[1], *hands[2], *hands[3], *state.undealt, *(card for _, card in state.trick),
             *won[0], *won[1]]
    check_deck(rules.DECK, found, lambda: _zones(state))
    if state.received_trump is not None and state.phase != Phase.EXCHANGE:
        raise InvalidState("/received_trump", "a trump is only in transit during the exchange")
    PHASE_CHECKS[state.phase](state)
    _check_turned(state)
    _check_won(state)
    STATE.check(wire, state)
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


def _require(condition: bool, pointer: str, message: str, **params: object) -> None:
    """Refuse the state unless ``condition``: ``message`` is an English template (marked ``N_``
    where it is written), ``params`` its values."""
    if not condition:
        raise InvalidState(pointer, message, **params)


def _check_turned(state: State) -> None:
    """§3: the turned cards were dealt face up to the first leader; one may since have gone to its
    partner, as its lone trump in the exchange (§3.5), and to no one else (everyone saw them go)."""
    allowed = (state.first_leader, rules.partner(state.first_leader))
    for seat, hand in enumerate(state.hands):
        for card in set(state.turned).intersection(hand):
            _require(seat in allowed, f"/hands/{seat}",
                     N_("{card} was turned up to seat {seat}: only it or its partner can hold it"),
                     card=card, seat=state.first_leader)


def _check_naming(state: State) -> None:
    left = left_of(state.dealer, SEATS)
    _require(state.trump is None, "/trump", N_("trump is not named yet"))
    _require(not state.trick and not any(state.won), "/trick", N_("no card is played before trump"))
    _require(state.to_move == state.first_leader == state.named_by, "/to_move",
             N_("the seat naming trump is to move and leads first"))
    if state.undealt:  # three cards to the left; the rest waits for the deal order
        _require(state.first_leader == left, "/first_leader", N_("the dealer's left names trump"))
        _require(_sizes(state) == [3 if s == left else 0 for s in range(SEATS)], "/hands",
                 N_("only the dealer's left holds cards: three"))
    else:  # the jack of clubs names trump in a match's first deal
        _require(state.first_deal and state.options.jack_of_clubs_first_deal, "/phase",
                 N_("without undealt cards, only the jack of clubs names trump (first deal, option on)"))
        _require(_sizes(state) == [HAND_SIZE] * SEATS, "/hands", N_("every seat holds 8 cards"))
        _require(rules.JACK_OF_CLUBS in state.hands[state.first_leader], "/first_leader",
                 N_("the holder of the jack of clubs names trump"))


def _check_trump_known(state: State) -> None:
    _require(state.trump is not None, "/trump", N_("trump is named before the exchange and play"))
    _require(not state.undealt, "/undealt", N_("every card is dealt once trump is named"))


def _check_exchange(state: State) -> None:
    _check_trump_known(state)
    _require(state.options.lone_trump_exchange, "/phase", N_("the exchange is off"))
    _require(not state.trick and not any(state.won), "/trick", N_("no card is played in the exchange"))
    _require(0 <= state.visit < SEATS, "/visit", N_("the exchange visits seats 0..3 from the first leader"))
    visited = left_of(state.first_leader, SEATS, state.visit)
    sizes = _sizes(state)
    if state.received_trump is None:
        _require(state.to_move == visited and rules.eligible(state, visited), "/to_move",
                 N_("seat {seat} is visited and must hold a lone trump"), seat=visited)
        _require(sizes == [HAND_SIZE] * SEATS, "/hands", N_("every seat holds 8 cards"))
    else:
        taker = rules.partner(visited)
        _require(state.to_move == taker, "/to_move", N_("the partner gives a card back"))
        _require(state.received_trump in state.hands[taker], "/received_trump",
                 N_("the received trump is in the partner's hand"))
        _require(sizes[visited] == HAND_SIZE - 1 and sizes[taker] == HAND_SIZE + 1, "/hands",
                 N_("the giver holds 7 cards and the partner 9"))


def _check_play(state: State) -> None:
    _check_trump_known(state)
    played = state.tricks_played
    leader = state.trick[0][0] if state.trick else state.to_move
    for index, (seat, _) in enumerate(state.trick):
        _require(leader is not None and seat == left_of(leader, SEATS, index), f"/trick/{index}/seat",
                 N_("cards are played clockwise from the leader"))
    if leader is None:
        raise InvalidState("/to_move", "a seat is to move during play")
    _require(state.to_move == left_of(leader, SEATS, len(state.trick)), "/to_move",
             N_("the next seat clockwise is to move"))
    for seat, hand in enumerate(state.hands):
        in_trick = any(s == seat for s, _ in state.trick)
        _require(len(hand) == HAND_SIZE - played - in_trick, f"/hands/{seat}",
                 N_("after {tricks} tricks this hand holds {count} cards"), tricks=played,
                 count=HAND_SIZE - played - in_trick)
    if played == 0 and not state.trick:
        _require(state.to_move == state.first_leader, "/to_move", N_("the first leader leads first"))


def _check_over(state: State) -> None:
    _check_trump_known(state)
    _require(state.to_move is None, "/to_move", N_("nobody moves once the hand is over"))
    _require(not any(state.hands) and not state.trick, "/hands", N_("the hand is over when all is played"))


PHASE_CHECKS = {Phase.NAME_TRUMP: _check_naming, Phase.EXCHANGE: _check_exchange, Phase.PLAY: _check_play,
                Phase.OVER: _check_over}


def _check_won(state: State) -> None:
    _require(len(state.won[0]) % SEATS == 0 and len(state.won[1]) % SEATS == 0, "/won",
             N_("teams take whole tricks of four cards"))
    taken = state.won[0] + state.won[1]
    if state.qc_captured_team is not None:
        _require(rules.QUEEN_OF_CLUBS in taken and rules.SEVEN_OF_CLUBS in taken, "/qc_captured_team",
                 N_("the queen and the seven of clubs have both been played"))


FORM: WireForm[State, Move] = declared(WIRE, load_state, STATE, VIEW, MOVES, options=OPTIONS, match=MATCH,
                                       hand_score=HAND_SCORE)
