"""Repeat games: the same accounts playing each other again and again count less each time.

Two accounts that farm each other get the harmonic series: 100 games in a week count as
about 5 ordinary ones.

>>> [repeat_weight(k) for k in range(4)]
[1.0, 0.5, 0.3333333333333333, 0.25]
>>> times_played_recently([{"ann", "bob"}, {"bob", "cy"}, {"ann", "bob", "cy"}], "ann", ["bob"])
2
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Final

from rummykit.ratings.errors import RatingInputError

REPEAT_WINDOW_DAYS: Final = 7
"""Games older than this no longer make a meeting a repeat: a weekly club night counts fully."""


def repeat_weight(times_played_recently: int) -> float:
    """The share of a normal update for a game that repeats a recent meeting.

    ``times_played_recently`` is ``k``, the rated games in the last ``REPEAT_WINDOW_DAYS``
    that already brought these accounts together (see ``times_played_recently``); the update
    is scaled by ``1 / (1 + k)``. Pass it to ``rate`` as the player's weight.
    """
    if times_played_recently < 0:
        raise RatingInputError(
            f"a count of recent games cannot be negative: {times_played_recently}"
        )
    return 1.0 / (1 + times_played_recently)


def times_played_recently(
    recent_games: Iterable[Collection[str]], player: str, opponents: Collection[str]
) -> int:
    """How often ``player`` met any one of ``opponents`` in ``recent_games``: the worst pair.

    ``recent_games`` are the account sets of the rated games in the repeat window. Counting
    per pair, not per whole table, means that shuffling a third account in and out of a
    farming pair does not reset the count.
    """
    games = list(recent_games)
    meetings = (
        sum(1 for game in games if player in game and opponent in game)
        for opponent in opponents
        if opponent != player
    )
    return max(meetings, default=0)
