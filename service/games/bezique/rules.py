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
from service.games.base import option, refuse
from service.games.bezique import declarations as decl
from service.games.bezique.declarations import IDENTITIES, KINDS, LADDERED
from service.games.seating import active_seats, left_of
from service.i18n.text import Rank

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

    packs: int = option(8, "Number of 20-card packs shuffled together (§2.1).", choices={
        8: "Eight packs: 174 cards with the nines and wild cards.",
        10: "Ten packs: 214 cards with the nines and wild cards.",
    })
    dealer_plays_at_three: bool = option(
        False, "With 3 seats, the dealer plays too (three active players, the 55th card turned) (§2.3).")
    deal_packet_size: int = option(3, "Cards given at a time when dealing (§3).", choices={
        1: "One card at a time.",
        3: "Packets of three cards.",
        18: "The whole hand of 18 cards at once.",
    })
    ten_rank: str = option("high", "Where the ten ranks in its suit (§2.2).", choices={
        "high": "Next below the ace: A 10 K Q J 9.",
        "low": "Below the jack: A K Q J 10 9.",
    })
    wild_cards: int = option(2, "Wild cards (`JK`) in the deck (§2.1).", choices={
        0: "No wild cards: 172 or 212 cards.",
        2: "Two wild cards, each standing for any card.",
    })
    declaration_spacing: str = option(
        "per_trick", "How often a player may declare: \"two announcements are not made in a row\" (§4.3).",
        choices={
            "per_trick": "One declaration (or pass) for each trick won.",
            "not_consecutive": "No declaring after a trick if the player declared after the one before.",
        })
    brisque_value: int = option(
        0, "Points for each natural ace and ten won in tricks; 0: none (§7.2).", within=(0, 1000))
    last_trick_bonus: int = option(0, "Points for winning the final trick (§7.2).", within=(0, 100_000))
    exchange_points: int = option(0, "Points for exchanging the trump nine (§4.4).", within=(0, 1000))
    target_score: int = option(1000, "The match is played to this total (§7.3).", within=(1, 10_000_000))


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
        refuse(Reason.HAND_FINISHED, "the hand is over")
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
        refuse(Reason.WRONG_PHASE, "no card is played in the declare phase")
    if move.seat != state.to_move:
        refuse(Reason.NOT_YOUR_TURN, "seat {seat} is to play", seat=state.to_move)
    if move.exposed_id is not None:
        if exposed_card(state, move.seat, move.exposed_id) is None:
            refuse(Reason.CARD_NOT_IN_HAND, "seat {seat} has no exposed card {id}", seat=move.seat,
                   id=move.exposed_id)
        if move.as_ is not None:
            refuse(Reason.IDENTITY_NOT_ALLOWED, "an exposed card keeps the identity it was shown as")
        return
    if move.card not in state.hands[move.seat]:
        refuse(Reason.CARD_NOT_IN_HAND, "the {card} is not in seat {seat}'s hand", card=move.card,
               seat=move.seat)
    _check_identity(move.card, move.as_)


def _check_identity(card: Card | None, as_: Card | None) -> None:
    if card is JOKER and as_ not in IDENTITY_SET:
        refuse(Reason.JK_NEEDS_IDENTITY, "a wild card needs `as`: one of A 10 K Q J 9 of a suit")
    if card is not JOKER and as_ is not None:
        refuse(Reason.IDENTITY_NOT_ALLOWED, "the {card} is no wild card: it takes no `as`", card=card)


def exposed_card(state: State, seat: int, exposed_id: int) -> Exposed | None:
    return next((e for e in state.exposed[seat] if e.id == exposed_id), None)


def _check_window(state: State, seat: int, *, declaring: bool) -> None:
    """§4.3 checks 2-3: the trick winner, once, before the draw."""
    if state.declared_in_window and state.phase == Phase.LEAD and seat == state.leader:
        refuse(Reason.ALREADY_DECLARED, "one declaration or pass per trick won")
    if state.phase != Phase.DECLARE or seat != state.trick_winner:
        refuse(Reason.NOT_DECLARATION_WINDOW,
               "only the winner of the trick just won declares, before the draw")
    last = state.last_declared_after_trick[seat]
    spaced = state.options.declaration_spacing == "not_consecutive"
    if declaring and spaced and last == state.tricks_played - 1:
        refuse(Reason.DECLARED_LAST_TRICK, "this seat declared after the previous trick")


