"""Bezique for the computer player (docs/rules/bezique.md): what a seat knows of the unseen cards,
what a hand is worth to it, and the greedy player.

Points come only from declarations (and the optional brisques, last trick and exchange), and a
trick is worth winning for the declaration window it opens: the greedy player declares the best
it can, takes a trick with a card it can spare, and keeps the cards that make declarations. The
playouts play ``playout``, the same player's rules of thumb built from the holding without the
listing (a declaration window lists up to 1,118 declarations)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from math import exp
from random import Random

from service.cards import CARDS, JOKER, Card
from service.games.advice import NOTHING_KNOWN, Advice, Known, unseen_dealt_again
from service.games.base import accepts, evolve
from service.games.bezique import declarations as decl
from service.games.bezique.declarations import IDENTITIES
from service.games.bezique.play import beats
from service.games.bezique.rules import (
    Declare,
    ExchangeTrump,
    Exposed,
    Move,
    Options,
    Pass,
    Phase,
    Play,
    State,
    check,
    exposed_card,
    extra_count,
    full_deck,
    rank_order,
)
from service.games.bezique.scoring import result

# --- what the seat cannot see ------------------------------------------------------------------


def redeal(state: State, seat: int, rng: Random, known: Known = NOTHING_KNOWN) -> State:
    """The other seats' concealed hands, the face-down stock and every card won dealt again (§D13:
    nobody looks through the tricks, one's own included). The face-up trump card, the exposed
    cards (still part of their owner's holding, §D5) and the trick in progress stay put; a hand
    keeps what ``known`` holds there and gets none of what it lacks (``infer``)."""
    others = [s for s in state.active if s != seat]
    piles = [*(state.hands[s] for s in others), state.stock[:-1], *state.won_cards]
    dealt = unseen_dealt_again(rng, piles, held=[known.held.get(s, ()) for s in others],
                               lacking=[known.lacking.get(s, frozenset()) for s in others])
    hands = list(state.hands)
    for s, hand in zip(others, dealt[:len(others)], strict=True):
        hands[s] = hand
    stock = dealt[len(others)] + state.stock[-1:]
    won = tuple(dealt[len(others) + 1:])
    return evolve(state, hands=tuple(hands), stock=stock, won_cards=won)


def infer(history: Sequence[tuple[State, Move]], seat: int) -> Known:
    """What ``seat`` saw of the other hands: the face-up trump card a seat took by the exchange
    (§4.4), held until a copy of it is seen leaving that hand; and the cards of which every copy
    in the deck (§2.1) is seen elsewhere, which no other hand holds beyond a copy it is known to
    hold: in the seat's own hand, exposed (§D5), in the trick, turned up, or played to a trick won
    since the history began (§D13 keeps the tricks face down, but each card was seen played).
    Nothing shows a void: no rule ever obliges a player to follow suit, to trump or to cover, not
    even once the stock runs low (§4.2, §D4, §D11: the hand ends with the stock, and there is no
    playing out of the last cards), so a card of another suit tells nothing. Of each state it
    reads only the seat's own hand, the exposed cards, the trick and the face-up trump card; of
    each move what it shows."""
    if not history:
        return NOTHING_KNOWN
    held: dict[int, list[Card]] = {}
    won: Counter[Card] = Counter()
    for state, move in history[:-1]:
        _note_held(state, move, seat, held)
        if isinstance(move, Play) and len(state.trick) + 1 == len(state.active):
            won.update(p.card for p in state.trick)
            won[_card_of(state, move)] += 1
    state, move = history[-1]
    _note_held(state, move, seat, held)
    seen = won + _in_sight(state, move, seat)
    holding = Counter(c for cards in held.values() for c in cards)
    gone = frozenset(c for c, copies in _copies(state.options).items() if seen[c] + holding[c] >= copies)
    others = [s for s in state.active if s != seat]
    return Known(held={s: tuple(held[s]) for s in others if held.get(s)}, lacking=dict.fromkeys(others, gone))


def _note_held(state: State, move: Move, seat: int, held: dict[int, list[Card]]) -> None:
    """Another seat's move: the turned card it takes by the exchange joins what it is known to
    hold; a card seen leaving its hand (played, or shown in a declaration) leaves it, a copy for a
    copy."""
    if move.seat == seat:
        return
    cards = held.setdefault(move.seat, [])
    if isinstance(move, ExchangeTrump):
        cards.append(state.stock[-1])
    leaving = [move.card] if isinstance(move, Play) else [c for c, _ in move.from_hand] if isinstance(
        move, Declare) else []
    for card in leaving:
        if card in cards:
            cards.remove(card)


def _in_sight(state: State, move: Move, seat: int) -> Counter[Card]:
    """The cards in no other hand once ``move`` is made, as far as ``seat`` sees them: its own
    hand, every exposed card, the trick and the face-up trump card (unless the draw the move brings
    on takes it), and what the move shows (a card another seat plays or declares from its hand;
    the turned card it takes by the exchange leaves sight, the trump nine it gives comes into
    it)."""
    seen = Counter(state.hands[seat])
    seen.update(e.card for shown in state.exposed for e in shown)
    seen.update(p.card for p in state.trick)
    closing = isinstance(move, (Pass, Declare)) and len(state.stock) <= len(state.active)
    if state.stock and not closing:  # the last draw takes the turned card into a hand (§5.3)
        seen[state.stock[-1]] += 1
    if move.seat != seat:
        if isinstance(move, Play) and move.card is not None:
            seen[move.card] += 1
        elif isinstance(move, Declare):
            seen.update(c for c, _ in move.from_hand)
        elif isinstance(move, ExchangeTrump):
            seen[state.stock[-1]] -= 1
            seen[CARDS["9" + state.trump_suit]] += 1
    return seen


def _card_of(state: State, move: Play) -> Card:
    """The card a play puts in the trick: from the hand, or the exposed card it names."""
    if move.card is not None:
        return move.card
    shown = exposed_card(state, move.seat, move.exposed_id or 0)
    assert shown is not None  # the move was made
    return shown.card


@cache
def _copies(options: Options) -> Counter[Card]:
    """How many copies of each card the deck holds (§2.1)."""
    return Counter(full_deck(options))


# --- what a hand is worth ----------------------------------------------------------------------


def value(state: State, seat: int) -> float:
    """The seat's points this hand (§7.2, the hand score's units) less the mean of the other
    active players'; 0 for a dealer who sits the hand out (he plays no part in it). Before the
    end, each player's points so far plus the promise of its holding (``_Holding.promise``): the
    declarations it is likely to make yet."""
    active = state.active
    if seat not in active:
        return 0.0
    if state.finished:
        scores = [float(s) for s in result(state).scores]
    else:
        odds = _Odds.of(state)
        scores = [state.scores[s] + _Holding.of(state, s).promise(odds) for s in range(state.seats)]
    others = [scores[s] for s in active if s != seat]
    return scores[seat] - sum(others) / len(others)


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
    odds = _Odds.of(state)
    holding = _Holding.of(state, seat)
    if state.phase is Phase.DECLARE:
        return _best_declaration(state, seat, moves, holding, odds)
    plays = [m for m in moves if isinstance(m, Play)]
    if not plays:
        return moves[0]
    return _best_play(state, seat, plays, holding, odds)


def _best_play(state: State, seat: int, plays: list[Play], holding: _Holding, odds: _Odds) -> Play:
    """Take the trick with the cheapest card that covers if it can spare one, else play the
    cheapest card."""
    order = rank_order(state.options)
    trump = state.trump_suit
    shown = {e.id: e for e in state.exposed[seat]}
    cost = _play_cost(holding, odds, shown, trump, order)
    if state.trick:
        best = _best_in_trick(state, order)
        winners = [m for m in plays if beats(_identity(m, shown), best, trump, order)]
        if winners:
            cheapest = min(winners, key=cost)
            if cost(cheapest)[0] <= SPARE:
                return cheapest
    return min(plays, key=cost)


def _play_cost(holding: _Holding, odds: _Odds, shown: dict[int, Exposed], trump: str,
               order: dict[str, int]) -> Callable[[Play], tuple[float, bool, int]]:
    """What giving a card up costs: the holding's promise it takes, then its strength."""
    before = holding.promise(odds)
    losses: dict[object, float] = {}
    promising = _promising(trump)

    def cost(move: Play) -> tuple[float, bool, int]:
        # exposed cards alike in identity and tags cost alike
        key = move.card if move.card is not None else shown[move.exposed_id or 0][2:]
        if key not in losses and move.card is not None and move.card not in promising:
            losses[key] = 0.0  # the promise reads only trump honours, bezique jacks and wild cards
        elif key not in losses:
            losses[key] = before - holding.without(move, shown).promise(odds)
        played = _identity(move, shown)
        return losses[key], played.suit == trump, order[played.rank]
    return cost


