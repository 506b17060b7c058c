"""Canasta, docs/rules/canasta.md: the classic partnership game and the source text's two
variants (``options.variant``). A turn is a draw (the stock, or the whole discard pile), melds,
and a discard; sides are partnerships at four and six seats and every player for himself at two
and three.

This module holds what every other module of the game builds on: the tables of §2.4, the reasons
refused with their §, the options, the immutable state and the groups a move lays, and the deal
(§3). The moves themselves are in ``moves``; legality is decided in ``check``, the moves'
effects in ``play``, the hand's end and its score in ``scoring``, the legal-moves list in
``listing`` and ``families``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from service.cards import JOKER, RANKS, Card, DeckSource, deck
from service.games import base
from service.games.base import evolve, option
from service.games.canasta import melds as m
from service.games.canasta.melds import CLASSIC, SEED_13, SEED_108
from service.games.seating import Sides, clockwise, left_of

Melds = Mapping[str, tuple[Card, ...]]
"""A side's melds by key."""


class Reason(base.Reason):
    HAND_FINISHED = "hand_finished", "§4.12 no move once the hand is over"
    NOT_OFFERED = "not_offered", "§4.12 the variant or the options do not offer this move"
    WRONG_PHASE = "wrong_phase", "§4.0 the move does not belong to this phase"
    NOT_YOUR_TURN = "not_your_turn", "§4.0 only the seat to move may act"
    CARD_NOT_IN_HAND = "card_not_in_hand", "§4.1.1 every card named must be in the hand"
    STOCK_EMPTY = "stock_empty", "§4.2 no draw from an empty stock"
    PILE_EMPTY = "pile_empty", "§4.3 P2 there is no pile to take"
    PILE_BLOCKED = "pile_blocked", "§4.1.5 a wild card or a black three on top stops the pile"
    SINGLE_CARD_PILE = "single_card_pile", "§4.1.5 one card in hand cannot take a one-card pile"
    BAD_GROUP = "bad_group", "§4.1.1-4.1.2 groups: non-empty, each key once, keys of the variant"
    FROZEN_PILE_NEEDS_PAIR = (
        "frozen_pile_needs_pair", "§4.3 P6 a frozen pile is taken with a natural pair of its top card")
    INVALID_MELD = "invalid_meld", "§4.1.3 3+ cards, 2+ naturals, at most 3 wild cards"
    BELOW_INITIAL_MINIMUM = "below_initial_minimum", "§4.1.6 a side's first meld meets the minimum"
    CANNOT_GO_OUT = "cannot_go_out", "§4.1.7-4.1.8 keep a card unless you may go out"
    NOT_FIRST_TURN = "not_first_turn", "§4.4 the upcard privilege is the first player's first turn"
    SHOW_NEEDS_NATURAL_PAIR = (
        "show_needs_natural_pair", "§4.4 show two or more naturals of the upcard's rank")
    NOT_OPPONENT_MELD = "not_opponent_meld", "§4.6 a joker is taken only from an opponent's meld"
    NO_JOKER_IN_MELD = "no_joker_in_meld", "§4.6 the meld holds no joker"
    EXCHANGE_CARD_WRONG_RANK = (
        "exchange_card_wrong_rank", "§4.6 the joker is exchanged for a natural of the meld's rank")
    EXCHANGE_NEEDS_OWN_MELD = "exchange_needs_own_meld", "§4.6 only a side that has melded exchanges"
    ALREADY_ASKED = "already_asked", "§4.8 one question a turn"
    ASK_AFTER_MELD = "ask_after_meld", "§4.8 ask before melding"
    HAND_TOO_SMALL_TO_ASK = "hand_too_small_to_ask", "§4.8 ask holding two cards or more"
    STOCK_NOT_EMPTY = "stock_not_empty", "§4.9 the pile is declined only when the stock is gone"
    MUST_TAKE_PILE = "must_take_pile", "§4.9 with the stock gone, a pile that can be taken must be"


class Phase(StrEnum):
    DRAW = "draw"
    PLAY = "play"
    AWAIT_ANSWER = "await_answer"
    HAND_OVER = "hand_over"


@dataclass(frozen=True, slots=True)
class Options:
    """§8 (the number of players is the deal's ``players``); every option may be omitted."""

    variant: str = option(
        CLASSIC, "Which Canasta is played: the classic game, or one of the two variants the book gives.",
        choices={
            CLASSIC: "Classic Canasta by the standard rules; at four and six players, in partnerships.",
            SEED_108: "The book's first variant: on the very first turn the first player may take the upcard "
                      "without a meld, showing the natural cards it goes with; a joker may be taken from an "
                      "opponent's meld for a natural card; the first meld needs 30 or 40 points, 10 more "
                      "for each 1000 scored; no going out in a single turn.",
            SEED_13: "The book's second variant: 13 cards each; threes are ordinary cards; the ace counts 11 "
                     "and the nines down to the threes their face value; a clean canasta is worth 600, a "
                     "joker canasta 1200.",
        })
    target_score: int = option(
        0, "The match is played to this total; 0 means the usual total: 5000, or 10000 at six players.",
        within=(0, 10_000_000))
    ask_permission: bool = option(
        False, "At four or six players, a player may ask the partner's permission to go out.")
    initial_meld_base: int = option(
        30, "The book's first variant: the points the first meld needs while the score is under 1000; 10 "
            "more for each further 1000.",
        choices={30: "The first meld needs at least 30 points.",
                 40: "The first meld needs at least 40 points, as the book also allows."})
    first_take_mode: str = option(
        "show", "The book's first variant: what becomes of the natural cards the first player shows to take "
                "the upcard.",
        choices={"show": "They are only shown and stay in the hand; the side still has no meld.",
                 "meld_no_minimum": "They are melded with the upcard, with no minimum to reach."})
    concealed_going_out_bonus: int = option(
        200, "The book's second variant: the bonus for going out concealed, all in one turn without an "
             "earlier meld.",
        choices={200: "The same as for going out: 200.", 400: "Double: 400."})


