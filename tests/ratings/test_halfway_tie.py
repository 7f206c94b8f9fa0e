"""The seed's rule: a tie counts exactly halfway between a win and a loss, for every player.

Measured with ``benchmarks/ratings_settle.py`` over 300 random 2-6 player results (openskill
6.2.0): BradleyTerryFull misses halfway by at most 7.1e-15 in mu (its sigma does not depend on
the result at all); PlackettLuce misses by up to 5.36, BradleyTerryPart 0.40,
ThurstoneMostellerPart 2.24, ThurstoneMostellerFull 13.7 (benchmarks/README.md, Ratings).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from rated_results import TiedResult, tied_results
from rummykit.ratings import Rating, final_order, rate
from weng_lin import bradley_terry_full

pytestmark = pytest.mark.timeout(120)


def assert_halfway(result: TiedResult, weights: list[float] | None = None) -> None:
    first = rate(result.ratings, result.first_ahead, weights)
    second = rate(result.ratings, result.second_ahead, weights)
    tied = rate(result.ratings, result.tied, weights)
    for one, other, tie in zip(first, second, tied, strict=True):
        assert abs(tie.mu - (one.mu + other.mu) / 2) < 1e-9
        assert abs(tie.sigma - (one.sigma + other.sigma) / 2) < 1e-9


@given(tied_results())
def test_a_tie_updates_every_player_halfway_between_the_two_strict_orders(
    result: TiedResult,
) -> None:
    assert_halfway(result)


@given(tied_results(), st.data())
def test_a_tie_stays_halfway_when_repeat_weights_scale_the_update(
    result: TiedResult, data: st.DataObject
) -> None:
    weights = data.draw(
        st.lists(
            st.floats(min_value=0.0, max_value=1.0),
            min_size=len(result.ratings),
            max_size=len(result.ratings),
        )
    )
    assert_halfway(result, weights)


@given(tied_results())
def test_openskill_agrees_with_the_papers_bradley_terry_full_update(result: TiedResult) -> None:
    for ranks in (result.first_ahead, result.second_ahead, result.tied):
        ours = rate(result.ratings, ranks)
        paper = bradley_terry_full(result.ratings, ranks)
        for got, expected in zip(ours, paper, strict=True):
            assert got.mu == pytest.approx(expected.mu, abs=1e-9)
            assert got.sigma == pytest.approx(expected.sigma, abs=1e-9)


def test_equal_totals_from_final_order_tie_halfway() -> None:
    players = (Rating(30.0, 3.0), Rating(20.0, 6.0), Rating(25.0, 5.0))
    first = rate(players, final_order([100, 90, 40], lower_wins=False))
    second = rate(players, final_order([90, 100, 40], lower_wins=False))
    tied = rate(players, final_order([100, 100, 40], lower_wins=False))
    assert [tie.mu for tie in tied] == pytest.approx(
        [(one.mu + other.mu) / 2 for one, other in zip(first, second, strict=True)], abs=1e-9
    )
    assert tied[0].mu != tied[1].mu  # each keeps its own halfway point: no shared average


def test_plackett_luce_misses_the_halfway_rule() -> None:
    """The rule decides the model: a tie for first under PlackettLuce is not halfway.

    Here the third player, not even in the tie, gains 1.13 mu more than halfway, and the
    second of the pair loses 1.0 more (openskill 6.2.0).
    """
    model = PlackettLuce()
    players = [(30.0, 3.0), (20.0, 6.0), (25.0, 5.0)]

    def mus(ranks: list[float]) -> list[float]:
        teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
        return [team[0].mu for team in model.rate(teams, ranks=ranks)]

    first, second, tied = mus([0, 1, 2]), mus([1, 0, 2]), mus([0, 0, 2])
    misses = [tie - (one + other) / 2 for one, other, tie in zip(first, second, tied, strict=True)]
    assert misses == pytest.approx([-0.158, -0.996, 1.132], abs=1e-3)
