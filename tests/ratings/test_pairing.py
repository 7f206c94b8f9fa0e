"""Quick pairing's choice of tables, over random pools: each table is one everyone at it
accepts, nobody sits twice, and the longest waiting are not passed over."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.ratings import (
    ANYONE_AFTER_S,
    START_RANGE,
    WIDEN_PER_S,
    Seeker,
    rating_range,
    tables_to_make,
)

NOW = 100.0

seekers_st = st.lists(
    st.tuples(st.integers(900, 2300), st.floats(0, 60, allow_nan=False)),
    max_size=30,
).map(
    lambda rows: [
        Seeker(key, float(rating), NOW - waited) for key, (rating, waited) in enumerate(rows)
    ]
)


def meet(one: Seeker[int], other: Seeker[int]) -> bool:
    """Whether the two players' ranges meet now (the rule, written again plainly)."""
    reaches = rating_range(NOW - one.since), rating_range(NOW - other.since)
    if reaches[0] is None or reaches[1] is None:
        return True
    return abs(one.rating - other.rating) <= reaches[0] + reaches[1]


def fits(table: tuple[Seeker[int], ...]) -> bool:
    return all(meet(one, other) for one in table for other in table)


@settings(max_examples=300, deadline=None)
@given(seekers_st, st.sampled_from([2, 3, 4]))
def test_every_table_is_full_accepted_by_all_and_nobody_sits_twice(
    seekers: list[Seeker[int]], seats: int
) -> None:
    tables = tables_to_make(seekers, seats, NOW)
    seated = [each.key for table in tables for each in table]
    assert len(seated) == len(set(seated))
    assert set(seated) <= {each.key for each in seekers}
    for table in tables:
        assert len(table) == seats
        assert fits(table)


@settings(max_examples=300, deadline=None)
@given(seekers_st, st.sampled_from([2, 4]))
def test_nobody_left_waiting_could_make_a_table_with_the_others_left(
    seekers: list[Seeker[int]], seats: int
) -> None:
    """After the round, no group of those still waiting, next to each other, fits."""
    tables = tables_to_make(seekers, seats, NOW)
    seated = {each.key for table in tables for each in table}
    # next to each other in rating, the longer waiting first among equal ratings
    left = sorted(
        (each for each in seekers if each.key not in seated), key=lambda s: (s.rating, s.since)
    )
    for start in range(len(left) - seats + 1):
        group = tuple(left[start : start + seats])  # the closest groups in rating
        assert not fits(group), group


def test_the_longest_waiting_is_seated_with_the_closest_rating() -> None:
    ann = Seeker("ann", 1500.0, since=0.0)
    near, far = Seeker("near", 1540.0, since=5.0), Seeker("far", 1420.0, since=5.0)
    assert tables_to_make([far, near, ann], 2, now=5.0) == [(ann, near)]


def test_a_player_who_waited_long_reaches_a_newcomer_far_away() -> None:
    waited = Seeker("waited", 2200.0, since=0.0)
    newcomer = Seeker("new", 1500.0, since=ANYONE_AFTER_S - 1)
    assert tables_to_make([waited, newcomer], 2, now=ANYONE_AFTER_S - 1) == []
    assert tables_to_make([waited, newcomer], 2, now=ANYONE_AFTER_S) == [(newcomer, waited)]


def test_the_range_widens_with_the_wait_until_anyone_will_do() -> None:
    assert rating_range(0) == START_RANGE
    assert rating_range(10) == START_RANGE + 10 * WIDEN_PER_S
    widths = [rating_range(t / 2) for t in range(int(ANYONE_AFTER_S * 2))]
    assert widths == sorted(w for w in widths if w is not None)
    assert rating_range(ANYONE_AFTER_S) is None
    apart = [Seeker("low", 1000.0, 0.0), Seeker("high", 2200.0, 0.0)]
    assert tables_to_make(apart, 2, ANYONE_AFTER_S - 0.5) == []
    assert len(tables_to_make(apart, 2, ANYONE_AFTER_S)) == 1


def test_a_pool_that_waited_long_is_seated_in_full_tables() -> None:
    ratings = [1000.0 + 97 * n % 1300 for n in range(13)]
    seekers = [Seeker(n, rating, since=0.0) for n, rating in enumerate(ratings)]
    for seats in (2, 4):
        tables = tables_to_make(seekers, seats, ANYONE_AFTER_S)
        assert len(tables) == len(seekers) // seats


def test_a_table_needs_two_seats() -> None:
    with pytest.raises(ValueError, match="two seats"):
        tables_to_make([], 1, 0.0)


def test_a_four_seat_table_waits_for_the_fourth() -> None:
    three = [Seeker(n, 1500.0, 0.0) for n in range(3)]
    assert tables_to_make(three, 4, 0.0) == []
    four = [*three, Seeker(3, 1500.0, 0.0)]
    (table,) = tables_to_make(four, 4, 0.0)
    assert sorted(each.key for each in table) == [0, 1, 2, 3]
