"""Golden values for the pinned openskill (6.2.0, BradleyTerryFull with its defaults).

An upgrade that changes any rating fails here: ratings already stored would no longer match
what the new version computes, so an upgrade is a decision (a migration), never a side effect.
"""

from __future__ import annotations

from importlib.metadata import version

import pytest

from rummykit.ratings import Rating, display, final_order, rate

pytestmark = pytest.mark.timeout(30)

GOLDEN_TOLERANCE = 1e-12
"""Room for the last bits of ``exp`` on another platform; far below any displayed change."""


def assert_ratings(got: tuple[Rating, ...], expected: list[tuple[float, float]]) -> None:
    assert len(got) == len(expected)
    for rating, (mu, sigma) in zip(got, expected, strict=True):
        assert rating.mu == pytest.approx(mu, abs=GOLDEN_TOLERANCE)
        assert rating.sigma == pytest.approx(sigma, abs=GOLDEN_TOLERANCE)


def test_the_pinned_openskill_version_is_installed() -> None:
    assert version("openskill") == "6.2.0"


def test_two_newcomers_one_wins() -> None:
    got = rate([Rating(), Rating()], [0, 1])
    assert_ratings(
        got, [(27.635389493140497, 8.06590141354368), (22.364610506859503, 8.06590141354368)]
    )
    assert [display(rating) for rating in got] == ["1658?", "1342?"]


def test_four_players_of_every_kind_in_a_mixed_order() -> None:
    players = [Rating(28.0, 4.0), Rating(22.5, 6.5), Rating(25.0, 2.0), Rating(31.0, 8.0)]
    got = rate(players, [2, 0, 3, 1])
    assert_ratings(
        got,
        [
            (27.161717438580006, 3.864084491631268),
            (30.36184398104426, 5.816803493773956),
            (24.389203585611536, 1.9924871831824098),
            (32.20050292176972, 6.777376328132487),
        ],
    )
    assert [display(rating) for rating in got] == ["1630", "1822?", "1463", "1932?"]


def test_a_tie_for_first_between_unequal_players() -> None:
    got = rate([Rating(30.0, 3.0), Rating(20.0, 6.0), Rating(25.0, 5.0)], [0, 0, 2])
    assert_ratings(
        got,
        [
            (30.12801936918156, 2.974198400668034),
            (23.32424951256541, 5.659824380667705),
            (22.335863609106045, 4.792725957437296),
        ],
    )


def test_penalty_game_with_a_leaver_and_repeat_weights() -> None:
    players = [Rating(24.0, 3.0), Rating(26.0, 3.5), Rating(27.0, 5.0), Rating(21.0, 7.0), Rating()]
    ranks = final_order([45, 12, 30, 12, 60], lower_wins=True, left={4})
    assert ranks == (3, 0, 2, 0, 4)
    got = rate(players, ranks, [1.0, 0.5, 1.0, 0.25, 1.0])
    assert_ratings(
        got,
        [
            (22.935393293196995, 2.9400431731127665),
            (26.930245372559053, 3.445904318763757),
            (26.1465074445091, 4.608646435701294),
            (23.216802900171093, 6.7387941448024895),
            (12.470972772564206, 6.417565631013192),
        ],
    )
