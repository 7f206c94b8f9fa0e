"""An independent Bradley-Terry full-pair update, written from Weng & Lin (2011), Algorithm 1.

The tests compare openskill's ``BradleyTerryFull`` against it: a second source of truth
rather than the implementation checking itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rummykit.ratings import Rating

BETA = 25.0 / 6.0
"""The performance noise: openskill's default."""
TAU = 25.0 / 300.0
"""The dynamics added to each sigma before a game: openskill's default."""
KAPPA = 0.0001
"""The floor on the variance shrink factor: openskill's default."""


def bradley_terry_full(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """Each player's rating after the game, from the paper's pairwise formulas."""
    variances = [rating.sigma**2 + TAU**2 for rating in ratings]
    updated = []
    for i, rating in enumerate(ratings):
        omega = 0.0
        delta = 0.0
        for q, other in enumerate(ratings):
            if q == i:
                continue
            c = math.sqrt(variances[i] + variances[q] + 2 * BETA**2)
            p = 1.0 / (1.0 + math.exp((other.mu - rating.mu) / c))
            score = 1.0 if ranks[i] < ranks[q] else 0.5 if ranks[i] == ranks[q] else 0.0
            gamma = math.sqrt(variances[i]) / c
            omega += variances[i] / c * (score - p)
            delta += gamma * variances[i] / c**2 * p * (1 - p)
        sigma = math.sqrt(variances[i] * max(1 - delta, KAPPA))
        updated.append(Rating(mu=rating.mu + omega, sigma=sigma))
    return updated
