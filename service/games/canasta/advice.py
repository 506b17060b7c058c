"""Canasta for the computer player (docs/rules/canasta.md): what a seat knows of the unseen cards,
what a hand is worth to a side, and the greedy player.

A seat sees its own hand, the pile, the melds and the red-three areas (the view); the other hands
and the stock are dealt again. The state keeps no record of which cards a player took with the
pile: ``infer`` reads them from the hand's history, and the redeal keeps them in that hand.

The playouts play ``playout``: the greedy player's move built from the hand, without the listing
of every meld and take (which cost a playout most of its time)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random

from service.cards import JOKER, Card
from service.games.advice import EXPLORE, NOTHING_KNOWN, Advice, Known, unseen_dealt_again
from service.games.base import accepts, evolve
from service.games.canasta import melds as m
from service.games.canasta import moves as mv
from service.games.canasta.check import check, may_go_out
from service.games.canasta.listing import RANK_ORDER, listing
from service.games.canasta.rules import Group, Melds, Phase, State
from service.games.canasta.scoring import hand_score
from service.games.seating import left_of

# --- the unseen cards --------------------------------------------------------------------------


def redeal(state: State, seat: int, rng: Random, known: Known = NOTHING_KNOWN) -> State:
    """The other hands and the stock dealt again, each the same size, a hand keeping the cards
    ``known`` holds there (taken with the pile, ``infer``). Where red threes are bonus cards no
    hand holds one (§3.4, §4.2: laid out at once), so those not laid out nor in the pile are known
    to be in the stock: they go back into it, at random places."""
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


def infer(history: Sequence[tuple[State, mv.Move]], seat: int) -> Known:
    """The cards ``seat`` saw go into another hand and not yet come out: those under the top card
    of a pile taken (§4.3: the pile is face up; the state keeps no record of them once taken), the
    whole pile taken with the upcard (§4.4) with the naturals shown for it where they stay in the
    hand, and a joker taken by an exchange (§4.6); less every card seen leaving that hand since
    (melded, laid with a take, discarded, given for a joker), a copy for a copy. Red threes in a
    pile go to the taker's area (§4.3), not the hand. Of each state it reads only the pile, which
    everyone sees, and the options; of each move what it shows."""
    held: dict[int, list[Card]] = {}
    for state, move in history:
        if move.seat == seat:
            continue
        gone, got = _through_hand(state, move)
        cards = held.setdefault(move.seat, [])
        for card in gone:
            if card in cards:
                cards.remove(card)
        cards += got
    return Known(held={s: tuple(cards) for s, cards in held.items() if cards})


def _through_hand(state: State, move: mv.Move) -> tuple[Sequence[Card], Sequence[Card]]:
    """The cards a move is seen to take out of its seat's hand, and those it is seen to put in."""
    def kept(pile: Sequence[Card]) -> list[Card]:
        return [c for c in pile if not m.is_red_three(c, state.variant)]

    if isinstance(move, mv.TakePile):
        return [*move.top_cards, *(c for g in move.melds for c in g.cards)], kept(state.pile[1:])
    if isinstance(move, mv.TakeUpcard):
        if state.options.first_take_mode == "meld_no_minimum":
            return move.show, kept(state.pile[1:])
        return (), [*move.show, *kept(state.pile)]
    if isinstance(move, mv.Meld):
        return [c for g in move.melds for c in g.cards], ()
    if isinstance(move, mv.Discard):
        return (move.card,), ()
    if isinstance(move, mv.ExchangeJoker):
        return (move.card,), (JOKER,)
    return (), ()


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


def greedy(state: State, seat: int, moves: Sequence[mv.Move]) -> mv.Move:
    """Take the pile when it can (laying the most naturals), else draw; exchange a joker when it
    can; meld when it can (the most naturals, the fewest wild cards; wild cards alone only to make
    a canasta); else discard the least useful card. Never asks to go out; always lets go out."""
    if state.phase == Phase.DRAW:
        return _draw(moves)
    if state.phase == Phase.AWAIT_ANSWER:
        return next((move for move in moves if isinstance(move, mv.AnswerGoOut) and move.answer), moves[0])
    exchange = next((move for move in moves if isinstance(move, mv.ExchangeJoker)), None)
    if exchange is not None:
        return exchange
    melds = [move for move in moves if isinstance(move, mv.Meld) and _worth_laying(state, move)]
    if melds:
        return max(melds, key=_laid)
    discards = [move for move in moves if isinstance(move, mv.Discard)]
    if not discards:
        return moves[0]
    ranks = Counter(c.rank for c in state.hands[seat])
    return min(discards, key=lambda move: _discard_cost(state, seat, move.card, ranks))


def _draw(moves: Sequence[mv.Move]) -> mv.Move:
    upcard = [move for move in moves if isinstance(move, mv.TakeUpcard)]
    if upcard:
        return max(upcard, key=lambda move: len(move.show))
    takes = [move for move in moves if isinstance(move, mv.TakePile)]
    if takes:
        return max(takes, key=_laid)
    return next((move for move in moves if isinstance(move, mv.Draw)), moves[0])


