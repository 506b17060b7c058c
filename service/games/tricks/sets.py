"""Tricks of sets (docs/rules/bura.md §4-§5, kozel-bura.md §4-§5): a lead of one to three cards
of one suit, answered card for card by every other seat in turn, each trying to beat the set that
is winning so far; the trick's taker draws first. The engine of the Bura family: Bura and
Kozel-bura differ only in what ``Variant`` says and in how a hand ends and scores."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any, ClassVar, NoReturn

from service.cards import Card, without
from service.games.base import Event, Reason, evolve, refuse, refuse_counted, replace_at
from service.games.seating import clockwise, left_of
from service.games.tricks import (
    ace_ten_order,
    beats_set,
    card_points,
    draw_events,
    draw_round,
    point_table,
)
from service.i18n import N_
from service.i18n.text import Seat

RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7", "6")
RANK_ORDER = ace_ten_order(RANKS)
CARD_VALUES = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}
POINTS = point_table(CARD_VALUES)


class Phase(StrEnum):
    PLAY = "play"
    FINAL_CLAIMS = "final_claims"
    """Bura only: every card is played, the seats may still claim (bura.md §5.4)."""
    OVER = "over"


class TrickReason(StrEnum):
    """The refusals the engine makes; each game of the family gives them its own rule numbers
    (its ``Reason`` has a member of the same code)."""

    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    BAD_CARD_COUNT = "bad_card_count"
    LEAD_MIXED_SUITS = "lead_mixed_suits"
    DOES_NOT_BEAT = "does_not_beat"
    OPTION_DISABLED = "option_disabled"
    NOT_A_MOLODKA = "not_a_molodka"


@dataclass(frozen=True, slots=True)
class Variant:
    """What differs between the games of the family, for one set of options."""

    reasons: type[Reason]
    """The game's reason codes, covering every ``TrickReason``."""
    hand_size: int
    lead_sizes: tuple[int, ...]
    molodka: bool
    molodka_of_trumps: bool
    face_down_discards: bool

    def reason(self, code: TrickReason) -> Reason:
        """The game's reason for the engine's refusal ``code``."""
        return self.reasons[code.name]


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    cards: tuple[Card, ...]
    beat: bool
    """True for the lead and for every answer that beat the set winning before it."""
    face_down: bool


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[Played, ...]

    @property
    def size(self) -> int:
        return len(self.plays[0].cards)

    @property
    def winning(self) -> Played:
        """The last set that beat (the lead if nobody beat); a responder must beat this one."""
        return next(p for p in reversed(self.plays) if p.beat)


@dataclass(frozen=True, slots=True)
class Ending:
    """How the hand ended: ``claim``, ``bura``, ``moscow``, ``void`` or ``played_out``."""

    kind: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    options: Any
    seats: int
    dealer: int
    trump_card: Card
    stock: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    won: tuple[tuple[Card, ...], ...]
    leader: int
    to_move: int | None
    trick: Trick | None
    phase: Phase = Phase.PLAY
    passes: int = 0
    ending: Ending | None = None
    last_taker: int | None = None
    """The seat that took the last completed trick."""
    card_points: tuple[int, ...] = ()
    """The card points in each seat's won pile: derived, kept up to date as tricks are taken."""

    @property
    def trump(self) -> str:
        return self.trump_card.suit or ""

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    def points(self, seat: int) -> int:
        return self.card_points[seat]


@dataclass(frozen=True, slots=True)
class Lead:
    kind: ClassVar[str] = "lead"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Molodka:
    kind: ClassVar[str] = "molodka"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Respond:
    kind: ClassVar[str] = "respond"
    seat: int
    cards: tuple[Card, ...]
    mode: str | None = None
    """``beat``, ``discard``, or None: beat if the cards beat, else discard."""


TrickMove = Lead | Molodka | Respond


LEAD_SIZES: dict[tuple[int, ...], str] = {
    (1,): N_("You may lead only one card"),
    (1, 3): N_("You may lead one card or three"),
    (1, 2, 3): N_("You may lead one, two or three cards"),
}
"""What a variant's ``lead_sizes`` allow, as the refusal of another lead says it."""


# --- deal --------------------------------------------------------------------------------------


