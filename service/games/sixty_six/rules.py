"""Sixty-six: the rules of docs/rules/sixty-six.md, as pure functions on immutable states.

Section numbers in comments (§4.2 ...) are those of the rules file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeVar, cast

from service.cards import Card, DeckSource, deck
from service.games import base
from service.games.base import option, refuse, refuse_counted
from service.games.tricks import (
    ace_ten_order,
    point_table,
)
from service.i18n.text import Seat, Suit

# --- tables (§2) -------------------------------------------------------------------------------

RANKS = ("A", "10", "K", "Q", "J", "9")
DECK: tuple[Card, ...] = deck(RANKS)
RANK_ORDER = ace_ten_order(RANKS)
CARD_VALUES = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
POINTS = point_table(CARD_VALUES)
HAND_SIZE = 6
TRICKS_PER_HAND = 12
TARGET = 66
SCHNEIDER = 33  # fewer than this many points doubles the loss (§7.1)
LAST_TRICK_BONUS = 10


class Reason(base.Reason):
    """Reason codes of illegal moves, each with the rule it enforces."""

    HAND_FINISHED = "hand_finished", "§4.2.1 no move once the hand is finished"
    NOT_YOUR_TURN = "not_your_turn", "§4.2.2 only the seat to move may play"
    CARD_NOT_IN_HAND = "card_not_in_hand", "§4.2.3 the card must be in the player's hand"
    MARRIAGE_NOT_ON_LEAD = "marriage_not_on_lead", "§4.2.4 a marriage is declared by leading"
    MARRIAGE_WRONG_RANK = "marriage_wrong_rank", "§4.2.4 a marriage is led with its king or queen"
    MARRIAGE_PARTNER_MISSING = "marriage_partner_missing", "§4.2.4 the player must hold both king and queen"
    MARRIAGE_NOT_ALLOWED_NOW = "marriage_not_allowed_now", "§4.2.4 option marriages_after_stock is off"
    MUST_FOLLOW_SUIT = "must_follow_suit", "§4.2.5 once the stock is gone or closed, follow suit"
    MUST_WIN_TRICK = "must_win_trick", "§4.2.5 option must_head_trick: win the trick when able"
    MUST_TRUMP = "must_trump", "§4.2.5 void in the led suit, trump if able"
    NOT_ON_LEAD = "not_on_lead", "§4.3-4.5 only the seat on lead may do this"
    STOCK_CLOSED = "stock_closed", "§4.3-4.4 the stock is already closed"
    STOCK_EXHAUSTED = "stock_exhausted", "§4.3 the stock is empty"
    STOCK_TOO_SMALL = "stock_too_small", "§4.3-4.4 the stock holds too few cards"
    OPTION_DISABLED = "option_disabled", "§8 the move needs an option that is off"
    NO_TRICK_WON = "no_trick_won", "§4.4 the exchange needs a trick won"
    NO_TRUMP_NINE = "no_trump_nine", "§4.4 the exchange needs the nine of trumps"


# --- types (§4.1, §8) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Options:
    """§8; every option may be omitted and takes its default."""

    allow_trump_nine_exchange: bool = option(
        False, "A player on lead who has already won a trick may exchange the nine of trumps for the "
               "face-up trump card under the stock.")
    last_trick_bonus: bool = option(
        False, "The winner of the last trick scores 10 more points if nobody closed the stock.")
    must_head_trick: bool = option(
        False, "Once the stock is used up or closed, a player who can win the trick with a higher card "
               "of the suit led must do so.")
    allow_claim: bool = option(
        False, "A player on lead may stop play and claim 66 points: if they are right they win the hand, "
               "if not the opponent does.")
    marriage_requires_trick: bool = option(
        True, "Marriage points count only once the player has won a trick; if this is off, they count "
              "at once.")
    marriages_after_stock: bool = option(
        True, "Marriages may still be declared once the stock is used up or closed.")
    min_stock_to_close: int = option(
        3, "The fewest cards, the face-up trump card included, the stock must hold for a player to close it.",
        within=(1, 12))
    party_target: int = option(8, "How many game points a player needs to win the party.", within=(1, 1000))


@dataclass(frozen=True, slots=True)
class Marriage:
    suit: str
    points: int
    credited: bool


@dataclass(frozen=True, slots=True)
class ClosedSnapshot:
    """The closer's opponent at the moment of closing (§4.3), for the failed-close penalty."""

    opponent_points: int
    opponent_tricks: int


