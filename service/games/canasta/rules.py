"""Canasta, docs/rules/canasta.md, as pure functions on immutable states: the classic partnership
game and the source text's two variants (``options.variant``). A turn is a draw (the stock, or
the whole discard pile), melds, and a discard; sides are partnerships at four and six seats and
every player for himself at two and three."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any, ClassVar

from service.cards import JOKER, RANKS, Card, DeckSource, deck, without
from service.games import base
from service.games.base import Event, evolve, option, refuse, replace_at
from service.games.canasta import melds as m
from service.games.canasta.melds import CLASSIC, SEED_13, SEED_108, THREE, WILD_KEY
from service.games.seating import Sides

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

    variant: str = option(CLASSIC, "`classic`, or the source text's `seed_108` and `seed_13`.",
                          choices=m.VARIANTS)
    target_score: int = option(
        0, "The match is played to this total; 0: the table's (5000, 10000 at six players).",
        within=(0, 10_000_000))
    ask_permission: bool = option(False, "At 4 or 6 players, a player may ask the partner to go out.")
    initial_meld_base: int = option(30, "`seed_108`: the first meld's minimum before 1000.", choices=(30, 40))
    first_take_mode: str = option("show", "`seed_108`: the first player's upcard is shown for, or melded.",
                                  choices=("show", "meld_no_minimum"))
    concealed_going_out_bonus: int = option(200, "`seed_13`: the bonus for going out concealed.",
                                            choices=(200, 400))


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


@dataclass(frozen=True, slots=True)
class Draw:
    kind: ClassVar[str] = "draw"
    seat: int


@dataclass(frozen=True, slots=True)
class TakePile:
    kind: ClassVar[str] = "take_pile"
    seat: int
    top_cards: tuple[Card, ...] = ()
    melds: tuple[Group, ...] = ()


@dataclass(frozen=True, slots=True)
class TakeUpcard:
    kind: ClassVar[str] = "take_upcard"
    seat: int
    show: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Meld:
    kind: ClassVar[str] = "meld"
    seat: int
    melds: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class ExchangeJoker:
    kind: ClassVar[str] = "exchange_joker"
    seat: int
    from_side: int
    rank: str
    card: Card


@dataclass(frozen=True, slots=True)
class Discard:
    kind: ClassVar[str] = "discard"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class AskGoOut:
    kind: ClassVar[str] = "ask_go_out"
    seat: int


@dataclass(frozen=True, slots=True)
class AnswerGoOut:
    kind: ClassVar[str] = "answer_go_out"
    seat: int
    answer: bool


@dataclass(frozen=True, slots=True)
class DeclinePile:
    kind: ClassVar[str] = "decline_pile"
    seat: int


Move = Draw | TakePile | TakeUpcard | Meld | ExchangeJoker | Discard | AskGoOut | AnswerGoOut | DeclinePile
PHASE_MOVES: dict[Phase, tuple[type, ...]] = {
    Phase.DRAW: (Draw, TakePile, TakeUpcard, DeclinePile),
    Phase.PLAY: (Meld, ExchangeJoker, AskGoOut, Discard),
    Phase.AWAIT_ANSWER: (AnswerGoOut,),
    Phase.HAND_OVER: (),
}




# --- deal (§3) ---------------------------------------------------------------------------------


def deal(*, seats: int, dealer: int, options: Options, side_scores: tuple[int, ...],
         source: DeckSource) -> State:
    return deal_from(source.order(full_deck(seats)), seats=seats, dealer=dealer, options=options,
                     side_scores=side_scores)


def deal_from(cards: Sequence[Card], *, seats: int, dealer: int, options: Options,
              side_scores: tuple[int, ...]) -> State:
    """§3.2-3.4 from a shuffled deck, top card first."""
    variant, spec = options.variant, table(seats, options.variant)
    first = (dealer + 1) % seats
    hands: list[list[Card]] = [[] for _ in range(seats)]
    for i in range(seats * spec.dealt):
        hands[(first + i) % seats].append(cards[i])
    j = seats * spec.dealt
    pile = [cards[j]]
    while m.is_wild(pile[0]) or m.is_red_three(pile[0], variant):
        j += 1
        pile.insert(0, cards[j])
    stock = list(cards[j + 1:])
    red_threes: list[list[Card]] = [[] for _ in range(seats)]
    if m.threes_special(variant):
        for step in range(seats):
            seat = (first + step) % seats
            while (three := next((c for c in hands[seat] if m.is_red_three(c, variant)), None)) is not None:
                hands[seat].remove(three)
                red_threes[seat].append(three)
                hands[seat].append(stock.pop(0))
    options = evolve(options, target_score=options.target_score or spec.target)
    return State(
        options=options, seats=seats, dealer=dealer, side_scores=side_scores,
        hands=tuple(tuple(h) for h in hands), stock=tuple(stock), pile=tuple(pile), pile_frozen=len(pile) > 1,
        melds=tuple({} for _ in range(spec.sides.count)), red_threes=tuple(tuple(r) for r in red_threes),
        turn=first, to_move=first, phase=Phase.DRAW, turn_index=0, has_melded=(False,) * seats,
        turn_info=TurnInfo(),
    )


# --- legality (§4) -----------------------------------------------------------------------------


def offered(state: State, move: Move) -> bool:
    """§4.12 ``not_offered``: the upcard and the joker exchange belong to ``seed_108``, asking
    to go out to the option at four or six."""
    if isinstance(move, SEED_108_MOVES):
        return state.variant == SEED_108
    if isinstance(move, ASKING):
        return state.options.ask_permission and state.seats in (4, 6)
    return True


SEED_108_MOVES, ASKING = (TakeUpcard, ExchangeJoker), (AskGoOut, AnswerGoOut)


def check(state: State, move: Move) -> None:
    """The one place legality is decided; the first failing check of §4.12 refuses."""
    if state.phase == Phase.HAND_OVER:
        refuse(Reason.HAND_FINISHED, "the hand is over")
    if not offered(state, move):
        refuse(Reason.NOT_OFFERED, f"{move.kind} is not played with these options")
    if not isinstance(move, PHASE_MOVES[state.phase]):
        refuse(Reason.WRONG_PHASE, f"no {move.kind} in the {state.phase} phase")
    if move.seat != state.to_move:
        refuse(Reason.NOT_YOUR_TURN, f"seat {state.to_move} is to move")
    CHECKS[type(move)](state, move)


def _check_draw(state: State, move: Draw) -> None:
    if not state.stock:
        refuse(Reason.STOCK_EMPTY, "the stock is empty")


def _blocked(state: State, top: Card) -> bool:
    return m.is_wild(top) or m.is_black_three(top, state.variant)


def _check_take_pile(state: State, move: TakePile) -> None:
    if not state.pile:
        refuse(Reason.PILE_EMPTY, "the discard pile is empty")
    top = state.pile[0]
    if _blocked(state, top):
        refuse(Reason.PILE_BLOCKED, f"{top.code} on top stops the pile")
    hand = state.hands[move.seat]
    if len(hand) == 1 and len(state.pile) == 1:
        refuse(Reason.SINGLE_CARD_PILE, "one card in hand cannot take a one-card pile")
    named = [*move.top_cards, *(c for g in move.melds for c in g.cards)]
    _check_held(hand, named)
    key = str(top.rank)
    strangers = any(not m.is_wild(c) and c.rank != key for c in move.top_cards)
    if strangers or any(g.key == key for g in move.melds):
        refuse(Reason.BAD_GROUP, f"the top card's meld is {key}: name its cards in top_cards")
    _check_groups(state, move.melds)
    side = state.side_of(move.seat)
    if frozen_for(state, side) and sum(1 for c in move.top_cards if not m.is_wild(c)) < 2:
        refuse(Reason.FROZEN_PILE_NEEDS_PAIR, f"a frozen pile is taken with two natural {key}s")
    groups = (Group(key, (top, *move.top_cards)), *move.melds)
    after = len(hand) - len(named) + len(state.pile) - 1 - _red_threes(state, state.pile[1:])
    _check_placement(state, move.seat, groups, after, drew="pile", minimum_first=True)


def _red_threes(state: State, cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if m.is_red_three(c, state.variant))


def frozen_for(state: State, side: int) -> bool:
    """§4.1.5: frozen for everyone, or for a side without a meld."""
    return state.pile_frozen or not state.melds[side]


@lru_cache(maxsize=8)
def _counted(hand: tuple[Card, ...]) -> Counter[Card]:
    """How often the hand holds each card; read only. Kept for the few hands being listed, since
    a listing checks each of its moves against the same hand: a group of eleven cards from a hand
    of 149 was checked in 42 µs card by card (tuple.count), 15 µs counting the hand each time,
    3 µs with the counts kept (the listing of that hand: from 55 to 36 ms)."""
    return Counter(hand)


def _check_held(hand: Sequence[Card], named: Sequence[Card]) -> None:
    # The legal-moves list checks every meld it lists, so the common case (each card named once)
    # is one set test: 2.0 to 0.9 µs for five cards from a hand of 32. Otherwise the hand's
    # counts are looked up (see ``_counted``).
    distinct = set(named)
    if len(distinct) == len(named) and distinct.issubset(hand):
        return
    held = _counted(tuple(hand))
    missing = [card for card in distinct if held[card] < named.count(card)]
    if missing:
        refuse(Reason.CARD_NOT_IN_HAND, f"not in the hand enough times: {' '.join(c.code for c in missing)}")


def _check_groups(state: State, groups: Sequence[Group]) -> None:
    seen = {g.key for g in groups}
    if len(seen) != len(groups) or not seen <= m.KEY_SETS[state.variant] or not all(g.cards for g in groups):
        refuse(Reason.BAD_GROUP, "groups are non-empty, each key once, keys of the variant: "
               + " ".join(m.keys(state.variant)))


def _check_placement(state: State, seat: int, groups: Sequence[Group], after: int, *, drew: str | None,
                     minimum_first: bool = False) -> None:
    """What a take or a meld leaves on the table (§4.1.3), then the hand-size rule (§4.1.8) and
    the first meld's minimum (§4.1.6, with the concealed exemption of §4.5 M4), in the order of
    the move's section (a take checks the minimum first, P8 before P9)."""
    side = state.side_of(seat)
    melds = placed(state.melds[side], groups)
    for g in groups:
        if not m.meld_valid(g.key, melds[g.key], state.variant):
            refuse(Reason.INVALID_MELD, f"meld {g.key} would be {' '.join(c.code for c in melds[g.key])}")
        if g.key == THREE and m.threes_special(state.variant) and after > 1:
            refuse(Reason.INVALID_MELD, "black threes are melded only when going out")
    if minimum_first:
        _check_minimum(state, side, groups, exempt=False)
    if after <= 1 and not may_go_out(state, seat, melds):
        refuse(Reason.CANNOT_GO_OUT, "keep two cards: this side may not go out yet")
    concealed = drew == "stock" and after <= 1 and any(len(melds[g.key]) >= 7 for g in groups)
    _check_minimum(state, side, groups, exempt=concealed)


