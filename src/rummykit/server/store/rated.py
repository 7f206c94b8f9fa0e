"""A ranked game's rating update, as the store writes it in the transaction that ends the game.

Pure: the store reads the accounts' ratings and recent rated games inside its transaction,
calls ``rated_rows``, and writes what it returns; so the update happens exactly once, with
the finished mark, or not at all.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Mapping, Sequence

from rummykit.core.deal import DealSummary
from rummykit.ratings import (
    Pool,
    Rating,
    Standing,
    drifted,
    final_order,
    is_rated,
    ranked_wait,
    rate,
    repeat_weight,
    times_played_recently,
    trust_weight,
)

DAY_S = 24 * 3600.0


@dataclasses.dataclass(frozen=True, slots=True)
class RatedGame:
    """What the table knows of a ranked game as it ends: enough to rate it."""

    table_id: str
    pool: Pool
    accounts: tuple[int, ...]
    """The account of each seat, in seat order."""
    totals: tuple[int, ...]
    """Each seat's final total."""
    deals_completed: int
    """Deals played to their end (a game shorter than one is not rated)."""
    left: frozenset[int] = frozenset()
    """Seats whose player left the game: they rank last."""
    computer_majority: frozenset[int] = frozenset()
    """Seats the computer played for most of their turns: they rank last. The store adds
    those its stored actions show (``SeatFigures.mostly_computer``)."""
    deals: tuple[DealSummary, ...] = ()
    """The outcome of each deal: the figures' points, outs and rummies."""


@dataclasses.dataclass(frozen=True, slots=True)
class StoredRating:
    """An account's rating in a pool as stored."""

    rating: Rating
    games: int
    last_played: float


@dataclasses.dataclass(frozen=True, slots=True)
class RatedRow:
    """One account's rated game: a ``rated_games`` row, and its new rating."""

    account: int
    seat: int
    rank: int
    total: int
    before: Rating
    """The rating before the game, drifted over the time idle."""
    after: Rating
    weight: float
    """The share of a full update the game counted: the repeat weight times the trust
    weight (``rummykit.ratings.trust``)."""


def rated_rows(
    game: RatedGame,
    ratings: Mapping[int, StoredRating],
    recent_games: Sequence[Collection[int]],
    now: float,
    standings: Mapping[int, Standing],
) -> list[RatedRow]:
    """Each account's update for ``game`` (none when the game is not rated).

    ``ratings`` holds the accounts' current ratings in the game's pool (a newcomer has none);
    ``recent_games`` the account sets of the rated games within the repeat window, which make
    a repeated meeting count less (``repeat_weight``); ``standings`` how well each account is
    known apart from the others (absent: fresh), which makes results against new accounts,
    and between accounts of one network, count little or nothing (``trust_weight``).
    """
    if not is_rated(game.deals_completed, len(set(game.accounts))):
        return []
    ranks = final_order(game.totals, game.pool.lower_wins, game.left, game.computer_majority)
    before = [current_rating(ratings.get(account), now) for account in game.accounts]
    met = [{str(account) for account in accounts} for accounts in recent_games]
    names = [str(account) for account in game.accounts]
    weights = [
        repeat_weight(times_played_recently(met, name, names))
        * trust_weight(account, game.accounts, standings)
        for account, name in zip(game.accounts, names, strict=True)
    ]
    after = rate(before, ranks, weights)
    return [
        RatedRow(account, seat, ranks[seat], game.totals[seat], before[seat], after[seat], weight)
        for seat, (account, weight) in enumerate(zip(game.accounts, weights, strict=True))
    ]


def waits_left(
    leaves: Mapping[int, Sequence[float]], now: float, since_start_s: float
) -> dict[int, float]:
    """The seconds each account still waits before its next ranked game (those that wait).

    ``leaves`` holds, per account, when it left ranked games early within ``LEAVE_WINDOW_S``
    (oldest first); the wait (``ranked_wait``) runs from the last of them.
    """
    waits = {}
    for account, times in leaves.items():
        if not times:
            continue
        left = max(times) + ranked_wait(len(times), since_start_s) - now
        if left > 0:
            waits[account] = left
    return waits


def wait_words(seconds: float) -> str:
    """A wait as a player reads it: minutes, rounded up, and hours past an hour.

    >>> wait_words(20), wait_words(300), wait_words(3 * 3600 + 61)
    ('1 min', '5 min', '3 h 2 min')
    """
    minutes = max(1, math.ceil(seconds / 60))
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return f"{minutes} min"
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def current_rating(stored: StoredRating | None, now: float) -> Rating:
    """A rating as stored, drifted over the days idle until ``now`` (a newcomer's if none)."""
    if stored is None:
        return Rating()
    return drifted(stored.rating, max(0.0, now - stored.last_played) / DAY_S)
