"""Kozel: docs/rules/kozel.md, as pure functions on immutable states. Four players in two
teams; the seven of clubs, every queen and every jack are permanent trumps and belong to the
trump suit; trump is named in one of three ways (or by the jack of clubs in a match's first deal);
a lone trump may be exchanged with the partner. The scoring, in pairs of pips, is in ``scoring``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from itertools import permutations
from typing import ClassVar

from service.cards import CARDS, Card, DeckSource, deck
from service.games import base
from service.games.base import Event, evolve, option, refuse, replace_at
from service.games.seating import clockwise, left_of, partnerships
from service.games.tricks import card_points, point_table
from service.i18n import N_
from service.i18n.text import Seat, Suit

SEATS = 4
HAND_SIZE = 8
DECK: tuple[Card, ...] = deck(("7", "8", "9", "10", "J", "Q", "K", "A"))
CARD_VALUES = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
POINTS = point_table(CARD_VALUES)
SEVEN_OF_CLUBS, QUEEN_OF_CLUBS, JACK_OF_CLUBS = CARDS["7C"], CARDS["QC"], CARDS["JC"]
PERMANENT_ORDER = tuple(CARDS[c] for c in ("7C", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD"))
PERMANENT = frozenset(PERMANENT_ORDER)
SUIT_ORDER = ("A", "10", "K", "9", "8", "7")  # §2.2, the trump suit's own cards and plain suits

SIDES = partnerships(SEATS)
"""Two teams, partners opposite: seats 0 and 2 against 1 and 3."""
TEAMS = SIDES.all()


class Reason(base.Reason):
    HAND_FINISHED = "hand_finished", "§4 no move once the hand is over"
    WRONG_PHASE = "wrong_phase", "§4 the move does not belong to this phase"
    NOT_YOUR_TURN = "not_your_turn", "§4 only the seat to move may act"
    CARD_NOT_IN_HAND = "card_not_in_hand", "§4 the card must be in the hand"
    MUST_FOLLOW_SUIT = "must_follow_suit", "§4.1 follow the effective suit led"
    MUST_TRUMP = "must_trump", "§4.1 void in the suit led, or trumps led: play a trump"
    BAD_TRUMP_NAMING = (
        "bad_trump_naming", "§3.2/§3.4 name a suit, or (three cards) by_last, with a deal order")
    NOT_LONE_TRUMP = "not_lone_trump", "§3.5 only a seat's single trump may be given"
    CANNOT_RETURN_RECEIVED = (
        "cannot_return_received", "§3.5 the partner gives back any card but the one received")


class Phase(StrEnum):
    NAME_TRUMP = "name_trump"
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Options:
    """§8; every option may be omitted and takes its default."""

    trump_method: str = option("turn_to_left", "How trump is chosen at the deal.", choices={
        "turn_to_left": "The dealer turns up cards to the player on the left until one that is not the seven "
                        "of clubs, a queen or a jack: the suit of that card is trump.",
        "three_cards": "The player on the dealer's left gets three cards and names trump from them, or "
                       "says \"by the last\": then the last card that player is dealt is turned up and its "
                       "suit is trump. That player also says in what order the rest of the cards are dealt.",
        "first_card": "The cards are dealt one at a time: trump is the suit of the first card the player on "
                      "the dealer's left receives.",
    })
    jack_of_clubs_first_deal: bool = option(
        False, "In the first deal of a match the player holding the jack of clubs names trump, leads first "
               "and deals the next hand.")
    lone_trump_exchange: bool = option(
        True, "A player holding a single trump after the deal may pass it face down to the partner and get "
              "one card back.")
    queen_capture: str = option(
        "replace", "How the four pairs for a queen of clubs beaten by the opponents' seven of clubs go "
                   "together with the score on points.", choices={
            "replace": "The beaten queen replaces the score on points: the team that lost the queen uncovers "
                       "four pairs, the other team nothing.",
            "add": "The points are scored as usual, and the team that lost the queen uncovers four pairs "
                   "more.",
        })
    queen_capture_order: str = option(
        "any", "When the queen of clubs counts as beaten by the seven of clubs played to the same trick.",
        choices={
            "any": "Whichever of the two cards was played first.",
            "seven_after_queen": "Only when the seven of clubs is played after the queen.",
        })
    egg_compounding: bool = option(
        False, "When hands end 60 to 60 (eggs) several times in a row, the stake doubles each time; "
               "otherwise only the one hand after eggs counts double.")
    pairs_to_lose: int = option(
        6, "How many pairs of pips a team uncovers on its sixes to lose the match: at 6 both sixes are "
           "uncovered.", within=(1, 1000))


def team_of(seat: int) -> int:
    return SIDES.side_of(seat)


def partner(seat: int) -> int:
    return SIDES.partner(seat)


def is_trump(card: Card, trump: str) -> bool:
    return card in PERMANENT or card.suit == trump


def effective_suit(card: Card, trump: str) -> str:
    """§2.3: every trump belongs to the trump suit and to no other."""
    return trump if is_trump(card, trump) else card.suit or ""


def trump_strength(card: Card, trump: str) -> int:
    if card in PERMANENT:
        return 100 - PERMANENT_ORDER.index(card)
    return len(SUIT_ORDER) - SUIT_ORDER.index(card.rank)


def trick_winner(trick: tuple[tuple[int, Card], ...], trump: str) -> int:
    """§5: the highest trump, else the highest card of the suit led."""
    trumps = [(s, c) for s, c in trick if is_trump(c, trump)]
    if trumps:
        return max(trumps, key=lambda sc: trump_strength(sc[1], trump))[0]
    led = trick[0][1].suit
    followers = [(s, c) for s, c in trick if c.suit == led]
    return max(followers, key=lambda sc: len(SUIT_ORDER) - SUIT_ORDER.index(sc[1].rank))[0]


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    dealer: int
    trump: str | None
    phase: Phase
    first_leader: int
    hands: tuple[tuple[Card, ...], ...]
    to_move: int | None
    undealt: tuple[Card, ...] = ()
    turned: tuple[Card, ...] = ()
    """Cards shown to everyone while trump was fixed (turned to the left, the first card, by the last)."""
    trick: tuple[tuple[int, Card], ...] = ()
    won: tuple[tuple[Card, ...], ...] = ((), ())
    exchange_done: tuple[bool, ...] = (False, False)
    visit: int = 0
    """How many seats the lone-trump exchange has visited, from the first leader."""
    received_trump: Card | None = None
    qc_captured_team: int | None = None
    first_deal: bool = False
    named_by: int | None = None

    def points(self, team: int) -> int:
        return card_points(self.won[team], POINTS)

    @property
    def tricks_played(self) -> int:
        return (len(self.won[0]) + len(self.won[1])) // SEATS

    @property
    def finished(self) -> bool:
        return self.phase == Phase.OVER


@dataclass(frozen=True, slots=True)
class NameTrump:
    kind: ClassVar[str] = "name_trump"
    seat: int
    suit: str | None = None
    by_last: bool = False
    deal_order: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class GiveTrump:
    kind: ClassVar[str] = "give_trump"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class GiveBack:
    kind: ClassVar[str] = "give_back"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Pass:
    kind: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class Play:
    kind: ClassVar[str] = "play"
    seat: int
    card: Card


Move = NameTrump | GiveTrump | GiveBack | Pass | Play


# --- deal (§3) ---------------------------------------------------------------------------------


def deal(*, dealer: int, options: Options, first_deal: bool, source: DeckSource) -> State:
    """A misdeal (§3.1.2) is dealt again from the same source: a seeded stream goes on, so the
    deal stays reproducible; a given order refuses."""
    while (state := deal_from(source.order(DECK), dealer=dealer, options=options,
                              first_deal=first_deal)) is None:
        pass
    return state


def deal_from(cards: tuple[Card, ...], *, dealer: int, options: Options, first_deal: bool) -> State | None:
    """The deal of §3 from a shuffled deck, top first; None for a misdeal."""
    left = left_of(dealer, SEATS)
    if options.jack_of_clubs_first_deal and first_deal:
        hands = _singles(cards, left)
        holder = next(s for s in range(SEATS) if JACK_OF_CLUBS in hands[s])
        return State(options, dealer, None, Phase.NAME_TRUMP, holder, hands, holder, first_deal=True,
                     named_by=holder)
    if options.trump_method == "three_cards":
        hands = replace_at(((),) * SEATS, left, cards[:3])
        return State(options, dealer, None, Phase.NAME_TRUMP, left, hands, left, undealt=cards[3:],
                     first_deal=first_deal, named_by=left)
    if options.trump_method == "first_card":
        state = State(options, dealer, cards[0].suit, Phase.EXCHANGE, left, _singles(cards, left), left,
                      turned=cards[:1], first_deal=first_deal)
        return _start_exchange(state)
    k = _turned_count(cards)
    if k > HAND_SIZE:
        return None
    state = State(options, dealer, cards[k - 1].suit, Phase.EXCHANGE, left, _turn_to_left(cards, left, k),
                  left, turned=cards[:k], first_deal=first_deal)
    return _start_exchange(state)


def _turned_count(cards: tuple[Card, ...]) -> int:
    """§3.1.1: cards are turned until one that is not a permanent trump."""
    return next(i + 1 for i, c in enumerate(cards) if c not in PERMANENT)


def _turn_to_left(cards: tuple[Card, ...], left: int, k: int) -> tuple[tuple[Card, ...], ...]:
    """§3.1: k cards to the left, then a k-card packet to each other seat clockwise, then singles."""
    singles = _singles(cards[SEATS * k:], left)
    hands: list[tuple[Card, ...]] = [()] * SEATS
    for packet, seat in enumerate(clockwise(left, SEATS)):
        hands[seat] = (*cards[packet * k:(packet + 1) * k], *singles[seat])
    return tuple(hands)


def _singles(cards: tuple[Card, ...], left: int) -> tuple[tuple[Card, ...], ...]:
    """One card at a time, clockwise from ``left``."""
    hands: list[tuple[Card, ...]] = [()] * SEATS
    for index, seat in enumerate(clockwise(left, SEATS)):
        hands[seat] = cards[index::SEATS]
    return tuple(hands)


# --- legality (§3.2-§4.1) ----------------------------------------------------------------------


PHASE_OF: dict[type[Move], Phase] = {NameTrump: Phase.NAME_TRUMP, GiveTrump: Phase.EXCHANGE,
                                     GiveBack: Phase.EXCHANGE, Pass: Phase.EXCHANGE, Play: Phase.PLAY}
"""The phase each kind of move belongs to."""
IN_PHASE = {
    Phase.NAME_TRUMP: N_("You cannot do that yet: trump has not been named"),
    Phase.EXCHANGE: N_("You cannot do that now: the lone trumps are being exchanged first"),
    Phase.PLAY: N_("You cannot do that now: the cards are being played"),
}
"""Why a move of another phase is refused, one message per phase (a phase is not a message value)."""


def check(state: State, move: Move) -> None:
    if state.phase == Phase.OVER:
        refuse(Reason.HAND_FINISHED, "The hand is over: there are no more moves")
    if state.phase != PHASE_OF[type(move)]:
        refuse(Reason.WRONG_PHASE, IN_PHASE[state.phase])
    pending = state.received_trump is not None
    if move.seat != state.to_move:
        refuse(Reason.NOT_YOUR_TURN, "It is not your turn: {seat} is to move", seat=Seat(state.to_move or 0))
    if pending and isinstance(move, GiveTrump | Pass):
        refuse(Reason.NOT_YOUR_TURN, "Your partner has passed you a trump: give a card back for it")
    if isinstance(move, GiveBack) and not pending:
        refuse(Reason.NOT_YOUR_TURN, "Nobody has passed you a trump: you have nothing to give a card back "
               "for")
    if isinstance(move, NameTrump):
        _check_naming(state, move)
    elif not isinstance(move, Pass):
        _check_card(state, move)


def _check_naming(state: State, move: NameTrump) -> None:
    three_cards = bool(state.undealt)
    chose = (move.suit is not None) + move.by_last
    if not three_cards and (move.by_last or move.deal_order is not None or move.suit is None):
        refuse(Reason.BAD_TRUMP_NAMING, "You hold the jack of clubs: name the trump suit, and nothing else")
    if three_cards and chose != 1:
        refuse(Reason.BAD_TRUMP_NAMING, "Name a suit or say \"by the last\", one or the other")
    if three_cards and sorted(move.deal_order or ()) != [0, 1, 2, 3]:
        refuse(Reason.BAD_TRUMP_NAMING, "Say in what order the cards are dealt, naming each of the four "
               "seats once")


def _check_card(state: State, move: GiveTrump | GiveBack | Play) -> None:
    hand = state.hands[move.seat]
    if move.card not in hand:
        refuse(Reason.CARD_NOT_IN_HAND, "You do not hold {card}", card=move.card)
    trump = state.trump or ""
    if isinstance(move, GiveTrump) and [c for c in hand if is_trump(c, trump)] != [move.card]:
        refuse(Reason.NOT_LONE_TRUMP, "You may pass your partner only your lone trump")
    if isinstance(move, GiveBack) and move.card is state.received_trump:
        refuse(Reason.CANNOT_RETURN_RECEIVED, "You cannot give back {card}: it is the trump you have "
               "just been passed", card=move.card)
    if isinstance(move, Play) and state.trick:
        _check_follow(hand, move.card, state.trick[0][1], trump)


def _check_follow(hand: tuple[Card, ...], card: Card, lead: Card, trump: str) -> None:
    """§4.1: follow the effective suit; void (or trumps led), a trump if any; no duty to beat."""
    led = effective_suit(lead, trump)
    if effective_suit(card, trump) == led:
        return
    if any(effective_suit(c, trump) == led for c in hand):
        if led == trump:
            refuse(Reason.MUST_TRUMP, "A trump was led: you must play a trump")
        refuse(Reason.MUST_FOLLOW_SUIT, "You must follow suit: {suit}", suit=Suit(led))
    if not is_trump(card, trump) and any(is_trump(c, trump) for c in hand):
        refuse(Reason.MUST_TRUMP, "You have no {suit}: you must play a trump", suit=Suit(led))


def candidate_moves(state: State, seat: int) -> list[Move]:
    """The moves of the current phase (``check`` refuses any other phase's moves first)."""
    hand = state.hands[seat]
    if state.phase == Phase.PLAY:
        return [Play(seat, c) for c in hand]
    if state.phase == Phase.EXCHANGE:
        return [*(GiveTrump(seat, c) for c in hand), *(GiveBack(seat, c) for c in hand), Pass(seat)]
    if state.phase != Phase.NAME_TRUMP:
        return []
    if state.undealt:
        orders = list(permutations(range(SEATS)))
        return [*(NameTrump(seat, suit, False, order) for suit in "CDHS" for order in orders),
                *(NameTrump(seat, None, True, order) for order in orders)]
    return [NameTrump(seat, suit) for suit in "CDHS"]


# --- effects -----------------------------------------------------------------------------------


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    if isinstance(move, NameTrump):
        return _name_trump(state, move)
    if isinstance(move, GiveTrump):
        taker = partner(move.seat)
        hands = _move_card(state.hands, move.card, move.seat, taker)
        state = evolve(state, hands=hands, received_trump=move.card, to_move=taker)
        return state, [Event("trump_given", move.seat, (move.card,), to=taker)]
    if isinstance(move, GiveBack):
        giver = partner(move.seat)
        hands = _move_card(state.hands, move.card, move.seat, giver)
        done = replace_at(state.exchange_done, team_of(move.seat), True)
        state = evolve(state, hands=hands, received_trump=None, exchange_done=done, visit=state.visit + 1)
        return _start_exchange(state), [Event("card_given_back", move.seat, (move.card,), to=giver)]
    if isinstance(move, Pass):
        return _start_exchange(evolve(state, visit=state.visit + 1)), [Event("passed", move.seat)]
    return _play(state, move)


def _move_card(
    hands: tuple[tuple[Card, ...], ...], card: Card, giver: int, taker: int
) -> tuple[tuple[Card, ...], ...]:
    rest = list(hands[giver])
    rest.remove(card)
    hands = replace_at(hands, giver, tuple(rest))
    return replace_at(hands, taker, (*hands[taker], card))


def _name_trump(state: State, move: NameTrump) -> tuple[State, list[Event]]:
    hands, undealt, turned = list(state.hands), list(state.undealt), state.turned
    events = []
    for seat in move.deal_order or ():
        need = HAND_SIZE - len(hands[seat])
        packet, undealt = tuple(undealt[:need]), undealt[need:]
        hands[seat] = (*hands[seat], *packet)
        events.append(Event("cards_dealt", seat, packet))
    trump = move.suit
    if move.by_last:  # §3.2.4: the last card the naming seat received, by its printed suit
        last = hands[move.seat][-1]
        trump, turned = last.suit, (last,)
    state = evolve(state, hands=tuple(hands), undealt=(), trump=trump, turned=turned, phase=Phase.EXCHANGE,
                    to_move=state.first_leader)
    return _start_exchange(state), [*events, Event("trump_named", move.seat, suit=trump)]


def eligible(state: State, seat: int) -> bool:
    """§3.5: exactly one trump, and the team has not exchanged yet this deal."""
    trumps = sum(is_trump(c, state.trump or "") for c in state.hands[seat])
    return trumps == 1 and not state.exchange_done[team_of(seat)]


def _start_exchange(state: State) -> State:
    """Visit seats from the first leader, skipping those that cannot exchange; then play."""
    visit = state.visit
    while state.options.lone_trump_exchange and visit < SEATS:
        seat = left_of(state.first_leader, SEATS, visit)
        if eligible(state, seat):
            return evolve(state, phase=Phase.EXCHANGE, visit=visit, to_move=seat)
        visit += 1
    return evolve(state, phase=Phase.PLAY, visit=SEATS if state.options.lone_trump_exchange else 0,
                   to_move=state.first_leader)


def _play(state: State, move: Play) -> tuple[State, list[Event]]:
    rest = list(state.hands[move.seat])
    rest.remove(move.card)
    trick = (*state.trick, (move.seat, move.card))
    state = evolve(state, hands=replace_at(state.hands, move.seat, tuple(rest)), trick=trick,
                    to_move=left_of(move.seat, SEATS))
    events = [Event("card_played", move.seat, (move.card,))]
    if len(trick) < SEATS:
        return state, events
    trump = state.trump or ""
    winner = trick_winner(trick, trump)
    team = team_of(winner)
    cards = tuple(c for _, c in trick)
    won = replace_at(state.won, team, (*state.won[team], *cards))
    state = evolve(state, trick=(), won=won, to_move=winner, qc_captured_team=_capture(state, trick))
    events.append(Event("trick_won", winner, cards, card_points(cards, POINTS)))
    if not any(state.hands):
        state = evolve(state, phase=Phase.OVER, to_move=None)
        events.append(Event("hand_over", None))
    return state, events


def _capture(state: State, trick: tuple[tuple[int, Card], ...]) -> int | None:
    """§5: the queen of clubs falls to the seven of clubs of the other team."""
    played = {card: (index, seat) for index, (seat, card) in enumerate(trick)}
    if QUEEN_OF_CLUBS not in played or SEVEN_OF_CLUBS not in played:
        return state.qc_captured_team
    (q_index, q_seat), (s_index, s_seat) = played[QUEEN_OF_CLUBS], played[SEVEN_OF_CLUBS]
    if team_of(q_seat) == team_of(s_seat):
        return state.qc_captured_team
    if state.options.queen_capture_order == "seven_after_queen" and s_index < q_index:
        return state.qc_captured_team
    return team_of(q_seat)
