"""Consistent Bezique positions for the rule table (docs/rules/bezique.md §4.1).

``position(...)`` builds a wire state from the few cards a test cares about and loads it through
the game (``GAMES["bezique"].load_state``), so every position passes the consistency check of
consistency.py: the whole deck of the options in exactly one place, the stock as long as the tricks
played leave it (§3.3, §5.3), holdings of 18 (17 in the declaration window or after playing to
the trick in progress), whole tricks in ``won_cards``, the sitting-out dealer's entries empty.

The cards not named are placed so that they change nothing: concealed hands are topped up with
*harmless* cards (no trump, no bezique jack, no wild card, never a fourth card of a rank that
has a four), tricks are filled from what is left, and the rest becomes the stock, its named top
cards first and the face-up trump card last.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from service.cards import codes
from service.games.bezique import rules
from service.games.registry import GAMES

GAME = GAMES["bezique"]
HAND = 18
LADDERED = ("bezique", "trump_quint", "trump_marriage")
BEZIQUE_JACK = {"H": "JD", "D": "JH", "C": "JS", "S": "JC"}
"""§2.4, written out here rather than taken from the implementation."""
FOUR_RANKS = ("A", "K", "Q", "J")
"""Ranks with a plain four (§4.5): a hand is never topped up to four of these."""

Cards = str | Sequence[str]


def split(cards: Cards | None) -> list[str]:
    if cards is None:
        return []
    return cards.split() if isinstance(cards, str) else list(cards)


def shown(card: str, *tags: str, as_: str | None = None, id: int | None = None) -> dict[str, Any]:
    """An exposed card: ``shown("QH", "bezique")``, ``shown("JK", "bezique", as_="JD")``."""
    entry: dict[str, Any] = {"card": card, "as": as_ or card, "tags": sorted(tags)}
    if id is not None:
        entry["id"] = id
    return entry


def active_order(seats: int, dealer: int, options: Mapping[str, Any]) -> list[int]:
    """§2.3, written out: clockwise from the dealer's left, the dealer last when he plays."""
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    sits_out = seats == 4 or (seats == 3 and not options.get("dealer_plays_at_three", False))
    return order[:-1] if sits_out else order


def deck_codes(options: Mapping[str, Any] | None = None) -> list[str]:
    """§2.1 for these options: P × the 20 pack codes, three nines of each suit, the wild cards."""
    options = options or {}
    packs, wild = options.get("packs", 8), options.get("wild_cards", 2)
    one_pack = [r + s for s in "CDHS" for r in ("A", "10", "K", "Q", "J")]
    return one_pack * packs + [f"9{s}" for s in "CDHS" for _ in range(3)] + ["JK"] * wild


def _take(pool: Counter[str], cards: Iterable[str], what: str) -> None:
    for card in cards:
        if pool[card] <= 0:
            raise ValueError(f"{what}: no {card} left in the deck")
        pool[card] -= 1


def _harmless(trump: str) -> list[str]:
    """Cards that make no declaration and no exchange: plain tens and nines first (there is no
    four of tens or of nines), then plain A K Q J other than the bezique jack."""
    plain = [s for s in "CDHS" if s != trump]
    order = [f"10{s}" for s in plain] + [f"9{s}" for s in plain]
    order += [r + s for r in FOUR_RANKS for s in plain if r + s != BEZIQUE_JACK[trump]]
    return order


def _top_up(hands: Mapping[int, list[str]], sizes: Mapping[int, int], pool: Counter[str], trump: str,
            shown_as: Mapping[int, list[str]]) -> None:
    """Deal harmless cards round the hands, one at a time, so that the plain tens and nines are
    shared and no hand reaches three cards of a rank with a four (wild cards counted)."""
    order = _harmless(trump)
    ranks = {seat: Counter(c[:-1] for c in [*hand, *shown_as[seat]] if c != "JK") for seat, hand in hands.items()}
    while any(len(hands[seat]) < sizes[seat] for seat in hands):
        for seat, hand in hands.items():
            if len(hand) >= sizes[seat]:
                continue
            jokers = hand.count("JK")
            card = next((c for c in order if pool[c] > 0
                         and not (c[:-1] in FOUR_RANKS and ranks[seat][c[:-1]] + jokers >= 3)), None)
            if card is None:
                raise ValueError("not enough harmless cards to fill the hands")
            pool[card] -= 1
            hand.append(card)
            ranks[seat][card[:-1]] += 1


