"""`make strength`'s harness (bench/strength.py), without its long runs: duplicate deals of
Sixty-six at a tiny budget, a player against itself, and the interval arithmetic."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from bench import strength
from bench.strength import Knobs, Match, Result, mean_interval, play_deal, ratio_interval, t975, units_needed
from service.games.registry import GAMES

TINY = Knobs(budget_ms=1_000, samples=2)
"""Two samples a move and a deadline they never reach: the computer player's moves then depend
only on its seed, not on the clock."""


def test_a_deal_is_played_on_the_same_cards_with_the_seats_swapped():
    for index in range(2):
        deal = play_deal(Match("sixty-six", 2, "player", "greedy", 2, TINY), index, keep=True)
        first, second = deal.hands
        assert first.start == second.start
        assert (first.ours, second.ours) == (0, 1)
        assert first.cast == ("player", "greedy") and second.cast == ("greedy", "player")


@pytest.mark.parametrize("name", ["greedy", "random", "rdeep:2", "player"])
def test_a_player_against_itself_scores_half_of_every_duplicate_pair(name):
    """Both hands of a pair are played alike, move for move (the players' random numbers come from
    the deal and the move's number), and a two-seat game's value is one seat's gain and the
    other's loss: the pair's share is 50 % exactly. It holds for a player whose moves depend on
    its seed only; at a time budget the samples counted vary with the clock, so it holds only on
    average."""
    match = Match("sixty-six", 2, name, name, 2, TINY)
    deals = tuple(play_deal(match, index) for index in range(2))
    for deal in deals:
        first, second = deal.hands
        assert first.value == -second.value
    result = Result(match, deals)
    assert result.share().value == 0.5 or all(h.value == 0 for d in deals for h in d.hands)
    assert result.mean().value == 0


def test_every_seat_of_a_side_is_the_measured_players():
    deal = play_deal(Match("kozel", 4, "greedy", "random", 1, TINY), 0)
    assert [h.cast for h in deal.hands] == [("greedy", "random", "greedy", "random"),
                                            ("random", "greedy", "random", "greedy")]


def test_the_t_interval_of_a_mean():
    e = mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 2.776 * statistics.stdev([1, 2, 3, 4, 5]) / math.sqrt(5)  # t(4) = 2.776
    assert e.value == 3.0 and e.low == pytest.approx(3 - half) and e.high == pytest.approx(3 + half)
    assert e.half == pytest.approx(1.963, abs=1e-3)
    assert mean_interval([1.0]).low == -math.inf


def test_the_share_interval_is_the_t_interval_of_the_shares_when_totals_are_equal():
    shares = [1.0, 0.5, 0.5, 0.0, 1.0, 0.5]
    e = ratio_interval([2 * s for s in shares], [2.0] * 6)
    plain = mean_interval(shares)
    assert e.value == pytest.approx(plain.value)
    assert (e.low, e.high) == (pytest.approx(plain.low), pytest.approx(plain.high))
    cut = ratio_interval([1.0, 1.0, 0.5], [1.0, 1.0, 1.0])  # 83 %, ±72 points: cut at 100 %
    assert cut.high == 1.0 and cut.low == pytest.approx(5 / 6 - cut.half) and cut.half > 1 / 6


def test_the_share_interval_of_unequal_totals():
    """Deals won 3 of 3, 1 of 4, 2 of 2, 0 of 1 game points: 6 of 10, the linearized terms
    (won - 0.6 total) / 2.5 are 0.48, -0.56, 0.32, -0.24."""
    e = ratio_interval([3.0, 1.0, 2.0, 0.0], [3.0, 4.0, 2.0, 1.0])
    terms = [0.48, -0.56, 0.32, -0.24]
    sd = math.sqrt(sum(x * x for x in terms) / 3)
    assert e.value == pytest.approx(0.6)
    assert e.half == pytest.approx(3.182 * sd / 2)  # t(3) = 3.182, sqrt(4) = 2
    assert math.isnan(ratio_interval([0.0, 0.0], [0.0, 0.0]).value)


def test_the_hands_needed_for_five_points():
    # a per-deal spread of 0.25: (1.96 * 0.25 / 0.05)^2 = 96.04, so 97 deals
    assert units_needed(0.25) == 97
    assert units_needed(math.nan) is None


def test_t_quantiles():
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert t975(60) == pytest.approx(2.0003, abs=1e-4)
    assert t975(10_000) == pytest.approx(1.96, abs=1e-3)


def test_the_targets():
    def share(m: Match, value: float, low: float) -> bool:
        bar = strength.target(m)
        assert bar is not None
        fake = type("R", (), {"share": lambda self: strength.Estimate(value, low, 1.0, 0.1, 0.1),
                              "mean": lambda self: strength.Estimate(value, low, 1.0, 0.1, 0.1)})()
        return bar[1](fake)  # type: ignore[arg-type]

    greedy = Match("sixty-six", 2, "player", "greedy", 2)
    assert share(greedy, 0.62, 0.56) and not share(greedy, 0.62, 0.54) and not share(greedy, 0.58, 0.56)
    assert share(Match("bura", 2, "player", "today", 2), 0.55, 0.4)
    assert share(Match("sixty-six", 2, "player", "rdeep", 2), 0.61, 0.4)
    assert strength.target(Match("bura", 2, "player", "rdeep", 2)) is None
    assert share(Match("bura", 4, "player", "greedy", 2), 0.1, 0.01)
    assert not share(Match("bura", 4, "player", "greedy", 2), 0.1, -0.01)
    assert share(Match("sixty-six", 2, "level:2", "level:1", 2), 0.56, 0.4)
    assert share(Match("sixty-six", 2, "level:1", "greedy", 2), 0.4, 0.3)


def test_every_kind_of_player_plays_a_legal_move():
    game = GAMES["sixty-six"]
    match = Match("sixty-six", 2, "greedy", "greedy", 1, TINY)
    state = play_deal(match, 0, keep=True).hands[0].start
    seat = game.to_move(state)
    names = ["random", "greedy", "player", "blind", "today", "rdeep:2", "player:5", "level:1",
             "level:easy", "level:3"]
    for name in names:
        move = strength.build(name, TINY)(game, state, seat, random.Random(0), [])
        assert move in game.legal_moves(state, seat)
    with pytest.raises(SystemExit):
        strength.build("nobody", TINY)


def test_matches_take_every_table_and_the_levels():
    chosen = strength.matches(["sixty-six", "kozel"], 10, TINY, ["greedy", "greedy", "rdeep"], ["1", "2"])
    assert [(m.game, m.players, m.player, m.opponent, m.deals) for m in chosen] == [
        ("sixty-six", 2, "player", "greedy", 5), ("sixty-six", 2, "player", "rdeep", 5),
        ("sixty-six", 2, "level:1", "greedy", 5), ("sixty-six", 2, "level:2", "level:1", 5),
        ("kozel", 4, "player", "greedy", 5), ("kozel", 4, "player", "rdeep", 5),
        ("kozel", 4, "level:1", "greedy", 5), ("kozel", 4, "level:2", "level:1", 5)]


def test_matches_keep_the_table_sizes_asked_for():
    chosen = strength.matches(["bura", "kozel"], 10, TINY, ["today"], seats={2, 4})
    assert [(m.game, m.players) for m in chosen] == [("bura", 2), ("bura", 4), ("kozel", 4)]


def test_the_slow_games_play_fewer_hands_unless_a_count_is_asked_for():
    capped = strength.matches(["canasta", "bura"], 200, TINY, ["greedy"], seats={2})
    assert [(m.game, m.deals) for m in capped] == [("canasta", strength.HANDS["canasta"] // 2), ("bura", 100)]
    asked = strength.matches(["canasta"], 200, TINY, ["greedy"], seats={2}, caps={})
    assert [(m.game, m.deals) for m in asked] == [("canasta", 100)]


def test_the_report_gathers_what_each_inference_is_worth():
    blind = Match("sixty-six", 2, "player", "blind", 2, TINY)
    played = Result(blind, tuple(play_deal(blind, index) for index in range(2)))
    greedy = Match("sixty-six", 2, "player", "greedy", 2, TINY)
    other = Result(greedy, tuple(play_deal(greedy, index) for index in range(2)))
    section = strength.worth([other, played])
    assert section.startswith("\n## What each inference is worth")
    assert section.count("| sixty-six | 2 | 4 |") == 1
    assert strength.worth([other]) == ""
