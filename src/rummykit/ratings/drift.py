"""Inactivity drift: a rating left idle grows uncertain again, back toward a newcomer's.

Skill is modelled as a random walk, as in Glicko: each idle day adds ``DRIFT_PER_DAY²`` to
the variance, capped at a newcomer's sigma.

>>> from rummykit.ratings.rating import display
>>> settled = Rating(mu=30.0, sigma=2.0)
>>> display(drifted(settled, 30)), display(drifted(settled, 190))
('1800', '1800?')
"""

from __future__ import annotations

import math
from typing import Final

from rummykit.ratings.errors import RatingInputError
from rummykit.ratings.rating import DEFAULT_SIGMA, SETTLED_SIGMA, Rating

REGULAR_SIGMA: Final = 2.0
"""The sigma of a regular player, on which the drift is tuned: the median after 40
four-player games is 2.06 (40 three-player: 2.39), measured by ``benchmarks/ratings_settle.py``."""

UNSETTLE_DAYS: Final = 182
"""About six months idle turn a regular's rating provisional again: long enough that a summer
away costs nothing, short enough that a rating a year old is not trusted."""

DRIFT_PER_DAY: Final = math.sqrt((SETTLED_SIGMA**2 - REGULAR_SIGMA**2) / UNSETTLE_DAYS)
"""Sigma added per square-root day idle (about 0.30): a regular crosses ``SETTLED_SIGMA``
after ``UNSETTLE_DAYS``."""


def drifted(rating: Rating, idle_days: float) -> Rating:
    """``rating`` after ``idle_days`` without a rated game: the same mu, a larger sigma."""
    if not (math.isfinite(idle_days) and idle_days >= 0):
        raise RatingInputError(f"idle days must be 0 or more, not {idle_days!r}")
    sigma = math.sqrt(rating.sigma**2 + DRIFT_PER_DAY**2 * idle_days)
    return Rating(mu=rating.mu, sigma=min(max(rating.sigma, DEFAULT_SIGMA), sigma))