def _check_minimum(state: State, side: int, groups: Sequence[Group], *, exempt: bool) -> None:
    if state.melds[side] or exempt:
        return
    minimum = min_req(state, side)
    if sum(m.points(g.cards, state.variant) for g in groups) < minimum:
        refuse(Reason.BELOW_INITIAL_MINIMUM, f"the first meld needs {minimum} points")


def placed(melds: Melds, groups: Sequence[Group]) -> dict[str, tuple[Card, ...]]:
    """The side's melds once the groups are laid."""
    result = dict(melds)
    for g in groups:
        result[g.key] = (*result.get(g.key, ()), *g.cards)
    return result


def min_req(state: State, side: int) -> int:
    return m.min_req(state.side_scores[side], state.variant, seats=state.seats,
                     base=state.options.initial_meld_base)


def may_go_out(state: State, seat: int, melds: Melds) -> bool:
    """§4.1.7, on the side's melds as they stand after the move."""
    if m.canastas(melds) < state.table.canastas_to_go_out or state.turn_info.permission == "no":
        return False
    return state.variant != SEED_108 or state.has_melded[seat]


def _check_take_upcard(state: State, move: TakeUpcard) -> None:
    if state.turn_index != 0:
        refuse(Reason.NOT_FIRST_TURN, "the upcard privilege is the first player's first turn")
    if not state.pile:
        refuse(Reason.PILE_EMPTY, "the discard pile is empty")
    top = state.pile[0]
    if _blocked(state, top):
        refuse(Reason.PILE_BLOCKED, f"{top.code} on top stops the pile")
    hand = state.hands[move.seat]
    _check_held(hand, move.show)
    if len(move.show) < 2 or any(m.is_wild(c) or c.rank != top.rank for c in move.show):
        refuse(Reason.SHOW_NEEDS_NATURAL_PAIR, f"show two or more natural {top.rank}s")
    taken = len(state.pile) - _red_threes(state, state.pile)
    melds: Melds
    if state.options.first_take_mode == "meld_no_minimum":
        after = len(hand) - len(move.show) + taken - 1
        melds = placed(state.melds[state.side_of(move.seat)], [Group(str(top.rank), (top, *move.show))])
    else:
        after, melds = len(hand) + taken, state.melds[state.side_of(move.seat)]
    if after <= 1 and not may_go_out(state, move.seat, melds):
        refuse(Reason.CANNOT_GO_OUT, "keep two cards: this side may not go out yet")