def position_wire(
    *,
    hands: Mapping[int, Cards] | None = None,
    exposed: Mapping[int, Sequence[Mapping[str, Any]]] | None = None,
    trump_suit: str = "H",
    phase: str = "lead",
    tricks_played: int | None = None,
    seats: int = 2,
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
    leader: int | None = None,
    trick: Sequence[str | Mapping[str, Any]] = (),
    stock_top: Cards = (),
    trump_card: str | None = None,
    won: Mapping[int, Cards] | None = None,
    won_by: int | None = None,
    scores: Mapping[int, int] | None = None,
    decl_counts: Mapping[int, Mapping[str, int]] | None = None,
    last_declared_after_trick: Mapping[int, int | None] | None = None,
    next_exposed_id: int | None = None,
) -> dict[str, Any]:
    """A consistent wire state; see the module docstring. ``hands`` names concealed cards (topped
    up with harmless ones), ``exposed`` the cards on the table (ids 1, 2, ... in seat order unless
    given), ``trick`` the cards played to the trick in progress (phase ``follow``) from the leader
    on, ``won`` some seats' won cards (whole tricks; the other tricks go to ``won_by``, default the
    leader), ``stock_top`` the first cards of the stock and ``trump_card`` its last, face-up
    card."""
    options = dict(options or {})
    active = active_order(seats, dealer, options)
    deck = deck_codes(options)
    dealt = len(deck) - HAND * len(active)
    if tricks_played is None:
        tricks_played = {"lead": 0, "follow": 0, "declare": 1, "finished": dealt // len(active)}[phase]
    leader = active[0] if leader is None else leader
    pool = Counter(deck)
    exposed_wire = _table(exposed or {}, seats, pool)
    trick_wire = _trick(trick, active, leader, pool)
    hands_wire = _named(hands or {}, seats, pool, "hand")
    top = split(stock_top)
    _take(pool, top, "stock")
    won_wire = _named(won or {}, seats, pool, "won cards")
    stock_size = dealt - len(active) * (tricks_played - (phase == "declare"))
    trump_card = _turned(pool, trump_suit, trump_card, stock_size)
    _fill_hands(hands_wire, exposed_wire, {t["seat"] for t in trick_wire}, active, phase, pool, trump_suit)
    rest = _won_tricks(won_wire, [c for c in deck if _taken(pool, c)], len(active) * tricks_played,
                       leader if won_by is None else won_by)
    stock = [*top, *rest, *([] if trump_card is None else [trump_card])]
    if len(stock) != stock_size:
        raise ValueError(f"the stock would hold {len(stock)} cards, not {stock_size}")
    return {
        "game": "bezique", "seats": seats, "dealer": dealer, "options": options, "trump_suit": trump_suit,
        "stock": stock, "hands": hands_wire, "exposed": exposed_wire,
        "next_exposed_id": _next_id(exposed_wire) if next_exposed_id is None else next_exposed_id,
        "phase": phase, "leader": leader, "to_move": _to_move(phase, active, leader, len(trick_wire)),
        "trick": trick_wire, "trick_winner": leader if phase == "declare" else None,
        "declared_in_window": phase != "declare" and tricks_played > 0,
        "decl_counts": [{**dict.fromkeys(LADDERED, 0), **(decl_counts or {}).get(s, {})} for s in range(seats)],
        "last_declared_after_trick": [(last_declared_after_trick or {}).get(s) for s in range(seats)],
        "scores": [(scores or {}).get(s, 0) for s in range(seats)],
        "won_cards": won_wire, "tricks_played": tricks_played,
    }


def _table(exposed: Mapping[int, Sequence[Mapping[str, Any]]], seats: int,
           pool: Counter[str]) -> list[list[dict[str, Any]]]:
    """The exposed cards, ids 1, 2, ... in seat order where not given, taken from the pool."""
    given = {entry["id"] for seat in exposed.values() for entry in seat if "id" in entry}
    free = (i for i in itertools.count(1) if i not in given)
    table: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    for seat in range(seats):
        for entry in exposed.get(seat, ()):
            table[seat].append({"id": entry["id"] if "id" in entry else next(free), "card": entry["card"],
                                "as": entry.get("as", entry["card"]), "tags": sorted(entry["tags"])})
    _take(pool, (e["card"] for seat in table for e in seat), "exposed")
    return table


def _next_id(table: list[list[dict[str, Any]]]) -> int:
    return 1 + max((e["id"] for seat in table for e in seat), default=0)


def _trick(trick: Sequence[str | Mapping[str, Any]], active: list[int], leader: int,
           pool: Counter[str]) -> list[dict[str, Any]]:
    """The trick in progress, played by the active seats in turn from the leader."""
    start, found = active.index(leader), []
    for index, entry in enumerate(trick):
        entry = {"card": entry} if isinstance(entry, str) else dict(entry)
        card = entry["card"]
        found.append({"seat": active[(start + index) % len(active)], "card": card, "as": entry.get("as", card),
                      "from": entry.get("from", "hand")})
    _take(pool, (t["card"] for t in found), "trick")
    return found


def _named(piles: Mapping[int, Cards], seats: int, pool: Counter[str], what: str) -> list[list[str]]:
    """Per seat, the cards named for it (before any filling), taken from the pool."""
    found: list[list[str]] = [[] for _ in range(seats)]
    for seat, cards in piles.items():
        found[seat] = split(cards)
        _take(pool, found[seat], f"{what} {seat}")
    return found


def _turned(pool: Counter[str], trump_suit: str, trump_card: str | None, stock_size: int) -> str | None:
    """The face-up trump card while the stock lasts (a trump ten unless named), else None."""
    if stock_size <= 0:
        if trump_card is not None:
            raise ValueError("the stock is empty: there is no trump card")
        return None
    if trump_card is None:
        trump_card = next(r + trump_suit for r in ("10", "A", "K", "Q", "J", "9") if pool[r + trump_suit] > 0)
    _take(pool, [trump_card], "trump card")
    return trump_card


def _fill_hands(hands: list[list[str]], table: list[list[dict[str, Any]]], in_trick: set[int],
                active: list[int], phase: str, pool: Counter[str], trump_suit: str) -> None:
    """Tops up the active seats' hands to their holdings (§4.1, §5): 18 in all, one fewer in the
    declaration window or after playing to the trick in progress."""
    sizes = {seat: HAND - (phase == "declare" or seat in in_trick) - len(table[seat]) for seat in active}
    for seat, size in sizes.items():
        if len(hands[seat]) > size:
            raise ValueError(f"seat {seat}'s hand and table hold more than {size + len(table[seat])}")
    _top_up({seat: hands[seat] for seat in active}, sizes, pool, trump_suit,
            {seat: [e["as"] for e in table[seat]] for seat in active})


def _taken(pool: Counter[str], card: str) -> bool:
    """Whether the card is still in the pool; if so it is taken."""
    if pool[card] <= 0:
        return False
    pool[card] -= 1
    return True


def _won_tricks(won: list[list[str]], rest: list[str], cards_won: int, winner: int) -> list[str]:
    """The tricks not named go to ``winner`` from the cards left; answers what is left for the stock."""
    missing = cards_won - sum(map(len, won))
    if missing < 0:
        raise ValueError("more won cards than the tricks played hold")
    won[winner] += rest[:missing]
    return rest[missing:]


def _to_move(phase: str, active: list[int], leader: int, played: int) -> int | None:
    if phase == "follow":
        return active[(active.index(leader) + played) % len(active)]
    return None if phase == "finished" else leader


def position(**kwargs: Any) -> rules.State:
    """``position_wire`` loaded through the game: it raises if the position is inconsistent."""
    return GAME.load_state(position_wire(**kwargs))


def hand_codes(state: rules.State, seat: int) -> list[str]:
    return codes(state.hands[seat])