def deal(cards: Sequence[Card], *, seats: int, dealer: int, hand_size: int, options: Any) -> State:
    """One card at a time from the dealer's left; the next card is the trump card, drawn last."""
    dealt = seats * hand_size
    first = left_of(dealer, seats)
    dealt_to = {seat: tuple(cards[turn:dealt:seats]) for turn, seat in enumerate(clockwise(first, seats))}
    hands = tuple(dealt_to[seat] for seat in range(seats))
    return State(
        options=options, seats=seats, dealer=dealer, trump_card=cards[dealt],
        stock=(*cards[dealt + 1:], cards[dealt]), hands=hands, won=((),) * seats,
        leader=first, to_move=first, trick=None, card_points=(0,) * seats,
    )


# --- legality ----------------------------------------------------------------------------------


def _one_suit(cards: Sequence[Card]) -> bool:
    return len({c.suit for c in cards}) == 1


def check_trick_move(state: State, variant: Variant, move: TrickMove) -> None:
    if state.phase != Phase.PLAY:
        refuse(variant.reason(TrickReason.WRONG_PHASE), "Every card is played: you may only claim or pass")
    if isinstance(move, Lead):
        _check_lead(state, variant, move)
    elif isinstance(move, Molodka):
        _check_molodka(state, variant, move)
    else:
        _check_respond(state, variant, move)


def _not_your_turn(state: State, variant: Variant) -> NoReturn:
    if state.to_move is None:
        refuse(variant.reason(TrickReason.WRONG_PHASE), "Nobody is to move now")
    refuse(variant.reason(TrickReason.NOT_YOUR_TURN), "It is {seat}'s turn", seat=Seat(state.to_move))


def _check_held(state: State, variant: Variant, seat: int, cards: Sequence[Card]) -> None:
    """Refuses a card the seat does not hold, or one it names twice."""
    hand = state.hands[seat]
    for card in cards:
        if card not in hand:
            refuse(variant.reason(TrickReason.CARD_NOT_IN_HAND), "You do not hold {card}", card=card)
        if cards.count(card) > hand.count(card):
            refuse(variant.reason(TrickReason.CARD_NOT_IN_HAND), "You name {card} twice", card=card)


def _check_lead(state: State, variant: Variant, move: Lead) -> None:
    if state.trick is not None:
        if move.seat == state.to_move:
            refuse(variant.reason(TrickReason.WRONG_PHASE), "The trick is already led: answer it")
        _not_your_turn(state, variant)
    if move.seat != state.leader:
        refuse(variant.reason(TrickReason.NOT_YOUR_TURN), "It is {seat}'s lead", seat=Seat(state.leader))
    _check_held(state, variant, move.seat, move.cards)
    if len(move.cards) not in variant.lead_sizes:
        sizes = LEAD_SIZES.get(variant.lead_sizes)
        if sizes is None:
            refuse_counted(variant.reason(TrickReason.BAD_CARD_COUNT), "You may not lead {count} card",
                           "You may not lead {count} cards", count=len(move.cards))
        refuse(variant.reason(TrickReason.BAD_CARD_COUNT), sizes)
    if not _one_suit(move.cards):
        refuse(variant.reason(TrickReason.LEAD_MIXED_SUITS), "The cards you lead must all be of one suit")


def _check_molodka(state: State, variant: Variant, move: Molodka) -> None:
    if not variant.molodka:
        refuse(variant.reason(TrickReason.OPTION_DISABLED),
               "Leading a molodka out of turn is not agreed in this game")
    if state.trick is not None:
        refuse(variant.reason(TrickReason.WRONG_PHASE),
               "You may lead a molodka only before the first card of a trick")
    if move.seat == state.leader:
        refuse(variant.reason(TrickReason.WRONG_PHASE), "The lead is yours: lead your three cards as usual")
    _check_held(state, variant, move.seat, move.cards)
    trumps_ok = variant.molodka_of_trumps or move.cards[0].suit != state.trump
    if len(move.cards) != 3 or not _one_suit(move.cards) or not trumps_ok:
        if variant.molodka_of_trumps:
            refuse(variant.reason(TrickReason.NOT_A_MOLODKA),
                   "That is not a molodka: a molodka is three cards of one suit")
        refuse(variant.reason(TrickReason.NOT_A_MOLODKA),
               "That is not a molodka: a molodka is three cards of one suit other than trumps")


def _check_respond(state: State, variant: Variant, move: Respond) -> None:
    trick = state.trick
    if trick is None:
        if move.seat == state.leader:
            refuse(variant.reason(TrickReason.WRONG_PHASE), "No card is led yet: the lead is yours")
        refuse(variant.reason(TrickReason.NOT_YOUR_TURN), "It is {seat}'s lead", seat=Seat(state.leader))
    if move.seat != state.to_move:
        _not_your_turn(state, variant)
    _check_held(state, variant, move.seat, move.cards)
    needed = min(trick.size, len(state.hands[move.seat]))
    if len(move.cards) != needed:
        refuse_counted(variant.reason(TrickReason.BAD_CARD_COUNT), "You must answer with {count} card",
                       "You must answer with {count} cards", count=needed)
    if move.mode == "beat" and not _beats(state, move.cards):
        refuse_counted(variant.reason(TrickReason.DOES_NOT_BEAT), "This card does not beat {cards}",
                       "These cards do not beat {cards}", count=len(move.cards), cards=trick.winning.cards)


