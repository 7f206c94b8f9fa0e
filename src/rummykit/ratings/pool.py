"""Rating pools: winner and penalty scoring are different games, rated apart.

>>> from rummykit.core.rules import Scoring
>>> Pool.from_scoring(Scoring.PENALTY), Pool.PENALTY.lower_wins
(<Pool.PENALTY: 'penalty'>, True)
"""

from __future__ import annotations

import enum

from rummykit.core.rules import Scoring


class Pool(enum.StrEnum):
    """Which ratings a game updates: the rules' scoring decides."""

    WINNER = "winner"
    """Games under winner scoring (the one who goes out collects; highest total wins)."""
    PENALTY = "penalty"
    """Games under penalty scoring (everyone else takes penalty points; lowest total wins)."""

    @classmethod
    def from_scoring(cls, scoring: Scoring) -> Pool:
        """The pool of a game played under ``scoring``.

        Meld points (500 Rum) rank the highest total first, as winner scoring does, and are
        rated in its pool.
        """
        return cls.PENALTY if scoring is Scoring.PENALTY else cls.WINNER

    @property
    def lower_wins(self) -> bool:
        """Whether the lowest final total ranks first in this pool's games."""
        return self is Pool.PENALTY
