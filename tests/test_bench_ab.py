"""The A/B bench's pure parts (bench.ab): the order of the runs and the statistics over rounds."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.ab import SIDES, compared, schedule, spread, t_quantile


def test_every_side_of_every_row_runs_once_a_round_its_three_runs_together() -> None:
    order = schedule(rows=3, rounds=4)
    assert Counter(order) == Counter({(r, n, s): 1 for r in range(4) for n in range(3) for s in SIDES})
    for start in range(0, len(order), 3):
        assert len({(r, n) for r, n, _ in order[start:start + 3]}) == 1
    assert [r for r, _, _ in order] == sorted(r for r, _, _ in order)


def test_over_two_rounds_every_side_has_the_same_mean_place() -> None:
    order = schedule(rows=2, rounds=2)
    places: dict[str, list[int]] = {side: [] for side in SIDES}
    for start in range(0, len(order), 3):
        for place, (_, _, side) in enumerate(order[start:start + 3]):
            places[side].append(place)
    assert {side: sum(p) / len(p) for side, p in places.items()} == {side: 1.0 for side in SIDES}
    assert [s for _, n, s in order if n == 0] == ["ceiling", "A", "B", "B", "A", "ceiling"]


def test_spread_gives_median_range_and_the_t_interval_of_the_mean() -> None:
    found = spread([1.0, 2.0, 3.0])
    assert (found.median, found.low, found.high, found.mean) == (2.0, 1.0, 3.0, 2.0)
    assert found.half_width == pytest.approx(4.303 / 3 ** 0.5, abs=1e-3)  # t(2) x sd 1 / sqrt(3)
    assert spread([0.5]).half_width == 0.0
    with pytest.raises(ValueError):
        spread([])


def test_t_quantiles_fall_towards_the_normal_one() -> None:
    assert t_quantile(1) == 12.706 and t_quantile(5) == 2.571
    assert t_quantile(20) > t_quantile(100) == 1.96


def test_each_side_is_taken_against_the_ceiling_of_its_own_round() -> None:
    rounds = [{"ceiling": 1000.0, "A": 700.0, "B": 800.0}, {"ceiling": 500.0, "A": 400.0, "B": 400.0}]
    found = compared(rounds)
    assert (found.a.low, found.a.high) == (0.7, 0.8)
    assert (found.b.low, found.b.high) == (0.8, 0.8)
    assert found.gain.median == pytest.approx(0.05)
    assert (found.gain.low, found.gain.high) == (pytest.approx(0.0), pytest.approx(0.1))
