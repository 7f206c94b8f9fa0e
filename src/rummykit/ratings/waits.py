"""Leaver waits: leaving ranked games early leads to growing waits before the next one.

>>> [ranked_wait(leaves, since_start_s=3600) for leaves in range(5)]
[0, 0, 300, 600, 1200]
>>> ranked_wait(4, since_start_s=60)
0
"""

from __future__ import annotations

from typing import Final

from rummykit.ratings.errors import RatingInputError

LEAVE_WINDOW_S: Final = 24 * 3600
"""Leaves older than a day are forgiven: the caller counts leaves within this window."""

FORGIVEN_LEAVES: Final = 1
"""Leaves in the window that cost nothing: a dropped connection or a flat battery happens."""

FIRST_WAIT_S: Final = 300
"""The wait after the first leave past the forgiven ones: a few minutes, about a deal."""

MAX_WAIT_S: Final = 24 * 3600
"""The wait stops doubling at a day, the length of the window."""

STARTUP_GRACE_S: Final = 300
"""No waits in the first five minutes after a server start: a restart drops every socket,
and the leaves it causes are the server's fault, not the players'."""


def ranked_wait(leaves_recent: int, since_start_s: float) -> int:
    """Seconds a player waits, after their last leave, before the next ranked game.

    ``leaves_recent`` counts the ranked games the player left within ``LEAVE_WINDOW_S``; the
    wait doubles with each one past ``FORGIVEN_LEAVES``, up to ``MAX_WAIT_S``.
    ``since_start_s`` is the time since the server started: within ``STARTUP_GRACE_S`` nobody
    waits.
    """
    if leaves_recent < 0:
        raise RatingInputError(f"a count of leaves cannot be negative: {leaves_recent}")
    if since_start_s < STARTUP_GRACE_S or leaves_recent <= FORGIVEN_LEAVES:
        return 0
    # Past 2**9 the doubled wait is beyond any cap: stop there, not at a huge integer.
    doublings = min(leaves_recent - FORGIVEN_LEAVES - 1, 9)
    return min(MAX_WAIT_S, FIRST_WAIT_S << doublings)
