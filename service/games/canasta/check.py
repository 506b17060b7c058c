"""Canasta's legality, docs/rules/canasta.md §4: ``check``, the one place a move is accepted or
refused (with a ``Reason`` of ``rules``), in the order of §4.12. The legal-moves list and the
yes/no question (``service.games.base.accepts``) are derived from it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from service.cards import JOKER, Card
from service.games.base import accepts, refuse, refuse_counted
from service.games.canasta import melds as m
from service.games.canasta import moves as mv
from service.games.canasta.melds import SEED_108, THREE, WILD_KEY
from service.games.canasta.rules import Group, Melds, Phase, Reason, State, frozen_for, min_req, placed
from service.i18n import N_
from service.i18n.text import Amount, Rank, Seat


def offered(state: State, move: mv.Move) -> bool:
    """§4.12 ``not_offered``: the upcard and the joker exchange belong to ``seed_108``, asking
    to go out to the option at four or six."""
    if isinstance(move, SEED_108_MOVES):
        return state.variant == SEED_108
    if isinstance(move, ASKING):
        return state.options.ask_permission and state.seats in (4, 6)
    return True


SEED_108_MOVES, ASKING = (mv.TakeUpcard, mv.ExchangeJoker), (mv.AskGoOut, mv.AnswerGoOut)
NOT_OFFERED = {
    mv.TakeUpcard: N_("in this variant the upcard is not taken without a meld"),
    mv.ExchangeJoker: N_("jokers are not exchanged in this variant"),
    mv.AskGoOut: N_("at this table nobody asks the partner's permission to go out"),
    mv.AnswerGoOut: N_("at this table nobody asks the partner's permission to go out"),
}
"""Why a move the variant or the options do not have is refused, by the move."""
IN_PHASE = {
    Phase.DRAW: N_("take your cards first: draw from the stock or take the discard pile"),
    Phase.PLAY: N_("you have already taken your cards this turn"),
}
"""Why a move of another phase is refused, by the phase (``hand_over`` is refused before, as
``hand_finished``; the wait for an answer in ``_refuse_phase``)."""


def check(state: State, move: mv.Move) -> None:
    """The one place legality is decided; the first failing check of §4.12 refuses."""
    if state.phase == Phase.HAND_OVER:
        refuse(Reason.HAND_FINISHED, "this hand is over: no more moves are made")
    if not offered(state, move):
        refuse(Reason.NOT_OFFERED, NOT_OFFERED[type(move)])
    if not isinstance(move, mv.PHASE_MOVES[state.phase]):
        _refuse_phase(state, move)
    if move.seat != state.to_move:
        refuse(Reason.NOT_YOUR_TURN, "it is {seat}'s turn", seat=Seat(state.to_move))
    CHECKS[type(move)](state, move)


def _refuse_phase(state: State, move: mv.Move) -> None:
    """``wrong_phase``, said to the seat that tried the move: an answer nobody asked for, a move
    while a question waits for its answer (to the partner asked, or to anyone else), or a move of
    the other half of a turn."""
    if isinstance(move, mv.AnswerGoOut):
        refuse(Reason.WRONG_PHASE, "nobody has asked you whether to go out")
    if state.phase == Phase.AWAIT_ANSWER:
        if move.seat == state.to_move:
            refuse(Reason.WRONG_PHASE, "answer your partner first: may they go out or not")
        refuse(Reason.WRONG_PHASE, "wait: {seat} is answering whether to go out", seat=Seat(state.to_move))
    refuse(Reason.WRONG_PHASE, IN_PHASE[state.phase])


def _check_draw(state: State, move: mv.Draw) -> None:
    if not state.stock:
        refuse(Reason.STOCK_EMPTY, "the stock is empty: there is no card to draw")


def _pile_top(state: State) -> Card:
    """The top card of a pile there is, and that no wild card or black three stops (§4.1.5)."""
    if not state.pile:
        refuse(Reason.PILE_EMPTY, "the discard pile is empty: there is nothing to take")
    top = state.pile[0]
    if m.is_wild(top) or m.is_black_three(top, state.variant):
        refuse(Reason.PILE_BLOCKED, "you cannot take the discard pile while {card} is on top", card=top)
    return top


def _check_take_pile(state: State, move: mv.TakePile) -> None:
    top = _pile_top(state)
    hand = state.hands[move.seat]
    if len(hand) == 1 and len(state.pile) == 1:
        refuse(Reason.SINGLE_CARD_PILE, "with one card in your hand you cannot take a pile of one card")
    named = [*move.top_cards, *(c for g in move.melds for c in g.cards)]
    _check_held(hand, named)
    key = str(top.rank)
    if any(not m.is_wild(c) and c.rank != key for c in move.top_cards):
        refuse(Reason.BAD_GROUP, "with {card} from the pile go only cards of its rank, jokers and twos",
               card=top)
    if any(g.key == key for g in move.melds):
        refuse(Reason.BAD_GROUP, "your cards of the same rank as {card} go with it, not in a group of "
               "their own", card=top)
    _check_groups(state, move.melds)
    side = state.side_of(move.seat)
    if frozen_for(state, side) and sum(1 for c in move.top_cards if not m.is_wild(c)) < 2:
        if state.pile_frozen:
            refuse(Reason.FROZEN_PILE_NEEDS_PAIR, "the pile is frozen: you may take it only with a pair of "
                   "natural cards of the same rank as {card}", card=top)
        refuse(Reason.FROZEN_PILE_NEEDS_PAIR, "until you have a meld, you may take the pile only with a pair "
               "of natural cards of the same rank as {card}", card=top)
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
    if absent := [card for card in missing if not held[card]]:
        refuse(Reason.CARD_NOT_IN_HAND, "you do not hold {cards}", cards=absent)
    if missing:
        refuse(Reason.CARD_NOT_IN_HAND, "you named {cards} more times than you hold them", cards=missing)


def _check_groups(state: State, groups: Sequence[Group]) -> None:
    seen = {g.key for g in groups}
    if len(seen) != len(groups) or not seen <= m.KEY_SETS[state.variant] or not all(g.cards for g in groups):
        if not all(g.cards for g in groups):
            refuse(Reason.BAD_GROUP, "every group needs at least one card")
        if len(seen) != len(groups):
            refuse(Reason.BAD_GROUP, "you named one meld twice: put its cards in one group")
        refuse(Reason.BAD_GROUP, "this variant has no such meld")


def _check_placement(state: State, seat: int, groups: Sequence[Group], after: int, *, drew: str | None,
                     minimum_first: bool = False) -> None:
    """What a take or a meld leaves on the table (§4.1.3), then the hand-size rule (§4.1.8) and
    the first meld's minimum (§4.1.6, with the concealed exemption of §4.5 M4), in the order of
    the move's section (a take checks the minimum first, P8 before P9)."""
    side = state.side_of(seat)
    melds = placed(state.melds[side], groups)
    for g in groups:
        if not m.meld_valid(g.key, melds[g.key], state.variant):
            _refuse_meld(g.key, melds[g.key], state.variant)
        if g.key == THREE and m.threes_special(state.variant) and after > 1:
            refuse(Reason.INVALID_MELD, "you may meld black threes only as you go out")
    if minimum_first:
        _check_minimum(state, side, groups, exempt=False)
    if after <= 1 and not may_go_out(state, seat, melds):
        _refuse_going_out(state, seat, melds, last_card=False)
    concealed = drew == "stock" and after <= 1 and any(len(melds[g.key]) >= 7 for g in groups)
    _check_minimum(state, side, groups, exempt=concealed)


