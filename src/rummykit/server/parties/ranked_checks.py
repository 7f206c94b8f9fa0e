"""What ranked play asks of an account before a game: no ranked game going on, no wait owed."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from rummykit.ratings.waits import LEAVE_WINDOW_S
from rummykit.server.store import Now, Store, waits_left


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
