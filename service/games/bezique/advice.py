"""Bezique for the computer player (docs/rules/bezique.md): what a seat knows of the unseen cards,
what it infers from the play, what a hand is worth to it, and the playouts' policy; the greedy
player is ``service.games.bezique.greedy``.

Points come only from declarations (and the optional brisques, last trick and exchange), and a
trick is worth winning for the declaration window it opens. The playouts play ``playout``, the
greedy player's rules of thumb built from the holding without the listing (a declaration window
lists up to 1,118 declarations)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from math import prod
from random import Random

from service.cards import CARDS, JOKER, Card
from service.games.advice import EXPLORE, NOTHING_KNOWN, Advice, Known, unseen_dealt_again
from service.games.base import accepts, evolve
from service.games.bezique import declarations as decl
from service.games.bezique.declarations import IDENTITIES
from service.games.bezique.greedy import (
    READY,
    WILD,
    Holding,
    Odds,
    best_in_trick,
    best_play,
    greedy,
    identity,
    promised_cards,
    ranked,
)
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
    end, each player's points so far plus the promise of its holding (``promise``: the greedy
    player's, and the trump quints'): the declarations it is likely to make yet, by ``kept`` of
    their worth."""
    active = state.active
    if seat not in active:
        return 0.0
    if state.finished:
        scores = [float(s) for s in result(state).scores]
    else:
        odds = Odds.of(state)
        share = kept(odds.draws)
        scores = [state.scores[s] + share * promise(state, s, odds) for s in range(state.seats)]
    others = [scores[s] for s in active if s != seat]
    return scores[seat] - sum(others) / len(others)


def promise(state: State, seat: int, odds: Odds) -> float:
    """What the seat's holding is likely to declare yet: the greedy player's promise and the
    quints'."""
    return Holding.of(state, seat).promise(odds) + quint_promise(state, seat, odds)


def quint_promise(state: State, seat: int, odds: Odds) -> float:
    """The trump quints the seat's holding is likely to declare yet, up their ladder (§7.1): each
    set it holds, and the next one by the chance of drawing what it lacks. The greedy player's
    promise leaves them out (it weighs the cards a quint takes as trump fours), but a quint is the
    second source of points after the beziques, and a playout's horizon must see one in hand."""
    royal = decl.KINDS_OF_FAMILY["royal"]
    concealed = Counter(state.hands[seat])
    free = concealed + Counter(e.as_ for e in state.exposed[seat] if not e.tags & royal)
    groups = [ids for ids, _ in decl.rules_for(state.trump_suit)["trump_quint"].groups]
    counts = [sum(free[card] for card in ids) for ids in groups]
    sets = min(counts)
    rung = state.decl_counts[seat][decl.LADDERED.index("trump_quint")]
    chance = 1.0
    for ids, count in zip(groups, counts, strict=True):
        if count == sets:
            chance *= 1.0 - prod(1.0 - odds.at_least(card, concealed[card], 1) for card in ids)
    return READY * (sum(50 << (rung + k) for k in range(sets)) + (50 << (rung + sets)) * chance)


KEPT_AT_END, KEPT_PER_DRAW = 0.4, 0.055
"""``kept``'s line, fitted to hands the playout policy played out at two seats and at four (600
and 400 hands, a position every six moves): the least-squares weight of the promise in the
points the hand's end brings, as a line in the draws left."""


def kept(draws: int) -> float:
    """The share of its promise a holding makes good with ``draws`` draws left: all of it while
    there is time, and less near the hand's end, where a seat wins too few tricks to declare
    everything it holds ready (one declaration a trick won, §4.3.2; nothing held counts once the
    stock runs out, §5.3). Never above 1: a declaration made now must not be worth less than
    one held (the fit gives more early on, where a strong holding goes on to draw more)."""
    return min(1.0, KEPT_AT_END + KEPT_PER_DRAW * draws)


# --- the playouts' policy ----------------------------------------------------------------------

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
    promising = promised_cards(state.trump_suit)
    exposed = sorted(state.exposed[seat], key=lambda e: e.as_ in promising)
    kinds = [(_points_once(state, seat, kind), kind, rule, groups)
             for kind, rule, groups in _kinds(state.trump_suit)
             if hand[JOKER] or not rule.identities.isdisjoint(hand)]  # a card from the hand, §4.3.6
    kinds.sort(key=lambda k: -k[0])
    tables: dict[str, tuple[tuple[Exposed, ...], dict[Card, int]]] = {"": ((), dict(hand))}
    for points, kind, rule, groups in kinds:
        if not points:
            break
        family = "" if rule.extra else rule.family
        if family not in tables:
            tagged = decl.KINDS_OF_FAMILY[family]
            free = tuple(e for e in exposed if not e.tags & tagged)
            tables[family] = free, dict(hand + Counter(e.as_ for e in free))
        table, held = tables[family]
        if not _enough(groups, held, hand[JOKER]):
            continue
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
    promising = promised_cards(trump)

    def ordered(ids: frozenset[Card]) -> tuple[Card, ...]:
        return tuple(sorted(ids, key=lambda c: (c in promising, decl.canonical_key(c))))

    return tuple((kind, rule, tuple((ordered(ids), n) for ids, n in rule.groups))
                 for kind, rule in decl.rules_for(trump).items())


def _enough(groups: Groups, held: dict[Card, int], wild: int) -> bool:
    """Whether the holding has the cards for one set of the kind (``held``: the concealed cards
    and the exposed ones free for the kind, by identity), ``wild`` wild cards filling what each
    group is short of: a cheap test before ``_filled``, which most kinds fail."""
    short = 0
    for ids, need in groups:
        short += max(0, need - sum(held.get(card, 0) for card in ids))
    return short <= wild


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
    promising = promised_cards(state.trump_suit)
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
    promising = promised_cards(trump)
    spare = [Play(seat, card) for card in sorted(set(state.hands[seat]) - promising, key=decl.canonical_key)]
    spare += [Play(seat, exposed_id=e.id) for e in state.exposed[seat] if e.as_ not in promising]
    if not spare:
        return best_play(state, seat, _plays(state, seat), Holding.of(state, seat), Odds.of(state))
    shown = {e.id: e for e in state.exposed[seat]}

    def cost(move: Play) -> tuple[bool, int]:
        played = identity(move, shown)
        return played.suit == trump, order[played.rank]

    if state.trick:
        best = best_in_trick(state, order)
        winners = [m for m in spare if beats(identity(m, shown), best, trump, order)]
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
                infer=infer, rank=ranked)
"""Four candidates, ranked: against greedy at 24 samples a move, two seats, `make strength` gave
62 % (56 % to 68 %) of the score over 300 hands (deals 0-149), where the others drawn at random had
58.5 % (51.3 % to 65.7 %): a gain inside the noise. Five ranked did no better (60 % on deals 0-49)."""