def _check_minimum(state: State, side: int, groups: Sequence[Group], *, exempt: bool) -> None:
    if state.melds[side] or exempt:
        return
    minimum = min_req(state, side)
    laid = sum(m.points(g.cards, state.variant) for g in groups)
    if laid < minimum:
        refuse_counted(Reason.BELOW_INITIAL_MINIMUM,
                       "your first meld must be worth at least {count} point: these cards make {points}",
                       "your first meld must be worth at least {count} points: these cards make {points}",
                       count=minimum, points=Amount(laid, "point"))


def _refuse_meld(key: str, cards: Sequence[Card], variant: str) -> None:
    """``invalid_meld``: what is wrong with the meld as it would stand (§4.1.3)."""
    wild = sum(1 for c in cards if m.is_wild(c))
    if key == WILD_KEY and wild < len(cards):
        refuse(Reason.INVALID_MELD, "only jokers and twos go into the meld of wild cards")
    if key == THREE and m.threes_special(variant) and not all(m.is_black_three(c, variant) for c in cards):
        refuse(Reason.INVALID_MELD, "only black threes go into the meld of threes")
    if any(not m.is_wild(c) and c.rank != key for c in cards):
        refuse(Reason.INVALID_MELD, "only cards of the meld's rank, jokers and twos go into a meld")
    if len(cards) < 3:
        refuse(Reason.INVALID_MELD, "a meld needs at least three cards")
    if len(cards) - wild < 2:
        refuse(Reason.INVALID_MELD, "a meld needs at least two natural cards")
    refuse(Reason.INVALID_MELD, "a meld may hold at most three jokers and twos")


