"""Logs that one client cannot flood: records of one kind pass at a bounded rate.

One client once produced 459 tracebacks a second (1.3 MB of log a second). A record of a kind
(its logger and message template) seen too often is held back and counted; the next one of
that kind to pass says how many were held back.
"""

from __future__ import annotations

import logging
import time
from typing import Final

from rummykit.server.limits import Clock, TokenBucket

LOG_BURST: Final = 20
"""Records of one kind that pass at once: enough to see what went wrong, and where."""
LOG_PER_SECOND: Final = 1.0
"""Records of one kind a second past the burst."""
MAX_KINDS: Final = 1_000
"""Kinds of record tracked; our messages are a few dozen templates."""


class RateLimitedLog(logging.Filter):
    """A filter: each kind of record passes ``LOG_BURST`` times, then ``LOG_PER_SECOND``."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        """A filter on ``clock``."""
        super().__init__()
        self.clock = clock
        self.buckets: dict[tuple[str, str], TokenBucket] = {}
        self.held_back: dict[tuple[str, str], int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is written; a passing record counts those held back before it."""
        kind = (record.name, str(record.msg))
        bucket = self.buckets.get(kind)
        if bucket is None:
            if len(self.buckets) >= MAX_KINDS:
                self.buckets.clear()
            bucket = self.buckets[kind] = TokenBucket(LOG_BURST, LOG_PER_SECOND, self.clock)
        if not bucket.take():
            self.held_back[kind] = self.held_back.get(kind, 0) + 1
            return False
        held = self.held_back.pop(kind, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like it were held back)"
        return True


def limit_logging(logger: logging.Logger, clock: Clock = time.monotonic) -> RateLimitedLog:
    """Put a ``RateLimitedLog`` on ``logger`` (once: a second call finds the first)."""
    for existing in logger.filters:
        if isinstance(existing, RateLimitedLog):
            return existing
    log_filter = RateLimitedLog(clock)
    logger.addFilter(log_filter)
    return log_filter