def _check_meld(state: State, move: Meld) -> None:
    if not move.melds:
        refuse(Reason.BAD_GROUP, "a meld names at least one group")
    hand = state.hands[move.seat]
    named = [c for g in move.melds for c in g.cards]
    _check_held(hand, named)
    _check_groups(state, move.melds)
    _check_placement(state, move.seat, move.melds, len(hand) - len(named), drew=state.turn_info.drew)


def _check_exchange(state: State, move: ExchangeJoker) -> None:
    side = state.side_of(move.seat)
    theirs = state.melds[move.from_side] if 0 <= move.from_side < len(state.melds) else {}
    if move.from_side == side or move.rank not in theirs or move.rank in (THREE, WILD_KEY):
        refuse(Reason.NOT_OPPONENT_MELD,
               f"side {move.from_side} has no meld {move.rank} to take a joker from")
    if JOKER not in theirs[move.rank]:
        refuse(Reason.NO_JOKER_IN_MELD, f"side {move.from_side}'s meld {move.rank} holds no joker")
    _check_held(state.hands[move.seat], [move.card])
    if m.is_wild(move.card) or move.card.rank != move.rank:
        refuse(Reason.EXCHANGE_CARD_WRONG_RANK, f"the joker stands for a natural {move.rank}")
    if not state.melds[side]:
        refuse(Reason.EXCHANGE_NEEDS_OWN_MELD, "only a side that has melded exchanges a joker")


