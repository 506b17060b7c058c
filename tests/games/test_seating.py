"""Seating: the sides, partners and dealt-in seats the games share (kozel.md §1, canasta.md §2.4,
bezique.md §2.3)."""

from __future__ import annotations

import pytest

from service.games.seating import Sides, active_seats, clockwise, each_for_himself, left_of, partnerships


def test_clockwise_and_left_of_wrap_around_the_table():
    assert clockwise(2, 4) == (2, 3, 0, 1)
    assert left_of(3, 4) == 0 and left_of(1, 3, 2) == 0


@pytest.mark.parametrize(("seats", "sides"), [
    (4, ((0, 2), (1, 3))),          # Kozel, Canasta at four: partners opposite
    (6, ((0, 2, 4), (1, 3, 5))),    # Canasta at six: two sides of three, alternating
])
def test_partnerships_alternate_around_the_table(seats, sides):
    table = partnerships(seats)
    assert table.all() == sides
    assert [table.side_of(s) for s in range(seats)] == [s % 2 for s in range(seats)]


@pytest.mark.parametrize("seats", [2, 3])
def test_each_for_himself_is_a_side_per_seat(seats):
    table = each_for_himself(seats)
    assert table.all() == tuple((s,) for s in range(seats))


def test_sides_must_split_the_table_evenly():
    with pytest.raises(ValueError):
        Sides(5, 2)


@pytest.mark.parametrize(("seats", "dealer", "sits_out", "dealt"), [
    (2, 1, False, (0, 1)),
    (3, 0, True, (1, 2)),          # Bezique at three: the dealer sits out
    (4, 2, True, (3, 0, 1)),
    (4, 2, False, (3, 0, 1, 2)),   # dealer_plays_at_three-style tables: the dealer plays, last
])
def test_active_seats_run_clockwise_from_the_dealers_left(seats, dealer, sits_out, dealt):
    assert active_seats(seats, dealer, dealer_sits_out=sits_out) == dealt


def test_the_partner_of_a_pair_sits_opposite():
    assert [partnerships(4).partner(s) for s in range(4)] == [2, 3, 0, 1]
    with pytest.raises(ValueError):
        partnerships(6).partner(0)
