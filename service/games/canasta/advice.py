"""Canasta for the computer player (docs/rules/canasta.md): what a seat knows of the unseen cards,
what a hand is worth to a side, and the greedy player.

A seat sees its own hand, the pile, the melds and the red-three areas (the view); the other hands
and the stock are dealt again. The state keeps no record of which cards a player took with the
pile, so none of them is held in place: every card of another hand is pooled."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random

from service.cards import Card
from service.games.advice import NOTHING_KNOWN, Advice, Known, unseen_dealt_again
from service.games.base import evolve
from service.games.canasta import melds as m
from service.games.canasta.rules import (
    AnswerGoOut,
    Discard,
    Draw,
    ExchangeJoker,
    Meld,
    Melds,
    Move,
    Phase,
    State,
    TakePile,
    TakeUpcard,
)
from service.games.canasta.scoring import hand_score
from service.games.seating import left_of

# --- the unseen cards --------------------------------------------------------------------------


def redeal(state: State, seat: int, rng: Random, known: Known = NOTHING_KNOWN) -> State:
    """The other hands and the stock dealt again, each the same size. Where red threes are bonus
    cards no hand holds one (§3.4, §4.2: laid out at once), so those not laid out nor in the pile
    are known to be in the stock: they go back into it, at random places."""
    others = [s for s in range(state.seats) if s != seat]
    # in code order, so that nothing of where they lay shows in the deal
    threes = sorted((c for c in state.stock if m.is_red_three(c, state.variant)), key=lambda c: c.code)
    plain = [c for c in state.stock if not m.is_red_three(c, state.variant)]
    *hands_again, stock_again = unseen_dealt_again(
        rng, [*(state.hands[s] for s in others), plain], held=[known.held.get(s, ()) for s in others],
        lacking=[known.lacking.get(s, frozenset()) for s in others])
    stock = list(stock_again)
    for three in threes:
        stock.insert(rng.randint(0, len(stock)), three)
    hands = list(state.hands)
    for other, hand in zip(others, hands_again, strict=True):
        hands[other] = hand
    return evolve(state, hands=tuple(hands), stock=tuple(stock))


# --- what a hand is worth ----------------------------------------------------------------------

GROWING = {4: 0.15, 5: 0.3, 6: 0.5}
"""The share of a mixed canasta's bonus (§7.1) a meld of 4 to 6 cards is counted for before the
hand is over: the nearer seven, the likelier it becomes a canasta."""
LATE = 20
"""Stock cards left below which held cards are counted ever more as the hand penalty (§7.1)."""


def value(state: State, seat: int) -> float:
    """In hand-score points (§7.1): the seat's side's score less the mean of the other sides'.
    Exact once the hand is over; before, each side's score were the hand to end now, with credit
    for melds growing toward a canasta, and held cards counted for what they are likely to
    become (``_held``) rather than as the full penalty."""
    sides = state.table.sides.count
    scores = [_side_value(state, side) for side in range(sides)]
    mine = state.side_of(seat)
    return scores[mine] - sum(s for side, s in enumerate(scores) if side != mine) / (sides - 1)


def _side_value(state: State, side: int) -> float:
    score = hand_score(state, side)
    if state.finished:
        return float(score.total)
    melds = state.melds[side]
    mixed = m.CANASTA_BONUS[state.variant]["mixed"]
    growing = sum(GROWING.get(len(cards), 0.0) for cards in melds.values()) * mixed
    held = sum(_held(state, state.hands[s], melds) for s in state.table.sides.members(side))
    return score.meld_points + score.canasta_bonus + score.red_three_points + growing + held


def _held(state: State, hand: Sequence[Card], melds: Melds) -> float:
    """A hand's cards while the stock lasts: a wild card, a card of a side's meld or of a pair is
    likely melded later (+40 % of its value), any other a likely penalty (-60 %); as the stock
    runs out, both tend to the full penalty."""
    late = max(0.0, 1 - len(state.stock) / LATE)
    ranks = Counter(c.rank for c in hand)
    total = 0.0
    for card in hand:
        useful = m.is_wild(card) or (not m.is_black_three(card, state.variant)
                                     and (ranks[card.rank] >= 2 or str(card.rank) in melds))
        weight = 0.4 if useful else -0.6
        total += (weight * (1 - late) - late) * m.value(card, state.variant)
    return total


# --- the greedy player -------------------------------------------------------------------------


def greedy(state: State, seat: int, moves: Sequence[Move]) -> Move:
    """Take the pile when it can (laying the most naturals), else draw; exchange a joker when it
    can; meld when it can (the most naturals, the fewest wild cards; wild cards alone only to make
    a canasta); else discard the least useful card. Never asks to go out; always lets go out."""
    if state.phase == Phase.DRAW:
        return _draw(moves)
    if state.phase == Phase.AWAIT_ANSWER:
        return next((mv for mv in moves if isinstance(mv, AnswerGoOut) and mv.answer), moves[0])
    exchange = next((mv for mv in moves if isinstance(mv, ExchangeJoker)), None)
    if exchange is not None:
        return exchange
    melds = [mv for mv in moves if isinstance(mv, Meld) and _worth_laying(state, mv)]
    if melds:
        return max(melds, key=_laid)
    discards = [mv for mv in moves if isinstance(mv, Discard)]
    if not discards:
        return moves[0]
    ranks = Counter(c.rank for c in state.hands[seat])
    return min(discards, key=lambda mv: _discard_cost(state, seat, mv.card, ranks))


def _draw(moves: Sequence[Move]) -> Move:
    upcard = [mv for mv in moves if isinstance(mv, TakeUpcard)]
    if upcard:
        return max(upcard, key=lambda mv: len(mv.show))
    takes = [mv for mv in moves if isinstance(mv, TakePile)]
    if takes:
        return max(takes, key=_laid)
    return next((mv for mv in moves if isinstance(mv, Draw)), moves[0])


def _cards(move: Meld | TakePile) -> list[Card]:
    cards = [c for g in move.melds for c in g.cards]
    return [*move.top_cards, *cards] if isinstance(move, TakePile) else cards


def _laid(move: Meld | TakePile) -> tuple[int, int]:
    """More naturals first, then fewer wild cards: wild cards are worth keeping for later melds."""
    cards = _cards(move)
    wild = sum(1 for c in cards if m.is_wild(c))
    return len(cards) - wild, -wild


def _worth_laying(state: State, move: Meld) -> bool:
    """A meld that lays a natural card, or wild cards that make a canasta (a lone wild card laid
    off is better kept: for a new meld, or to freeze the pile)."""
    if any(not m.is_wild(c) for c in _cards(move)):
        return True
    melds = state.melds[state.side_of(move.seat)]
    return any(len(melds.get(g.key, ())) < 7 <= len(melds.get(g.key, ())) + len(g.cards) for g in move.melds)


def _discard_cost(state: State, seat: int, card: Card, ranks: Counter[str]) -> tuple[int, int]:
    """Lower is a better discard: a black three stops the pile; a wild card freezes it but is
    worth most kept; a natural the next side has melded lets it take an unfrozen pile; a natural
    the hand pairs may take the pile later; a cheaper card costs less left in the hand."""
    variant = state.variant
    if m.is_black_three(card, variant):
        return 0, 0
    if m.is_wild(card):
        return 10, m.value(card, variant)
    copies = ranks[card.rank]
    nxt = state.side_of(left_of(seat, state.seats))
    feeds = str(card.rank) in state.melds[nxt] and not state.pile_frozen
    ours = str(card.rank) in state.melds[state.side_of(seat)]
    return 1 + min(copies - 1, 1) + 2 * feeds + ours, m.value(card, variant)


# A hand is some 200 moves: a playout stops after 15 (about five turns at four seats), and six
# candidates keep a sample to some 6 ms on an idle core, so that ``value`` guides the search.
ADVICE: Advice[State, Move] = Advice(redeal=redeal, value=value, greedy=greedy, horizon=15, shortlist=6,
                                     side=lambda state, seat: state.side_of(seat))