def _check_discard(state: State, move: Discard) -> None:
    hand = state.hands[move.seat]
    _check_held(hand, [move.card])
    if len(hand) == 1 and not may_go_out(state, move.seat, state.melds[state.side_of(move.seat)]):
        refuse(Reason.CANNOT_GO_OUT, "the last card is discarded only when going out")


def _check_ask(state: State, move: AskGoOut) -> None:
    info = state.turn_info
    if info.asked:
        refuse(Reason.ALREADY_ASKED, "one question a turn")
    if info.actions:
        refuse(Reason.ASK_AFTER_MELD, "ask before melding")
    if len(state.hands[move.seat]) < 2:
        refuse(Reason.HAND_TOO_SMALL_TO_ASK, "ask holding two cards or more")


def _check_answer(state: State, move: AnswerGoOut) -> None:
    """Only the asked partner is to move, which ``check`` has seen to."""


def _check_decline(state: State, move: DeclinePile) -> None:
    if state.stock:
        refuse(Reason.STOCK_NOT_EMPTY, "the pile is declined only once the stock is gone")
    if is_legal(state, TakePile(move.seat)):
        refuse(Reason.MUST_TAKE_PILE, "the top card goes onto your meld: take the pile")


CHECKS: dict[type, Callable[[State, Any], None]] = {
    Draw: _check_draw, TakePile: _check_take_pile, TakeUpcard: _check_take_upcard, Meld: _check_meld,
    ExchangeJoker: _check_exchange, Discard: _check_discard, AskGoOut: _check_ask,
    AnswerGoOut: _check_answer, DeclinePile: _check_decline,
}


def is_legal(state: State, move: Move) -> bool:
    return base.accepts(check, state, move)


