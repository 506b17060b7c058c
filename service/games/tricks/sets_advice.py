"""The computer player's knowledge shared by the Bura family (``tricks.sets``): which cards a seat
cannot see and how they are dealt again, and the greedy way to lead and answer a trick, chosen
from the listing or, for the playouts, built from the hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from random import Random
from typing import Any

from service.cards import Card
from service.games.advice import EXPLORE, Known, unseen_dealt_again
from service.games.base import evolve
from service.games.seating import clockwise
from service.games.tricks import beats_set, card_points
from service.games.tricks.sets import (
    POINTS,
    RANK_ORDER,
    Lead,
    Molodka,
    Played,
    Respond,
    State,
    Trick,
    TrickMove,
    Variant,
    candidate_trick_moves,
)


def redeal(state: State, seat: int, rng: Random, known: Known, *, won_hidden: bool) -> State:
    """The cards ``seat`` cannot see dealt again into the same places: the other hands, the stock
    under the face-up trump card, the others' face-down discards in the trick and, when
    ``won_hidden`` (discards lie face down), the others' won piles, whose points follow their new
    cards; the others' hands keep to ``known``. The trump card stays under the stock while it lies
    there; once drawn, it is dealt again with the rest unless ``known`` holds it in the hand that
    drew it (``infer``). A card every other hand lacks was seen played (``infer``: the family has
    no duty to follow, so nothing else rules a card out of a hand): it stays out of the stock
    too, in a won pile or a face-down discard."""
    others = [s for s in range(state.seats) if s != seat]
    trick = state.trick.plays if state.trick else ()
    hidden_plays = [i for i, p in enumerate(trick) if p.face_down and p.seat != seat]
    hidden_won = others if won_hidden else []
    piles = [*(state.hands[s] for s in others), state.stock[:-1],
             *(trick[i].cards for i in hidden_plays), *(state.won[s] for s in hidden_won)]
    lacking = [known.lacking.get(s, frozenset()) for s in others]
    played = frozenset.intersection(*lacking) if lacking else frozenset()
    dealt = iter(unseen_dealt_again(rng, piles, held=[known.held.get(s, ()) for s in others],
                                    lacking=[*lacking, *[played] * (1 + len(hidden_plays))]))
    hands, won = list(state.hands), list(state.won)
    for s in others:
        hands[s] = next(dealt)
    stock = next(dealt) + state.stock[-1:]
    plays = list(trick)
    for i in hidden_plays:
        plays[i] = Played(trick[i].seat, next(dealt), trick[i].beat, trick[i].face_down)
    for s in hidden_won:
        won[s] = next(dealt)
    return evolve(state, hands=tuple(hands), stock=stock, won=tuple(won),
                  trick=Trick(state.trick.leader, tuple(plays)) if state.trick else None,
                  card_points=tuple(card_points(pile, POINTS) for pile in won))


def greedy(state: State, seat: int, moves: Sequence[TrickMove]) -> TrickMove:
    """The family's greedy player (Kozel-bura's whole): lead the cheapest single card; answer with
    the cheapest set that beats when the trick is worth a trump or beating costs none, else discard
    the cheapest set. Whose seat it is changes nothing."""
    leads = [m for m in moves if isinstance(m, Lead) and len(m.cards) == 1]
    if leads:
        return min(leads, key=lambda m: cost(m.cards, state.trump))
    answers = [m for m in moves if isinstance(m, Respond)]
    if not answers:
        return moves[0]  # only a molodka out of turn: never reached through ``to_move``
    beating = [m for m in answers if m.mode == "beat"]
    discards = [m for m in answers if m.mode != "beat"] or answers
    if beating:
        best = min(beating, key=lambda m: cost(m.cards, state.trump))
        if _worth_beating(state, best.cards):
            return best
    return min(discards, key=lambda m: cost(m.cards, state.trump))


def playout_trick_move(state: State, variant: Variant, seat: int, rng: Random) -> TrickMove:
    """``greedy`` for ``seat`` (to move) built from the hand rather than chosen from
    the listing, which checks every candidate against the rules (a playout of eight moves at two
    seats from the deal: Bura 1.3 ms, now 0.5; Kozel-bura's ten, 1.3 ms, now 0.8); one move in
    ``EXPLORE`` a trick move drawn at random from the listing."""
    if rng.random() < EXPLORE:
        return rng.choice(candidate_trick_moves(state, variant, seat))
    hand, trump = state.hands[seat], state.trump
    if state.trick is None:
        return Lead(seat, (min(hand, key=lambda c: cost((c,), trump)),))
    sets = list(dict.fromkeys(combinations(hand, min(state.trick.size, len(hand)))))
    winning = state.trick.winning.cards
    beating = [s for s in sets if beats_set(s, winning, trump_suit=trump, order=RANK_ORDER)]
    if beating:
        best = min(beating, key=lambda s: cost(s, trump))
        if _worth_beating(state, best):
            return Respond(seat, best, "beat")
    return Respond(seat, min(sets, key=lambda s: cost(s, trump)), "discard")


def playout_of(variant: Callable[[Any], Variant]) -> Callable[[State, int, Random], TrickMove]:
    """``playout_trick_move`` as the ``Advice.playout`` of a game whose options give its variant."""
    return lambda state, seat, rng: playout_trick_move(state, variant(state.options), seat, rng)


def _worth_beating(state: State, cards: Sequence[Card]) -> bool:
    """A trump is spent only on a trick with points in it; a plain card always takes."""
    assert state.trick is not None
    on_table = sum(POINTS[c] for p in state.trick.plays for c in p.cards)
    return on_table + sum(POINTS[c] for c in cards) > 0 or not any(c.suit == state.trump for c in cards)


def cost(cards: Sequence[Card], trump: str) -> tuple[int, int, int]:
    """How dear a set is to part with: its trumps, then its card points, then its ranks."""
    return (sum(c.suit == trump for c in cards), sum(POINTS[c] for c in cards),
            sum(RANK_ORDER[c.rank] for c in cards))


# --- what a seat learns from the play ------------------------------------------------------------


def infer(history: Sequence[tuple[State, object]], seat: int, variant: Variant, *,
          won_hidden: bool) -> Known:
    """What ``seat`` saw of the other hands that the state does not keep. The family has no duty
    to follow suit or to beat (bura.md §4.2c, kozel-bura.md §4.2c), so a play shows no void;
    what it shows is where cards went:

    * the face-up trump card, drawn last (bura.md §5.4, kozel-bura.md §5.2), is held by the seat
      that drew it, while that seat has played it neither face up nor maybe face down (a
      face-down discard may hide it: then nothing is certain any more);
    * when ``won_hidden`` (discards lie face down, the won piles are unseen), every card seen
      played (led or beaten with, face up, or ``seat``'s own) lies in a won pile, in no hand:
      ``lacking`` for every other seat (``redeal`` keeps it out of the stock too).

    Both stay true through the draws: a drawn card goes to a hand, never a played one back. Of
    each state it reads only the trick on the table, the stock's and hands' sizes and the
    moves' cards when they were shown (``seat``'s own, or played face up)."""
    holder: int | None = None
    seen: set[Card] = set()
    for state, move in history:
        if not isinstance(move, Lead | Molodka | Respond):
            continue
        shown = move.seat == seat or not _face_down(state, variant, move)
        if shown:
            seen.update(move.cards)
        if move.seat == holder and (not shown or state.trump_card in move.cards):
            holder = None
        holder = _trump_card_drawer(state, variant, move, holder)
    others = [s for s in range(history[0][0].seats) if s != seat] if history else []
    held = {holder: (history[-1][0].trump_card,)} if holder is not None and holder != seat else {}
    lacking = {s: frozenset(seen) for s in others} if won_hidden and seen else {}
    return Known(held=held, lacking=lacking)


def _beat(state: State, move: Respond) -> bool:
    """Whether an answer beats: public, since a beating set lies face up (§5.3)."""
    assert state.trick is not None
    return move.mode != "discard" and beats_set(move.cards, state.trick.winning.cards,
                                                trump_suit=state.trump, order=RANK_ORDER)


def _face_down(state: State, variant: Variant, move: TrickMove) -> bool:
    return isinstance(move, Respond) and variant.face_down_discards and not _beat(state, move)


def _trump_card_drawer(state: State, variant: Variant, move: TrickMove, holder: int | None) -> int | None:
    """The seat that draws the trump card when ``move`` ends the trick and the draw reaches it
    (``tricks.draw_round``: from the taker clockwise, each seat while short of a full hand);
    ``holder`` otherwise. Only public facts decide it: who beat, the hands' sizes."""
    if not state.stock:
        return holder
    trick = state.trick
    sizes = [len(hand) for hand in state.hands]
    sizes[move.seat] -= len(move.cards)
    played = {move.seat, *(p.seat for p in trick.plays)} if trick else {move.seat}
    if any(sizes[s] for s in range(state.seats) if s not in played):
        return holder  # someone is still to answer
    beat = trick is None or (isinstance(move, Respond) and _beat(state, move))
    taker = move.seat if beat or trick is None else trick.winning.seat
    turns = clockwise(taker, state.seats)
    short = [variant.hand_size - size for size in sizes]
    order = [s for turn in range(max(short, default=0)) for s in turns if short[s] > turn]
    return order[len(state.stock) - 1] if len(order) >= len(state.stock) else holder