def _refuse_going_out(state: State, seat: int, melds: Melds, *, last_card: bool) -> None:
    """``cannot_go_out``, with why the seat may not go out (§4.1.7): too few canastas, the
    partner's no, or (``seed_108``) no meld of its own in an earlier turn. ``last_card``: a
    discard of the hand's last card, else a move that would leave the hand one card or none."""
    needed = state.table.canastas_to_go_out
    if m.canastas(melds) < needed:
        if last_card:
            refuse_counted(Reason.CANNOT_GO_OUT,
                           "you may not discard your last card: going out needs {count} canasta",
                           "you may not discard your last card: going out needs {count} canastas",
                           count=needed)
        refuse_counted(Reason.CANNOT_GO_OUT, "keep at least two cards: going out needs {count} canasta",
                       "keep at least two cards: going out needs {count} canastas", count=needed)
    if state.turn_info.permission == "no":
        if last_card:
            refuse(Reason.CANNOT_GO_OUT, "your partner said no: you may not discard your last card this turn")
        refuse(Reason.CANNOT_GO_OUT, "your partner said no: keep at least two cards this turn")
    if last_card:
        refuse(Reason.CANNOT_GO_OUT, "you may not discard your last card: you may go out only after melding "
               "in an earlier turn")
    refuse(Reason.CANNOT_GO_OUT, "keep at least two cards: you may go out only after melding in an earlier "
           "turn")


def may_go_out(state: State, seat: int, melds: Melds) -> bool:
    """§4.1.7, on the side's melds as they stand after the move."""
    if m.canastas(melds) < state.table.canastas_to_go_out or state.turn_info.permission == "no":
        return False
    return state.variant != SEED_108 or state.has_melded[seat]


def _check_take_upcard(state: State, move: mv.TakeUpcard) -> None:
    if state.turn_index != 0:
        refuse(Reason.NOT_FIRST_TURN, "only the first player, on the very first turn, may take the upcard "
               "without a meld")
    top = _pile_top(state)
    hand = state.hands[move.seat]
    _check_held(hand, move.show)
    if len(move.show) < 2 or any(m.is_wild(c) or c.rank != top.rank for c in move.show):
        refuse(Reason.SHOW_NEEDS_NATURAL_PAIR, "show at least two natural cards of the same rank as {card}",
               card=top)
    taken = len(state.pile) - _red_threes(state, state.pile)
    melds: Melds
    if state.options.first_take_mode == "meld_no_minimum":
        after = len(hand) - len(move.show) + taken - 1
        melds = placed(state.melds[state.side_of(move.seat)], [Group(str(top.rank), (top, *move.show))])
    else:
        after, melds = len(hand) + taken, state.melds[state.side_of(move.seat)]
    if after <= 1 and not may_go_out(state, move.seat, melds):
        _refuse_going_out(state, move.seat, melds, last_card=False)


