"""Bura: docs/rules/bura.md. Tricks come from the family engine (``tricks.sets``); this module
adds the claim of 31, the bura and Moscow declarations, the final claim round, the hand result and
the match."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from service.cards import Card, DeckSource, deck
from service.games import base
from service.games.base import Event, evolve, option, refuse
from service.games.seating import left_of
from service.games.tricks import sets
from service.games.tricks.sets import Ending, Lead, Molodka, Phase, Respond, State, Variant
from service.i18n.text import Seat

DECK: tuple[Card, ...] = deck(("6", "7", "8", "9", "10", "J", "Q", "K", "A"))
HAND_SIZE = 3


class Reason(base.Reason):
    HAND_FINISHED = "hand_finished", "§4.2 no move once the hand is over"
    WRONG_PHASE = (
        "wrong_phase", "§4.2 the move does not fit the moment (lead, answer, or final claims)")
    NOT_YOUR_TURN = "not_your_turn", "§4.2 only the seat to act may move (molodka excepted)"
    CARD_NOT_IN_HAND = "card_not_in_hand", "§4.2 cards must be in the hand, each once"
    BAD_CARD_COUNT = (
        "bad_card_count", "§4.2 a lead is 1-3 cards; an answer as many as led (fewer only if short)")
    LEAD_MIXED_SUITS = "lead_mixed_suits", "§4.2a the cards led are of one suit"
    DOES_NOT_BEAT = "does_not_beat", "§5.2 to beat, the cards must beat the winning set one for one"
    OPTION_DISABLED = "option_disabled", "§8 the move needs an option that is off"
    NOT_A_MOLODKA = "not_a_molodka", "§4.2b a molodka is three cards of one non-trump suit"
    NO_COMBINATION = "no_combination", "§4.2e the hand does not form the combination"


@dataclass(frozen=True, slots=True)
class Options:
    """§8; every option may be omitted and takes its default."""

    players: int = option(2, "The number of players at the table, as the deal sets it.", within=(2, 6))
    winning_points: int = option(31, "The points in a player's tricks that make a claim right.",
                                 within=(1, 120))
    open_play: bool = option(False, "Open Bura: every card is played face up, throw-offs too.")
    molodka_out_of_turn: bool = option(
        True, "A molodka, three cards of one suit other than trumps, may be led out of turn.")
    moscow: bool = option(True, "A Moscow, three aces, may be shown to win the hand.")
    moscow_requires_trump_ace: bool = option(
        True, "A Moscow must include the ace of trumps; when this is off, any three aces will do.")
    void_carry: bool = option(True, "A hand that nobody wins adds its value to the next hand.")
    target_games: int = option(11, "The number of games that wins the match: a won hand is worth one, "
                                    "and more after hands that nobody won.", within=(1, 1000))
    next_leader: str = option("dealer_left", "Who leads first in the next hand.", choices={
        "dealer_left": "The player to the new dealer's left.",
        "last_trick_winner": "The player who took the last trick of this hand.",
    })


@lru_cache(maxsize=256)  # bounded: options come from clients, and may take many values
def variant(options: Options) -> Variant:
    return Variant(reasons=Reason, hand_size=HAND_SIZE, lead_sizes=(1, 2, 3),
                   molodka=options.molodka_out_of_turn, molodka_of_trumps=False,
                   face_down_discards=not options.open_play)


@dataclass(frozen=True, slots=True)
class Claim:
    kind: ClassVar[str] = "claim"
    seat: int


@dataclass(frozen=True, slots=True)
class Declare:
    kind: ClassVar[str] = "declare"
    seat: int
    combination: str


@dataclass(frozen=True, slots=True)
class Pass:
    kind: ClassVar[str] = "pass"
    seat: int


Move = Lead | Molodka | Respond | Claim | Declare | Pass


def deal(match: Match, *, players: int, dealer: int, options: Options, source: DeckSource) -> State:
    """§3; the match says who leads (§7.3: the dealer's left, or the last trick's taker)."""
    leader = match.next_leader
    state = sets.deal(source.order(DECK), seats=players, dealer=dealer, hand_size=HAND_SIZE, options=options)
    return state if leader == state.leader else evolve(state, leader=leader, to_move=leader)


# --- legality ----------------------------------------------------------------------------------


def check(state: State, move: Move) -> None:
    if state.phase == Phase.OVER:
        refuse(Reason.HAND_FINISHED, "The hand is over")
    if isinstance(move, Lead | Molodka | Respond):
        sets.check_trick_move(state, variant(state.options), move)
    elif isinstance(move, Claim):
        _check_turn(state, move.seat)
    elif isinstance(move, Declare):
        _check_declare(state, move)
    else:
        if state.phase != Phase.FINAL_CLAIMS:
            refuse(Reason.WRONG_PHASE, "You may pass only in the last round, once every card is played")
        _check_turn(state, move.seat)


def _check_turn(state: State, seat: int) -> None:
    if seat != state.to_move:
        if state.to_move is None:
            refuse(Reason.WRONG_PHASE, "Nobody is to move now")
        refuse(Reason.NOT_YOUR_TURN, "It is {seat}'s turn", seat=Seat(state.to_move))


def _check_declare(state: State, move: Declare) -> None:
    if state.phase != Phase.PLAY:
        refuse(Reason.WRONG_PHASE, "A bura or a Moscow is shown only while the cards are played")
    _check_turn(state, move.seat)
    if move.combination == "moscow" and not state.options.moscow:
        refuse(Reason.OPTION_DISABLED, "A Moscow is not played in this game")
    if not forms(state, state.hands[move.seat], move.combination):
        if move.combination == "bura":
            refuse(Reason.NO_COMBINATION, "You have no bura: a bura is three trumps")
        if state.options.moscow_requires_trump_ace:
            refuse(Reason.NO_COMBINATION,
                   "You have no Moscow: a Moscow is three aces, the ace of trumps among them")
        refuse(Reason.NO_COMBINATION, "You have no Moscow: a Moscow is three aces")


def forms(state: State, hand: tuple[Card, ...], combination: str) -> bool:
    """§4.2e: bura = three trumps; Moscow = three aces, with the trump ace unless the option says."""
    if len(hand) != HAND_SIZE:
        return False
    if combination == "bura":
        return all(c.suit == state.trump for c in hand)
    aces = all(c.rank == "A" for c in hand)
    trump_ace = any(c.suit == state.trump for c in hand)
    return aces and (trump_ace or not state.options.moscow_requires_trump_ace)


def candidate_moves(state: State, seat: int) -> list[Move]:
    """The moves of the current phase (``check`` refuses any other phase's moves first)."""
    if state.phase == Phase.PLAY:
        moves: list[Move] = [*sets.candidate_trick_moves(state, variant(state.options), seat)]
        if seat == state.to_move:
            moves.append(Claim(seat))
            moves += [Declare(seat, c) for c in ("bura", "moscow") if forms(state, state.hands[seat], c)]
        return moves
    if state.phase == Phase.FINAL_CLAIMS and seat == state.to_move:
        return [Claim(seat), Pass(seat)]
    return []


# --- effects -----------------------------------------------------------------------------------


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    if isinstance(move, Lead | Molodka | Respond):
        state, events, taker = sets.apply_trick_move(state, variant(state.options), move)
        if taker is not None and state.to_move is None:
            # §5.4: nobody holds a card: the final claim round, from the last trick's taker.
            state = evolve(state, phase=Phase.FINAL_CLAIMS, to_move=taker, leader=taker)
            events.append(Event("final_claims", taker))
        return state, events
    if isinstance(move, Claim):
        return _end(state, Ending("claim", move.seat), Event("claimed", move.seat))
    if isinstance(move, Declare):
        shown = Event("declared", move.seat, state.hands[move.seat], kind=move.combination)
        return _end(state, Ending(move.combination, move.seat), shown)
    passes = state.passes + 1
    if passes == state.seats:
        return _end(evolve(state, passes=passes), Ending("void"), Event("passed", move.seat))
    return evolve(state, passes=passes, to_move=left_of(move.seat, state.seats)), [Event("passed", move.seat)]


def _end(state: State, ending: Ending, event: Event) -> tuple[State, list[Event]]:
    state = evolve(state, phase=Phase.OVER, to_move=None, ending=ending)
    outcome = result(state)
    return state, [event, Event("hand_over", outcome.winners[0] if len(outcome.winners) == 1 else None)]


# --- scoring (§7) ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandResult:
    reason: str
    seat: int | None
    """Who claimed or declared."""
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    points: tuple[int, ...]
    """The card points each seat took."""


def result(state: State) -> HandResult:
    ending = state.ending
    assert ending is not None
    points = state.card_points
    if ending.kind == "void" or ending.seat is None:
        return HandResult("void", None, (), (), points)
    seat = ending.seat
    others = tuple(s for s in range(state.seats) if s != seat)
    if ending.kind == "claim" and state.points(seat) < state.options.winning_points:
        return HandResult("claim_false", seat, others, (seat,), points)
    reason = "claim_correct" if ending.kind == "claim" else ending.kind
    return HandResult(reason, seat, (seat,), others, points)


@dataclass(frozen=True, slots=True)
class Match:
    totals: tuple[int, ...]
    """The games each seat has won."""
    void_streak: int
    over: bool
    winner: tuple[int, ...] | None
    next_dealer: int
    next_leader: int


def new_match(*, seats: int, dealer: int) -> Match:
    return Match((0,) * seats, 0, False, None, dealer, left_of(dealer, seats))


def hand_value(match: Match, options: Options) -> int:
    """§7.3: the games each winner adds: one, and one more per void hand before it (void_carry)."""
    return 1 + match.void_streak if options.void_carry else 1


def match_after(match: Match, state: State) -> Match:
    """§7.3: winners add the hand's value; the deal passes to a single winner, else to the left."""
    outcome, options = result(state), state.options
    value = hand_value(match, options)
    scores = tuple(v + (value if s in outcome.winners else 0) for s, v in enumerate(match.totals))
    void_streak = match.void_streak + 1 if outcome.reason == "void" else 0
    over = max(scores) >= options.target_games
    winner = tuple(s for s, v in enumerate(scores) if v == max(scores)) if over else None
    dealer = outcome.winners[0] if len(outcome.winners) == 1 else left_of(state.dealer, state.seats)
    leader = left_of(dealer, state.seats)
    if options.next_leader == "last_trick_winner" and state.last_taker is not None:
        leader = state.last_taker
    return Match(scores, void_streak, over, winner, dealer, leader)
