"""Rating pools: winner and penalty scoring are different games, rated apart.

A game with a program's account at it is rated in the programs' pool of its scoring.

>>> from rummykit.core.rules import Scoring
>>> Pool.of(Scoring.PENALTY), Pool.PENALTY.lower_wins
(<Pool.PENALTY: 'penalty'>, True)
>>> Pool.of(Scoring.WINNER, programs=True)
<Pool.WINNER_BOTS: 'winner_bots'>
"""

from __future__ import annotations

import enum

from rummykit.core.rules import Scoring


class Pool(enum.StrEnum):
    """Which ratings a game updates: the rules' scoring decides, and whether programs play."""

    WINNER = "winner"
    """Games under winner scoring (the one who goes out collects; highest total wins)."""
    PENALTY = "penalty"
    """Games under penalty scoring (everyone else takes penalty points; lowest total wins)."""
    WINNER_BOTS = "winner_bots"
    """Winner scoring with a program's account at the table (unless its people chose the
    people's pool)."""
    PENALTY_BOTS = "penalty_bots"
    """Penalty scoring with a program's account at the table."""

    @classmethod
    def of(cls, scoring: Scoring, programs: bool = False) -> Pool:
        """The pool of a game played under ``scoring``; ``programs``: in the programs' pool.

        Meld points (500 Rum) rank the highest total first, as winner scoring does, and are
        rated in its pool.
        """
        if scoring is Scoring.PENALTY:
            return cls.PENALTY_BOTS if programs else cls.PENALTY
        return cls.WINNER_BOTS if programs else cls.WINNER

    @property
    def lower_wins(self) -> bool:
        """Whether the lowest final total ranks first in this pool's games."""
        return self in (Pool.PENALTY, Pool.PENALTY_BOTS)

    @property
    def programs(self) -> bool:
        """Whether this is a programs' pool."""
        return self in (Pool.WINNER_BOTS, Pool.PENALTY_BOTS)
