"""Russian multi-pack Bezique, docs/rules/bezique.md, as pure functions on immutable states: the
tables, the state and moves, the seats, the deal (§3) and the one check of legality (§4). The
effects are ``play``'s, the hand's end and the match ``scoring``'s, the legal moves ``listing``'s.

Eight or ten packs of A 10 K Q J, twelve nines and two wild cards; 2 to 4 seats, the dealer
sitting out at 3 (by default) and 4; 18-card hands, a turned trump and its exchange for the trump
nine; no duty to follow; one declaration by each trick's winner before the draw, the declared
cards staying on the table and playable; the hand ends when the stock cannot serve everyone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import ClassVar, NamedTuple, NoReturn

from service.cards import CARDS, JOKER, SUITS, Card, DeckSource, deck
from service.games import base
from service.games.base import option, refuse, refuse_counted
from service.games.bezique import declarations as decl
from service.games.bezique.declarations import IDENTITIES, KINDS, LADDERED
from service.games.seating import active_seats, left_of
from service.i18n.text import Rank, Seat

HAND_SIZE = 18
PACK_RANKS = ("A", "10", "K", "Q", "J")
NINES = tuple(CARDS["9" + s] for s in SUITS for _ in range(3))
IDENTITY_SET = frozenset(IDENTITIES)


class Reason(base.Reason):
    HAND_FINISHED = "hand_finished", "§4.2/§4.3.1 no move once the hand is over"
    WRONG_PHASE = "wrong_phase", "§4.2 cards are played in the lead and follow phases"
    NOT_YOUR_TURN = "not_your_turn", "§4.2 only the seat to move may play"
    CARD_NOT_IN_HAND = "card_not_in_hand", "§4.2/§4.3.5 the card must be held (or exposed, by id)"
    JK_NEEDS_IDENTITY = "jk_needs_identity", "§4.2/§4.3.5 a wild card from the hand says what it stands for"
    IDENTITY_NOT_ALLOWED = (
        "identity_not_allowed", "§4.2 only a wild card from the hand takes an identity")
    ALREADY_DECLARED = "already_declared", "§4.3.2 one declaration (or pass) per trick won"
    NOT_DECLARATION_WINDOW = (
        "not_declaration_window", "§4.3.3 only the winner of the trick just won declares, before the draw")
    DECLARED_LAST_TRICK = (
        "declared_last_trick", "§4.3.3/§8 declaration_spacing: not after two consecutive won tricks")
    UNKNOWN_KIND = "unknown_kind", "§4.3.4 the declaration kinds are those of §4.5"
    BAD_MULTIPLICITY = "bad_multiplicity", "§4.3.4 multiplicity is at least 1, and 1 for extras"
    NEEDS_CARD_FROM_HAND = "needs_card_from_hand", "§4.3.6 every declaration puts a card from the hand"
    CARD_ALREADY_USED_IN_FAMILY = (
        "card_already_used_in_family", "§4.3.7 a card scores once in a family of declarations")
    INVALID_COMBINATION = (
        "invalid_combination", "§4.3.8 the cards make exactly m complete sets of the kind")
    EXTRA_NEEDS_FOUR_EXPOSED = (
        "extra_needs_four_exposed", "§4.5(e) an extra card is added to four already shown")
    NOT_ON_MOVE = "not_on_move", "§4.4 the exchange is made by the player about to lead"
    NO_TRUMP_CARD = "no_trump_card", "§4.4 the turned trump card has been drawn"
    TRUMP_CARD_IS_NINE = "trump_card_is_nine", "§4.4 the turned card is already a nine"
    NO_TRUMP_NINE = "no_trump_nine", "§4.4 the exchange takes a natural trump nine from the hand"


class Phase(StrEnum):
    LEAD = "lead"
    FOLLOW = "follow"
    DECLARE = "declare"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Options:
    """§8; every option may be omitted and takes its default."""

    packs: int = option(8, "How many packs of twenty cards are shuffled together.", choices={
        8: "Eight packs: 174 cards with the nines and the jokers.",
        10: "Ten packs: 214 cards with the nines and the jokers.",
    })
    dealer_plays_at_three: bool = option(
        False, "With three players at the table, the dealer plays too: three hands are dealt and the 55th "
               "card is turned up.")
    deal_packet_size: int = option(3, "How many cards the dealer gives at a time.", choices={
        1: "One card at a time.",
        3: "Three cards at a time.",
        18: "The whole hand of eighteen cards at once.",
    })
    ten_rank: str = option("high", "Where the ten ranks in its suit.", choices={
        "high": "Just below the ace: ace, ten, king, queen, jack, nine.",
        "low": "Just below the jack: ace, king, queen, jack, ten, nine.",
    })
    wild_cards: int = option(2, "How many jokers are in the deck.", choices={
        0: "No jokers: 172 or 212 cards.",
        2: "Two jokers, each standing for any ace, ten, king, queen, jack or nine its holder names.",
    })
    declaration_spacing: str = option(
        "per_trick", "How often a player may declare.",
        choices={
            "per_trick": "After every trick won, one declaration or a pass.",
            "not_consecutive": "Never two declarations in a row: a player who declared after one trick does "
                               "not declare after the next.",
        })
    brisque_value: int = option(
        0, "Points for each ace and each ten taken in tricks, jokers aside; 0 counts none.", within=(0, 1000))
    last_trick_bonus: int = option(0, "Points for taking the last trick.", within=(0, 100_000))
    exchange_points: int = option(
        0, "Points for exchanging the trump nine for the turned trump card.", within=(0, 1000))
    target_score: int = option(1000, "The match is played to this many points.", within=(1, 10_000_000))


def full_deck(options: Options) -> tuple[Card, ...]:
    """§2.1 in its canonical order: the packs, the twelve nines, the wild cards."""
    return _deck(options.packs, options.wild_cards)


@cache
def _deck(packs: int, wild_cards: int) -> tuple[Card, ...]:
    return (*deck(PACK_RANKS, copies=packs), *NINES, *(JOKER,) * wild_cards)


def rank_order(options: Options) -> dict[str, int]:
    """§2.2: higher is stronger."""
    ranks = ("9", "J", "Q", "K", "10", "A") if options.ten_rank == "high" else ("9", "10", "J", "Q", "K", "A")
    return {rank: strength for strength, rank in enumerate(ranks)}


# --- values ------------------------------------------------------------------------------------


class Exposed(NamedTuple):
    """A card shown in a declaration, lying face up in front of its owner (§4.1). (Named tuples,
    built in C, for the up to 54 exposed cards and trick cards a state holds: loading a 214-card
    state went from 72 to 59 µs.)"""

    id: int
    card: Card
    as_: Card
    """Its identity: the nominated card for a wild card, else the card itself."""
    tags: frozenset[str]
    """The declaration kinds it has scored in."""


class Played(NamedTuple):
    """A card in the trick; ``source`` is ``hand`` or ``table``."""

    seat: int
    card: Card
    as_: Card
    source: str


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    seats: int
    dealer: int
    trump_suit: str
    stock: tuple[Card, ...]
    """Draw order; while the face-up trump card is undrawn it is the last card."""
    hands: tuple[tuple[Card, ...], ...]
    exposed: tuple[tuple[Exposed, ...], ...]
    next_exposed_id: int
    phase: Phase
    leader: int
    to_move: int | None
    trick: tuple[Played, ...]
    trick_winner: int | None
    declared_in_window: bool
    decl_counts: tuple[tuple[int, ...], ...]
    """Per seat, the declarations made of each laddered kind, in ``LADDERED`` order."""
    last_declared_after_trick: tuple[int | None, ...]
    scores: tuple[int, ...]
    won_cards: tuple[tuple[Card, ...], ...]
    tricks_played: int

    @property
    def active(self) -> tuple[int, ...]:
        return active_order(self.seats, self.dealer, self.options)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def trump_card(self) -> Card | None:
        return self.stock[-1] if self.stock else None

    @property
    def bezique_jack(self) -> Card:
        return CARDS[decl.BEZIQUE_JACK[self.trump_suit]]


@dataclass(frozen=True, slots=True)
class Play:
    kind: ClassVar[str] = "play"
    seat: int
    card: Card | None = None
    as_: Card | None = None
    exposed_id: int | None = None


@dataclass(frozen=True, slots=True)
class Declare:
    kind: ClassVar[str] = "declare"
    seat: int
    declaration: str
    multiplicity: int
    from_hand: tuple[decl.HandEntry, ...]
    from_table: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    kind: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class ExchangeTrump:
    kind: ClassVar[str] = "exchange_trump"
    seat: int


Move = Play | Declare | Pass | ExchangeTrump


def active_order(seats: int, dealer: int, options: Options) -> tuple[int, ...]:
    """§2.3: clockwise from the dealer's left; the dealer sits out at 4, and at 3 unless the
    option says he plays."""
    sits_out = seats == 4 or (seats == 3 and not options.dealer_plays_at_three)
    return _active(seats, dealer, sits_out)


@cache
def _active(seats: int, dealer: int, sits_out: bool) -> tuple[int, ...]:
    return active_seats(seats, dealer, dealer_sits_out=sits_out)


def next_active(active: tuple[int, ...], seat: int) -> int:
    """The next active seat clockwise."""
    return active[left_of(active.index(seat), len(active))]


# --- deal (§3) ---------------------------------------------------------------------------------


def deal(*, seats: int, dealer: int, options: Options, source: DeckSource) -> State:
    return deal_from(source.order(full_deck(options)), seats=seats, dealer=dealer, options=options)


def deal_from(cards: tuple[Card, ...], *, seats: int, dealer: int, options: Options) -> State:
    """§3 from a shuffled deck, top card first."""
    active = active_order(seats, dealer, options)
    a, k = len(active), options.deal_packet_size
    hands: list[tuple[Card, ...]] = [()] * seats
    for i, seat in enumerate(active):
        hands[seat] = tuple(cards[r * k * a + i * k + j] for r in range(HAND_SIZE // k) for j in range(k))
    rest = list(cards[HAND_SIZE * a:])
    while rest[0] is JOKER:  # a wild card names no suit: it goes under the stock (§3.2)
        rest.append(rest.pop(0))
    stock = (*rest[1:], rest[0])
    nobody: tuple[()] = ()
    return State(
        options=options, seats=seats, dealer=dealer, trump_suit=str(rest[0].suit), stock=stock,
        hands=tuple(hands), exposed=(nobody,) * seats, next_exposed_id=1, phase=Phase.LEAD,
        leader=active[0], to_move=active[0], trick=(), trick_winner=None, declared_in_window=False,
        decl_counts=((0,) * len(LADDERED),) * seats, last_declared_after_trick=(None,) * seats,
        scores=(0,) * seats, won_cards=(nobody,) * seats, tricks_played=0,
    )


# --- legality (§4) -----------------------------------------------------------------------------


def check(state: State, move: Move) -> None:
    """The one place legality is decided; raises ``IllegalMove`` with the rule."""
    if state.finished:
        refuse(Reason.HAND_FINISHED, "the hand is over: there are no more moves")
    if isinstance(move, Play):
        _check_play(state, move)
    elif isinstance(move, ExchangeTrump):
        _check_exchange(state, move.seat)
    else:
        _check_window(state, move.seat, declaring=isinstance(move, Declare))
        if isinstance(move, Declare):
            _check_declaration(state, move)


def _check_play(state: State, move: Play) -> None:
    if state.phase not in (Phase.LEAD, Phase.FOLLOW):
        if move.seat == state.trick_winner:
            refuse(Reason.WRONG_PHASE, "you have just won the trick: declare or pass before playing a card")
        refuse(Reason.WRONG_PHASE, "{seat} has just won the trick and declares or passes first",
               seat=Seat(state.trick_winner))
    if move.seat != state.to_move:
        refuse(Reason.NOT_YOUR_TURN, "it is {seat}'s turn to play", seat=Seat(state.to_move))
    if move.exposed_id is not None:
        if exposed_card(state, move.seat, move.exposed_id) is None:
            refuse(Reason.CARD_NOT_IN_HAND, "you have no such card shown on the table", id=move.exposed_id)
        if move.as_ is not None:
            refuse(Reason.IDENTITY_NOT_ALLOWED,
                   "a card from the table plays as the card it was shown as: it cannot be named anew")
        return
    if move.card not in state.hands[move.seat]:
        refuse(Reason.CARD_NOT_IN_HAND, "you do not hold {card}", card=move.card)
    _check_identity(move.card, move.as_)


def _check_identity(card: Card | None, as_: Card | None) -> None:
    if card is JOKER and as_ not in IDENTITY_SET:
        refuse(Reason.JK_NEEDS_IDENTITY,
               "name the card the joker stands for: an ace, a ten, a king, a queen, a jack or a nine "
               "of a suit")
    if card is not JOKER and as_ is not None:
        refuse(Reason.IDENTITY_NOT_ALLOWED, "only a joker is named as another card, not {card}", card=card)


def exposed_card(state: State, seat: int, exposed_id: int) -> Exposed | None:
    return next((e for e in state.exposed[seat] if e.id == exposed_id), None)


def _check_window(state: State, seat: int, *, declaring: bool) -> None:
    """§4.3 checks 2-3: the trick winner, once, before the draw."""
    if state.declared_in_window and state.phase == Phase.LEAD and seat == state.leader:
        refuse(Reason.ALREADY_DECLARED, "you have already declared or passed for this trick")
    if state.phase != Phase.DECLARE or seat != state.trick_winner:
        refuse(Reason.NOT_DECLARATION_WINDOW,
               "you may declare or pass only just after winning a trick, before the cards are drawn")
    last = state.last_declared_after_trick[seat]
    spaced = state.options.declaration_spacing == "not_consecutive"
    if declaring and spaced and last == state.tricks_played - 1:
        refuse(Reason.DECLARED_LAST_TRICK,
               "you declared after the previous trick, and two declarations are not made in a row")


def _check_declaration(state: State, move: Declare) -> None:
    if move.declaration not in KINDS:
        refuse(Reason.UNKNOWN_KIND, "there is no such declaration in this game", kind=move.declaration)
    rule = decl.rules_for(state.trump_suit)[move.declaration]
    if move.multiplicity < 1:
        refuse(Reason.BAD_MULTIPLICITY, "a declaration is made at least once: single, double and so on")
    if rule.extra and move.multiplicity != 1:
        refuse(Reason.BAD_MULTIPLICITY, "a card added to four already shown is declared singly")
    table = _check_held(state, move)
    if not move.from_hand:
        refuse(Reason.NEEDS_CARD_FROM_HAND, "lay at least one card from your hand in the declaration")
    family = decl.KINDS_OF_FAMILY[rule.family]
    if any(e.tags & family for e in table):
        _refuse_family(rule.family)
    identities = [as_ or card for card, as_ in move.from_hand] + [e.as_ for e in table]
    if rule.extra:
        _check_extra(state, move, identities)
    elif not decl.is_sets(rule, identities, move.multiplicity):
        if move.multiplicity == 1:
            refuse(Reason.INVALID_COMBINATION,
                   "these cards do not make this declaration: a card is missing or left over",
                   kind=move.declaration)
        refuse_counted(Reason.INVALID_COMBINATION,
                       "these cards do not make {count} such declaration: a card is missing or left over",
                       "these cards do not make {count} such declarations: a card is missing or left over",
                       count=move.multiplicity, kind=move.declaration)


def _refuse_family(family: str) -> NoReturn:
    """§4.3.7, one message per family: ``bezique``, ``royal`` and the fours (``fourA``...)."""
    if family == "bezique":
        refuse(Reason.CARD_ALREADY_USED_IN_FAMILY,
               "one of your cards on the table has already scored in a bezique")
    if family == "royal":
        refuse(Reason.CARD_ALREADY_USED_IN_FAMILY,
               "one of your cards on the table has already scored in a trump marriage or a trump quint")
    refuse(Reason.CARD_ALREADY_USED_IN_FAMILY,
           "one of your cards on the table has already scored in a declaration of four {rank}s",
           rank=Rank(family.removeprefix("four")))


def _check_held(state: State, move: Declare) -> list[Exposed]:
    """§4.3.5: the hand cards are held, counting duplicates, and the table ids are the seat's,
    each once; answers the table cards."""
    missing = Counter(card for card, _ in move.from_hand) - Counter(state.hands[move.seat])
    if missing:
        refuse(Reason.CARD_NOT_IN_HAND, "your hand is short of {cards}", cards=tuple(missing))
    table = [exposed_card(state, move.seat, i) for i in move.from_table]
    if None in table or len(set(move.from_table)) != len(move.from_table):
        refuse(Reason.CARD_NOT_IN_HAND,
               "you name a card on the table that is not yours, or one of yours twice")
    for card, as_ in move.from_hand:
        _check_identity(card, as_)
    return [e for e in table if e is not None]


def _check_extra(state: State, move: Declare, identities: list[Card]) -> None:
    wanted = decl.category(move.declaration, state.trump_suit)
    if move.from_table or identities != [wanted]:
        refuse(Reason.INVALID_COMBINATION,
               "to add to four already shown, lay just one card from your hand: {card}", card=wanted)
    if extra_count(state, move.seat, move.declaration) < 4:
        refuse(Reason.EXTRA_NEEDS_FOUR_EXPOSED,
               "{card} is added only to four like it that you have already declared", card=wanted)


def extra_count(state: State, seat: int, kind: str) -> int:
    """§4.5 e: q, the seat's exposed category cards that scored in the four or in this extra."""
    wanted = decl.category(kind, state.trump_suit)
    return sum(1 for e in state.exposed[seat] if e.as_ is wanted and decl.counts_toward_extra(kind, e.tags))


def _check_exchange(state: State, seat: int) -> None:
    about_to_lead = (state.phase == Phase.DECLARE and seat == state.trick_winner) or (
        state.phase == Phase.LEAD and seat == state.leader)
    if not about_to_lead:
        refuse(Reason.NOT_ON_MOVE, "you may exchange the trump nine only when it is your lead")
    trump_card = state.trump_card
    if trump_card is None:
        refuse(Reason.NO_TRUMP_CARD, "the turned trump card has already been drawn from the stock")
    if trump_card.rank == "9":
        refuse(Reason.TRUMP_CARD_IS_NINE,
               "the turned trump card is a nine itself: there is nothing to exchange")
    nine = CARDS["9" + state.trump_suit]
    if nine not in state.hands[seat]:
        refuse(Reason.NO_TRUMP_NINE, "you do not hold {card}", card=nine)