def _beats(state: State, cards: Sequence[Card]) -> bool:
    assert state.trick is not None
    return beats_set(cards, state.trick.winning.cards, trump_suit=state.trump, order=RANK_ORDER)


def candidate_trick_moves(state: State, variant: Variant, seat: int) -> list[TrickMove]:
    """The leader's leads, another seat's molodkas, or the answers of the seat to move: ``check``
    refuses every other trick move at its first test, so they are not proposed."""
    hand = state.hands[seat]
    if state.trick is None and seat == state.leader:
        return [Lead(seat, cards) for size in variant.lead_sizes for cards in _same_suit_sets(hand, size)]
    if state.trick is None:
        return [Molodka(seat, cards) for cards in _same_suit_sets(hand, 3)] if variant.molodka else []
    if seat != state.to_move:
        return []
    moves: list[TrickMove] = []
    for cards in _sets(hand, min(state.trick.size, len(hand))):
        if _beats(state, cards):
            moves.append(Respond(seat, cards, "beat"))
        moves.append(Respond(seat, cards, "discard"))
    return moves


def _sets(hand: Sequence[Card], size: int) -> list[tuple[Card, ...]]:
    return list(dict.fromkeys(combinations(hand, size)))


def _same_suit_sets(hand: Sequence[Card], size: int) -> list[tuple[Card, ...]]:
    return [cards for cards in _sets(hand, size) if _one_suit(cards)]


# --- effects -----------------------------------------------------------------------------------


def next_to_answer(hands: Sequence[Sequence[Card]], trick: Trick, after: int) -> int | None:
    """The next seat clockwise that has not played to the trick and holds a card."""
    played = {p.seat for p in trick.plays}
    for seat in clockwise(after, len(hands))[1:]:
        if seat not in played and hands[seat]:
            return seat
    return None


def next_with_cards(hands: Sequence[Sequence[Card]], start: int) -> int | None:
    for seat in clockwise(start, len(hands)):
        if hands[seat]:
            return seat
    return None


def apply_trick_move(
    state: State, variant: Variant, move: TrickMove
) -> tuple[State, list[Event], int | None]:
    """Play the cards; returns the state, the events and the trick's taker if the trick ended."""
    hands = replace_at(state.hands, move.seat, without(state.hands[move.seat], move.cards))
    if isinstance(move, Respond):
        assert state.trick is not None
        beat = move.mode != "discard" and _beats(state, move.cards)
        played = Played(move.seat, move.cards, beat, not beat and variant.face_down_discards)
        trick = Trick(state.trick.leader, (*state.trick.plays, played))
        kind = "beat" if beat else "discard_face_down" if played.face_down else "discard"
    else:
        trick = Trick(move.seat, (Played(move.seat, move.cards, True, False),))
        kind = "molodka" if isinstance(move, Molodka) else "lead"
    events = [Event(kind, move.seat, move.cards)]
    answering = next_to_answer(hands, trick, move.seat)
    if answering is not None:
        return evolve(state, hands=hands, trick=trick, leader=trick.leader, to_move=answering), events, None
    return _take_trick(state, variant, hands, trick, events)


def _take_trick(
    state: State, variant: Variant, hands: tuple[tuple[Card, ...], ...], trick: Trick, events: list[Event]
) -> tuple[State, list[Event], int]:
    taker = trick.winning.seat
    cards = tuple(c for p in trick.plays for c in p.cards)
    won = replace_at(state.won, taker, (*state.won[taker], *cards))
    taken = card_points(cards, POINTS)
    events.append(Event("trick_won", taker, cards, taken))
    points = replace_at(state.card_points, taker, state.card_points[taker] + taken)
    stock, hands, draws = draw_round(state.stock, hands, first=taker, hand_size=variant.hand_size)
    events += draw_events(state.stock, draws)
    leader = next_with_cards(hands, taker)
    state = evolve(state, won=won, stock=stock, hands=hands, trick=None, last_taker=taker,
                   leader=taker if leader is None else leader, to_move=leader, card_points=points)
    return state, events, taker
