"""The computer player's knowledge shared by the Bura family (``tricks.sets``): which cards a seat
cannot see and how they are dealt again, and the greedy way to lead and answer a trick, chosen
from the listing or, for the playouts, built from the hand; and for playouts, where every hand is
known, the trick move that gains most in the trick."""

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
        if _worth_beating(_on_table(state), best.cards, state.trump):
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
    cards, beat = _greedy_answer(hand, state.trick.winning.cards, _on_table(state), trump)
    return Respond(seat, cards, "beat" if beat else "discard")


def lookahead_trick_move(state: State, variant: Variant, seat: int, rng: Random) -> TrickMove:
    """The lead or answer that gains ``seat`` most in the trick, the seats still to answer
    answering as ``greedy`` would (``_trick_gain``, reading their hands: in a playout every hand
    is known), the cheapest (``cost``) among equals; one move in ``EXPLORE`` a trick move drawn at
    random from the listing. It plays Bura better than ``greedy`` does: at two seats, every hand
    known to both, against ``playout_trick_move`` a mean of +0.5 games a hand (6,000 hands)."""
    if rng.random() < EXPLORE:
        return rng.choice(candidate_trick_moves(state, variant, seat))
    hand, trump = state.hands[seat], state.trump
    if state.trick is None:
        leads = [m.cards for m in candidate_trick_moves(state, variant, seat) if isinstance(m, Lead)]
        return Lead(seat, _most_gaining(state, seat, [(cards, True) for cards in leads])[0])
    sets = list(dict.fromkeys(combinations(hand, min(state.trick.size, len(hand)))))
    winning = state.trick.winning.cards
    answers = [(s, True) for s in sets if beats_set(s, winning, trump_suit=trump, order=RANK_ORDER)]
    answers.append((min(sets, key=lambda s: cost(s, trump)), False))
    cards, beat = _most_gaining(state, seat, answers)
    return Respond(seat, cards, "beat" if beat else "discard")


def _most_gaining(state: State, seat: int, plays: list[tuple[tuple[Card, ...], bool]]
                  ) -> tuple[tuple[Card, ...], bool]:
    """Of ``plays`` (cards, and whether they take the trick as it stands), the one of the most
    ``_trick_gain``, the cheapest of equals."""
    return max(plays, key=lambda play: (_trick_gain(state, seat, play[0], beat=play[1]),
                                        tuple(-part for part in cost(play[0], state.trump))))


TRUMP_SPENT = 4
"""What a trump parted with costs in ``lookahead_trick_move``, in card points: the power to take
a later trick that it leaves the hand with. Measured in playouts against ``playout_trick_move``
(6,000 hands a value, two seats): 0, 2, 4, 6, 8 and 11 points gave +0.51, +0.52, +0.53, +0.52,
+0.51 and +0.47 games a hand."""


def _trick_gain(state: State, seat: int, cards: Sequence[Card], *, beat: bool) -> int:
    """The card points ``seat`` takes with the trick (or loses, when another takes it) once it
    plays ``cards`` (a lead, an answer that beats or one that does not) and every seat still to
    answer answers as ``greedy`` would, less ``TRUMP_SPENT`` for each trump among ``cards``."""
    trump, trick = state.trump, state.trick
    down = [p.cards for p in trick.plays] if trick else []
    played = {p.seat for p in trick.plays} if trick else set()
    winner, winning = (seat, tuple(cards)) if beat or not trick else (trick.winning.seat, trick.winning.cards)
    down.append(tuple(cards))
    for other in clockwise(seat, state.seats)[1:]:
        if other in played or not state.hands[other]:
            continue
        on_table = sum(POINTS[c] for pile in down for c in pile)
        answer, beats = _greedy_answer(state.hands[other], winning, on_table, trump)
        if beats:
            winner, winning = other, answer
        down.append(answer)
    points = sum(POINTS[c] for pile in down for c in pile)
    return (points if winner == seat else -points) - TRUMP_SPENT * sum(c.suit == trump for c in cards)


def _greedy_answer(hand: Sequence[Card], winning: Sequence[Card], on_table: int,
                   trump: str) -> tuple[tuple[Card, ...], bool]:
    """``greedy``'s answer from ``hand`` to ``winning`` with ``on_table`` points played: the
    cheapest set that beats when it is worth it (``_worth_beating``), else the cheapest set;
    and whether it beats."""
    sets = list(dict.fromkeys(combinations(hand, min(len(winning), len(hand)))))
    beating = [s for s in sets if beats_set(s, winning, trump_suit=trump, order=RANK_ORDER)]
    if beating:
        best = min(beating, key=lambda s: cost(s, trump))
        if _worth_beating(on_table, best, trump):
            return best, True
    return min(sets, key=lambda s: cost(s, trump)), False


def playout_of(variant: Callable[[Any], Variant]) -> Callable[[State, int, Random], TrickMove]:
    """``playout_trick_move`` as the ``Advice.playout`` of a game whose options give its variant."""
    return lambda state, seat, rng: playout_trick_move(state, variant(state.options), seat, rng)


def _on_table(state: State) -> int:
    """The card points played to the trick so far."""
    return sum(POINTS[c] for p in state.trick.plays for c in p.cards) if state.trick else 0


def _worth_beating(on_table: int, cards: Sequence[Card], trump: str) -> bool:
    """A trump is spent only on a trick with points in it (``on_table``, or ``cards``' own); a
    plain card always takes."""
    return on_table + sum(POINTS[c] for c in cards) > 0 or not any(c.suit == trump for c in cards)


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