Trick = tuple[Card, Card]
Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    dealer: int
    trump_card: Card
    stock: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    leader: int
    to_move: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks_won: tuple[tuple[Trick, ...], tuple[Trick, ...]]
    marriages: tuple[tuple[Marriage, ...], tuple[Marriage, ...]]
    bonus_points: Pair = (0, 0)
    stock_closed_by: int | None = None
    closed_snapshot: ClosedSnapshot | None = None
    first_to_66: int | None = None
    claimed_by: int | None = None
    card_points: Pair = (0, 0)
    """The card points in each seat's won tricks: derived, kept up to date as tricks are won."""

    @property
    def trump_suit(self) -> str:
        return cast(str, self.trump_card.suit)  # the Sixty-six deck has no jokers

    @property
    def finished(self) -> bool:
        return self.to_move is None

    @property
    def strict(self) -> bool:
        """§4.1 phase: strict once the stock is exhausted or closed."""
        return not self.stock or self.stock_closed_by is not None

    @property
    def tricks_played(self) -> int:
        return len(self.tricks_won[0]) + len(self.tricks_won[1])


@dataclass(frozen=True, slots=True)
class Play:
    kind: ClassVar[str] = "play"
    seat: int
    card: Card
    marriage: bool = False


@dataclass(frozen=True, slots=True)
class Close:
    kind: ClassVar[str] = "close"
    seat: int


@dataclass(frozen=True, slots=True)
class ExchangeTrump:
    kind: ClassVar[str] = "exchange_trump"
    seat: int


@dataclass(frozen=True, slots=True)
class Claim:
    kind: ClassVar[str] = "claim"
    seat: int
    marriage_suit: str | None = None


Move = Play | Close | ExchangeTrump | Claim


# --- derived values ----------------------------------------------------------------------------


def trick_card_points(state: State, seat: int) -> int:
    return state.card_points[seat]


def points(state: State, seat: int) -> int:
    """§4.1 points(s): card points + credited marriages + the optional last-trick bonus."""
    marriages = sum(m.points for m in state.marriages[seat] if m.credited)
    return trick_card_points(state, seat) + marriages + state.bonus_points[seat]


def earns_last_trick_bonus(state: State) -> bool:
    """§5.3: the 12th trick with the option on and a stock never closed."""
    return (
        state.options.last_trick_bonus
        and state.tricks_played == TRICKS_PER_HAND
        and state.stock_closed_by is None
    )


T = TypeVar("T")


