"""The final order: totals decide, equal totals tie, leavers and computer-played seats last."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.core.rules import Scoring
from rummykit.ratings import Pool, RatingInputError, final_order

pytestmark = pytest.mark.timeout(60)


def test_winner_scoring_ranks_the_highest_total_first() -> None:
    assert final_order([80, 150, 20], lower_wins=False) == (1, 0, 2)


def test_penalty_scoring_ranks_the_lowest_total_first() -> None:
    assert final_order([80, 150, 20], lower_wins=True) == (1, 2, 0)


def test_equal_totals_tie_and_the_next_seat_counts_those_ahead() -> None:
    assert final_order([100, 100, 60, 100], lower_wins=False) == (0, 0, 3, 0)
    assert final_order([10, 40, 40, 70], lower_wins=True) == (0, 1, 1, 3)


def test_everyone_equal_is_a_tie_for_first() -> None:
    assert final_order([0, 0, 0], lower_wins=True) == (0, 0, 0)


def test_a_seat_that_left_ranks_last_even_with_the_best_total() -> None:
    assert final_order([200, 50, 90], lower_wins=False, left={0}) == (2, 1, 0)


def test_a_seat_the_computer_played_ranks_last_even_with_the_best_total() -> None:
    assert final_order([5, 50, 90], lower_wins=True, computer_majority=[0]) == (2, 0, 1)


def test_several_demoted_seats_tie_for_last_whatever_their_totals() -> None:
    ranks = final_order([10, 300, 40, 250], lower_wins=False, left={1}, computer_majority={3})
    assert ranks == (1, 2, 0, 2)


def test_a_seat_both_left_and_computer_played_counts_once() -> None:
    assert final_order([1, 2], lower_wins=False, left={0}, computer_majority={0}) == (1, 0)


def test_everyone_demoted_is_a_tie() -> None:
    assert final_order([1, 2], lower_wins=False, left={0, 1}) == (0, 0)


def test_an_unknown_seat_is_refused_with_its_number() -> None:
    with pytest.raises(RatingInputError, match=r"no seat \[3\] among 3 seats"):
        final_order([1, 2, 3], lower_wins=False, left={3})


def test_the_pool_of_the_rules_scoring_says_which_end_wins() -> None:
    assert Pool.of(Scoring.WINNER) is Pool.WINNER
    assert Pool.of(Scoring.PENALTY) is Pool.PENALTY
    assert not Pool.WINNER.lower_wins
    assert Pool.PENALTY.lower_wins


@given(
    st.lists(st.integers(min_value=-50, max_value=500), min_size=2, max_size=6),
    st.booleans(),
    st.data(),
)
def test_a_rank_is_the_number_of_seats_that_did_strictly_better(
    totals: list[int], lower_wins: bool, data: st.DataObject
) -> None:
    seats = range(len(totals))
    left = data.draw(st.sets(st.sampled_from(seats)))
    computer = data.draw(st.sets(st.sampled_from(seats)))
    ranks = final_order(totals, lower_wins, left, computer)
    demoted = left | computer

    def better(one: int, other: int) -> bool:
        """Whether seat ``one`` finished strictly ahead of seat ``other``."""
        if one in demoted:
            return False
        if other in demoted:
            return True
        return totals[one] < totals[other] if lower_wins else totals[one] > totals[other]

    assert ranks == tuple(sum(better(other, seat) for other in seats) for seat in seats)
