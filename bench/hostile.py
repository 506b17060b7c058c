"""Hostile request bodies: the smallest bodies we know that cost the service the most.

Each entry is ``(name, path, body)``; the body is a dict to send as JSON, or bytes to send as
they are. Every body is built here, deterministically and in well under a second, from the
service's own rules and wire code, so each state passes the service's consistency check and the
bodies follow the rules as they change:

* Canasta, six players, ``classic`` (162 cards): a side without melds whose mover holds 30, 40,
  45 or 90 cards, in the play phase after drawing and in the draw phase with a one-card,
  unfrozen, takeable pile. The hand is a few twos and jokers and ranks of four or more naturals,
  lowest ranks first, and the side's score is 7,500 (an initial minimum of 150): the shape that
  made §4.13 rules 2-3 (every multi-group meld or take of a side without melds) longest to
  list on 24- and 30-card hands (before the listing was bounded, 30 cards listed 65,589 moves, 12.8 MB,
  in 16 s; 40 or more never finished). The states are dealt by ``rules.deal_from``; the mover's cards
  are then moved from the stock to the hand, and the play-phase states draw with ``play.apply``.
  Plus a side with melds and a hand of two cards (rule 4).
* Bezique, ten packs, in the declaration window: the holding of bench/limits.py (eight jacks in
  the hand with both wild cards, eight exposed jacks in four classes: 10,983 entries before the
  listing was bounded, one fewer than there as the turned card is the trump nine), and the worst holdings
  found for a rank (16,451 and 22,004 entries then). §4.6 lists each multiset of sources once, so a four's
  entries are the coefficients of x^4, x^8, x^12 and x^16 (multiplicities 1 to 4) in the product
  of (1 + 4x + 10x²) for the two wild cards in the hand and (1 + x + ... + x^k) for each natural
  identity held k times and each class of k exposed cards, less the choices from the table
  alone. An exposed card has scored at least once (the schema) and not in the four's own family,
  so the classes of exposed jacks are the bezique jack with a bezique, a quint or both and the
  trump jack with a quint (four), and of queens the trump queen with a bezique, a marriage, a
  quint, a bezique and a marriage, or a bezique and a quint (five); plain queens and jacks can
  only have scored in a four. Over every split of the 17 cards, the most are two of each suit and
  both wild cards in the hand and the rest spread over the classes: 16,386 ``four_jacks``
  entries, and 21,846 ``four_queens`` (here with spades trumps, which changes nothing by
  symmetry).
* Schema errors: 16,000 integers where card codes go, and a body of just under 1 MiB of them
  (about 520,000), on ``deal``'s ``deck`` and on a Canasta state's hand in ``validate``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from service.cards import CARDS, SeedStream, codes
from service.games.base import DealSetup, evolve
from service.games.canasta import moves as mv
from service.games.canasta import play
from service.games.canasta import rules as canasta
from service.games.canasta import wire as canasta_wire
from service.games.registry import GAMES

Body = dict[str, Any] | bytes
Entry = tuple[str, str, Body]

# --- Canasta ---------------------------------------------------------------------------------

SEATS = 6
MOVER = 1
"""The dealer is seat 0, so seat 1 is the first to move."""
SIDE_SCORE = 7500
"""§4.1.6: at six players a side at 7,500 or more needs 150 for its first meld, the most groups."""
NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Lowest value first: a low rank adds less to a meld, so more groups are each needed."""
SUITS = "CDHS"
SIZES = (30, 40, 45, 90)


