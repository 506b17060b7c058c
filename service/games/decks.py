"""Decks checked whole: every card of a state in exactly one place, as often as its deck holds
it, and a deck order a client gives (``GivenOrder``), which must be the game's deck exactly."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar

from service.cards import CARDS, Card
from service.errors import InvalidDeck, InvalidState

Zones = Iterable[tuple[str, Sequence[Card]]]


def check_deck(full_deck: Sequence[Card], found: Sequence[Card], zones: Callable[[], Zones]) -> None:
    """Every card of the deck lies in exactly one place, as often as the deck holds it.

    ``found`` is every card of the state; ``zones`` lists the same cards by place, each pile with
    its JSON pointer (relative to the state), and is only asked for when the check fails: the first
    card seen more often than the deck holds it is reported at its own position.
    """
    if _same_multiset(full_deck, found):
        return  # the usual case, decided in C
    allowed = Counter(full_deck)
    seen: Counter[Card] = Counter()
    for pointer, pile in zones():
        for index, card in enumerate(pile):
            seen[card] += 1
            if seen[card] > allowed[card]:
                raise _overcount(f"{pointer}/{index}", card, allowed[card])
    missing = allowed - seen
    raise InvalidState("", "cards missing from the state: {cards}",
                       cards=sorted(missing.elements(), key=lambda c: c.code))


def _overcount(at: str, card: Card, allowed: int) -> InvalidState:
    if allowed == 0:
        return InvalidState(at, "{card} is not in this deck", card=card)
    if allowed == 1:
        return InvalidState(at, "{card} appears more often than the deck holds it (once)", card=card)
    return InvalidState(at, "{card} appears more often than the deck holds it ({times} times)", card=card,
                        times=allowed)


_PROFILES: dict[int, tuple[Sequence[Card], frozenset[Card] | Counter[Card]]] = {}
"""Each deck's profile by the deck's identity (the decks are constants): hashing a 214-card
tuple to find it cost 3 µs a request."""


def _deck_profile(full_deck: Sequence[Card]) -> frozenset[Card] | Counter[Card]:
    """A one-pack deck as a set; a deck with repeated cards as a multiset."""
    known = _PROFILES.get(id(full_deck))
    if known is not None and known[0] is full_deck:
        return known[1]
    unique = frozenset(full_deck)
    profile = unique if len(unique) == len(full_deck) else Counter(full_deck)
    _PROFILES[id(full_deck)] = (full_deck, profile)  # the entry keeps the deck, so its id stays its own
    return profile


def _same_multiset(full_deck: Sequence[Card], found: Sequence[Card]) -> bool:
    if len(found) != len(full_deck):
        return False
    profile = _deck_profile(full_deck)
    if isinstance(profile, frozenset):
        return len(set(found)) == len(found) and profile.issuperset(found)
    # dict's own comparison, in C: counted piles hold no zero counts, so it is Counter's. Measured
    # on a 214-card Bezique state: 11 µs -> 3 µs a load.
    return dict.__eq__(Counter(found), profile)


class GivenOrder:
    """A deck order chosen by the client (test suites, replays of a reported deal, duplicate
    play), dealt as it is once it is checked to be exactly the game's deck in some order."""

    VERSION: ClassVar[str] = "given"

    def __init__(self, codes: Sequence[str]) -> None:
        self._codes = tuple(codes)
        self._used = False

    def order(self, pile: Sequence[Card]) -> tuple[Card, ...]:
        if self._used:
            raise InvalidDeck("", "this order is a misdeal, which the rules deal again: "
                                         "a given order can be dealt only once")
        self._used = True
        allowed = Counter(pile)
        seen: Counter[Card] = Counter()
        for index, code in enumerate(self._codes):
            given = CARDS.get(code)
            if given is None or not allowed[given]:
                raise InvalidDeck(f"/{index}", "{code} is not in this deck", code=code)
            if seen[given] >= allowed[given]:
                raise InvalidDeck(f"/{index}", "{card} appears more often than the deck holds it ({times})",
                                  card=given, times=allowed[given])
            seen[given] += 1
        missing = allowed - seen
        if missing:
            raise InvalidDeck("", "the deck has {size} cards; missing: {cards}", size=len(pile),
                              cards=sorted(missing.elements(), key=lambda c: c.code))
        return tuple(map(CARDS.__getitem__, self._codes))
