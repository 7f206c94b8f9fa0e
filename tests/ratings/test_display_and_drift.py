"""The displayed rating, the provisional mark, and inactivity drift."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.ratings import (
    DEFAULT_SIGMA,
    SETTLED_SIGMA,
    Rating,
    RatingInputError,
    display,
    display_value,
    drifted,
    is_settled,
)
from rummykit.ratings.drift import DRIFT_PER_DAY, REGULAR_SIGMA, UNSETTLE_DAYS

pytestmark = pytest.mark.timeout(60)


def test_a_newcomer_shows_1500_provisional() -> None:
    assert Rating() == Rating(mu=25.0, sigma=25.0 / 3.0)
    assert display(Rating()) == "1500?"
    assert str(Rating()) == "1500?"


def test_display_is_1500_plus_60_per_mu_rounded() -> None:
    assert display_value(Rating(mu=30.0, sigma=2.0)) == 1800
    assert display_value(Rating(mu=20.0, sigma=2.0)) == 1200
    assert display_value(Rating(mu=25.01, sigma=2.0)) == 1501  # 1500.6
    assert display_value(Rating(mu=-5.0, sigma=2.0)) == -300


def test_the_question_mark_goes_exactly_at_the_settled_sigma() -> None:
    assert display(Rating(sigma=SETTLED_SIGMA)) == "1500"
    assert display(Rating(sigma=math.nextafter(SETTLED_SIGMA, math.inf))) == "1500?"
    assert is_settled(Rating(sigma=SETTLED_SIGMA))


def test_a_rating_refuses_what_no_game_produces() -> None:
    for bad in ({"sigma": 0.0}, {"sigma": -1.0}, {"mu": math.nan}, {"sigma": math.inf}):
        with pytest.raises(RatingInputError):
            Rating(**bad)


def test_the_repr_rebuilds_the_rating() -> None:
    rating = Rating(mu=27.5, sigma=3.25)
    assert eval(repr(rating), {"Rating": Rating}) == rating


def test_no_idle_day_changes_nothing() -> None:
    assert drifted(Rating(30.0, 2.0), 0) == Rating(30.0, 2.0)


def test_a_regular_unsettles_after_about_six_months_idle() -> None:
    regular = Rating(mu=30.0, sigma=REGULAR_SIGMA)
    assert is_settled(drifted(regular, UNSETTLE_DAYS - 1))
    assert not is_settled(drifted(regular, UNSETTLE_DAYS + 1))
    assert 170 <= UNSETTLE_DAYS <= 190
    assert pytest.approx(0.30, abs=0.01) == DRIFT_PER_DAY


def test_drift_never_passes_a_newcomers_sigma_and_keeps_mu() -> None:
    far = drifted(Rating(mu=33.0, sigma=1.0), 10_000)
    assert far == Rating(mu=33.0, sigma=DEFAULT_SIGMA)


def test_drift_refuses_negative_days() -> None:
    with pytest.raises(RatingInputError, match="-1"):
        drifted(Rating(), -1)


@given(
    st.floats(min_value=0.1, max_value=12.0),
    st.floats(min_value=0.0, max_value=2000.0),
    st.floats(min_value=0.0, max_value=2000.0),
)
def test_drift_only_grows_sigma_and_grows_it_more_the_longer_the_idle(
    sigma: float, days: float, more: float
) -> None:
    rating = Rating(mu=25.0, sigma=sigma)
    sooner, later = drifted(rating, days), drifted(rating, days + more)
    assert rating.sigma <= sooner.sigma <= later.sigma
    assert later.sigma <= max(sigma, DEFAULT_SIGMA)
