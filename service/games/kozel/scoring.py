"""Kozel's scoring, docs/rules/kozel.md §7: a played-out hand's pairs of pips (eggs, the queen of
clubs), and the match standing they add up to."""

from __future__ import annotations

from dataclasses import dataclass

from service.games.kozel.rules import SEATS, TEAMS, State
from service.games.seating import left_of


def base_pairs(points: int) -> int:
    """§7.1: pairs the losers uncover for the winners' points."""
    return 3 if points == 120 else 2 if points >= 91 else 1


@dataclass(frozen=True, slots=True)
class HandResult:
    points: tuple[int, int]
    pairs: tuple[int, int]
    """Pairs each team uncovers this hand."""
    eggs: bool
    qc_captured_team: int | None
    multiplier: int
    """The multiplier the hand was scored at."""
    next_multiplier: int


def result(state: State, multiplier: int) -> HandResult:
    points = (state.points(0), state.points(1))
    capture, options = state.qc_captured_team, state.options
    pairs = [0, 0]
    eggs = points == (60, 60)
    if capture is not None and options.queen_capture == "replace":
        eggs = False
    elif not eggs:
        loser = 0 if points[0] < points[1] else 1
        pairs[loser] = base_pairs(points[1 - loser]) * multiplier
    if capture is not None:
        pairs[capture] += 4 * multiplier
    following = (2 * multiplier if options.egg_compounding else 2) if eggs else 1
    return HandResult(points, (pairs[0], pairs[1]), eggs, capture, multiplier, following)


@dataclass(frozen=True, slots=True)
class Match:
    """§7.2-7.3: the match's standing between hands."""

    totals: tuple[int, int]
    """Pairs opened per team."""
    multiplier: int
    """What the next hand's pairs are multiplied by (eggs double it)."""
    over: bool
    winner: tuple[int, ...] | None
    """The winning team's seats; None while the match is on, or drawn."""
    loser: tuple[int, ...] | None
    """The losing team's seats (the goat)."""
    next_dealer: int
    pairs_to_lose: int = 0
    """The option the match is played to, for ``pairs_left``: not on the wire (0 in a standing read
    from it, which is never written back)."""

    @property
    def pips_opened(self) -> tuple[int, ...]:
        return tuple(2 * pairs for pairs in self.totals)

    @property
    def pairs_left(self) -> tuple[int, ...]:
        return tuple(max(0, self.pairs_to_lose - pairs) for pairs in self.totals)


def new_match(dealer: int) -> Match:
    return Match((0, 0), 1, False, None, None, dealer)


def match_after(match: Match, state: State, outcome: HandResult) -> Match:
    """The standing after the hand ``outcome`` scored (§7.2, §7.3); the next dealer (§3.4)."""
    opened = (match.totals[0] + outcome.pairs[0], match.totals[1] + outcome.pairs[1])
    limit = state.options.pairs_to_lose
    over = max(opened) >= limit
    winner = loser = None
    if over and opened[0] != opened[1]:
        losing = 0 if opened[0] > opened[1] else 1
        winner, loser = TEAMS[1 - losing], TEAMS[losing]
    jack_deal = state.first_deal and state.options.jack_of_clubs_first_deal and state.named_by is not None
    next_dealer = state.named_by if jack_deal and state.named_by is not None else left_of(state.dealer, SEATS)
    return Match(opened, outcome.next_multiplier, over, winner, loser, next_dealer, limit)
