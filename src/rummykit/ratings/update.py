"""The rating update: openskill's BradleyTerryFull over a game's final order.

BradleyTerryFull compares every pair of players (a win scores 1, a tie 0.5, a loss 0), so a
tie's update lies exactly halfway between the two strict orders: the seed's rule.

openskill 6.2.0 also holds code meant to give tied players their average change; it has no
effect (it measures each change after updating the player in place, so every change reads 0).
The rule relies on that: were a later version to make it work, two tied players of unequal
ratings would both move by their average, neither halfway. tests/ratings catch it.

>>> winner, loser = rate([Rating(), Rating()], [0, 1])
>>> round(winner.mu, 3), round(loser.mu, 3), round(winner.sigma, 3)
(27.635, 22.365, 8.066)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummykit.ratings.errors import RatingInputError
from rummykit.ratings.rating import DEFAULT_MU, DEFAULT_SIGMA, Rating

if TYPE_CHECKING:
    from openskill.models import BradleyTerryFull


@functools.cache
def _model() -> BradleyTerryFull:
    """The model with openskill's defaults (beta 25/6, tau 25/300): golden tests pin its values.

    Made on first use: openskill comes with the site (``rummykit[server]``), and the engine's
    commands (``rummy replay``, ``rummy sim``) import this package without it.
    """
    from openskill.models import BradleyTerryFull

    return BradleyTerryFull(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def rate(
    ratings: Sequence[Rating],
    ranks: Sequence[int],
    weights: Sequence[float] | None = None,
) -> tuple[Rating, ...]:
    """The players' ratings after a game where seat ``i`` finished at ``ranks[i]`` (0 best).

    ``weights`` (each in [0, 1], default 1) scale each player's update: mu moves by that share
    of openskill's step and the variance by that share of its change, so weight 1 is
    openskill's update and weight 0 leaves the rating as it was (see ``repeat_weight``).
    """
    _check_game(ratings, ranks, weights)
    model = _model()
    teams = [[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in ratings]
    result = model.rate(teams, ranks=[float(rank) for rank in ranks])
    shares = [1.0] * len(ratings) if weights is None else weights
    return tuple(
        _scaled(before, after.mu, after.sigma, share)
        for before, [after], share in zip(ratings, result, shares, strict=True)
    )


def _scaled(before: Rating, mu: float, sigma: float, share: float) -> Rating:
    if share == 1.0:
        return Rating(mu=mu, sigma=sigma)
    variance = before.sigma**2 + share * (sigma**2 - before.sigma**2)
    return Rating(mu=before.mu + share * (mu - before.mu), sigma=math.sqrt(variance))


def _check_game(
    ratings: Sequence[Rating], ranks: Sequence[int], weights: Sequence[float] | None
) -> None:
    if len(ratings) < 2:
        raise RatingInputError(f"a rated game needs 2 players or more, not {len(ratings)}")
    if len(ranks) != len(ratings):
        raise RatingInputError(f"{len(ranks)} ranks {list(ranks)} for {len(ratings)} players")
    if any(rank < 0 for rank in ranks):
        raise RatingInputError(f"ranks count from 0 (best): {list(ranks)}")
    if weights is None:
        return
    if len(weights) != len(ratings):
        raise RatingInputError(f"{len(weights)} weights {list(weights)} for {len(ratings)} players")
    if not all(0.0 <= weight <= 1.0 for weight in weights):
        raise RatingInputError(f"weights must lie in [0, 1]: {list(weights)}")
