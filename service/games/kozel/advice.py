"""Kozel for the computer player (docs/rules/kozel.md): what a seat knows of the cards it cannot
see, what a hand is worth to its team, and the greedy player."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from service.cards import Card
from service.games.advice import NOTHING_KNOWN, Advice, Known, unseen_dealt_again
from service.games.base import evolve
from service.games.kozel import endgame
from service.games.kozel.rules import (
    DECK,
    JACK_OF_CLUBS,
    PERMANENT,
    POINTS,
    SUIT_ORDER,
    GiveBack,
    GiveTrump,
    Move,
    NameTrump,
    Phase,
    Play,
    State,
    effective_suit,
    is_trump,
    partner,
    team_of,
    trick_winner,
    trump_strength,
)
from service.games.kozel.scoring import result
from service.games.tricks.sets_endgame import deals

PAIRS_PER_POINT = 1 / 30
"""An unfinished hand's card-point lead in pairs: a 90-30 hand opens about two pairs (§7.1)."""
HORIZON = 16
"""Moves a playout plays (four tricks): the legality checks make a move cost some 0.1 ms, and a
sample plays out up to eight candidates."""
CAPTURE_PAIRS = 4
"""§7.1: the pairs the team whose queen of clubs falls to the seven of clubs opens (times m)."""


# --- the deal again ------------------------------------------------------------------------------


def redeal(state: State, seat: int, rng: Random, known: Known = NOTHING_KNOWN) -> State:
    """Every card ``seat`` cannot see (the other hands, the undealt cards of the three-card
    method) dealt again into the same places, but for the cards whose place it knows: the turned
    cards (§3, shown to all; one leaves the trump player's hand only as its lone trump, §3.5),
    the jack of clubs of the seat that named trump by it (§3.4), and a lone trump passed within
    its own team and not yet answered. What the exchange shows everyone is kept too: the seat
    visited holds one trump, a giver holds none once it has given (§3.5)."""
    placed = _known(state, seat)
    others = [s for s in range(len(state.hands)) if s != seat]
    piles = [[c for c in state.hands[s] if c not in placed] for s in others]
    *dealt, undealt = unseen_dealt_again(rng, [*piles, state.undealt],
                                         held=[known.held.get(s, ()) for s in others],
                                         lacking=[known.lacking.get(s, frozenset()) for s in others])
    fresh = {s: list(cards) for s, cards in zip(others, dealt, strict=True)}
    for holder, bounds in _exchange_shown(state, seat):
        kept = sum(is_trump(c, state.trump or "") for c in state.hands[holder] if c in placed)
        _hold_trumps(fresh, holder, (bounds[0] - kept, bounds[1] - kept), state.trump or "", rng)
    hands = list(state.hands)
    for s in others:  # the known cards after the new ones, in an order of their own
        hands[s] = (*fresh[s], *sorted((c for c in state.hands[s] if c in placed), key=_code))
    return _received_again(evolve(state, hands=tuple(hands), undealt=undealt), seat)


def _code(card: Card) -> str:
    return card.code


def _known(state: State, seat: int) -> set[Card]:
    """The cards in the other hands whose place ``seat`` knows."""
    known = set(state.turned)
    if state.options.jack_of_clubs_first_deal and state.first_deal:
        known.add(JACK_OF_CLUBS)
    if state.received_trump is not None and _in_exchange_team(state, seat):
        known.add(state.received_trump)
    return known


def _in_exchange_team(state: State, seat: int) -> bool:
    return state.to_move is not None and team_of(state.to_move) == team_of(seat)


def _exchange_shown(state: State, seat: int) -> list[tuple[int, tuple[int, int]]]:
    """What the exchange shows everyone of the other hands, as (seat, least and most trumps it
    holds): the seat visited holds exactly one; a seat that has just given its lone trump holds
    none, and its partner at least the one received."""
    mover = state.to_move
    if state.phase != Phase.EXCHANGE or mover is None:
        return []
    if state.received_trump is None:
        shown = [(mover, (1, 1))]
    else:
        shown = [(partner(mover), (0, 0)), (mover, (1, len(state.hands[mover])))]
    return [(holder, bounds) for holder, bounds in shown if holder != seat]