def at_seat(pair: tuple[T, T], seat: int, value: T) -> tuple[T, T]:
    """The pair with ``seat``'s element replaced."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


# --- deal (§3) ---------------------------------------------------------------------------------


def deal(dealer: int, options: Options, source: DeckSource) -> State:
    return deal_from(source.order(DECK), dealer, options)


def deal_from(cards: tuple[Card, ...], dealer: int, options: Options) -> State:
    """§3: two packets of three, non-dealer first; card 13 is the trump card, drawn last."""
    non_dealer = 1 - dealer
    hands: list[tuple[Card, ...]] = [(), ()]
    hands[non_dealer] = cards[0:3] + cards[6:9]
    hands[dealer] = cards[3:6] + cards[9:12]
    return State(
        options=options,
        dealer=dealer,
        trump_card=cards[12],
        stock=(*cards[13:], cards[12]),
        hands=(hands[0], hands[1]),
        leader=non_dealer,
        to_move=non_dealer,
        trick=(),
        tricks_won=((), ()),
        marriages=((), ()),
    )


# --- legality (§4) -----------------------------------------------------------------------------


def check(state: State, move: Move) -> None:
    """Raise ``IllegalMove`` with the first failing rule, in the rules file's order (§4.4 and
    §4.5 name the disabled option before the finished hand)."""
    if isinstance(move, ExchangeTrump) and not state.options.allow_trump_nine_exchange:
        refuse(Reason.OPTION_DISABLED, "this table plays without exchanging the trump nine")
    if isinstance(move, Claim) and not state.options.allow_claim:
        refuse(Reason.OPTION_DISABLED, "this table plays without stopping play to claim 66")
    if state.finished:
        refuse(Reason.HAND_FINISHED, "the hand is over")
    if isinstance(move, Play):
        _check_play(state, move)
    elif isinstance(move, Close):
        _check_close(state, move)
    elif isinstance(move, ExchangeTrump):
        _check_exchange(state, move)
    else:
        _check_claim(state, move)


def _on_lead(state: State, seat: int) -> bool:
    return not state.trick and state.to_move == seat


def _holds_marriage(hand: tuple[Card, ...], suit: str) -> bool:
    ranks = {c.rank for c in hand if c.suit == suit}
    return "K" in ranks and "Q" in ranks


def _check_play(state: State, move: Play) -> None:
    seat, card = move.seat, move.card
    if seat != state.to_move:
        refuse(Reason.NOT_YOUR_TURN, "it is {seat}'s turn", seat=Seat(cast(int, state.to_move)))
    hand = state.hands[seat]
    if card not in hand:
        refuse(Reason.CARD_NOT_IN_HAND, "{card} is not in your hand", card=card)
    if move.marriage:
        _check_marriage(state, move)
    if state.trick and state.strict:
        _check_follow(state, hand, card)


def _check_marriage(state: State, move: Play) -> None:
    if state.trick:
        refuse(Reason.MARRIAGE_NOT_ON_LEAD, "you can declare a marriage only when you lead")
    if move.card.rank not in ("K", "Q"):
        refuse(Reason.MARRIAGE_WRONG_RANK, "to declare a marriage, lead its king or its queen")
    suit = cast(str, move.card.suit)
    if not _holds_marriage(state.hands[move.seat], suit):
        refuse(Reason.MARRIAGE_PARTNER_MISSING, "you do not hold {cards} for the marriage",
               cards=_missing_from_marriage(state.hands[move.seat], suit))
    if state.strict and not state.options.marriages_after_stock:
        refuse(Reason.MARRIAGE_NOT_ALLOWED_NOW,
               "this table plays without marriages once the stock is used up or closed")


def _check_follow(state: State, hand: tuple[Card, ...], card: Card) -> None:
    """§4.2.5: strict phase; follow suit, (optionally) head the trick, else trump if able."""
    lead = state.trick[0][1]
    same_suit = [c for c in hand if c.suit == lead.suit]
    if same_suit:
        if card.suit != lead.suit:
            refuse(Reason.MUST_FOLLOW_SUIT, "you must follow suit: {suit}", suit=Suit(lead.suit))
        can_head = any(_outranks(c, lead) for c in same_suit)
        if state.options.must_head_trick and can_head and not _outranks(card, lead):
            refuse(Reason.MUST_WIN_TRICK,
                   "you must win the trick: beat {card} with a higher card of its suit", card=lead)
    elif card.suit != state.trump_suit and any(c.suit == state.trump_suit for c in hand):
        refuse(Reason.MUST_TRUMP, "you have no {suit}, so you must play a trump", suit=Suit(lead.suit))


def _outranks(card: Card, other: Card) -> bool:
    return RANK_ORDER[card.rank] > RANK_ORDER[other.rank]


def _check_close(state: State, move: Close) -> None:
    if not _on_lead(state, move.seat):
        refuse(Reason.NOT_ON_LEAD, "you can close the stock only when you lead")
    if state.stock_closed_by is not None:
        refuse(Reason.STOCK_CLOSED, "the stock is already closed")
    if not state.stock:
        refuse(Reason.STOCK_EXHAUSTED, "the stock is used up: there is nothing to close")
    if len(state.stock) < state.options.min_stock_to_close:
        refuse_counted(Reason.STOCK_TOO_SMALL,
                       "you can close the stock only while it holds at least {count} card, the face-up "
                       "trump included",
                       "you can close the stock only while it holds at least {count} cards, the face-up "
                       "trump included",
                       count=state.options.min_stock_to_close)


def _check_exchange(state: State, move: ExchangeTrump) -> None:
    if not _on_lead(state, move.seat):
        refuse(Reason.NOT_ON_LEAD, "you can exchange the trump nine only when you lead")
    if state.stock_closed_by is not None:
        refuse(Reason.STOCK_CLOSED, "the stock is closed: the trump nine can no longer be exchanged")
    if len(state.stock) < 4:
        refuse(Reason.STOCK_TOO_SMALL,
               "the next draw takes the face-up trump: it is too late to exchange the nine")
    if not state.tricks_won[move.seat]:
        refuse(Reason.NO_TRICK_WON, "you can exchange the trump nine only once you have won a trick")
    if trump_nine(state) not in state.hands[move.seat]:
        refuse(Reason.NO_TRUMP_NINE, "you do not hold {card} to exchange", card=trump_nine(state))


def trump_nine(state: State) -> Card:
    return next(c for c in DECK if c.rank == "9" and c.suit == state.trump_suit)


def _missing_from_marriage(hand: tuple[Card, ...], suit: str) -> list[Card]:
    """The king and queen of ``suit`` that ``hand`` lacks."""
    return [c for c in DECK if c.suit == suit and c.rank in ("K", "Q") and c not in hand]


def _check_claim(state: State, move: Claim) -> None:
    if not _on_lead(state, move.seat):
        refuse(Reason.NOT_ON_LEAD, "you can claim 66 only when you lead")
    suit = move.marriage_suit
    if suit is not None and not _holds_marriage(state.hands[move.seat], suit):
        refuse(Reason.MARRIAGE_PARTNER_MISSING, "you do not hold {cards} for the marriage",
               cards=_missing_from_marriage(state.hands[move.seat], suit))


def candidate_moves(state: State, seat: int) -> list[Move]:
    """Every move ``seat`` could try now, legal or not; ``check`` sorts them."""
    moves: list[Move] = []
    for card in state.hands[seat]:
        moves.append(Play(seat, card))
        if card.rank in ("K", "Q"):
            moves.append(Play(seat, card, marriage=True))
    moves += [Close(seat), ExchangeTrump(seat), Claim(seat)]
    moves += [Claim(seat, suit) for suit in "CDHS" if _holds_marriage(state.hands[seat], suit)]
    return moves
