"""Canasta's legality, docs/rules/canasta.md §4: ``check``, the one place a move is accepted or
refused (with a ``Reason`` of ``rules``), in the order of §4.12. The legal-moves list and the
yes/no question (``service.games.base.accepts``) are derived from it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from service.cards import JOKER, Card
from service.games.base import accepts, refuse
from service.games.canasta import melds as m
from service.games.canasta.melds import SEED_108, THREE, WILD_KEY
from service.games.canasta.rules import (
    PHASE_MOVES,
    AnswerGoOut,
    AskGoOut,
    DeclinePile,
    Discard,
    Draw,
    ExchangeJoker,
    Group,
    Meld,
    Melds,
    Move,
    Phase,
    Reason,
    State,
    TakePile,
    TakeUpcard,
    frozen_for,
    min_req,
    placed,
)
from service.i18n import N_
from service.i18n.text import Rank


def offered(state: State, move: Move) -> bool:
    """§4.12 ``not_offered``: the upcard and the joker exchange belong to ``seed_108``, asking
    to go out to the option at four or six."""
    if isinstance(move, SEED_108_MOVES):
        return state.variant == SEED_108
    if isinstance(move, ASKING):
        return state.options.ask_permission and state.seats in (4, 6)
    return True


SEED_108_MOVES, ASKING = (TakeUpcard, ExchangeJoker), (AskGoOut, AnswerGoOut)
IN_PHASE = {
    Phase.DRAW: N_("no {kind} in the draw phase"),
    Phase.PLAY: N_("no {kind} in the play phase"),
    Phase.AWAIT_ANSWER: N_("no {kind} while the partner's answer is awaited"),
}
"""Why a move of another phase is refused, one message per phase (a phase is not a message value;
``hand_over`` is refused before, as ``hand_finished``)."""


def check(state: State, move: Move) -> None:
    """The one place legality is decided; the first failing check of §4.12 refuses."""
    if state.phase == Phase.HAND_OVER:
        refuse(Reason.HAND_FINISHED, "the hand is over")
    if not offered(state, move):
        refuse(Reason.NOT_OFFERED, "{kind} is not played with these options", kind=move.kind)
    if not isinstance(move, PHASE_MOVES[state.phase]):
        refuse(Reason.WRONG_PHASE, IN_PHASE[state.phase], kind=move.kind)
    if move.seat != state.to_move:
        refuse(Reason.NOT_YOUR_TURN, "seat {seat} is to move", seat=state.to_move)
    CHECKS[type(move)](state, move)


def _check_draw(state: State, move: Draw) -> None:
    if not state.stock:
        refuse(Reason.STOCK_EMPTY, "the stock is empty")


def _pile_top(state: State) -> Card:
    """The top card of a pile there is, and that no wild card or black three stops (§4.1.5)."""
    if not state.pile:
        refuse(Reason.PILE_EMPTY, "the discard pile is empty")
    top = state.pile[0]
    if m.is_wild(top) or m.is_black_three(top, state.variant):
        refuse(Reason.PILE_BLOCKED, "the {card} on top stops the pile", card=top)
    return top


def _check_take_pile(state: State, move: TakePile) -> None:
    top = _pile_top(state)
    hand = state.hands[move.seat]
    if len(hand) == 1 and len(state.pile) == 1:
        refuse(Reason.SINGLE_CARD_PILE, "one card in hand cannot take a one-card pile")
    named = [*move.top_cards, *(c for g in move.melds for c in g.cards)]
    _check_held(hand, named)
    key = str(top.rank)
    strangers = any(not m.is_wild(c) and c.rank != key for c in move.top_cards)
    if strangers or any(g.key == key for g in move.melds):
        refuse(Reason.BAD_GROUP, "the {card} on top makes its own meld: name its cards in `top_cards`",
               card=top)
    _check_groups(state, move.melds)
    side = state.side_of(move.seat)
    if frozen_for(state, side) and sum(1 for c in move.top_cards if not m.is_wild(c)) < 2:
        refuse(Reason.FROZEN_PILE_NEEDS_PAIR, "a frozen pile is taken with two naturals matching the {card}",
               card=top)
    groups = (Group(key, (top, *move.top_cards)), *move.melds)
    after = len(hand) - len(named) + len(state.pile) - 1 - _red_threes(state, state.pile[1:])
    _check_placement(state, move.seat, groups, after, drew="pile", minimum_first=True)


def _red_threes(state: State, cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if m.is_red_three(c, state.variant))


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
    missing = [card for card in dict.fromkeys(named) if held[card] < named.count(card)]
    if missing:
        refuse(Reason.CARD_NOT_IN_HAND, "not in the hand enough times: {cards}", cards=missing)


def _check_groups(state: State, groups: Sequence[Group]) -> None:
    seen = {g.key for g in groups}
    if len(seen) != len(groups) or not seen <= m.KEY_SETS[state.variant] or not all(g.cards for g in groups):
        refuse(Reason.BAD_GROUP, "groups are non-empty, each key once, keys of the variant: {keys}",
               keys=m.keys(state.variant))


def _check_placement(state: State, seat: int, groups: Sequence[Group], after: int, *, drew: str | None,
                     minimum_first: bool = False) -> None:
    """What a take or a meld leaves on the table (§4.1.3), then the hand-size rule (§4.1.8) and
    the first meld's minimum (§4.1.6, with the concealed exemption of §4.5 M4), in the order of
    the move's section (a take checks the minimum first, P8 before P9)."""
    side = state.side_of(seat)
    melds = placed(state.melds[side], groups)
    for g in groups:
        if not m.meld_valid(g.key, melds[g.key], state.variant):
            refuse(Reason.INVALID_MELD, "meld {key} would be {cards}", key=g.key, cards=melds[g.key])
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
        refuse(Reason.BELOW_INITIAL_MINIMUM, "the first meld needs {count} points", count=minimum)