def _hold_trumps(fresh: dict[int, list[Card]], holder: int, bounds: tuple[int, int], trump: str,
                 rng: Random) -> None:
    """Swap ``holder``'s new cards with the other new hands' until it has between ``bounds``
    trumps among them: a trump out for a plain card while too many, a plain card out for a trump
    while too few. The true deal fits, so a swap is always there to make."""
    mine = fresh[holder]
    while (count := sum(is_trump(c, trump) for c in mine)) < bounds[0] or count > bounds[1]:
        out_trump = count > bounds[1]
        outs = [i for i, c in enumerate(mine) if is_trump(c, trump) == out_trump]
        swaps = [(s, i) for s in fresh if s != holder for i, c in enumerate(fresh[s])
                 if is_trump(c, trump) != out_trump]
        if not outs or not swaps:
            return  # a state sent that no play leads to: the deal stays as it came
        out = rng.choice(outs)
        other, at = rng.choice(swaps)
        mine[out], fresh[other][at] = fresh[other][at], mine[out]


def _received_again(state: State, seat: int) -> State:
    """A lone trump in transit that ``seat`` did not see: one of the taker's new trumps."""
    if state.received_trump is None or _in_exchange_team(state, seat) or state.to_move is None:
        return state
    taker = state.hands[state.to_move]
    received = next((c for c in taker if is_trump(c, state.trump or "")), state.received_trump)
    return evolve(state, received_trump=received)


# --- what a seat learns from the play ----------------------------------------------------------


def infer(history: Sequence[tuple[State, Move]], seat: int) -> Known:
    """What ``seat`` saw that the state does not keep: the cards it passed face down to its
    partner in the lone-trump exchange (§3.5: its lone trump, or the card it gave back), held by
    the partner until played; and the voids the follow rules show (§4.1: follow the effective
    suit led, else trump if able): a card of another effective suit shows none of the suit led,
    and one that is no trump shows no trump either. Every card is dealt before the play and none
    is drawn after (§3), so a void stays one to the end of the hand. Of each state it reads only
    the trump, the trick on the table and the cards played to it, and ``seat``'s own gifts."""
    if not history:
        return NOTHING_KNOWN
    given: list[Card] = []
    lacking: dict[int, set[Card]] = {}
    for state, move in history:
        if isinstance(move, GiveTrump | GiveBack) and move.seat == seat:
            given.append(move.card)
        elif isinstance(move, Play) and move.seat != seat and state.trick:
            lacking.setdefault(move.seat, set()).update(_shown_void(state, move.card))
    mate = partner(seat)
    return Known(held={mate: tuple(given)} if given else {},
                 lacking={s: frozenset(cards) for s, cards in lacking.items() if cards})


def _shown_void(state: State, card: Card) -> list[Card]:
    """The cards a follower shows it lacks by playing ``card`` to ``state``'s trick (§4.1)."""
    trump = state.trump or ""
    led = effective_suit(state.trick[0][1], trump)
    if effective_suit(card, trump) == led:
        return []
    void = [c for c in DECK if effective_suit(c, trump) == led]
    if not is_trump(card, trump):
        void += [c for c in DECK if is_trump(c, trump)]
    return void


# --- the value of a hand -------------------------------------------------------------------------


def value(state: State, seat: int) -> float:
    """Pairs of pips (§7.1, at multiplier 1) the other team opens minus those ``seat``'s team
    opens: exact once the hand is over; before, the card-point lead in pairs, and a queen of
    clubs already captured counted as the hand's outcome."""
    ours = team_of(seat)
    if state.finished:
        pairs = result(state, 1).pairs
        return float(pairs[1 - ours] - pairs[ours])
    estimate = (state.points(ours) - state.points(1 - ours)) * PAIRS_PER_POINT
    captured = state.qc_captured_team
    if captured is None:
        return estimate
    penalty = float(CAPTURE_PAIRS if captured != ours else -CAPTURE_PAIRS)
    return penalty if state.options.queen_capture == "replace" else estimate + penalty


# --- the greedy player ---------------------------------------------------------------------------


def greedy(state: State, seat: int, moves: Sequence[Move]) -> Move:
    """Name the suit it holds most of; give a lone trump to the partner, and give back its
    cheapest plain card; lead a plain ace, else its cheapest card; follow by taking the trick
    with the cheapest card that takes it unless the partner holds it already, else throw the
    cheapest card."""
    first = moves[0]
    if isinstance(first, NameTrump):
        return _naming(state, seat, moves)
    gives = [m for m in moves if isinstance(m, GiveTrump)]
    if gives:  # the partner's trumps count for the team as much as its own, and it gets a card back
        return gives[0]
    trump = state.trump or ""
    cards = {m.card: m for m in moves if isinstance(m, GiveBack | Play)}
    if isinstance(first, GiveBack):  # the taker, now the team's trump hand, keeps its winners
        return cards[_cheapest(list(cards), trump)]
    if not state.trick:
        return cards[_lead(list(cards), trump)]
    return cards[_follow(state, seat, list(cards), trump)]


