"""Sixty-six's endgame, solved exactly: the value of every move in a position where every card is
known, once the stock is exhausted or closed (§4.2.5, the strict phase), by alpha-beta.

The position is held compactly: each hand a 24-bit mask over ``DECK`` (suit by suit, ranks from
the ace down, so a card's higher cards of its suit are the bits just below it), the card led to
the trick (or none), the seat to move, each seat's points (its won cards, credited marriages and
last-trick bonus, as ``rules.points`` counts them), its marriage points still pending (declared
before its first trick, §4.2 D3), whether it has won a trick, and who reached 66 first. The
table's options and the close (who closed, and the closer's penalty should it fail) are the
search's constants. The phase's rules are the game's own: follow suit, head the trick with a
higher card of the suit led when the table plays ``must_head_trick``, else trump if able;
marriages are led (both the king and the queen may lead one) when ``marriages_after_stock``;
a claim (``allow_claim``) ends the hand on the spot. A finished hand is valued as ``scoring.result``
scores it, in game points: the winner's 1, 2 (loser under 33 points) or 3 (loser without a trick),
a failed close's 2 or 3, the last-trick bonus when nobody closed; the tests check this against
``play.apply`` and ``scoring.result`` on random positions.

The search is a minimax over seat 0's value (the game points seat 0 wins less seat 1's, -3 to
3) with alpha-beta pruning, fail-soft, and a transposition table holding each position's bounds
and best move. Moves are ordered: the table's best move first, then at the lead the claims (they
end the hand: no search), the marriages, the cards from the top of each suit, trumps last; in
reply the cheapest card that takes the trick, then the cheapest that does not. Points are kept
in the table's key only up to 66 (nothing past 66 changes a value), and when claims are off a
hand whose value can no longer change stops there (the first to 66 is known and the loser has a
trick and 33 points, or a closer has been beaten to 66).

Bounded: with 6 cards a side, the full game tree (no pruning, no table) has 518,400 play
sequences and 2,006,323 positions (trick boundaries, tricks half played and finished hands);
marriages multiply that by 16 at most (a suit's king or queen, first led, may or may not declare
it; four suits' marriages at most among twelve cards), claims add only finished hands. That
bounds the nodes searched and the transposition table (one entry per position searched), which
is the solver's own and is dropped with it: some 32 million in the worst case imaginable, some
3,000 at most in practice. Measured (bench/endgame.py: this machine, one core, 200 positions per
row from random play at the default options, the seat on lead, every root move solved with a
full window; the machine was shared, so the worst times are noisy):

==========================  ==========  ==========  ==========  ==========
cards a side                nodes mean  nodes max   ms mean     ms p95
==========================  ==========  ==========  ==========  ==========
6, stock exhausted          1,033       2,908       2.9         5.5
5, stock exhausted          319         836         1.0         1.9
4, stock exhausted          105         363         0.4         0.7
3, stock exhausted          27          68          0.1         0.2
6, stock closed             1,173       3,467       3.2         6.3
5, stock closed             418         1,404       1.2         2.0
4, stock closed             131         328         0.4         0.7
3, stock closed             36          64          0.2         0.2
==========================  ==========  ==========  ==========  ==========

After a close (at trick 1 to 5), the worlds of the seat on lead (``advice.worlds``) and the time
to solve them all: 6 cards a side, 1,799 worlds on average (5,005 at most), 7.4 s; 5 cards, 758
(2,002), 0.7 s; 4 cards, 296 (715), 114 ms (281 at p95); 3 cards, 102 (220), 13 ms (19).

A ``deadline`` (a ``time.perf_counter`` value) is read every 1,024 nodes: past it the solve
answers None.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from service.cards import Card
from service.games.base import accepts
from service.games.sixty_six.play import apply
from service.games.sixty_six.rules import (
    DECK,
    LAST_TRICK_BONUS,
    POINTS,
    RANK_ORDER,
    SCHNEIDER,
    TARGET,
    TRICKS_PER_HAND,
    Claim,
    Move,
    Play,
    State,
    candidate_moves,
    check,
    points,
)
from service.games.sixty_six.scoring import result

SUITS = ("C", "D", "H", "S")
INDEX = {card: i for i, card in enumerate(DECK)}
CARD_POINTS = tuple(POINTS[card] for card in DECK)
SUIT_OF = tuple(SUITS.index(card.suit or "") for card in DECK)
SUIT_MASK = tuple(sum(1 << i for i, card in enumerate(DECK) if card.suit == suit) for suit in SUITS)
HIGHER = tuple(
    sum(1 << j for j, other in enumerate(DECK)
        if other.suit == card.suit and RANK_ORDER[other.rank] > RANK_ORDER[card.rank])
    for card in DECK
)
"""Each card's higher cards of its suit."""
BEATEN_BY = tuple(
    tuple(HIGHER[i] | (SUIT_MASK[trump] if SUIT_OF[i] != trump else 0) for i in range(len(DECK)))
    for trump in range(4)
)
"""For each trump suit, each led card's answers that take the trick (``tricks.beats``)."""
KING_QUEEN = tuple(
    sum(1 << i for i, card in enumerate(DECK) if card.suit == suit and card.rank in ("K", "Q"))
    for suit in SUITS
)
MARRIAGE_FLAG = 32
"""A move code: a card's index, plus this for a card led as a marriage; ``CLAIM`` + a suit's
index for a claim with that marriage, ``CLAIM + 4`` for a plain claim."""
CLAIM = 64
PLAIN_CLAIM = CLAIM + 4
INFINITY = 4
"""Past any hand's value (a hand is worth at most 3 game points)."""
TIME_CHECK = 1023
"""The clock is read when the node count has these bits clear: every 1,024 nodes."""


