"""Bezique's greedy player (docs/rules/bezique.md): the baseline the computer player is measured
against and the rules of thumb its playouts share. It declares the best it can, takes a trick
with a card it can spare, and keeps the cards that make declarations; a holding's promise
(``Holding.promise``) is what those cards are likely to declare yet. Its measures also order the
moves the computer player weighs (``ranked``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import zip_longest
from math import exp, inf

from service.cards import CARDS, JOKER, Card
from service.games.bezique import declarations as decl
from service.games.bezique.play import beats
from service.games.bezique.rules import (
    Declare,
    ExchangeTrump,
    Exposed,
    Move,
    Pass,
    Phase,
    Play,
    State,
    extra_count,
    rank_order,
)

# --- the greedy player -------------------------------------------------------------------------


def greedy(state: State, seat: int, moves: Sequence[Move]) -> Move:
    """In the declaration window: exchange the trump nine, then make the declaration worth most
    (its points and what it leaves of the holding's promise), else pass. Leading: exchange the
    trump nine first, then lead the card whose loss costs the holding's promise least, the
    weakest of those. Following: take the trick with the cheapest card that covers if it can
    spare one, else throw the cheapest card."""
    for move in moves:
        if isinstance(move, ExchangeTrump):
            return move
    odds = Odds.of(state)
    holding = Holding.of(state, seat)
    if state.phase is Phase.DECLARE:
        return _best_declaration(state, seat, moves, holding, odds)
    plays = [m for m in moves if isinstance(m, Play)]
    if not plays:
        return moves[0]
    return best_play(state, seat, plays, holding, odds)


def best_play(state: State, seat: int, plays: list[Play], holding: Holding, odds: Odds) -> Play:
    """Take the trick with the cheapest card that covers if it can spare one, else play the
    cheapest card."""
    order = rank_order(state.options)
    trump = state.trump_suit
    shown = {e.id: e for e in state.exposed[seat]}
    cost = _play_cost(holding, odds, shown, trump, order)
    if state.trick:
        best = best_in_trick(state, order)
        winners = [m for m in plays if beats(identity(m, shown), best, trump, order)]
        if winners:
            cheapest = min(winners, key=cost)
            if cost(cheapest)[0] <= SPARE:
                return cheapest
    return min(plays, key=cost)


def _play_cost(holding: Holding, odds: Odds, shown: dict[int, Exposed], trump: str,
               order: dict[str, int]) -> Callable[[Play], tuple[float, bool, int]]:
    """What giving a card up costs: the holding's promise it takes, then its strength."""
    before = holding.promise(odds)
    losses: dict[object, float] = {}
    promising = promised_cards(trump)

    def cost(move: Play) -> tuple[float, bool, int]:
        # exposed cards alike in identity and tags cost alike
        key = move.card if move.card is not None else shown[move.exposed_id or 0][2:]
        if key not in losses and move.card is not None and move.card not in promising:
            losses[key] = 0.0  # the promise reads only trump honours, bezique jacks and wild cards
        elif key not in losses:
            losses[key] = before - holding.without(move, shown).promise(odds)
        played = identity(move, shown)
        return losses[key], played.suit == trump, order[played.rank]
    return cost


SPARE = 5.0
"""The most promise a card may take with it and still be given up to take a trick."""


def _best_declaration(state: State, seat: int, moves: Sequence[Move], holding: Holding,
                      odds: Odds) -> Move:
    """The declaration worth most now and after (§7.1, and the promise it leaves: four plain
    queens for 6 would spoil four trump queens for 176); a pass if none is worth anything."""
    best: Move = next((m for m in moves if isinstance(m, Pass)), moves[0])
    worth, best_worth = _declaration_worth(state, seat, holding, odds), 0.0
    for move in moves:
        if isinstance(move, Declare) and (this := worth(move)) > best_worth:
            best, best_worth = move, this
    return best


def _declaration_worth(state: State, seat: int, holding: Holding, odds: Odds) -> Callable[[Declare], float]:
    """What a declaration is worth: its points and the promise it leaves, less a little for each
    wild card it shows (a wild card kept free completes whatever comes)."""
    before = holding.promise(odds)

    def worth(move: Declare) -> float:
        wild = sum(c is JOKER for c, _ in move.from_hand)
        return _gain(state, seat, move) + holding.declared(move).promise(odds) - before - 0.1 * wild
    return worth


def _gain(state: State, seat: int, move: Declare) -> float:
    """The points the declaration scores (§7.1), a laddered kind counted as a single one: the
    ladder moves one step a declaration whatever its multiplicity, so singles score more."""
    kind = move.declaration
    if kind in decl.LADDER_BASE:
        earlier = state.decl_counts[seat][decl.LADDERED.index(kind)]
        return decl.points(kind, earlier, 1) - (move.multiplicity - 1) * 0.5
    c = extra_count(state, seat, kind) + 1 if kind in decl.EXTRA_OF else 0
    return float(decl.points(kind, 0, move.multiplicity, c))


# --- the moves worth weighing ------------------------------------------------------------------


def ranked(state: State, seat: int, moves: Sequence[Move]) -> list[Move]:
    """The search's candidates from the likeliest best, by greedy's own measures (``Advice.rank``):
    the exchange first; in the declaration window each declaration by its worth, the pass at
    none; a card by what it costs the holding, one of each choice first (``_ranked_plays``)."""
    odds, holding = Odds.of(state), Holding.of(state, seat)
    if state.phase is Phase.DECLARE:
        worth = _declaration_worth(state, seat, holding, odds)

        def loss(move: Move) -> float:
            if isinstance(move, ExchangeTrump):
                return -inf
            return -worth(move) if isinstance(move, Declare) else 0.0
        return sorted(moves, key=loss)
    plays = [m for m in moves if isinstance(m, Play)]
    return [m for m in moves if not isinstance(m, Play)] + _ranked_plays(state, seat, plays, holding, odds)


def _ranked_plays(state: State, seat: int, plays: list[Play], holding: Holding, odds: Odds) -> list[Play]:
    """The cards by the choice each makes (whether it takes the trick, or leading whether it is an
    ace, which nothing of its suit beats, §5.1; and whether it is a trump), the cheapest of every
    choice first, then the next of each: greedy's choice is one of them, and the search weighs the
    others. Of cards alike in identity and cost, one."""
    order, trump = rank_order(state.options), state.trump_suit
    shown = {e.id: e for e in state.exposed[seat]}
    cost = _play_cost(holding, odds, shown, trump, order)
    best = best_in_trick(state, order) if state.trick else None
    top = max(order.values())
    choices: dict[tuple[bool, bool], list[tuple[tuple[float, bool, int], Play]]] = {}
    alike: set[tuple[Card, tuple[float, bool, int]]] = set()
    for move in plays:
        card, spent = identity(move, shown), cost(move)
        if (card, spent) in alike:
            continue
        alike.add((card, spent))
        takes = beats(card, best, trump, order) if best is not None else order[card.rank] == top
        choices.setdefault((takes, card.suit == trump), []).append((spent, move))
    each = sorted((sorted(cards, key=lambda c: c[0]) for cards in choices.values()), key=lambda c: c[0][0])
    return [costed[1] for turn in zip_longest(*each) for costed in turn if costed is not None]


def identity(move: Play, shown: dict[int, Exposed]) -> Card:
    """The identity the move plays: a wild card's nomination, an exposed card's ``as``."""
    if move.card is None:
        return shown[move.exposed_id or 0].as_
    return move.as_ or move.card


def best_in_trick(state: State, order: dict[str, int]) -> Card:
    """The card the next one must cover (§5.1)."""
    best = state.trick[0].as_
    for played in state.trick[1:]:
        if beats(played.as_, best, state.trump_suit, order):
            best = played.as_
    return best


# --- the promise of a holding ------------------------------------------------------------------

READY = 0.8
"""The chance a declaration the holding can make now is made: it waits for a won trick."""


@dataclass(frozen=True, slots=True)
class Odds:
    """How likely the seats are to draw a card yet: the draws left to each, and the cards they
    come from (the face-down stock, the other hands and the tricks, as one unseen pool)."""

    trump: str
    draws: int
    pool: int
    copies: int
    """How many of each pack card the deck holds."""
    shown: Counter[Card]
    """The cards in sight of everyone: exposed and in the trick."""

    @staticmethod
    def of(state: State) -> Odds:
        a = len(state.active)
        shown = Counter(e.card for x in state.exposed for e in x)
        shown.update(p.card for p in state.trick)
        pool = len(state.stock) + sum(map(len, state.hands)) // a * (a - 1) + sum(map(len, state.won_cards))
        return Odds(state.trump_suit, len(state.stock) // a, max(pool, 1), state.options.packs, shown)

    def at_least(self, card: Card, held: int, need: int) -> float:
        """The chance to draw ``need`` more copies of ``card`` (Poisson over the draws left)."""
        if need <= 0:
            return 1.0
        unseen = self.copies - held - self.shown[card]
        if unseen < need:
            return 0.0
        rate = self.draws * unseen / self.pool
        term = total = exp(-rate)
        for k in range(1, need):
            term *= rate / k
            total += term
        return max(0.0, 1.0 - total)


@dataclass(frozen=True, slots=True)
class Holding:
    """A seat's holding as the promise needs it: the concealed cards counted, the exposed ones
    as (identity, tags), and the ladder's rungs reached."""

    concealed: Counter[Card]
    exposed: tuple[tuple[Card, frozenset[str]], ...]
    ladder: tuple[int, ...]

    @staticmethod
    def of(state: State, seat: int) -> Holding:
        return Holding(Counter(state.hands[seat]), tuple((e.as_, e.tags) for e in state.exposed[seat]),
                        state.decl_counts[seat])

    def without(self, move: Play, shown: dict[int, Exposed]) -> Holding:
        """The holding once the move's card is played."""
        if move.card is not None:
            return Holding(self.concealed - Counter([move.card]), self.exposed, self.ladder)
        gone = shown[move.exposed_id or 0]
        rest = list(self.exposed)
        rest.remove((gone.as_, gone.tags))
        return Holding(self.concealed, tuple(rest), self.ladder)

    def declared(self, move: Declare) -> Holding:
        """The holding once the declaration is made (its cards shown and tagged; the table ids are
        matched by identity and tags, which is all the promise reads)."""
        kind, ladder = move.declaration, self.ladder
        if kind in decl.LADDER_BASE:
            at = decl.LADDERED.index(kind)
            ladder = (*ladder[:at], ladder[at] + 1, *ladder[at + 1:])
        shown = tuple((as_ or c, frozenset([kind])) for c, as_ in move.from_hand)
        return Holding(self.concealed - Counter(c for c, _ in move.from_hand), self.exposed + shown, ladder)

    def promise(self, odds: Odds) -> float:
        """The points the holding is likely to declare yet: the trump fours and four bezique jacks
        with their extras and the beziques, each by the chance of completing it from the draws
        left and of making it; the wild cards go where one adds most. The trump quints are left
        out (their cards count already as the trump fours'); the search's value adds them."""
        trump = odds.trump
        total, best_wild = 0.0, 0.0
        shown: dict[Card, list[frozenset[str]]] = {}
        for as_, tags in self.exposed:
            shown.setdefault(as_, []).append(tags)
        for card, four, extra, worth, extras in _categories(trump):
            free, counted = _count(self.concealed[card], shown.get(card, ()), four, extra)
            here = self._four(card, free, counted, worth, extras, odds)
            total += here
            if self.concealed[JOKER]:
                best_wild = max(best_wild, self._four(card, free + 1, counted, worth, extras, odds) - here)
        queen, jack = CARDS["Q" + trump], CARDS[decl.BEZIQUE_JACK[trump]]
        total += self._bezique(queen, jack, shown, odds)
        return total + self.concealed[JOKER] * max(best_wild, WILD)

    @staticmethod
    def _four(card: Card, free: int, counted: int, worth: int, extras: tuple[int, ...], odds: Odds) -> float:
        if counted >= 4:  # the four is shown: each concealed copy is an extra (the next rung)
            return READY * sum(extras[(counted + k) % 4] for k in range(free))
        ready = worth + sum(extras[k % 4] for k in range(free - 4))
        return READY * ready * odds.at_least(card, free, 4 - free)

    def _bezique(self, queen: Card, jack: Card, shown: dict[Card, list[frozenset[str]]],
                 odds: Odds) -> float:
        """Beziques up the ladder: the pairs the holding makes, or the chance to draw the partner."""
        family = decl.KINDS_OF_FAMILY["bezique"]
        queens = self.concealed[queen] + sum(1 for tags in shown.get(queen, ()) if not tags & family)
        jacks = self.concealed[jack] + sum(1 for tags in shown.get(jack, ()) if not tags & family)
        rung = self.ladder[decl.LADDERED.index("bezique")]
        pairs = min(queens, jacks)
        found = READY * sum(25 << (rung + k) for k in range(pairs))
        if queens != jacks:
            short = jack if queens > jacks else queen
            found += READY * (25 << (rung + pairs)) * odds.at_least(short, max(queens, jacks), 1)
        return found


def _count(concealed: int, shown: Sequence[frozenset[str]], four: str, extra: str) -> tuple[int, int]:
    """The copies free for the four (concealed, or shown without a tag of its family), and the
    shown copies that count toward the extras (§4.5 e)."""
    family = decl.KINDS_OF_FAMILY[decl.FAMILY[four]]
    free = concealed + sum(1 for tags in shown if not tags & family)
    counted = sum(1 for tags in shown if four in tags or extra in tags)
    return free, counted


WILD = 20.0
"""The least a wild card is worth: it completes whatever comes."""


@cache
def _categories(trump: str) -> tuple[tuple[Card, str, str, int, tuple[int, ...]], ...]:
    """The trump fours and four bezique jacks: the card, the four's kind and the extra's, the
    four's value and the extras' (§7.1)."""
    return tuple((decl.category(extra, trump), four, extra, decl.FOUR_VALUES[four], decl.EXTRA_VALUES[extra])
                 for extra, four in decl.EXTRA_OF.items())


@cache
def promised_cards(trump: str) -> frozenset[Card]:
    """The cards the promise reads: the trump honours, the bezique jack and the wild card."""
    return frozenset(card for card, *_ in _categories(trump)) | {JOKER}