@dataclass(frozen=True, slots=True)
class Table:
    """§2.4: what follows from the number of players and the variant."""

    seats: int
    dealt: int
    draw: int
    canastas_to_go_out: int
    target: int
    big_deck: bool
    sides: Sides


PLAYER_COUNTS = {CLASSIC: (2, 3, 4, 6), SEED_108: (2, 3, 4), SEED_13: (2, 3, 4)}


@cache
def table(seats: int, variant: str) -> Table:
    dealt = 13 if variant == SEED_13 else {2: 15, 3: 13, 4: 11, 6: 13}[seats]
    return Table(seats, dealt, 2 if seats == 2 else 1, 2 if seats in (2, 6) else 1,
                 10_000 if seats == 6 else 5000, seats == 6, Sides(seats, 2 if seats in (4, 6) else seats))


@cache
def full_deck(seats: int) -> tuple[Card, ...]:
    """§2.1 in its canonical order: the packs, then the jokers (162 cards at six players)."""
    copies = 3 if seats == 6 else 2
    return (*deck(RANKS, copies=copies), *(JOKER,) * (2 * copies))


@dataclass(frozen=True, slots=True)
class TurnInfo:
    drew: str | None = None
    keys_at_start: frozenset[str] = frozenset()
    added_to_old: bool = False
    melded_this_turn: bool = False
    actions: int = 0
    asked: bool = False
    permission: str | None = None


@dataclass(frozen=True, slots=True)
class Result:
    reason: str
    went_out: int | None = None
    concealed: bool = False


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    seats: int
    dealer: int
    side_scores: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    """Top card first."""
    pile_frozen: bool
    melds: tuple[Melds, ...]
    """Per side."""
    red_threes: tuple[tuple[Card, ...], ...]
    turn: int
    to_move: int | None
    phase: Phase
    turn_index: int
    has_melded: tuple[bool, ...]
    turn_info: TurnInfo
    result: Result | None = None

    @property
    def finished(self) -> bool:
        return self.phase == Phase.HAND_OVER

    @property
    def variant(self) -> str:
        return self.options.variant

    @property
    def table(self) -> Table:
        return table(self.seats, self.options.variant)

    def side_of(self, seat: int) -> int:
        return self.table.sides.side_of(seat)

    def target(self) -> int:
        return self.options.target_score or self.table.target


@dataclass(frozen=True, slots=True)
class Group:
    """Cards from the hand for one meld key (§4.1.1)."""

    key: str
    cards: tuple[Card, ...]




# --- what the rules ask of a state ------------------------------------------------------------


def frozen_for(state: State, side: int) -> bool:
    """§4.1.5: frozen for everyone, or for a side without a meld."""
    return state.pile_frozen or not state.melds[side]


def placed(melds: Melds, groups: Sequence[Group]) -> dict[str, tuple[Card, ...]]:
    """The side's melds once the groups are laid."""
    result = dict(melds)
    for g in groups:
        result[g.key] = (*result.get(g.key, ()), *g.cards)
    return result


def min_req(state: State, side: int) -> int:
    """§4.1.6: the minimum of the side's first meld this hand."""
    return m.min_req(state.side_scores[side], state.variant, seats=state.seats,
                     base=state.options.initial_meld_base)


# --- deal (§3) ---------------------------------------------------------------------------------


def deal(*, seats: int, dealer: int, options: Options, side_scores: tuple[int, ...],
         source: DeckSource) -> State:
    return deal_from(source.order(full_deck(seats)), seats=seats, dealer=dealer, options=options,
                     side_scores=side_scores)


def deal_from(cards: Sequence[Card], *, seats: int, dealer: int, options: Options,
              side_scores: tuple[int, ...]) -> State:
    """§3.2-3.4 from a shuffled deck, top card first."""
    variant, spec = options.variant, table(seats, options.variant)
    first = left_of(dealer, seats)
    hands: list[list[Card]] = [[] for _ in range(seats)]
    for i in range(seats * spec.dealt):
        hands[left_of(first, seats, i)].append(cards[i])
    j = seats * spec.dealt
    pile = [cards[j]]
    while m.is_wild(pile[0]) or m.is_red_three(pile[0], variant):
        j += 1
        pile.insert(0, cards[j])
    stock = list(cards[j + 1:])
    red_threes = _lay_red_threes(hands, stock, first=first, variant=variant)
    options = evolve(options, target_score=options.target_score or spec.target)
    return State(
        options=options, seats=seats, dealer=dealer, side_scores=side_scores,
        hands=tuple(tuple(h) for h in hands), stock=tuple(stock), pile=tuple(pile), pile_frozen=len(pile) > 1,
        melds=tuple({} for _ in range(spec.sides.count)), red_threes=tuple(tuple(r) for r in red_threes),
        turn=first, to_move=first, phase=Phase.DRAW, turn_index=0, has_melded=(False,) * seats,
        turn_info=TurnInfo(),
    )


def _lay_red_threes(hands: list[list[Card]], stock: list[Card], *, first: int,
                    variant: str) -> list[list[Card]]:
    """§3.4: each seat in turn lays out its red threes, replaced from the stock (both lists change)."""
    red_threes: list[list[Card]] = [[] for _ in hands]
    if m.threes_special(variant):
        for seat in clockwise(first, len(hands)):
            while (three := next((c for c in hands[seat] if m.is_red_three(c, variant)), None)) is not None:
                hands[seat].remove(three)
                red_threes[seat].append(three)
                hands[seat].append(stock.pop(0))
    return red_threes
