"""Which games are rated, and which ratings enter a leaderboard.

>>> is_rated(deals_completed=0, players=3), is_rated(deals_completed=1, players=3)
(False, True)
>>> leaderboard_eligible(Rating(sigma=3.0), games=25, distinct_opponents=6, idle_days=2)
True
"""

from __future__ import annotations

from typing import Final

from rummykit.ratings.drift import drifted
from rummykit.ratings.errors import RatingInputError
from rummykit.ratings.rating import Rating, is_settled

LEADERBOARD_GAMES: Final = 20
"""Rated games a player needs in the pool: past the settling games (5-14, depending on the
table size) so that a lucky first evening does not top the board."""

LEADERBOARD_OPPONENTS: Final = 5
"""Distinct accounts a player must have met: two or three friends feeding each other wins
stay off the board."""

LEADERBOARD_IDLE_DAYS: Final = 14
"""A rated game in the last two weeks: the board shows who plays now. Longer than lichess's
week because a rummy game lasts half an hour, not five minutes."""


def is_rated(deals_completed: int, players: int) -> bool:
    """Whether a finished game changes ratings: one whole deal played, two players or more.

    A game that ends before its first deal is over (everyone left, the host stopped it) says
    nothing about skill.
    """
    if deals_completed < 0 or players < 0:
        raise RatingInputError(
            f"counts cannot be negative: {deals_completed} deals, {players} players"
        )
    return deals_completed >= 1 and players >= 2


def leaderboard_eligible(
    rating: Rating, games: int, distinct_opponents: int, idle_days: float
) -> bool:
    """Whether a rating enters its pool's leaderboard.

    It must be settled once drifted over ``idle_days``, rest on ``LEADERBOARD_GAMES`` games
    against ``LEADERBOARD_OPPONENTS`` distinct accounts, and the last game must be at most
    ``LEADERBOARD_IDLE_DAYS`` old.
    """
    if games < 0 or distinct_opponents < 0:
        raise RatingInputError(
            f"counts cannot be negative: {games} games, {distinct_opponents} opponents"
        )
    return (
        games >= LEADERBOARD_GAMES
        and distinct_opponents >= LEADERBOARD_OPPONENTS
        and idle_days <= LEADERBOARD_IDLE_DAYS
        and is_settled(drifted(rating, idle_days))
    )