SPARE = 5.0
"""The most promise a card may take with it and still be given up to take a trick."""


def _best_declaration(state: State, seat: int, moves: Sequence[Move], holding: _Holding,
                      odds: _Odds) -> Move:
    """The declaration worth most now and after (§7.1, and the promise it leaves: four plain
    queens for 6 would spoil four trump queens for 176); a pass if none is worth anything."""
    best: Move = next((m for m in moves if isinstance(m, Pass)), moves[0])
    before, best_worth = holding.promise(odds), 0.0
    for move in moves:
        if isinstance(move, Declare):
            worth = _gain(state, seat, move) + holding.declared(move).promise(odds) - before
            worth -= 0.1 * sum(c is JOKER for c, _ in move.from_hand)  # keep the wild cards free
            if worth > best_worth:
                best, best_worth = move, worth
    return best


def _gain(state: State, seat: int, move: Declare) -> float:
    """The points the declaration scores (§7.1), a laddered kind counted as a single one: the
    ladder moves one step a declaration whatever its multiplicity, so singles score more."""
    kind = move.declaration
    if kind in decl.LADDER_BASE:
        earlier = state.decl_counts[seat][decl.LADDERED.index(kind)]
        return decl.points(kind, earlier, 1) - (move.multiplicity - 1) * 0.5
    c = extra_count(state, seat, kind) + 1 if kind in decl.EXTRA_OF else 0
    return float(decl.points(kind, 0, move.multiplicity, c))


