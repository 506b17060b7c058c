"""Sixty-six's scoring, §7 of docs/rules/sixty-six.md: a finished hand's result and the party
standing after it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from service.games.match import Match
from service.games.sixty_six.rules import SCHNEIDER, TARGET, Pair, State, at_seat, points


class ResultReason(StrEnum):
    NO_66_DRAW = "no_66_draw"
    REACHED_66 = "reached_66"
    CLOSER_SUCCEEDED = "closer_succeeded"
    CLOSER_FAILED = "closer_failed"
    CLAIM_CORRECT = "claim_correct"
    CLAIM_WRONG = "claim_wrong"


@dataclass(frozen=True, slots=True)
class HandResult:
    """§7.4 result object."""

    winner: int | None
    game_points: Pair
    reason: ResultReason
    points: Pair
    tricks: Pair

    @property
    def draw(self) -> bool:
        return self.winner is None


def result(state: State) -> HandResult:
    """§7.2-7.3 the result of a finished hand."""
    pts = (points(state, 0), points(state, 1))
    tricks = (len(state.tricks_won[0]), len(state.tricks_won[1]))

    def won(seat: int, value: int, reason: ResultReason) -> HandResult:
        return HandResult(seat, at_seat((0, 0), seat, value), reason, pts, tricks)

    def multiplier(loser: int) -> int:
        if tricks[loser] == 0:
            return 3
        return 2 if pts[loser] < SCHNEIDER else 1

    closer, snapshot = state.stock_closed_by, state.closed_snapshot
    failed_close = 3 if snapshot is not None and snapshot.opponent_tricks == 0 else 2
    if state.claimed_by is not None:
        claimer = state.claimed_by
        if pts[claimer] >= TARGET:
            return won(claimer, multiplier(1 - claimer), ResultReason.CLAIM_CORRECT)
        value = 3 if tricks[1 - claimer] == 0 else 2
        if closer == claimer:
            value = max(value, failed_close)
        return won(1 - claimer, value, ResultReason.CLAIM_WRONG)
    if closer is not None:
        if pts[closer] >= TARGET and state.first_to_66 == closer:
            return won(closer, multiplier(1 - closer), ResultReason.CLOSER_SUCCEEDED)
        return won(1 - closer, failed_close, ResultReason.CLOSER_FAILED)
    if state.first_to_66 is None:
        return HandResult(None, (0, 0), ResultReason.NO_66_DRAW, pts, tricks)
    winner = state.first_to_66
    return won(winner, multiplier(1 - winner), ResultReason.REACHED_66)


Party = Match
"""§7.5: the party (match) standing between hands; its totals are the seats' game points."""


def party_after(party: Match[int], hand: HandResult, *, dealer: int, target: int) -> Match[int]:
    """Add the hand's game points; the hand's winner deals next, the same dealer after a draw."""
    score = (party.totals[0] + hand.game_points[0], party.totals[1] + hand.game_points[1])
    winner = next((s for s in (0, 1) if score[s] >= target), None)
    next_dealer = dealer if hand.winner is None else hand.winner
    return Match(score, winner is not None, winner, next_dealer)
