"""Trick-taking primitives shared by Sixty-six, Bura, Kozel and Bezique.

Rank order and card points are per-game tables passed in, never properties of a rank: the ten
outranks the king in Sixty-six but not in Canasta.

The Bura family's tricks of one to three cards build on these: ``sets`` (the engine),
``sets_wire`` (their states on the wire) and ``sets_schemas`` (their schemas).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, permutations

from service.cards import CARDS, Card
from service.games.base import Event
from service.games.seating import clockwise

RankOrder = Mapping[str, int]
"""Rank -> strength within a suit, higher wins."""


def ace_ten_order(ranks_high_to_low: Sequence[str]) -> dict[str, int]:
    """A rank-order table from the ranks listed high to low."""
    return {rank: len(ranks_high_to_low) - i for i, rank in enumerate(ranks_high_to_low)}


def beats(challenger: Card, incumbent: Card, *, trump_suit: str, order: RankOrder) -> bool:
    """Whether ``challenger``, played after ``incumbent``, takes it: higher of the same suit, or a
    trump on a non-trump."""
    if challenger.suit == incumbent.suit:
        return order[challenger.rank] > order[incumbent.rank]
    return challenger.suit == trump_suit


def beats_set(
    challengers: Sequence[Card], incumbents: Sequence[Card], *, trump_suit: str, order: RankOrder
) -> bool:
    """A set beats a set of the same size when its cards pair one-to-one with the other's so that
    each beats its partner; every pairing is tried, so listing order does not matter."""
    if len(challengers) != len(incumbents):
        return False
    if len(challengers) == 1:  # most answers are single cards: no pairing to search
        return beats(challengers[0], incumbents[0], trump_suit=trump_suit, order=order)
    return any(
        all(beats(c, i, trump_suit=trump_suit, order=order) for c, i in zip(pairing, incumbents, strict=True))
        for pairing in permutations(challengers)
    )


PointTable = Mapping[Card, int]
"""Card -> points, built once per game by ``point_table``."""


def point_table(values: Mapping[str, int]) -> dict[Card, int]:
    """Points per card of every rank the game values, so a pile is summed in one pass."""
    return {c: values[c.rank] for c in CARDS.values() if c.rank in values}


def card_points(pile: Iterable[Card], table: PointTable) -> int:
    return sum(map(table.__getitem__, pile))


def won_points(tricks: Iterable[Iterable[Card]], table: PointTable) -> int:
    """The card points of a pile of won tricks."""
    return sum(map(table.__getitem__, chain.from_iterable(tricks)))


def without(hand: Sequence[Card], played: Card) -> tuple[Card, ...]:
    """The hand after one copy of ``played`` left it."""
    index = hand.index(played)
    return (*hand[:index], *hand[index + 1 :])


def draw_round(
    stock: Sequence[Card], hands: Sequence[Sequence[Card]], *, first: int, hand_size: int
) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...], list[tuple[int, Card]]]:
    """Players draw one card at a time from the top of the stock, clockwise from ``first``, each
    while holding fewer than ``hand_size``, until all are full or the stock is empty.

    Returns the new stock, the new hands, and the draws as ``(seat, card)`` in order.
    """
    seats = len(hands)
    turns = clockwise(first, seats)
    short = [hand_size - len(hands[seat]) for seat in range(seats)]
    order = [seat for turn in range(max(short, default=0)) for seat in turns if short[seat] > turn]
    draws = list(zip(order, stock, strict=False))  # the stock may run out first
    new_hands = [list(hand) for hand in hands]
    for seat, card in draws:
        new_hands[seat].append(card)
    return tuple(stock[len(draws):]), tuple(map(tuple, new_hands)), draws


def draw_events(stock: Sequence[Card], draws: Sequence[tuple[int, Card]]) -> list[Event]:
    """The events of ``draws`` (``draw_round``'s, taken from the top of ``stock``): a
    ``card_drawn`` for each, seen by its drawer only, but a ``trump_card_drawn`` for the face-up
    trump card under the stock, which everybody saw."""
    last = len(stock) - 1
    return [Event("trump_card_drawn" if index == last else "card_drawn", seat, (card,))
            for index, (seat, card) in enumerate(draws)]
