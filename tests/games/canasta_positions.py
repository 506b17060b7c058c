"""Consistent Canasta positions for the rule table (docs/rules/canasta.md §4.0).

``position(...)`` builds a wire state from the few cards a test cares about and loads it through
the game (``GAMES["canasta"].load_state``), so every position passes the consistency check of
wire.py: the whole deck (108 cards, 162 at six players) in exactly one place, red threes only in
the red-three areas (or buried in the pile) where they are bonus cards, every hand non-empty
while the hand is in progress, valid melds, ``has_melded`` only for a side with melds, ``turn``
equal to ``dealer + 1 + turn_index``, ``to_move`` and ``turn_info`` as the phase has them, a
result exactly when the hand is over.

The cards a test does not name are placed where they change nothing:

* named hands are exactly what the test gives; a seat whose hand is not named holds ``others``
  cards (default one), none of the rank of the pile's top card or of a meld of its side;
* the rest becomes the stock after the named ``stock_top`` cards, in the canonical order of §2.1
  without the special cards (so consecutive cards differ in rank: ``4C 5C 6C ... AC 4D ...``),
  then the black threes, the wild cards and last the red threes, so that a test drawing a few
  cards draws plain ones;
* when the test fixes the whole ``stock`` (``stock=[]`` for an exhausted one), the rest is buried
  in the pile under its named cards, in the same order. ``pile_frozen`` follows the named pile
  cards only (true when one of them is wild) unless given: a test of an exhausted stock says
  whether its pile is frozen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from service.games.canasta import rules
from service.games.registry import GAMES

GAME = GAMES["canasta"]
SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
KEY_ORDER = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "W")
"""§4.13, written out here rather than taken from the implementation."""
WILD = ("2C", "2D", "2H", "2S", "JK")
RED_THREES = ("3D", "3H")
BLACK_THREES = ("3C", "3S")

Cards = str | Sequence[str]


def split(cards: Cards | None) -> list[str]:
    if cards is None:
        return []
    return cards.split() if isinstance(cards, str) else list(cards)


def deck_codes(seats: int = 4) -> list[str]:
    """§2.1 in its canonical order: for each copy, suits C D H S, ranks 2..A; then the jokers."""
    copies = 3 if seats == 6 else 2
    return [r + s for _ in range(copies) for s in SUITS for r in RANKS] + ["JK"] * (2 * copies)


def side_count(seats: int) -> int:
    """§2.4: two partnerships at four and six, every player for himself at two and three."""
    return 2 if seats in (4, 6) else seats


def side_of(seat: int, seats: int) -> int:
    return seat % side_count(seats)


def members(side: int, seats: int) -> list[int]:
    return list(range(side, seats, side_count(seats)))


def filler_order(pool: Counter[str], seats: int) -> list[str]:
    """The cards left in ``pool``, plain ones first (see the module docstring)."""
    order = deck_codes(seats)
    plain = [c for c in order if c not in WILD and c[:-1] != "3"]
    ranked = [*plain, *(c for c in order if c in BLACK_THREES), *(c for c in order if c in WILD),
              *(c for c in order if c in RED_THREES)]
    left = Counter(pool)
    found = []
    for card in ranked:
        if left[card] > 0:
            left[card] -= 1
            found.append(card)
    assert not +left, left
    return found


def deck_with(first: Cards, seats: int = 4) -> list[str]:
    """A whole deck, top card first: ``first``, then every other card in the filler order."""
    head = split(first)
    pool = Counter(deck_codes(seats))
    _take(pool, head, "deck")
    return [*head, *filler_order(pool, seats)]


def _take(pool: Counter[str], cards: Iterable[str], what: str) -> None:
    for card in cards:
        if pool[card] <= 0:
            raise ValueError(f"{what}: no {card} left in the deck")
        pool[card] -= 1


def _rank(card: str) -> str:
    return card if card == "JK" else card[:-1]


def position_wire(
    *,
    seats: int = 4,
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
    hands: Mapping[int, Cards] | None = None,
    others: int = 1,
    melds: Mapping[int, Mapping[str, Cards]] | None = None,
    pile: Cards = (),
    pile_frozen: bool | None = None,
    red_threes: Mapping[int, Cards] | None = None,
    stock_top: Cards = (),
    stock: Cards | None = None,
    phase: str = "draw",
    turn: int | None = None,
    turn_index: int | None = None,
    has_melded: Mapping[int, bool] | None = None,
    turn_info: Mapping[str, Any] | None = None,
    side_scores: Sequence[int] | None = None,
    result: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A consistent wire state; see the module docstring. ``melds`` maps a side to its melds by
    key, ``red_threes`` a seat to its laid red threes, ``pile`` is top card first. ``turn_index``
    defaults to the turn's offset from the dealer's left, plus one round once any side has a meld;
    ``has_melded`` defaults to true for every seat of a side with melds; ``turn_info`` overrides
    the phase's defaults (``drew="stock"`` once drawn, ``keys_at_start`` the side's meld keys)."""
    options = dict(options or {})
    sides = side_count(seats)
    pool = Counter(deck_codes(seats))

    melds_wire: list[dict[str, list[str]]] = [{} for _ in range(sides)]
    for side, by_key in (melds or {}).items():
        for key in KEY_ORDER:
            if key in by_key:
                melds_wire[side][key] = split(by_key[key])
                _take(pool, melds_wire[side][key], f"meld {side}/{key}")
        if set(by_key) - set(KEY_ORDER):
            raise ValueError(f"unknown meld keys {set(by_key) - set(KEY_ORDER)}")
    threes_wire: list[list[str]] = [[] for _ in range(seats)]
    for seat, cards in (red_threes or {}).items():
        threes_wire[seat] = split(cards)
        _take(pool, threes_wire[seat], f"red threes {seat}")
    pile_wire = split(pile)
    _take(pool, pile_wire, "pile")
    top = split(stock_top)
    _take(pool, top, "stock")
    fixed_stock = None if stock is None else split(stock)
    if fixed_stock is not None:
        if top:
            raise ValueError("give the whole stock or its top cards, not both")
        _take(pool, fixed_stock, "stock")
    hands_wire: list[list[str]] = [[] for _ in range(seats)]
    for seat, cards in (hands or {}).items():
        hands_wire[seat] = split(cards)
        _take(pool, hands_wire[seat], f"hand {seat}")

    # the seats not named hold a few plain cards that meet nothing on the table
    for seat in range(seats):
        if hands is not None and seat in hands:
            continue
        avoid = set(melds_wire[side_of(seat, seats)])
        if pile_wire:
            avoid.add(_rank(pile_wire[0]))
        for _ in range(others):
            card = next((c for c in filler_order(pool, seats) if _rank(c) not in avoid
                         and c not in WILD and _rank(c) != "3"), None)
            if card is None:
                raise ValueError("no plain card left for the seats not named")
            pool[card] -= 1
            hands_wire[seat].append(card)
            avoid.add(_rank(card))

    rest = filler_order(pool, seats)
    if fixed_stock is None:
        stock_wire = [*top, *rest]
    else:
        stock_wire = fixed_stock
        if rest and not pile_wire:
            raise ValueError("with the whole stock given, name the pile's top card: the rest goes under it")
        frozen_named = any(c in WILD for c in pile_wire)
        pile_wire = [*pile_wire, *rest]
        if pile_frozen is None:
            pile_frozen = frozen_named
    if pile_frozen is None:
        pile_frozen = any(c in WILD for c in pile_wire)

    if turn is None:
        offset = 0 if turn_index is None else turn_index
        turn = (dealer + 1 + offset) % seats
    if turn_index is None:
        turn_index = (turn - dealer - 1) % seats + (seats if any(melds_wire) else 0)
    turn_side = side_of(turn, seats)
    keys = [k for k in KEY_ORDER if k in melds_wire[turn_side]]
    info: dict[str, Any] = {"drew": None, "keys_at_start": keys, "added_to_old": False,
                            "melded_this_turn": False, "actions": 0, "asked": False, "permission": None}
    if phase != "draw":
        info["drew"] = "stock"
    if phase == "await_answer":
        info["asked"] = True
    info.update(turn_info or {})
    if phase in ("draw", "play"):
        to_move: int | None = turn
    elif phase == "await_answer":
        to_move = (turn + 2) % seats
    else:
        to_move = None

    melded = [bool(melds_wire[side_of(seat, seats)]) for seat in range(seats)]
    for seat, value in (has_melded or {}).items():
        melded[seat] = value
    scores = [0] * sides if side_scores is None else list(side_scores)

    result_wire: dict[str, Any] | None = None
    if phase == "hand_over":
        out = next((seat for seat in range(seats) if not hands_wire[seat]), None)
        result_wire = ({"reason": "went_out", "went_out": out, "concealed": False} if out is not None
                       else {"reason": "stock_exhausted", "went_out": None, "concealed": False})
        result_wire.update(result or {})
    elif result is not None:
        raise ValueError("a result only once the hand is over")

    return {
        "game": "canasta", "seats": seats, "dealer": dealer, "options": options,
        "status": "finished" if phase == "hand_over" else "in_progress",
        "teams": [members(side, seats) for side in range(sides)],
        "side_scores": scores, "hands": hands_wire, "stock": stock_wire, "pile": pile_wire,
        "pile_frozen": pile_frozen, "melds": melds_wire, "red_threes": threes_wire,
        "turn": turn, "to_move": to_move, "phase": phase, "turn_index": turn_index,
        "has_melded": melded, "turn_info": info, "result": result_wire,
    }


def position(**kwargs: Any) -> rules.State:
    """``position_wire`` loaded through the game: it raises if the position is inconsistent."""
    return GAME.load_state(position_wire(**kwargs))


def finished(**kwargs: Any) -> rules.State:
    """A position whose hand is over (phase ``hand_over``, a result): ready to be scored."""
    return position(phase="hand_over", **kwargs)