# --- effects (§4-§6) ---------------------------------------------------------------------------


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The next state; only called with a move that ``check`` accepted."""
    return APPLY[type(move)](state, move)


def _draw(state: State, move: Draw) -> tuple[State, list[Event]]:
    """§4.2: red threes drawn are laid out and replaced by the next card."""
    seat, hand, threes, stock = move.seat, list(state.hands[move.seat]), list(state.red_threes[move.seat]), \
        list(state.stock)
    wanted, events = state.table.draw, []
    while wanted and stock:
        card = stock.pop(0)
        if m.is_red_three(card, state.variant):
            threes.append(card)
            events.append(Event("red_three_laid", seat, (card,)))
            if not stock:
                state = evolve(state, stock=(), red_threes=replace_at(state.red_threes, seat, tuple(threes)),
                               hands=replace_at(state.hands, seat, tuple(hand)))
                return _end(state, Result("red_three_last")), [*events, Event("hand_over", None)]
            continue
        hand.append(card)
        wanted -= 1
    events.insert(0, Event("drew", seat))
    return evolve(state, stock=tuple(stock), hands=replace_at(state.hands, seat, tuple(hand)),
                  red_threes=replace_at(state.red_threes, seat, tuple(threes)), phase=Phase.PLAY,
                  turn_info=evolve(state.turn_info, drew="stock")), events


def _lay(state: State, seat: int, groups: Sequence[Group], *, from_hand: Sequence[Card],
         into_hand: Sequence[Card] = ()) -> State:
    """Groups onto the side's melds: ``from_hand`` leaves the hand (and a taken pile's cards
    ``into_hand`` join it)."""
    side = state.side_of(seat)
    info = state.turn_info
    info = evolve(info, melded_this_turn=True,
                  added_to_old=info.added_to_old or any(g.key in info.keys_at_start for g in groups))
    hand = (*without(state.hands[seat], from_hand), *into_hand)
    return evolve(state, hands=replace_at(state.hands, seat, hand),
                  melds=replace_at(state.melds, side, placed(state.melds[side], groups)), turn_info=info)


def _take_rest(state: State, seat: int, rest: Sequence[Card]) -> tuple[State, list[Card]]:
    """The pile's other cards: red threes to the seat's area, without replacement (§4.3)."""
    threes = [c for c in rest if m.is_red_three(c, state.variant)]
    kept = [c for c in rest if not m.is_red_three(c, state.variant)]
    state = evolve(state, red_threes=replace_at(state.red_threes, seat, (*state.red_threes[seat], *threes)),
                   pile=(), pile_frozen=False, phase=Phase.PLAY)
    return state, kept


def _take_pile(state: State, move: TakePile) -> tuple[State, list[Event]]:
    top = state.pile[0]
    state, kept = _take_rest(state, move.seat, state.pile[1:])
    groups = (Group(str(top.rank), (top, *move.top_cards)), *move.melds)
    named = [*move.top_cards, *(c for g in move.melds for c in g.cards)]
    state = _lay(state, move.seat, groups, from_hand=named, into_hand=kept)
    state = evolve(state, turn_info=evolve(state.turn_info, drew="pile"))
    return _after_laying(state, move.seat, [Event("took_pile", move.seat, (top,))])


def _take_upcard(state: State, move: TakeUpcard) -> tuple[State, list[Event]]:
    """§4.4: the whole pile, for the natural cards shown (or, by the option, melded with it)."""
    top = state.pile[0]
    events = [Event("took_upcard", move.seat, (top, *move.show))]
    if state.options.first_take_mode == "meld_no_minimum":
        state, kept = _take_rest(state, move.seat, state.pile[1:])
        state = _lay(state, move.seat, [Group(str(top.rank), (top, *move.show))], from_hand=move.show,
                     into_hand=kept)
        return _after_laying(evolve(state, turn_info=evolve(state.turn_info, drew="pile")), move.seat, events)
    state, kept = _take_rest(state, move.seat, state.pile)
    hand = (*state.hands[move.seat], *kept)
    return evolve(state, hands=replace_at(state.hands, move.seat, hand),
                  turn_info=evolve(state.turn_info, drew="upcard")), events


def _meld(state: State, move: Meld) -> tuple[State, list[Event]]:
    named = [c for g in move.melds for c in g.cards]
    state = _lay(state, move.seat, move.melds, from_hand=named)
    state = evolve(state, turn_info=evolve(state.turn_info, actions=state.turn_info.actions + 1))
    return _after_laying(state, move.seat, [Event("melded", move.seat, tuple(named))])


def _after_laying(state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
    if state.hands[seat]:
        return state, events
    return _went_out(state, seat), [*events, Event("went_out", seat), Event("hand_over", None)]


def _exchange(state: State, move: ExchangeJoker) -> tuple[State, list[Event]]:
    """§4.6: the joker to the hand, the natural card into the opponent's meld in its place."""
    theirs = dict(state.melds[move.from_side])
    theirs[move.rank] = (*without(theirs[move.rank], [JOKER]), move.card)
    hand = (*without(state.hands[move.seat], [move.card]), JOKER)
    info = evolve(state.turn_info, actions=state.turn_info.actions + 1)
    return evolve(state, hands=replace_at(state.hands, move.seat, hand), turn_info=info,
                  melds=replace_at(state.melds, move.from_side, theirs)), [
        Event("joker_exchanged", move.seat, (move.card,))]


