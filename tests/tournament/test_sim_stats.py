"""The tournament statistics against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from rummykit.tournament.stats import (
    mean,
    mean_interval,
    percentile,
    sample_standard_deviation,
    t_quantile_975,
    wilson_interval,
)


def test_wilson_interval_of_half_of_a_hundred() -> None:
    # p = 0.5, z² = 3.8415, n = 100: denominator 1.038415, centre (0.5 + 0.019207) / it = 0.5,
    # half-width 1.96 · √(0.0025 + 0.000096) / 1.038415 = 0.09617.
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=5e-5)
    assert high == pytest.approx(0.5962, abs=5e-5)


def test_wilson_interval_with_no_successes_starts_at_zero() -> None:
    # p = 0, n = 10: denominator 1.38415, centre (3.8415 / 20) / it = 0.13877, and the
    # half-width 1.96 · √(3.8415 / 400) / 1.38415 = 0.13877 too: (0, 0.2775).
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(0.2775, abs=5e-5)


def test_wilson_interval_with_all_successes_ends_at_one() -> None:
    # The mirror image of 0 out of 10.
    low, high = wilson_interval(10, 10)
    assert low == pytest.approx(0.7225, abs=5e-5)
    assert high == 1.0


def test_wilson_interval_of_no_trials_is_unknown() -> None:
    low, high = wilson_interval(0, 0)
    assert math.isnan(low) and math.isnan(high)


def test_wilson_interval_refuses_more_successes_than_trials() -> None:
    with pytest.raises(ValueError, match="from 0 to the trials"):
        wilson_interval(11, 10)


def test_mean_interval_of_one_to_four_uses_t_with_three_degrees_of_freedom() -> None:
    # mean 2.5; deviations ±1.5, ±0.5: sd = √((2.25 + 0.25 + 0.25 + 2.25) / 3) = √(5/3)
    # = 1.29099; standard error 1.29099 / √4 = 0.64550; t(0.975, 3) = 3.18245;
    # half-width 3.18245 · 0.64550 = 2.05426: (0.44574, 4.55426).
    low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert low == pytest.approx(0.44574, abs=1e-5)
    assert high == pytest.approx(4.55426, abs=1e-5)


def test_mean_interval_of_equal_values_is_a_point() -> None:
    assert mean_interval([3.0, 3.0, 3.0]) == (3.0, 3.0)


def test_mean_interval_needs_two_observations() -> None:
    for values in ([], [4.0]):
        low, high = mean_interval(values)
        assert math.isnan(low) and math.isnan(high)


def test_mean_interval_of_many_observations_approaches_the_normal_one() -> None:
    # 0 and 1 alternating, 1000 of them: mean 0.5, sd √(250 / 999) = 0.50025,
    # t(999) = 1.96234: half-width 1.96234 · 0.50025 / √1000 = 0.031043.
    values = [float(index % 2) for index in range(1000)]
    low, high = mean_interval(values)
    assert low == pytest.approx(0.5 - 0.031043, abs=1e-5)
    assert high == pytest.approx(0.5 + 0.031043, abs=1e-5)


def test_mean_and_standard_deviation() -> None:
    assert mean([1.0, 2.0, 3.0, 4.0]) == 2.5
    assert math.isnan(mean([]))
    assert sample_standard_deviation([2.0, 4.0]) == pytest.approx(math.sqrt(2))
    assert math.isnan(sample_standard_deviation([2.0]))


def test_t_quantiles_from_the_table_and_beyond() -> None:
    assert t_quantile_975(1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile_975(10) == pytest.approx(2.2281, abs=1e-4)
    assert t_quantile_975(30) == pytest.approx(2.0423, abs=1e-4)
    assert t_quantile_975(60) == pytest.approx(2.0003, abs=1e-4)
    assert t_quantile_975(120) == pytest.approx(1.9799, abs=1e-4)
    assert t_quantile_975(10**6) == pytest.approx(1.95996, abs=1e-5)
    with pytest.raises(ValueError, match="at least 1 degree"):
        t_quantile_975(0)


def test_percentiles_interpolate_between_ranks() -> None:
    values = [4.0, 1.0, 3.0, 2.0]  # sorted 1 2 3 4; position q/100 · 3
    assert percentile(values, 0) == 1.0
    assert percentile(values, 50) == 2.5  # position 1.5
    assert percentile(values, 99) == pytest.approx(3.97)  # position 2.97
    assert percentile(values, 100) == 4.0
    assert percentile([7.0], 99) == 7.0


def test_percentile_of_nothing_is_unknown_and_q_must_be_a_percentage() -> None:
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError, match="from 0 to 100"):
        percentile([1.0], 101)
