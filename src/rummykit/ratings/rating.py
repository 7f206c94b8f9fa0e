"""A player's rating: openskill's (mu, sigma), and the number players see.

>>> display(Rating())
'1500?'
>>> display(Rating(mu=30.0, sigma=3.0))
'1800'
>>> Rating(mu=30.0, sigma=3.0)
Rating(mu=30.0, sigma=3.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from rummykit.ratings.errors import RatingInputError

DEFAULT_MU: Final = 25.0
"""A newcomer's skill estimate: openskill's default."""

DEFAULT_SIGMA: Final = 25.0 / 3.0
"""A newcomer's uncertainty: openskill's default (mu / 3)."""

SETTLED_SIGMA: Final = 4.5
"""Above this sigma a rating is provisional (shown with "?") and off the leaderboard.

Measured by ``benchmarks/ratings_settle.py`` (a newcomer against a fixed field): the median
newcomer crosses it after 17 two-player, 8 three-player, 5 four-player or 3 six-player games,
its mu then off by a median 177-208 displayed points at 2-4 seats (what a sigma of 4.5
promises: 0.674 x 4.5 x 60 = 182). At 3.5 a two-player newcomer stays provisional for 32
games; at 5.5 a four-player one settles after 3 games, 246 points off. README, section Ratings.
"""

DISPLAY_BASE: Final = 1500
"""The displayed number of an average (mu 25) player."""

DISPLAY_SCALE: Final = 60
"""Displayed points per unit of mu: the field's spread of about 8 mu becomes about 500."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu`` and standard deviation ``sigma`` (openskill units)."""

    mu: float = DEFAULT_MU
    """The estimated skill."""
    sigma: float = DEFAULT_SIGMA
    """The uncertainty of ``mu``: it shrinks with every game and grows while idle."""

    def __post_init__(self) -> None:
        if not math.isfinite(self.mu):
            raise RatingInputError(f"a rating's mu must be a finite number, not {self.mu!r}")
        if not (math.isfinite(self.sigma) and self.sigma > 0):
            raise RatingInputError(f"a rating's sigma must be above 0, not {self.sigma!r}")

    def __str__(self) -> str:
        return display(self)


def is_settled(rating: Rating) -> bool:
    """Whether the rating is sure enough to show without "?" and to enter a leaderboard."""
    return rating.sigma <= SETTLED_SIGMA


def display_value(rating: Rating) -> int:
    """The rating as players see it: ``1500 + 60 (mu - 25)``, rounded half to even."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (rating.mu - DEFAULT_MU))


def display(rating: Rating) -> str:
    """The displayed number, with "?" appended while the rating is not settled."""
    value = str(display_value(rating))
    return value if is_settled(rating) else f"{value}?"
