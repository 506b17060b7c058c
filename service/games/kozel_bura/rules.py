"""Kozel-bura: docs/rules/kozel-bura.md. Tricks come from the Bura-family engine (``tricks.sets``);
this module adds the four-card hands, the automatic bura (four trumps or four aces), the
played-out count, and the penalty-point match."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from service.cards import Card, DeckSource, deck
from service.games import base
from service.games.base import Event, evolve, option, refuse
from service.games.seating import clockwise, left_of
from service.games.tricks import sets
from service.games.tricks.sets import Ending, Phase, State, TrickMove, Variant

HAND_SIZE = 4
DECKS: dict[int, tuple[Card, ...]] = {
    36: deck(("6", "7", "8", "9", "10", "J", "Q", "K", "A")),
    32: deck(("7", "8", "9", "10", "J", "Q", "K", "A")),
}
CLAIM_POINTS = 31  # §7.2: a loser with 31 or more pays the smallest penalty


class Reason(base.Reason):
    HAND_FINISHED = "hand_finished", "§4.2 no move once the hand is over"
    WRONG_PHASE = "wrong_phase", "§4.2 the move does not fit the moment (lead or answer)"
    NOT_YOUR_TURN = "not_your_turn", "§4.2 only the seat to act may move (molodka excepted)"
    CARD_NOT_IN_HAND = "card_not_in_hand", "§4.2 cards must be in the hand, each once"
    BAD_CARD_COUNT = (
        "bad_card_count", "§4.2a a lead is one card, or three with triple_lead; answer as many")
    LEAD_MIXED_SUITS = "lead_mixed_suits", "§4.2a three cards led are of one suit"
    DOES_NOT_BEAT = "does_not_beat", "§5.1 to beat, the cards must beat the winning set one for one"
    OPTION_DISABLED = "option_disabled", "§8 a molodka needs triple_lead"
    NOT_A_MOLODKA = "not_a_molodka", "§4.2b a molodka is three cards of one suit"


@dataclass(frozen=True, slots=True)
class Options:
    """§8; every option may be omitted and takes its default."""

    players: int = option(2, "The number of players at the table, as the deal sets it.", within=(2, 5))
    deck: int = option(36, "The pack the hand is dealt from.", choices={
        36: "36 cards, sixes included.",
        32: "32 cards, without the sixes.",
    })
    triple_lead: bool = option(
        False, "By agreement: three cards of one suit may be led, and a molodka may be led out of turn.")
    egg_compounding: bool = option(
        False, "Eggs, ties for the most points, keep doubling the next hand when they come in a row: "
               "2, 4, 8 and so on.")
    penalty_limit: int = option(
        12, "The penalty points that lose the match: whoever reaches them is the goat.", within=(1, 10_000))


@lru_cache(maxsize=256)  # bounded: options come from clients, and may take many values
def variant(options: Options) -> Variant:
    return Variant(reasons=Reason, hand_size=HAND_SIZE, lead_sizes=(1, 3) if options.triple_lead else (1,),
                   molodka=options.triple_lead, molodka_of_trumps=True, face_down_discards=False)


Move = TrickMove


def has_bura(state: State, hand: tuple[Card, ...]) -> bool:
    """§6.1: exactly four cards, all trumps or all four aces."""
    return len(hand) == HAND_SIZE and (
        all(c.suit == state.trump for c in hand) or all(c.rank == "A" for c in hand))


def _bura_check(state: State, first: int) -> State:
    """§6.1: seats examined clockwise from ``first``; the first with a bura wins at once."""
    for seat in clockwise(first, state.seats):
        if has_bura(state, state.hands[seat]):
            return evolve(state, phase=Phase.OVER, to_move=None, ending=Ending("bura", seat))
    return state


def deal(match: Match, *, players: int, dealer: int, options: Options, source: DeckSource) -> State:
    """§3. The match leaves the deal alone: its multiplier (§7.2) weighs the penalties at the score."""
    return deal_from(source.order(DECKS[options.deck]), players=players, dealer=dealer, options=options)


def deal_from(cards: tuple[Card, ...], *, players: int, dealer: int, options: Options) -> State:
    state = sets.deal(cards, seats=players, dealer=dealer, hand_size=HAND_SIZE, options=options)
    return _bura_check(state, state.leader)


def check(state: State, move: Move) -> None:
    if state.phase == Phase.OVER:
        refuse(Reason.HAND_FINISHED, "The hand is over")
    sets.check_trick_move(state, variant(state.options), move)


def candidate_moves(state: State, seat: int) -> list[Move]:
    return list(sets.candidate_trick_moves(state, variant(state.options), seat))


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    stock_before = len(state.stock)
    state, events, taker = sets.apply_trick_move(state, variant(state.options), move)
    if taker is None:
        return state, events
    if len(state.stock) < stock_before:
        state = _bura_check(state, taker)
    if state.ending is None and state.to_move is None:
        state = evolve(state, phase=Phase.OVER, ending=Ending("played_out"))
    if state.ending is not None:
        events.append(Event("hand_over", result(state).winner))
    return state, events


# --- scoring (§7) ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandResult:
    reason: str
    """``bura``, ``played_out`` (one seat has the most points) or ``eggs`` (a tie for the most)."""
    winner: int | None
    points: tuple[int, ...]
    """The card points each seat took."""


def result(state: State) -> HandResult:
    ending, points = state.ending, state.card_points
    if ending is not None and ending.kind == "bura":
        return HandResult("bura", ending.seat, points)
    best = [s for s, p in enumerate(points) if p == max(points)]
    return HandResult("played_out", best[0], points) if len(best) == 1 else HandResult("eggs", None, points)


def penalties(state: State, multiplier: int) -> tuple[int, ...]:
    """§7.2: 2, 4 or 6 times the multiplier for each loser; nothing after eggs."""
    outcome = result(state)

    def penalty(seat: int) -> int:
        if outcome.winner is None or seat == outcome.winner:
            return 0
        if outcome.reason == "bura" or not state.won[seat]:
            return 6 * multiplier
        return (2 if state.points(seat) >= CLAIM_POINTS else 4) * multiplier

    return tuple(penalty(s) for s in range(state.seats))


@dataclass(frozen=True, slots=True)
class Match:
    totals: tuple[int, ...]
    """The penalty points of each seat."""
    multiplier: int
    over: bool
    losers: tuple[int, ...] | None
    """The goats: the seats at or past the penalty limit."""
    winner: tuple[int, ...] | None
    """Every other seat, once the match is over."""
    next_dealer: int


def new_match(*, seats: int, dealer: int) -> Match:
    return Match((0,) * seats, 1, False, None, None, dealer)


def match_after(match: Match, state: State) -> Match:
    """§7.2: penalties add up; eggs double the next hand; a seat at the limit ends the match."""
    totals = tuple(a + b for a, b in zip(match.totals, penalties(state, match.multiplier), strict=True))
    eggs = result(state).reason == "eggs"
    multiplier = (2 * match.multiplier if state.options.egg_compounding else 2) if eggs else 1
    losers = tuple(s for s, p in enumerate(totals) if p >= state.options.penalty_limit)
    winner = tuple(s for s in range(state.seats) if s not in losers) if losers else None
    return Match(totals, multiplier, bool(losers), losers or None, winner, left_of(state.dealer, state.seats))