def _discard(state: State, move: Discard) -> tuple[State, list[Event]]:
    """§4.7 and §4.11: the discard ends the turn, or the hand when it was the last card."""
    seat = move.seat
    state = evolve(state, hands=replace_at(state.hands, seat, without(state.hands[seat], [move.card])),
                   pile=(move.card, *state.pile), pile_frozen=state.pile_frozen or m.is_wild(move.card))
    events = [Event("discarded", seat, (move.card,))]
    if not state.hands[seat]:
        return _went_out(state, seat), [*events, Event("went_out", seat), Event("hand_over", None)]
    nxt = (seat + 1) % state.seats
    melded = state.has_melded[seat] or state.turn_info.melded_this_turn
    state = evolve(
        state, has_melded=replace_at(state.has_melded, seat, melded),
        turn=nxt, to_move=nxt, turn_index=state.turn_index + 1, phase=Phase.DRAW,
        turn_info=TurnInfo(keys_at_start=frozenset(state.melds[state.side_of(nxt)])),
    )
    from service.games.canasta.listing import any_take  # the listing builds on these rules

    if not state.stock and not any_take(state, nxt):
        return _end(state, Result("stock_exhausted")), [*events, Event("hand_over", None)]
    return state, events


def _ask(state: State, move: AskGoOut) -> tuple[State, list[Event]]:
    return evolve(state, phase=Phase.AWAIT_ANSWER, to_move=(move.seat + 2) % state.seats,
                  turn_info=evolve(state.turn_info, asked=True)), [Event("asked_to_go_out", move.seat)]


def _answer(state: State, move: AnswerGoOut) -> tuple[State, list[Event]]:
    return evolve(state, phase=Phase.PLAY, to_move=state.turn,
                  turn_info=evolve(state.turn_info, permission="yes" if move.answer else "no")), [
        Event("answered", move.seat, points=int(move.answer))]


def _decline(state: State, move: DeclinePile) -> tuple[State, list[Event]]:
    events = [Event("declined_pile", move.seat), Event("hand_over", None)]
    return _end(state, Result("stock_exhausted")), events


def _went_out(state: State, seat: int) -> State:
    """§4.10: concealed when the seat had not melded before this turn, added nothing to an old
    meld, and made a canasta of a new one."""
    info = state.turn_info
    new_canasta = any(len(cards) >= 7 for key, cards in state.melds[state.side_of(seat)].items()
                      if key not in info.keys_at_start)
    concealed = not state.has_melded[seat] and not info.added_to_old and new_canasta
    return _end(state, Result("went_out", seat, concealed))


def _end(state: State, result: Result) -> State:
    return evolve(state, phase=Phase.HAND_OVER, to_move=None, result=result)


APPLY: dict[type, Callable[[State, Any], tuple[State, list[Event]]]] = {
    Draw: _draw, TakePile: _take_pile, TakeUpcard: _take_upcard, Meld: _meld, ExchangeJoker: _exchange,
    Discard: _discard, AskGoOut: _ask, AnswerGoOut: _answer, DeclinePile: _decline,
}


# --- scoring (§7) ------------------------------------------------------------------------------


def going_out_bonus(state: State, side: int) -> int:
    result = state.result
    if result is None or result.went_out is None or state.side_of(result.went_out) != side:
        return 0
    if state.variant == SEED_13:
        return state.options.concealed_going_out_bonus if result.concealed else 200
    return 200 if result.concealed and state.variant == CLASSIC else 100


def hand_score(state: State, side: int) -> m.SideScore:
    """§7.1 for one side of a finished hand."""
    members = state.table.sides.members(side)
    return m.side_score(
        state.melds[side], sum(len(state.red_threes[s]) for s in members), (state.hands[s] for s in members),
        variant=state.variant, big_deck=state.table.big_deck, going_out_bonus=going_out_bonus(state, side))
