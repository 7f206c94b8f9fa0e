"""What ranked play asks of an account: no ranked game going on, no wait owed; its rating now."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from rummykit.ratings import Pool, display_value, is_settled
from rummykit.ratings.waits import LEAVE_WINDOW_S
from rummykit.server.store import Now, Store, current_rating, waits_left


class RankedChecks:
    """The store's answers to a ranked party's (or a pool's) questions about accounts."""

    def __init__(self, store: Store, now: Now, started: float) -> None:
        """Over ``store``; ``started``: when the server started (no waits just after)."""
        self._store = store
        self._now = now
        self._started = started

    async def busy(self, accounts: Sequence[int]) -> set[int]:
        """Which of ``accounts`` are playing a ranked game now."""
        return await asyncio.to_thread(self._store.rated_games.in_ranked_games, accounts)

    async def waits(self, accounts: Sequence[int]) -> dict[int, float]:
        """The seconds each of ``accounts`` still waits before its next ranked game.

        Only those that wait (having left ranked games early) are in it.
        """
        now = self._now()
        leaves = await asyncio.to_thread(
            self._store.rated_games.leaves, accounts, now - LEAVE_WINDOW_S
        )
        return waits_left(leaves, now, now - self._started)


HostRating = Callable[[int, Pool], Awaitable[tuple[int, bool]]]
"""An account's displayed rating in a pool now, and whether it is still provisional."""


def stored_ratings(store: Store, now: Now) -> HostRating:
    """Accounts' ratings as ``store`` keeps them, drifted to ``now``."""

    async def rating_now(account: int, pool: Pool) -> tuple[int, bool]:
        stored = await asyncio.to_thread(store.ratings.of, account, pool)
        rating = current_rating(stored, now())
        return display_value(rating), not is_settled(rating)

    return rating_now