def may_go_out(state: State, seat: int, melds: Melds) -> bool:
    """§4.1.7, on the side's melds as they stand after the move."""
    if m.canastas(melds) < state.table.canastas_to_go_out or state.turn_info.permission == "no":
        return False
    return state.variant != SEED_108 or state.has_melded[seat]


def _check_take_upcard(state: State, move: TakeUpcard) -> None:
    if state.turn_index != 0:
        refuse(Reason.NOT_FIRST_TURN, "the upcard privilege is the first player's first turn")
    top = _pile_top(state)
    hand = state.hands[move.seat]
    _check_held(hand, move.show)
    if len(move.show) < 2 or any(m.is_wild(c) or c.rank != top.rank for c in move.show):
        refuse(Reason.SHOW_NEEDS_NATURAL_PAIR, "show two or more naturals matching the {card}", card=top)
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
        refuse(Reason.NOT_OPPONENT_MELD, "side {side} has no meld {key} to take a joker from",
               side=move.from_side, key=move.rank)
    if JOKER not in theirs[move.rank]:
        refuse(Reason.NO_JOKER_IN_MELD, "side {side}'s meld {key} holds no joker", side=move.from_side,
               key=move.rank)
    _check_held(state.hands[move.seat], [move.card])
    if m.is_wild(move.card) or move.card.rank != move.rank:
        refuse(Reason.EXCHANGE_CARD_WRONG_RANK, "the joker stands for a natural {rank}", rank=Rank(move.rank))
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
    if accepts(check, state, TakePile(move.seat)):
        refuse(Reason.MUST_TAKE_PILE, "the top card goes onto your meld: take the pile")


CHECKS: dict[type, Callable[[State, Any], None]] = {
    Draw: _check_draw, TakePile: _check_take_pile, TakeUpcard: _check_take_upcard, Meld: _check_meld,
    ExchangeJoker: _check_exchange, Discard: _check_discard, AskGoOut: _check_ask,
    AnswerGoOut: _check_answer, DeclinePile: _check_decline,
}