def _cards(move: mv.Meld | mv.TakePile) -> list[Card]:
    cards = [c for g in move.melds for c in g.cards]
    return [*move.top_cards, *cards] if isinstance(move, mv.TakePile) else cards


def _laid(move: mv.Meld | mv.TakePile) -> tuple[int, int]:
    """More naturals first, then fewer wild cards: wild cards are worth keeping for later melds."""
    cards = _cards(move)
    wild = sum(1 for c in cards if m.is_wild(c))
    return len(cards) - wild, -wild


def _worth_laying(state: State, move: mv.Meld) -> bool:
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


# --- the playouts' policy ----------------------------------------------------------------------

def playout(state: State, seat: int, rng: Random) -> mv.Move:
    """``greedy``'s move built from the hand rather than chosen from the listing, which checks
    every meld and take the hand makes and cost a playout three quarters of its time; one move in
    ``EXPLORE`` (when melding or discarding) a meld or a discard drawn at random. Where it differs
    from ``greedy``, to stay cheap: it takes the pile with every natural of the top card's rank
    (a wild card or two added only where the naturals alone will not do), and a side's first meld,
    with a take or without, lays every new meld the hand makes (each rank of three naturals, each
    pair with a wild card while they last) where ``greedy`` lays the fewest that reach the minimum;
    later melds are one group a move, the one of most naturals, as ``greedy``'s (a pair's wild
    card a two before a joker, where the listing offers ``greedy`` the joker first). A position its
    rules miss (a pile that must be taken, §4.9, by a take it does not build) goes to the listing
    and ``greedy``. On positions of random hands it makes ``greedy``'s move (the same cards) 96 %
    of the time, at some 0.65 ms a playout of 15 moves instead of 1.1-1.5."""
    explore = rng.random() < EXPLORE
    if state.phase == Phase.AWAIT_ANSWER:
        return mv.AnswerGoOut(seat, True)
    move = _drawn(state, seat) if state.phase == Phase.DRAW else _played(state, seat, rng, explore=explore)
    return move if move is not None else greedy(state, seat, listing(state, seat)[0])


def _drawn(state: State, seat: int) -> mv.Move | None:
    """The upcard with every natural of its rank shown (§4.4), else the pile when a take of the
    hand's naturals can have it (§4.3), else the stock (§4.2); with the stock gone, the pile
    declined when it cannot be taken (§4.9); None when it finds no legal take of a pile that must
    be taken."""
    for move in (*_upcard_takes(state, seat), *_pile_takes(state, seat)):
        if accepts(check, state, move):
            return move
    if state.stock:
        return mv.Draw(seat)
    decline = mv.DeclinePile(seat)
    return decline if accepts(check, state, decline) else None


def _upcard_takes(state: State, seat: int) -> list[mv.Move]:
    if state.variant != m.SEED_108 or state.turn_index or not state.pile:
        return []
    shown = _naturals(state.hands[seat], state.variant).get(str(state.pile[0].rank), ())
    return [mv.TakeUpcard(seat, shown)] if len(shown) >= 2 else []


def _pile_takes(state: State, seat: int) -> list[mv.Move]:
    """The takes to try, most naturals first: the top card's naturals, with no wild card, one,
    two; for a side without melds, with its other new melds first (the minimum, §4.1.6)."""
    if not state.pile or m.is_wild(top := state.pile[0]) or m.is_black_three(top, state.variant):
        return []
    hand, key = state.hands[seat], str(top.rank)
    naturals = _naturals(hand, state.variant).get(key, ())
    wild = _wild(hand)
    others = () if state.melds[state.side_of(seat)] else _new_melds(state, hand, besides=key)
    tops = [naturals + wild[:k] for k in range(min(len(wild), 2) + 1)]
    return [mv.TakePile(seat, cards, groups) for cards in tops for groups in dict.fromkeys((others, ()))]


def _played(state: State, seat: int, rng: Random, *, explore: bool) -> mv.Move | None:
    """A joker exchanged when it can be (§4.6), else the meld of most naturals (§4.5), else the
    discard ``greedy`` makes (§4.7); None for a last card that may not go out."""
    exchange = next((move for move in _exchanges(state, seat) if accepts(check, state, move)), None)
    if exchange is not None:
        return exchange
    melds = [move for move in _melds(state, seat) if accepts(check, state, move)]
    if melds:
        return rng.choice(melds) if explore else melds[0]
    hand = state.hands[seat]
    if len(hand) == 1 and not may_go_out(state, seat, state.melds[state.side_of(seat)]):
        return None
    if explore:
        return mv.Discard(seat, rng.choice(sorted(set(hand), key=_listed_order)))
    ranks = Counter(c.rank for c in hand)
    return mv.Discard(seat, min(sorted(set(hand), key=_listed_order),
                             key=lambda c: _discard_cost(state, seat, c, ranks)))


def _listed_order(card: Card) -> tuple[int, tuple[int, int]]:
    """The listing's order of the discards (§4.13), for ``greedy``'s choice among equals."""
    return RANK_ORDER.get(str(card.rank), 99), m.sort_key(card)