def _identity(move: Play, shown: dict[int, Exposed]) -> Card:
    """The identity the move plays: a wild card's nomination, an exposed card's ``as``."""
    if move.card is None:
        return shown[move.exposed_id or 0].as_
    return move.as_ or move.card


def _best_in_trick(state: State, order: dict[str, int]) -> Card:
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
class _Odds:
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
    def of(state: State) -> _Odds:
        a = len(state.active)
        shown = Counter(e.card for x in state.exposed for e in x)
        shown.update(p.card for p in state.trick)
        pool = len(state.stock) + sum(map(len, state.hands)) // a * (a - 1) + sum(map(len, state.won_cards))
        return _Odds(state.trump_suit, len(state.stock) // a, max(pool, 1), state.options.packs, shown)

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
class _Holding:
    """A seat's holding as the promise needs it: the concealed cards counted, the exposed ones
    as (identity, tags), and the ladder's rungs reached."""

    concealed: Counter[Card]
    exposed: tuple[tuple[Card, frozenset[str]], ...]
    ladder: tuple[int, ...]

    @staticmethod
    def of(state: State, seat: int) -> _Holding:
        return _Holding(Counter(state.hands[seat]), tuple((e.as_, e.tags) for e in state.exposed[seat]),
                        state.decl_counts[seat])

    def without(self, move: Play, shown: dict[int, Exposed]) -> _Holding:
        """The holding once the move's card is played."""
        if move.card is not None:
            return _Holding(self.concealed - Counter([move.card]), self.exposed, self.ladder)
        gone = shown[move.exposed_id or 0]
        rest = list(self.exposed)
        rest.remove((gone.as_, gone.tags))
        return _Holding(self.concealed, tuple(rest), self.ladder)

    def declared(self, move: Declare) -> _Holding:
        """The holding once the declaration is made (its cards shown and tagged; the table ids are
        matched by identity and tags, which is all the promise reads)."""
        kind, ladder = move.declaration, self.ladder
        if kind in decl.LADDER_BASE:
            at = decl.LADDERED.index(kind)
            ladder = (*ladder[:at], ladder[at] + 1, *ladder[at + 1:])
        shown = tuple((as_ or c, frozenset([kind])) for c, as_ in move.from_hand)
        return _Holding(self.concealed - Counter(c for c, _ in move.from_hand), self.exposed + shown, ladder)

    def promise(self, odds: _Odds) -> float:
        """The points the holding is likely to declare yet: the trump fours and four bezique jacks
        with their extras, the beziques and the trump quint, each by the chance of completing it
        from the draws left and of making it; the wild cards go where one adds most."""
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
    def _four(card: Card, free: int, counted: int, worth: int, extras: tuple[int, ...], odds: _Odds) -> float:
        if counted >= 4:  # the four is shown: each concealed copy is an extra (the next rung)
            return READY * sum(extras[(counted + k) % 4] for k in range(free))
        ready = worth + sum(extras[k % 4] for k in range(free - 4))
        return READY * ready * odds.at_least(card, free, 4 - free)

    def _bezique(self, queen: Card, jack: Card, shown: dict[Card, list[frozenset[str]]],
                 odds: _Odds) -> float:
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
def _promising(trump: str) -> frozenset[Card]:
    """The cards the promise reads: the trump honours, the bezique jack and the wild card."""
    return frozenset(card for card, *_ in _categories(trump)) | {JOKER}


# --- the playouts' policy ----------------------------------------------------------------------

EXPLORE = 0.1
"""The share of playout moves drawn at random (a card, or a declaration or pass), as in
``service.player``."""


def playout(state: State, seat: int, rng: Random) -> Move:
    """``greedy``'s move built from the holding rather than chosen from the listing (a window
    lists up to 1,118 declarations, and ``greedy`` weighs the promise each of them and each card
    given up leaves: a playout spent most of its time there); one move in ``EXPLORE`` a card of
    the hand or the table, or a declaration or pass, drawn at random. Where it differs from
    ``greedy``, to stay cheap: it declares the single declaration (multiplicity 1) of most points
    (``_declarations``), a wild card counted at the least it is worth kept (``WILD``) rather than
    by the promise; and it gives up a card the promise reads (a trump honour, a bezique jack, a
    wild card) only when it holds nothing else, where ``greedy`` spares one that promises little
    (up to ``SPARE``) to take a trick: then ``greedy`` chooses among the plays. On positions of
    random hands it makes ``greedy``'s move (the same card identity, declaration kind) 85 % of the
    time, and a playout of nine moves costs 0.7 ms instead of 4 (some 30 samples in 100 ms, from
    6-10)."""
    explore = rng.random() < EXPLORE
    if state.phase in (Phase.LEAD, Phase.DECLARE) and accepts(check, state, ExchangeTrump(seat)):
        return ExchangeTrump(seat)  # §4.4
    if state.phase is Phase.DECLARE:
        return _declared(state, seat, rng, explore=explore)
    if explore:
        return rng.choice(_plays(state, seat))
    return _played(state, seat)


def _declared(state: State, seat: int, rng: Random, *, explore: bool) -> Move:
    """The declaration worth most, its points less ``WILD`` for each wild card it shows; a pass
    when none is worth anything (or none may be made, §4.3.3). The kinds are tried from the most
    points down, and only while one may still beat the best found."""
    spaced = state.options.declaration_spacing == "not_consecutive"
    if spaced and state.last_declared_after_trick[seat] == state.tricks_played - 1:
        return Pass(seat)
    found: list[tuple[float, Move]] = [(0.0, Pass(seat))]
    best = 0.0
    for points, move in _declarations(state, seat):
        if points <= best and not explore:
            break
        worth = points - WILD * _wild_cards(move)
        if worth > 0 and accepts(check, state, move):
            found.append((worth, move))
            best = max(best, worth)
    if explore:
        return rng.choice(found)[1]
    return max(found, key=lambda f: f[0])[1]


def _declarations(state: State, seat: int) -> Iterator[tuple[int, Declare]]:
    """One declaration of each kind the holding makes once (§4.5), if any, with its points
    (§7.1), from the most points down: each group filled from the exposed cards that have not
    scored in the kind's family (§4.3.7), then from the hand, then with wild cards; failing a card
    from the hand (§4.3.6), from the hand first. Four plain cards are made of the cards the promise
    does not read, or not at all: four queens for 6 would spoil four trump queens for 176."""
    hand = Counter(state.hands[seat])
    promising = _promising(state.trump_suit)
    exposed = sorted(state.exposed[seat], key=lambda e: e.as_ in promising)
    kinds = [(_points_once(state, seat, kind), kind, rule, groups)
             for kind, rule, groups in _kinds(state.trump_suit)
             if hand[JOKER] or not rule.identities.isdisjoint(hand)]  # a card from the hand, §4.3.6
    kinds.sort(key=lambda k: -k[0])
    for points, kind, rule, groups in kinds:
        if not points:
            break
        family = decl.KINDS_OF_FAMILY[rule.family]
        table = () if rule.extra else tuple(e for e in exposed if not e.tags & family)
        made = (_filled(seat, kind, groups, hand, table, table_first=True)
                or _filled(seat, kind, groups, hand, table, table_first=False))
        if made is not None and not (kind in decl.PLAIN_FOURS and _spoils(state, made)):
            yield points, made


def _points_once(state: State, seat: int, kind: str) -> int:
    """What a single declaration of the kind scores now (§7.1); 0 for an extra without four of
    its category shown (§4.5 e)."""
    if kind in decl.LADDER_BASE:
        return decl.points(kind, state.decl_counts[seat][decl.LADDERED.index(kind)], 1)
    if kind in decl.EXTRA_OF:
        shown = extra_count(state, seat, kind)
        return decl.points(kind, 0, 1, shown + 1) if shown >= 4 else 0
    return decl.FOUR_VALUES[kind]


Groups = tuple[tuple[tuple[Card, ...], int], ...]
"""A kind's groups (§4.5): the identities each takes, in the order ``_filled`` takes them, and how
many cards of them one set takes."""


@cache
def _kinds(trump: str) -> tuple[tuple[str, decl.KindRule, Groups], ...]:
    """Each kind with its groups, the identities the promise does not read first (then in the
    canonical order)."""
    promising = _promising(trump)

    def ordered(ids: frozenset[Card]) -> tuple[Card, ...]:
        return tuple(sorted(ids, key=lambda c: (c in promising, decl.canonical_key(c))))

    return tuple((kind, rule, tuple((ordered(ids), n) for ids, n in rule.groups))
                 for kind, rule in decl.rules_for(trump).items())


def _filled(seat: int, kind: str, groups: Groups, hand: Counter[Card], table: Sequence[Exposed], *,
            table_first: bool) -> Declare | None:
    """A declaration of one set of the kind (§4.5), its groups filled as ``_declarations`` says;
    None when the holding has too few cards, or none of them from the hand. (A kind's groups share
    no identity, so a card is never counted for two.)"""
    wild = hand[JOKER]
    from_hand: list[decl.HandEntry] = []
    from_table: list[int] = []
    for ids, need in groups:
        shown = [e.id for e in table if e.as_ in ids][:need] if table else []
        if table_first:
            from_table += shown
            need -= len(shown)
        for card in ids:
            take = min(need, hand[card])
            from_hand += [(card, None)] * take
            need -= take
        if not table_first:
            shown = shown[:need]
            from_table += shown
            need -= len(shown)
        if need > wild:
            return None
        from_hand += [(JOKER, ids[0])] * need
        wild -= need
    if not from_hand:
        return None
    return Declare(seat, kind, 1, tuple(from_hand), tuple(from_table))


def _spoils(state: State, move: Declare) -> bool:
    """Whether a plain four takes a card the promise reads (a trump honour, the bezique jack):
    the family it scores in is then closed to that card's trump four (§4.3.7)."""
    promising = _promising(state.trump_suit)
    shown = {e.id: e.as_ for e in state.exposed[move.seat]}
    return any((as_ or card) in promising for card, as_ in move.from_hand) or any(
        shown[i] in promising for i in move.from_table)


def _wild_cards(move: Declare) -> int:
    return sum(1 for card, _ in move.from_hand if card is JOKER)


def _played(state: State, seat: int) -> Play:
    """``greedy``'s card among those the promise does not read: the cheapest that takes the
    trick (§5.1), else the cheapest, a trump after any plain card; with only cards the promise
    reads, ``greedy``'s own choice among them."""
    trump, order = state.trump_suit, rank_order(state.options)
    promising = _promising(trump)
    spare = [Play(seat, card) for card in sorted(set(state.hands[seat]) - promising, key=decl.canonical_key)]
    spare += [Play(seat, exposed_id=e.id) for e in state.exposed[seat] if e.as_ not in promising]
    if not spare:
        return _best_play(state, seat, _plays(state, seat), _Holding.of(state, seat), _Odds.of(state))
    shown = {e.id: e for e in state.exposed[seat]}

    def cost(move: Play) -> tuple[bool, int]:
        played = _identity(move, shown)
        return played.suit == trump, order[played.rank]

    if state.trick:
        best = _best_in_trick(state, order)
        winners = [m for m in spare if beats(_identity(m, shown), best, trump, order)]
        if winners:
            return min(winners, key=cost)
    return min(spare, key=cost)


def _plays(state: State, seat: int) -> list[Play]:
    """Every card the seat may play (§4.2): each distinct card of the hand, a wild card as each
    identity, each exposed card."""
    hand = state.hands[seat]
    plays = [Play(seat, card) for card in sorted(set(hand) - {JOKER}, key=decl.canonical_key)]
    if JOKER in hand:
        plays += [Play(seat, JOKER, as_) for as_ in IDENTITIES]
    return plays + [Play(seat, exposed_id=e.id) for e in state.exposed[seat]]


ADVICE = Advice(redeal=redeal, value=value, greedy=greedy, horizon=9, shortlist=4, playout=playout,
                infer=infer)
