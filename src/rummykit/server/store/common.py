"""What every repository of the store shares: the wall clock's type and the tokens' hash."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

Now = Callable[[], float]
"""Seconds since the epoch, as ``time.time`` gives them."""


def token_hash(token: str) -> str:
    """What the store keeps of a seat's or a session's token."""
    return hashlib.sha256(token.encode()).hexdigest()