def _check_declaration(state: State, move: Declare) -> None:
    if move.declaration not in KINDS:
        refuse(Reason.UNKNOWN_KIND, "`{kind}` is not a declaration of §4.5", kind=move.declaration)
    rule = decl.rules_for(state.trump_suit)[move.declaration]
    if move.multiplicity < 1 or (rule.extra and move.multiplicity != 1):
        refuse(Reason.BAD_MULTIPLICITY, "multiplicity is at least 1, and 1 for an extra card")
    table = _check_held(state, move)
    if not move.from_hand:
        refuse(Reason.NEEDS_CARD_FROM_HAND, "a declaration puts at least one card from the hand")
    family = decl.KINDS_OF_FAMILY[rule.family]
    if any(e.tags & family for e in table):
        _refuse_family(rule.family)
    identities = [as_ or card for card, as_ in move.from_hand] + [e.as_ for e in table]
    if rule.extra:
        _check_extra(state, move, identities)
    elif not decl.is_sets(rule, identities, move.multiplicity):
        refuse(Reason.INVALID_COMBINATION, "these cards are not {count} × `{kind}`", count=move.multiplicity,
               kind=move.declaration)


def _refuse_family(family: str) -> NoReturn:
    """§4.3.7, one message per family: ``bezique``, ``royal`` and the fours (``fourA``...)."""
    if family == "bezique":
        refuse(Reason.CARD_ALREADY_USED_IN_FAMILY, "a table card has already scored in a bezique")
    if family == "royal":
        refuse(Reason.CARD_ALREADY_USED_IN_FAMILY,
               "a table card has already scored in a trump marriage or quint")
    refuse(Reason.CARD_ALREADY_USED_IN_FAMILY, "a table card has already scored in four {rank}s",
           rank=Rank(family.removeprefix("four")))


def _check_held(state: State, move: Declare) -> list[Exposed]:
    """§4.3.5: the hand cards are held, counting duplicates, and the table ids are the seat's,
    each once; answers the table cards."""
    missing = Counter(card for card, _ in move.from_hand) - Counter(state.hands[move.seat])
    if missing:
        refuse(Reason.CARD_NOT_IN_HAND, "not in seat {seat}'s hand: {cards}", seat=move.seat,
               cards=tuple(missing))
    table = [exposed_card(state, move.seat, i) for i in move.from_table]
    if None in table or len(set(move.from_table)) != len(move.from_table):
        refuse(Reason.CARD_NOT_IN_HAND,
               "from_table lists ids that are not seat {seat}'s exposed cards, once each", seat=move.seat)
    for card, as_ in move.from_hand:
        _check_identity(card, as_)
    return [e for e in table if e is not None]


def _check_extra(state: State, move: Declare, identities: list[Card]) -> None:
    wanted = decl.category(move.declaration, state.trump_suit)
    if move.from_table or identities != [wanted]:
        refuse(Reason.INVALID_COMBINATION, "an extra card is one {card} from the hand", card=wanted)
    if extra_count(state, move.seat, move.declaration) < 4:
        refuse(Reason.EXTRA_NEEDS_FOUR_EXPOSED,
               "fewer than four of the {card} are shown in the four or its extras", card=wanted)


def extra_count(state: State, seat: int, kind: str) -> int:
    """§4.5 e: q, the seat's exposed category cards that scored in the four or in this extra."""
    wanted = decl.category(kind, state.trump_suit)
    return sum(1 for e in state.exposed[seat] if e.as_ is wanted and decl.counts_toward_extra(kind, e.tags))


def _check_exchange(state: State, seat: int) -> None:
    about_to_lead = (state.phase == Phase.DECLARE and seat == state.trick_winner) or (
        state.phase == Phase.LEAD and seat == state.leader)
    if not about_to_lead:
        refuse(Reason.NOT_ON_MOVE, "only the player about to lead may exchange")
    trump_card = state.trump_card
    if trump_card is None:
        refuse(Reason.NO_TRUMP_CARD, "the turned trump card has been drawn")
    if trump_card.rank == "9":
        refuse(Reason.TRUMP_CARD_IS_NINE, "the turned card is already a nine")
    nine = CARDS["9" + state.trump_suit]
    if nine not in state.hands[seat]:
        refuse(Reason.NO_TRUMP_NINE, "seat {seat} holds no {card}", seat=seat, card=nine)