def _check_meld(state: State, move: mv.Meld) -> None:
    if not move.melds:
        refuse(Reason.BAD_GROUP, "name at least one group of cards to meld")
    hand = state.hands[move.seat]
    named = [c for g in move.melds for c in g.cards]
    _check_held(hand, named)
    _check_groups(state, move.melds)
    _check_placement(state, move.seat, move.melds, len(hand) - len(named), drew=state.turn_info.drew)


def _check_exchange(state: State, move: mv.ExchangeJoker) -> None:
    side, sides = state.side_of(move.seat), state.table.sides
    theirs = state.melds[move.from_side] if 0 <= move.from_side < len(state.melds) else {}
    if move.from_side == side:
        refuse(Reason.NOT_OPPONENT_MELD, "you may take a joker only from an opponent's meld")
    alone = sides.count == state.seats  # every seat for itself: the side is its seat
    if move.from_side >= sides.count:
        if alone:
            refuse(Reason.NOT_OPPONENT_MELD, "there is no {seat} at this table", seat=Seat(move.from_side))
        refuse(Reason.NOT_OPPONENT_MELD, "there is no team {side} at this table", side=move.from_side + 1)
    if move.rank not in theirs or move.rank in (THREE, WILD_KEY):
        if alone:
            refuse(Reason.NOT_OPPONENT_MELD, "{seat} has no meld of that rank", seat=Seat(move.from_side))
        refuse(Reason.NOT_OPPONENT_MELD, "team {side} has no meld of that rank", side=move.from_side + 1)
    if JOKER not in theirs[move.rank]:
        if alone:
            refuse(Reason.NO_JOKER_IN_MELD, "{seat} has no joker in that meld", seat=Seat(move.from_side))
        refuse(Reason.NO_JOKER_IN_MELD, "team {side} has no joker in that meld", side=move.from_side + 1)
    _check_held(state.hands[move.seat], [move.card])
    if m.is_wild(move.card) or move.card.rank != move.rank:
        refuse(Reason.EXCHANGE_CARD_WRONG_RANK, "the joker is exchanged only for a natural {rank}",
               rank=Rank(move.rank))
    if not state.melds[side]:
        refuse(Reason.EXCHANGE_NEEDS_OWN_MELD, "you may exchange a joker only once you have a meld")


def _check_discard(state: State, move: mv.Discard) -> None:
    hand = state.hands[move.seat]
    _check_held(hand, [move.card])
    melds = state.melds[state.side_of(move.seat)]
    if len(hand) == 1 and not may_go_out(state, move.seat, melds):
        _refuse_going_out(state, move.seat, melds, last_card=True)


def _check_ask(state: State, move: mv.AskGoOut) -> None:
    info = state.turn_info
    if info.asked:
        refuse(Reason.ALREADY_ASKED, "you have already asked your partner this turn")
    if info.actions:
        refuse(Reason.ASK_AFTER_MELD, "ask your partner before you meld or exchange a joker this turn")
    if len(state.hands[move.seat]) < 2:
        refuse(Reason.HAND_TOO_SMALL_TO_ASK, "you may ask your partner only while you hold two cards or more")


def _check_answer(state: State, move: mv.AnswerGoOut) -> None:
    """Only the asked partner is to move, which ``check`` has seen to."""


def _check_decline(state: State, move: mv.DeclinePile) -> None:
    if state.stock:
        refuse(Reason.STOCK_NOT_EMPTY, "you may leave the discard pile only once the stock is gone")
    if accepts(check, state, mv.TakePile(move.seat)):
        refuse(Reason.MUST_TAKE_PILE, "you must take the discard pile: its top card goes onto your meld")


CHECKS: dict[type, Callable[[State, Any], None]] = {
    mv.Draw: _check_draw, mv.TakePile: _check_take_pile, mv.TakeUpcard: _check_take_upcard,
    mv.Meld: _check_meld, mv.ExchangeJoker: _check_exchange, mv.Discard: _check_discard,
    mv.AskGoOut: _check_ask, mv.AnswerGoOut: _check_answer, mv.DeclinePile: _check_decline,
}
