"""Logs that one client cannot flood: records of one kind pass at a bounded rate.

One client once produced 459 tracebacks a second (1.3 MB of log a second). A record of a kind
(its logger and message template) seen too often is held back and counted; the next one of
that kind to pass says how many were held back. ``AddressLog`` does the same per client
address, for trouble that a client makes on purpose (a frame of bad bytes): one line per
address a minute.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from typing import Final

from rummykit.protocol import MAX_ADDRESSES, Clock, TokenBucket

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


ADDRESS_LOG_INTERVAL_S: Final = 60.0
"""An address's trouble of one kind is written at most once a minute: enough to see who sends
what, and a flood from one address cannot fill the log."""


class AddressLog:
    """At most one line per client address per ``interval_s``; the rest are counted.

    It keeps at most ``MAX_ADDRESSES`` addresses (the longest quiet forgotten first).

    The next line written for an address says how many were held back since its last one.
    Addresses quiet for two intervals are forgotten, so the record stays small.
    """

    def __init__(
        self,
        logger: logging.Logger,
        interval_s: float = ADDRESS_LOG_INTERVAL_S,
        clock: Clock = time.monotonic,
    ) -> None:
        """Lines go to ``logger``, timed by ``clock``."""
        self.logger = logger
        self.interval_s = interval_s
        self.clock = clock
        self.last: OrderedDict[str, float] = OrderedDict()
        """When each address's last line was written, the oldest first."""
        self.held_back: dict[str, int] = {}

    def warning(self, address: str, message: str) -> bool:
        """Write ``message`` (about ``address``) at WARNING unless one was written lately.

        Whether it was written.
        """
        now = self.clock()
        self._forget_quiet(now)
        last = self.last.get(address)
        if last is not None and now - last < self.interval_s:
            self.held_back[address] = self.held_back.get(address, 0) + 1
            return False
        held = self.held_back.pop(address, 0)
        self.last.pop(address, None)
        self.last[address] = now  # the newest last
        more = f" ({held} more from this address held back)" if held else ""
        self.logger.warning("%s: %s%s", address, message, more)
        return True

    def _forget_quiet(self, now: float) -> None:
        while self.last:
            address, when = next(iter(self.last.items()))
            if now - when < 2 * self.interval_s and len(self.last) < MAX_ADDRESSES:
                return
            del self.last[address]
            self.held_back.pop(address, None)
