"""Rated games, repeat weights, the leaderboard's thresholds and leaver waits, at their edges."""

from __future__ import annotations

import pytest

from rummykit.ratings import (
    LEADERBOARD_GAMES,
    LEADERBOARD_IDLE_DAYS,
    LEADERBOARD_OPPONENTS,
    SETTLED_SIGMA,
    Rating,
    RatingInputError,
    is_rated,
    leaderboard_eligible,
    ranked_wait,
    rate,
    repeat_weight,
    times_played_recently,
)
from rummykit.ratings.waits import FIRST_WAIT_S, MAX_WAIT_S, STARTUP_GRACE_S

pytestmark = pytest.mark.timeout(60)

SETTLED = Rating(mu=28.0, sigma=3.0)


def test_a_game_shorter_than_one_whole_deal_is_not_rated() -> None:
    assert not is_rated(deals_completed=0, players=4)
    assert is_rated(deals_completed=1, players=4)


def test_a_game_needs_two_players_to_be_rated() -> None:
    assert not is_rated(deals_completed=3, players=1)
    assert is_rated(deals_completed=3, players=2)


def test_negative_counts_are_refused() -> None:
    with pytest.raises(RatingInputError):
        is_rated(deals_completed=-1, players=2)
    with pytest.raises(RatingInputError):
        repeat_weight(-1)
    with pytest.raises(RatingInputError):
        ranked_wait(-1, since_start_s=10_000)
    with pytest.raises(RatingInputError):
        leaderboard_eligible(SETTLED, games=-1, distinct_opponents=9, idle_days=0)


def test_each_repeat_counts_less_the_first_meeting_fully() -> None:
    assert [repeat_weight(k) for k in (0, 1, 2, 9)] == [1.0, 0.5, 1 / 3, 0.1]


def test_a_hundred_farmed_games_count_as_about_five() -> None:
    assert sum(repeat_weight(k) for k in range(100)) == pytest.approx(5.19, abs=0.01)


def test_repeats_count_the_opponent_met_most_often() -> None:
    recent = [{"ann", "bob"}, {"ann", "bob", "cy"}, {"ann", "cy"}, {"ann", "bob"}, {"bob", "dee"}]
    assert times_played_recently(recent, "ann", ["bob", "cy"]) == 3
    assert times_played_recently(recent, "ann", ["cy"]) == 2
    assert times_played_recently(recent, "ann", ["dee"]) == 0
    assert times_played_recently([], "ann", ["bob"]) == 0
    assert times_played_recently(iter(recent), "ann", ["bob", "ann"]) == 3


def test_a_zero_weight_leaves_the_rating_alone_and_a_half_weight_moves_half() -> None:
    players = [Rating(25.0, 5.0), Rating(25.0, 5.0)]
    full = rate(players, [0, 1])
    none, half = rate(players, [0, 1], [0.0, 0.5])
    assert none == players[0]
    assert half.mu - 25.0 == pytest.approx((full[1].mu - 25.0) / 2, abs=1e-12)
    assert half.sigma**2 == pytest.approx((5.0**2 + full[1].sigma ** 2) / 2, abs=1e-12)


def test_rate_refuses_malformed_games() -> None:
    with pytest.raises(RatingInputError, match="2 players or more"):
        rate([Rating()], [0])
    with pytest.raises(RatingInputError, match="3 ranks"):
        rate([Rating(), Rating()], [0, 1, 2])
    with pytest.raises(RatingInputError, match="from 0"):
        rate([Rating(), Rating()], [-1, 0])
    with pytest.raises(RatingInputError, match="1 weights"):
        rate([Rating(), Rating()], [0, 1], [1.0])
    with pytest.raises(RatingInputError, match=r"\[0, 1\]"):
        rate([Rating(), Rating()], [0, 1], [1.0, 1.5])


def eligible(
    rating: Rating = SETTLED,
    games: int = LEADERBOARD_GAMES,
    opponents: int = LEADERBOARD_OPPONENTS,
    idle_days: float = 0,
) -> bool:
    return leaderboard_eligible(rating, games, opponents, idle_days)


def test_the_leaderboard_takes_a_settled_rating_at_exactly_the_thresholds() -> None:
    assert eligible()
    assert eligible(idle_days=LEADERBOARD_IDLE_DAYS)


def test_the_leaderboard_refuses_one_short_of_any_threshold() -> None:
    assert not eligible(games=LEADERBOARD_GAMES - 1)
    assert not eligible(opponents=LEADERBOARD_OPPONENTS - 1)
    assert not eligible(idle_days=LEADERBOARD_IDLE_DAYS + 0.01)
    assert not eligible(rating=Rating(mu=40.0, sigma=SETTLED_SIGMA + 0.01))


def test_the_leaderboard_judges_the_rating_after_its_drift() -> None:
    barely = Rating(mu=28.0, sigma=SETTLED_SIGMA - 0.01)
    assert eligible(rating=barely, idle_days=0)
    assert not eligible(rating=barely, idle_days=2)


def test_no_wait_without_leaves_or_after_one_forgiven_leave() -> None:
    assert ranked_wait(0, since_start_s=86_400) == 0
    assert ranked_wait(1, since_start_s=86_400) == 0


def test_waits_double_with_each_further_leave_up_to_a_day() -> None:
    waits = [ranked_wait(leaves, since_start_s=86_400) for leaves in range(2, 12)]
    assert waits[:3] == [FIRST_WAIT_S, 2 * FIRST_WAIT_S, 4 * FIRST_WAIT_S]
    assert waits == sorted(waits)
    assert waits[-1] == MAX_WAIT_S
    assert ranked_wait(10**9, since_start_s=86_400) == MAX_WAIT_S


def test_no_wait_in_the_first_minutes_after_a_server_start() -> None:
    assert ranked_wait(5, since_start_s=0) == 0
    assert ranked_wait(5, since_start_s=STARTUP_GRACE_S - 1) == 0
    assert ranked_wait(5, since_start_s=STARTUP_GRACE_S) > 0