class OutOfTime(Exception):
    """The deadline passed in the middle of a solve."""


def _cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask(cards: Iterable[Card]) -> int:
    return sum(1 << INDEX[card] for card in cards)


class Solver:
    """One perfect-information position's search: its constants and its transposition table.
    ``nodes`` counts the positions searched."""

    def __init__(self, state: State, deadline: float = float("inf")) -> None:
        options = state.options
        self.trump = SUITS.index(state.trump_suit)
        self.beaten_by = BEATEN_BY[self.trump]
        self.trump_mask = SUIT_MASK[self.trump]
        self.head = options.must_head_trick
        self.marry = options.marriages_after_stock
        self.pending_until_trick = options.marriage_requires_trick
        self.claims = options.allow_claim
        self.closer = -1 if state.stock_closed_by is None else state.stock_closed_by
        snapshot = state.closed_snapshot
        self.failed_close = 3 if snapshot is not None and snapshot.opponent_tricks == 0 else 2
        left = (len(state.hands[0]) + len(state.hands[1]) + len(state.trick)) // 2
        self.bonus = (options.last_trick_bonus and self.closer < 0
                      and state.tricks_played + left == TRICKS_PER_HAND)
        """Whether the last trick of this hand earns the bonus (§5.3: the 12th, nobody closed)."""
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[int, tuple[int, int, int]] = {}
        lead_order = [i for i in range(len(DECK)) if SUIT_OF[i] != self.trump]
        self.lead_order = (*lead_order, *(i for i in range(len(DECK)) if SUIT_OF[i] == self.trump))

    # --- the root ---------------------------------------------------------------------------

    def values(self, state: State, seat: int) -> dict[Move, float]:
        """Every legal move of ``seat`` with its exact value for ``seat``; raises ``OutOfTime``."""
        moves = [m for m in candidate_moves(state, seat) if accepts(check, state, m)]
        sign = 1 if seat == 0 else -1
        return {move: float(sign * self.after(apply(state, move)[0])) for move in moves}

    def after(self, state: State) -> int:
        """Seat 0's value of a position of this search (the root or one after its moves)."""
        if state.finished:
            hand = result(state)
            return hand.game_points[0] - hand.game_points[1]
        h0, h1 = mask(state.hands[0]), mask(state.hands[1])
        lead = INDEX[state.trick[0][1]] if state.trick else -1
        p0, p1 = points(state, 0), points(state, 1)
        q0, q1 = (sum(m.points for m in state.marriages[seat] if not m.credited) for seat in (0, 1))
        t0, t1 = int(bool(state.tricks_won[0])), int(bool(state.tricks_won[1]))
        first = -1 if state.first_to_66 is None else state.first_to_66
        mover = state.to_move
        assert mover is not None
        return self.node(h0, h1, lead, mover, p0, p1, q0, q1, t0, t1, first, -INFINITY, INFINITY)

    def moves(self, state: State) -> list[Move]:
        """The moves the search tries in ``state`` (a position of this search), as the rules'
        moves: the tests hold them to ``legal_moves``."""
        seat = state.to_move
        assert seat is not None
        hand = mask(state.hands[seat])
        if state.trick:
            return [Play(seat, DECK[i]) for i in self.reply_moves(hand, INDEX[state.trick[0][1]], -1)]
        return [Claim(seat) if code == PLAIN_CLAIM else Claim(seat, SUITS[code - CLAIM])
                if code >= CLAIM else Play(seat, DECK[code & (MARRIAGE_FLAG - 1)], bool(code & MARRIAGE_FLAG))
                for code in self.lead_moves(hand, -1)]

    def score(self, state: State) -> int:
        """Seat 0's value of a finished hand, as the search counts it: the tests hold it to
        ``scoring.result``."""
        p0, p1 = points(state, 0), points(state, 1)
        t0, t1 = int(bool(state.tricks_won[0])), int(bool(state.tricks_won[1]))
        if state.claimed_by is not None:
            return self.claimed(state.claimed_by, p0, p1, t0, t1)
        return self.final(p0, p1, t0, t1, -1 if state.first_to_66 is None else state.first_to_66)

    # --- the values of finished hands ---------------------------------------------------------

    def final(self, p0: int, p1: int, t0: int, t1: int, first: int) -> int:
        """Seat 0's game points less seat 1's for a hand played out (``scoring.result``)."""
        closer = self.closer
        if closer >= 0:
            if first == closer and (p0 if closer == 0 else p1) >= TARGET:
                winner = closer
            else:
                return self.failed_close if closer == 1 else -self.failed_close
        elif first < 0:
            return 0
        else:
            winner = first
        if winner == 0:
            return 3 if not t1 else 2 if p1 < SCHNEIDER else 1
        return -(3 if not t0 else 2 if p0 < SCHNEIDER else 1)

    def claimed(self, claimer: int, p0: int, p1: int, t0: int, t1: int) -> int:
        """Seat 0's value of a claim by ``claimer`` (§7.3, ``scoring.result``): right, the
        claimer wins as if by 66; wrong, the other seat wins 2, or 3 when it has no trick, or a
        failed close's penalty if the claimer closed and that is more."""
        if claimer == 0:
            if p0 >= TARGET:
                return 3 if not t1 else 2 if p1 < SCHNEIDER else 1
            value = 3 if not t1 else 2
            return -(max(value, self.failed_close) if self.closer == 0 else value)
        if p1 >= TARGET:
            return -(3 if not t0 else 2 if p0 < SCHNEIDER else 1)
        value = 3 if not t0 else 2
        return max(value, self.failed_close) if self.closer == 1 else value

    def settled(self, p0: int, p1: int, t0: int, t1: int, first: int) -> int | None:
        """The hand's value when no play can change it any more (claims off, 66 reached): a
        closer beaten to 66 has failed; else the first to 66 wins, and once the loser has a trick
        and 33 points, by 1."""
        closer = self.closer
        if closer >= 0 and first != closer:
            return self.failed_close if closer == 1 else -self.failed_close
        if first == 0:
            return 1 if t1 and p1 >= SCHNEIDER else None
        return -1 if t0 and p0 >= SCHNEIDER else None

    # --- the search -------------------------------------------------------------------------

    def node(self, h0: int, h1: int, lead: int, mover: int, p0: int, p1: int, q0: int, q1: int,
             t0: int, t1: int, first: int, alpha: int, beta: int) -> int:
        """Seat 0's value of a position, fail-soft within (``alpha``, ``beta``)."""
        self.nodes += 1
        if not self.nodes & TIME_CHECK and time.perf_counter() > self.deadline:
            raise OutOfTime
        if first >= 0 and not self.claims:
            settled = self.settled(p0, p1, t0, t1, first)
            if settled is not None:
                return settled
        key = (h0 | h1 << 24 | (lead + 1) << 48 | mover << 53 | min(p0, TARGET) << 54
               | min(p1, TARGET) << 61 | q0 << 68 | q1 << 76 | t0 << 84 | t1 << 85 | (first + 1) << 86)
        entry = self.table.get(key)
        if entry is None:
            low, high, hint = -INFINITY, INFINITY, -1
        else:
            low, high, hint = entry
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        if lead < 0:
            best, move = self.leads(h0, h1, mover, p0, p1, q0, q1, t0, t1, first, alpha, beta, hint)
        else:
            best, move = self.replies(h0, h1, lead, mover, p0, p1, q0, q1, t0, t1, first, alpha, beta,
                                      hint)
        if best <= alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        self.table[key] = (low, high, move)
        return best

    def lead_moves(self, hand: int, hint: int) -> list[int]:
        """The leader's moves, the table's best first, then claims, marriages, cards."""
        moves = []
        if self.claims:
            moves.append(PLAIN_CLAIM)
            moves += [CLAIM + suit for suit in range(4) if hand & KING_QUEEN[suit] == KING_QUEEN[suit]]
        if self.marry:
            for suit in (self.trump, *(s for s in range(4) if s != self.trump)):
                if hand & KING_QUEEN[suit] == KING_QUEEN[suit]:
                    moves += [MARRIAGE_FLAG + i for i in _cards(KING_QUEEN[suit])]
        moves += [i for i in self.lead_order if hand >> i & 1]
        if hint >= 0:
            moves.remove(hint)
            moves.insert(0, hint)
        return moves

    def leads(self, h0: int, h1: int, mover: int, p0: int, p1: int, q0: int, q1: int, t0: int,
              t1: int, first: int, alpha: int, beta: int, hint: int) -> tuple[int, int]:
        maximize = mover == 0
        best, best_move = (-INFINITY if maximize else INFINITY), -1
        for move in self.lead_moves(h0 if maximize else h1, hint):
            n0, n1, r0, r1, w0, w1, now_first = p0, p1, q0, q1, t0, t1, first
            if move >= CLAIM:
                value = self.claim(move, mover, p0, p1, t0, t1)
            else:
                card = move & (MARRIAGE_FLAG - 1)
                if move & MARRIAGE_FLAG:
                    worth = 40 if SUIT_OF[card] == self.trump else 20
                    if maximize:
                        if t0 or not self.pending_until_trick:
                            n0 += worth
                            if now_first < 0 and n0 >= TARGET:
                                now_first = 0
                        else:
                            r0 += worth
                    elif t1 or not self.pending_until_trick:
                        n1 += worth
                        if now_first < 0 and n1 >= TARGET:
                            now_first = 1
                    else:
                        r1 += worth
                bit = 1 << card
                value = self.node(h0 & ~bit, h1 & ~bit, card, 1 - mover, n0, n1, r0, r1, w0, w1,
                                  now_first, alpha, beta)
            if maximize:
                if value > best:
                    best, best_move = value, move
                    alpha = max(alpha, value)
            elif value < best:
                best, best_move = value, move
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best, best_move

    def claim(self, move: int, mover: int, p0: int, p1: int, t0: int, t1: int) -> int:
        """Seat 0's value of ``mover``'s claim, with the marriage it declares to reach 66 (a
        move of its own, off the search's inner loop: a claim ends the hand)."""
        if move != PLAIN_CLAIM:
            worth = 40 if move - CLAIM == self.trump else 20
            if mover == 0 and (t0 or not self.pending_until_trick):
                p0 += worth
            elif mover == 1 and (t1 or not self.pending_until_trick):
                p1 += worth
        return self.claimed(mover, p0, p1, t0, t1)

    def reply_moves(self, hand: int, lead: int, hint: int) -> list[int]:
        """The follower's legal cards (§4.2.5): the cheapest that take the trick, then the
        cheapest of the others; the table's best first."""
        same = hand & SUIT_MASK[SUIT_OF[lead]]
        if same:
            allowed = same
            if self.head and same & HIGHER[lead]:
                allowed = same & HIGHER[lead]
        else:
            allowed = hand & self.trump_mask or hand
        taking = allowed & self.beaten_by[lead]
        moves = sorted(_cards(taking), key=CARD_POINTS.__getitem__)
        moves += sorted(_cards(allowed & ~taking), key=CARD_POINTS.__getitem__)
        if hint >= 0:
            moves.remove(hint)
            moves.insert(0, hint)
        return moves

    def replies(self, h0: int, h1: int, lead: int, mover: int, p0: int, p1: int, q0: int, q1: int,
                t0: int, t1: int, first: int, alpha: int, beta: int, hint: int) -> tuple[int, int]:
        maximize = mover == 0
        best, best_move = (-INFINITY if maximize else INFINITY), -1
        taking = self.beaten_by[lead]
        for card in self.reply_moves(h0 if maximize else h1, lead, hint):
            bit = 1 << card
            n_h0, n_h1 = h0 & ~bit, h1 & ~bit
            over = not n_h0 and not n_h1
            gain = CARD_POINTS[lead] + CARD_POINTS[card] + (LAST_TRICK_BONUS if over and self.bonus else 0)
            winner = mover if taking & bit else 1 - mover
            n0, n1, r0, r1, w0, w1, now_first = p0, p1, q0, q1, t0, t1, first
            if winner == 0:
                n0 += gain + r0
                r0, w0 = 0, 1
                if now_first < 0 and n0 >= TARGET:
                    now_first = 0
            else:
                n1 += gain + r1
                r1, w1 = 0, 1
                if now_first < 0 and n1 >= TARGET:
                    now_first = 1
            if over:
                value = self.final(n0, n1, w0, w1, now_first)
            else:
                value = self.node(n_h0, n_h1, -1, winner, n0, n1, r0, r1, w0, w1, now_first,
                                  alpha, beta)
            if maximize:
                if value > best:
                    best, best_move = value, card
                    alpha = max(alpha, value)
            elif value < best:
                best, best_move = value, card
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best, best_move


def solve(state: State, seat: int, deadline: float) -> dict[Move, float] | None:
    """``Advice.solve``: each legal move of ``seat`` with its exact value for ``seat`` in game
    points, every card taken as known; None when the stock is still open (no exact search
    then) or once ``deadline`` (``time.perf_counter``) passes."""
    if not state.strict or state.finished:
        return None
    try:
        return Solver(state, deadline).values(state, seat)
    except OutOfTime:
        return None