def canasta_hand(size: int) -> list[str]:
    """``size`` cards: wild cards about a quarter (twos to jokers 5 : 2, at most 12 and 6), the
    rest in ranks of at least four naturals, lowest ranks first."""
    wild = min(18, round(size * 7 / 30))
    twos = min(12, round(wild * 5 / 7))
    jokers = min(6, wild - twos)
    naturals = size - twos - jokers
    per_rank = max(4, -(-naturals // len(NATURAL_RANKS)))
    hand = [f"2{SUITS[i % 4]}" for i in range(twos)] + ["JK"] * jokers
    for rank in NATURAL_RANKS:
        for n in range(per_rank):
            if len(hand) < size:
                hand.append(rank + SUITS[n % 4])
    if len(hand) != size:
        raise ValueError(f"no Canasta hand of {size} cards in this shape")
    return hand


def _canasta_deck(hand: list[str], pile_top: str) -> list[str]:
    """A 162-card deck in dealing order: seat 1 is dealt the first 13 cards of ``hand``, the
    other seats plain cards ``hand`` does not use (black threes first), ``pile_top`` is turned
    up, and the stock holds the rest of ``hand`` first, then everything else, red threes last."""
    left = Counter(c.code for c in canasta.full_deck(SEATS))
    left.subtract(hand)
    left.subtract([pile_top])
    if min(left.values()) < 0:
        raise ValueError("the hand and the pile's top card are not in the 162-card deck")
    order = [c.code for c in canasta.full_deck(SEATS)]
    plain = ["3C", "3S", *(c for c in dict.fromkeys(order) if c[:-1] in NATURAL_RANKS)]
    fill: list[str] = []
    for code in plain:
        take = min(left[code], 13 * (SEATS - 1) - len(fill))
        fill += [code] * take
        left[code] -= take
    if len(fill) < 13 * (SEATS - 1):
        raise ValueError("not enough plain cards for the other hands")
    dealt, own, others = [], iter(hand[:13]), iter(fill)
    for i in range(13 * SEATS):
        dealt.append(next(own) if (MOVER + i) % SEATS == MOVER else next(others))
    red = ("3D", "3H")
    stock = [code for code in dict.fromkeys(order) if code not in red for _ in range(left[code])]
    stock += [code for code in red for _ in range(left[code])]
    return [*dealt, pile_top, *hand[13:], *stock]


def canasta_state(size: int, *, draw_phase: bool = False) -> dict[str, Any]:
    """The wire state of seat 1 holding ``canasta_hand(size)``: after drawing (the last card of
    the hand is the draw), or before it with the pile's single card one of the hand's ranks."""
    hand = canasta_hand(size)
    pile_top = next(r + "S" for r in NATURAL_RANKS if sum(c[:-1] == r for c in hand) >= 2)
    deck = [CARDS[c] for c in _canasta_deck(hand, pile_top)]
    state = canasta.deal_from(deck, seats=SEATS, dealer=0, options=canasta.Options(),
                              side_scores=(SIDE_SCORE, SIDE_SCORE))
    assert state.turn == MOVER and not any(state.red_threes) and not state.pile_frozen
    keep = size if draw_phase else size - 1  # the play-phase state draws its last card
    moved = keep - len(state.hands[MOVER])
    hands = list(state.hands)
    hands[MOVER] = (*hands[MOVER], *state.stock[:moved])
    state = evolve(state, hands=tuple(hands), stock=state.stock[moved:])
    if not draw_phase:
        state, _ = play.apply(state, mv.Draw(MOVER))
    wire = canasta_wire.STATE.dump(state)
    assert Counter(codes(state.hands[MOVER])) == Counter(hand)
    return wire


def canasta_two_cards() -> dict[str, Any]:
    """Rule 4: a side with melds, two of them canastas (six players go out with two), its mover
    holding a two and a joker after drawing, either of which fits any of the four melds."""
    hand = ["2C", "JK", *(r + "H" for r in NATURAL_RANKS)]
    state = canasta.deal_from([CARDS[c] for c in _canasta_deck(hand, "4S")], seats=SEATS, dealer=0,
                              options=canasta.Options(), side_scores=(0, 0))
    stock = [*state.hands[MOVER][2:], *state.stock]  # the hand back to the stock but its 2C and JK
    melds: dict[str, tuple[Any, ...]] = {}
    for rank, naturals in (("7", 6), ("8", 6), ("9", 3), ("10", 3)):
        cards = (*(CARDS[rank + "HS"[n % 2]] for n in range(naturals)), CARDS["JK"])
        for card in cards:
            stock.remove(card)
        melds[rank] = cards
    stock.insert(0, CARDS["JK"])  # the card the mover draws
    hands = list(state.hands)
    hands[MOVER] = (CARDS["2C"],)
    state = evolve(state, hands=tuple(hands), stock=tuple(stock), melds=({}, melds),
                   has_melded=tuple(seat % 2 == MOVER % 2 for seat in range(SEATS)),
                   turn_info=canasta.TurnInfo(keys_at_start=frozenset(melds)))
    state, _ = play.apply(state, mv.Draw(MOVER))
    return canasta_wire.STATE.dump(state)


def canasta_every_card() -> dict[str, Any]:
    """The longest listing: a side at 0 (a first meld of 50, which almost any group meets) whose
    mover holds every card of the deck but the threes, one kept back for the pile's top and the
    stock's top (the draw); every other seat holds one black three, the red threes stay in the stock."""
    hand = canasta_hand(30)
    state = canasta.deal_from([CARDS[c] for c in _canasta_deck(hand, "4S")], seats=SEATS, dealer=0,
                              options=canasta.Options(), side_scores=(0, 0))
    deck = Counter(c.code for c in canasta.full_deck(SEATS))
    others = ["3C", "3S", "3C", "3S", "3C"]
    rest = ["3S", *(["3D", "3H"] * 3)]
    deck.subtract([*others, *rest, "4S", "4C"])
    mover = tuple(CARDS[c] for c in sorted(deck.elements()))
    hands = tuple(mover if seat == MOVER else (CARDS[others.pop()],) for seat in range(SEATS))
    state = evolve(state, hands=hands, pile=(CARDS["4S"],), stock=(CARDS["4C"], *(CARDS[c] for c in rest)))
    state, _ = play.apply(state, mv.Draw(MOVER))
    return canasta_wire.STATE.dump(state)


def canasta_bodies() -> list[Entry]:
    path = "/v1/games/canasta/legal-moves"
    found: list[Entry] = []
    for size in SIZES:
        found.append((f"canasta {size} cards, play", path, {"state": canasta_state(size)}))
        found.append((f"canasta {size} cards, draw, takeable pile", path,
                      {"state": canasta_state(size, draw_phase=True)}))
    found.append(("canasta 2 cards, side with melds", path, {"state": canasta_two_cards()}))
    found.append(("canasta 150 cards, every card but the threes", path, {"state": canasta_every_card()}))
    return found


# --- Bezique ---------------------------------------------------------------------------------


def bezique_state(trump: str, hand: list[str], exposed: list[tuple[str, str, list[str]]]) -> dict[str, Any]:
    """Ten packs, two seats; seat 1 won the first trick and is in the declaration window with
    ``hand`` concealed and ``exposed`` ((card, as, tags) each) on the table, 17 cards in all.
    Every other card is in seat 0's hand, the stock (a plain trump card turned last) or the
    trick seat 1 won."""
    game = GAMES["bezique"]
    options = {"packs": 10}
    dealt = game.dump_state(game.deal(DealSetup(2, None, options, None), SeedStream("hostile")))
    if len(hand) + len(exposed) != 17:
        raise ValueError("seat 1 holds 17 cards in the declaration window")
    deck = Counter(c for pile in (dealt["stock"], *dealt["hands"]) for c in pile)
    turned, won = "9" + trump, ["10C" if trump != "C" else "10D", "10S" if trump != "S" else "10H"]
    rest = deck - Counter(hand) - Counter(c for c, _, _ in exposed) - Counter([turned, *won])
    # seat 0 gets cards that declare nothing with seat 1's: nines and tens first, no wild card
    ordered = sorted(rest.elements(), key=lambda c: (c == "JK", c[:-1] not in ("9", "10"), c))
    other, stock = ordered[:17], [*ordered[17:], turned]
    table = [{"id": i + 1, "card": c, "as": a, "tags": sorted(t)} for i, (c, a, t) in enumerate(exposed)]
    return {
        **dealt, "trump_suit": trump, "stock": stock, "hands": [other, hand], "exposed": [[], table],
        "next_exposed_id": len(table) + 1, "phase": "declare", "leader": 1, "to_move": 1, "trick": [],
        "trick_winner": 1, "declared_in_window": False, "tricks_played": 1, "won_cards": [[], won],
        "trump_card": turned, "bezique_jack": BEZIQUE_JACK[trump], "status": "in_progress", "active": [1, 0],
        "result": None,
    }


BEZIQUE_JACK = {"H": "JD", "D": "JH", "C": "JS", "S": "JC"}


def bezique_bodies() -> list[Entry]:
    path = "/v1/games/bezique/legal-moves"
    eight_jacks = bezique_state("H", ["JC", "JC", "JS", "JD", "JD", "JH", "JK", "JK", "9H"], [
        ("JD", "JD", ["bezique"]), ("JD", "JD", ["bezique"]), ("JD", "JD", ["bezique", "trump_quint"]),
        ("JD", "JD", ["bezique", "trump_quint"]), ("JD", "JD", ["trump_quint"]),
        ("JD", "JD", ["trump_quint"]), ("JH", "JH", ["trump_quint"]), ("JH", "JH", ["trump_quint"])])
    jacks = bezique_state("H", ["JC", "JC", "JD", "JD", "JH", "JH", "JS", "JS", "JK", "JK"], [
        ("JD", "JD", ["bezique"]), ("JD", "JD", ["bezique"]), ("JD", "JD", ["bezique", "trump_quint"]),
        ("JD", "JD", ["bezique", "trump_quint"]), ("JD", "JD", ["trump_quint"]),
        ("JD", "JD", ["trump_quint"]), ("JH", "JH", ["trump_quint"])])
    queens = bezique_state("S", ["QC", "QC", "QD", "QD", "QH", "QH", "QS", "QS", "JK", "JK"], [
        ("QS", "QS", ["bezique"]), ("QS", "QS", ["bezique"]), ("QS", "QS", ["trump_marriage"]),
        ("QS", "QS", ["trump_marriage"]), ("QS", "QS", ["trump_quint"]),
        ("QS", "QS", ["bezique", "trump_marriage"]), ("QS", "QS", ["bezique", "trump_quint"])])
    return [("bezique eight jacks (bench/limits.py)", path, {"state": eight_jacks}),
            ("bezique ten jacks in hand, four classes", path, {"state": jacks}),
            ("bezique ten queens in hand, five classes", path, {"state": queens})]


# --- schema errors ---------------------------------------------------------------------------

WRONG_ITEMS = 16_000
MIB = 1 << 20


def _just_under_a_mib(head: bytes, tail: bytes) -> bytes:
    """``head`` + ``0,0,...,0`` + ``tail``, the whole a little under 1 MiB (the service's and
    nginx's limit), so it is read, parsed and validated."""
    count = (MIB - 1024 - len(head) - len(tail)) // 2
    return head + b"0," * (count - 1) + b"0" + tail


def schema_bodies() -> list[Entry]:
    state = canasta_wire.STATE.dump(canasta.deal_from(canasta.full_deck(4), seats=4, dealer=0,
                                                      options=canasta.Options(), side_scores=(0, 0)))
    move = {"seat": state["to_move"], "type": "draw"}
    wrong = {**state, "hands": [[0] * WRONG_ITEMS, *state["hands"][1:]]}
    text = json.dumps({"state": {**state, "hands": ["@", *state["hands"][1:]]}, "move": move},
                      separators=(",", ":")).encode()
    head, tail = text.split(b'"@"')
    validate = "/v1/games/canasta/validate"
    return [
        (f"deal, {WRONG_ITEMS:,} ints for cards", "/v1/games/sixty-six/deal", {"deck": [0] * WRONG_ITEMS}),
        ("deal, 1 MiB of ints for cards", "/v1/games/sixty-six/deal", _just_under_a_mib(b'{"deck":[', b"]}")),
        (f"validate, {WRONG_ITEMS:,} ints in a hand", validate, {"state": wrong, "move": move}),
        ("validate, 1 MiB of ints in a hand", validate, _just_under_a_mib(head + b"[", b"]" + tail)),
    ]


def hostile() -> list[Entry]:
    """Every hostile body, Canasta first."""
    return [*canasta_bodies(), *bezique_bodies(), *schema_bodies()]


def encoded(entry: Entry) -> bytes:
    body = entry[2]
    return body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
