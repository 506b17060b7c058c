"""The computer player's knowledge shared by the Bura family (``tricks.sets``): which cards a seat
cannot see and how they are dealt again, and the greedy way to lead and answer a trick."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from service.cards import Card
from service.games.advice import Known, unseen_dealt_again
from service.games.base import evolve
from service.games.tricks import card_points
from service.games.tricks.sets import POINTS, RANK_ORDER, Lead, Played, Respond, State, Trick, TrickMove


def redeal(state: State, seat: int, rng: Random, known: Known, *, won_hidden: bool) -> State:
    """The cards ``seat`` cannot see dealt again into the same places: the other hands, the stock
    under the face-up trump card, the others' face-down discards in the trick and, when
    ``won_hidden`` (discards lie face down), the others' won piles, whose points follow their new
    cards; the others' hands keep to ``known``. The trump card stays under the stock while it lies
    there; once drawn, nobody's view says who holds it, so it is dealt again with the rest when it
    is unseen."""
    others = [s for s in range(state.seats) if s != seat]
    trick = state.trick.plays if state.trick else ()
    hidden_plays = [i for i, p in enumerate(trick) if p.face_down and p.seat != seat]
    hidden_won = others if won_hidden else []
    piles = [*(state.hands[s] for s in others), state.stock[:-1],
             *(trick[i].cards for i in hidden_plays), *(state.won[s] for s in hidden_won)]
    dealt = iter(unseen_dealt_again(rng, piles, held=[known.held.get(s, ()) for s in others],
                                    lacking=[known.lacking.get(s, frozenset()) for s in others]))
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


def greedy_trick_move(state: State, moves: Sequence[TrickMove]) -> TrickMove:
    """Lead the cheapest single card; answer with the cheapest set that beats when the trick is
    worth a trump or beating costs none, else discard the cheapest set."""
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


def _worth_beating(state: State, cards: Sequence[Card]) -> bool:
    """A trump is spent only on a trick with points in it; a plain card always takes."""
    assert state.trick is not None
    on_table = sum(POINTS[c] for p in state.trick.plays for c in p.cards)
    return on_table + sum(POINTS[c] for c in cards) > 0 or not any(c.suit == state.trump for c in cards)


def cost(cards: Sequence[Card], trump: str) -> tuple[int, int, int]:
    """How dear a set is to part with: its trumps, then its card points, then its ranks."""
    return (sum(c.suit == trump for c in cards), sum(POINTS[c] for c in cards),
            sum(RANK_ORDER[c.rank] for c in cards))