def _naming(state: State, seat: int, moves: Sequence[Move]) -> Move:
    """The suit of which it holds the most cards that are not permanent trumps (the most points
    between equals): naming it makes them trumps; holding none such (three cards), by the last."""
    plain = [c for c in state.hands[seat] if c not in PERMANENT]
    namings = [m for m in moves if isinstance(m, NameTrump)]
    if not plain:
        return next((m for m in namings if m.by_last), namings[0])
    suits = sorted({c.suit for c in plain if c.suit})
    best = max(suits, key=lambda suit: (sum(c.suit == suit for c in plain),
                                        sum(POINTS[c] for c in plain if c.suit == suit)))
    return next(m for m in namings if m.suit == best)


def _lead(cards: list[Card], trump: str) -> Card:
    """A plain ace wins unless trumped; anything else led mostly hands the trick over cheaply."""
    aces = [c for c in cards if c.rank == "A" and not is_trump(c, trump)]
    return aces[0] if aces else _cheapest(cards, trump)


def _follow(state: State, seat: int, cards: list[Card], trump: str) -> Card:
    """Let the partner's trick be; take the opponents' with the least card that does it."""
    if team_of(trick_winner(state.trick, trump)) == team_of(seat):
        return _cheapest(cards, trump)
    winners = [c for c in cards if trick_winner((*state.trick, (seat, c)), trump) == seat]
    return min(winners, key=lambda c: _power(c, trump)) if winners else _cheapest(cards, trump)


def _cheapest(cards: list[Card], trump: str) -> Card:
    """The card least worth keeping: a plain card before a trump, few points before many."""
    return min(cards, key=lambda c: (is_trump(c, trump), POINTS[c], _power(c, trump)))


def _power(card: Card, trump: str) -> tuple[bool, int]:
    """How hard the card is to beat: any trump beats any plain card."""
    if is_trump(card, trump):
        return True, trump_strength(card, trump)
    return False, len(SUIT_ORDER) - SUIT_ORDER.index(card.rank)


def side(state: State, seat: int) -> int:
    """The team: partners sit opposite (§2)."""
    return team_of(seat)


# --- the last tricks, exactly --------------------------------------------------------------------

MOST_CARDS = 2
"""The most cards in a hand for which ``worlds`` lists the deals. Measured (bench/endgame.py,
this machine, the seat on lead knowing what ``infer`` finds): at two cards a hand 30 worlds on
average (90 at most), 0.4 ms each (0.7 at p95), some 12 ms in all (the player at 50 ms answers
exactly in 9 of 10 such positions on a busy machine, all at 100 ms); at three, 89 on average of
those within 200 (half the positions have more: 1,680 at most), 4 ms each (6 at p95), some
360 ms in all, past any budget: the player would give up after the first world, its time lost."""


def worlds(state: State, seat: int, most: int, known: Known = NOTHING_KNOWN) -> list[State] | None:
    """In the play, from ``MOST_CARDS`` cards a hand down (no card is drawn in Kozel: every hand
    is dealt in full, §3), every deal of the other hands ``seat`` cannot tell from this one: the
    cards whose place it knows kept there (as ``redeal`` does), the rest any deal of their pool
    that keeps to ``known`` (the partner's gifts, the voids shown), listed in a canonical order of
    the pool (``sets_endgame.deals``); None past ``most``."""
    if state.phase is not Phase.PLAY or max(map(len, state.hands)) > MOST_CARDS:
        return None
    placed = _known(state, seat)
    others = [s for s in range(len(state.hands)) if s != seat]
    piles = [[c for c in state.hands[s] if c not in placed] for s in others]
    found = deals([c for pile in piles for c in pile], [len(pile) for pile in piles], most=most,
                  held=[known.held.get(s, ()) for s in others],
                  lacking=[known.lacking.get(s, frozenset()) for s in others])
    if found is None:
        return None
    every = []
    for dealt in found:
        hands = list(state.hands)
        for s, cards in zip(others, dealt, strict=True):
            hands[s] = (*cards, *sorted((c for c in state.hands[s] if c in placed), key=_code))
        every.append(evolve(state, hands=tuple(hands)))
    return every


def solve(state: State, seat: int, deadline: float) -> dict[Move, float] | None:
    """``Advice.solve``: the alpha-beta of the two teams (``endgame``), in ``value``'s pairs;
    None past ``MOST_CARDS`` cards a hand, where no world is listed (eight cards a hand take
    the solver most of a minute)."""
    if max(map(len, state.hands)) > MOST_CARDS:
        return None
    return endgame.solve(state, seat, deadline, value=value)


ADVICE = Advice(redeal=redeal, value=value, greedy=greedy, horizon=HORIZON, side=side, infer=infer,
                worlds=worlds, solve=solve)