def _exchanges(state: State, seat: int) -> list[mv.Move]:
    """A joker of an opponent's meld for a natural of its rank (§4.6), by a side with a meld."""
    side = state.side_of(seat)
    if state.variant != m.SEED_108 or not state.melds[side]:
        return []
    naturals = _naturals(state.hands[seat], state.variant)
    return [mv.ExchangeJoker(seat, other, key, naturals[key][0])
            for other, melds in enumerate(state.melds) if other != side
            for key in m.KEY_ORDER if JOKER in melds.get(key, ()) and key in naturals]


def _melds(state: State, seat: int) -> list[mv.Meld]:
    """The melds to try, most naturals and then fewest wild cards first (``_laid``): for a side
    without melds every new meld at once, the natural ones alone, and each one alone (§4.1.6
    decides which reach the minimum); for a side with melds, one group a move (``_additions``)."""
    hand, melds = state.hands[seat], state.melds[state.side_of(seat)]
    if melds:
        moves = [mv.Meld(seat, (group,)) for group in _additions(state, hand, melds)]
    else:
        groups = _new_melds(state, hand)
        natural = tuple(g for g in groups if not any(map(m.is_wild, g.cards)))
        plans = dict.fromkeys((groups, natural, *((g,) for g in groups)))
        moves = [mv.Meld(seat, plan) for plan in plans if plan]
    return sorted(moves, key=_laid, reverse=True)


def _additions(state: State, hand: Sequence[Card], melds: Melds) -> list[Group]:
    """One group each: every natural of a rank onto its meld, or as a new meld of three or more,
    or of two with a wild card; wild cards alone only where they make a canasta (``_worth_laying``:
    §4.1.3 allows three in a meld, the wild meld of ``seed_13`` any number)."""
    wild = _wild(hand)
    found = []
    for key, cards in _naturals(hand, state.variant).items():
        if key in melds or len(cards) >= 3:
            found.append(Group(key, cards))
        elif len(cards) == 2 and wild and _takes_wild(key, state.variant):
            found.append(Group(key, (*cards, wild[0])))
    for key in (k for k in m.KEY_ORDER if k in melds):  # not the melds' order, which a state sent may change
        cards = melds[key]
        need = 7 - len(cards)
        room = need if key == m.WILD_KEY else 3 - sum(map(m.WILD.__contains__, cards))
        if 0 < need <= min(room, len(wild)) and _takes_wild(key, state.variant):
            found.append(Group(key, wild[:need]))
    return found


def _new_melds(state: State, hand: Sequence[Card], *, besides: str = "") -> tuple[Group, ...]:
    """Every new meld the hand makes by itself, in the keys' order: each rank of three naturals
    or more, each pair with a wild card while they last (twos first); no black threes, which are
    melded only going out (§4.1.3)."""
    wild = list(_wild(hand))
    groups = []
    for key, cards in _naturals(hand, state.variant).items():
        if key == besides or (key == m.THREE and m.threes_special(state.variant)):
            continue
        if len(cards) >= 3:
            groups.append(Group(key, cards))
        elif len(cards) == 2 and wild and _takes_wild(key, state.variant):
            groups.append(Group(key, (*cards, wild.pop(0))))
    return tuple(sorted(groups, key=lambda g: m.KEY_ORDER.index(g.key)))


def _naturals(hand: Sequence[Card], variant: str) -> dict[str, tuple[Card, ...]]:
    """The hand's natural cards by the meld key they go to, in the keys' order and each key's in
    suit order (§4.13): the order decides among equals as the listing's decides for ``greedy``,
    and it is read neither from the hand's order nor from the melds' (a state sent may have
    either in another order, and the player's answer must not change with it)."""
    found: dict[str, list[Card]] = {}
    special = m.RED_THREES if m.threes_special(variant) else frozenset()
    for card in sorted(hand, key=m.sort_key):
        if card not in m.WILD and card not in special:
            found.setdefault(str(card.rank), []).append(card)
    return {key: tuple(found[key]) for key in m.KEY_ORDER if key in found}  # the listing's order


def _wild(hand: Sequence[Card]) -> tuple[Card, ...]:
    """The hand's wild cards, twos first: a joker counts more kept (§2.3)."""
    return tuple(sorted((c for c in hand if c in m.WILD), key=lambda c: (c is JOKER, m.sort_key(c))))


def _takes_wild(key: str, variant: str) -> bool:
    return key != m.THREE or not m.threes_special(variant)


# A hand is some 200 moves: a playout stops after 15 (about five turns at four seats), and six
# candidates keep a sample to some 6 ms on an idle core with the listing, so that ``value`` guides
# the search; ``playout`` brings a sample to 1-4 ms (some 20-90 samples in 100 ms, from 10-30).
ADVICE: Advice[State, mv.Move] = Advice(redeal=redeal, value=value, greedy=greedy, horizon=15, shortlist=6,
                                     side=lambda state, seat: state.side_of(seat), playout=playout,
                                     infer=infer)
