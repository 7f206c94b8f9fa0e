"""An outage said once in the log: the database or Redis out of reach.

One line when a service is first found out of reach, none for the hundreds of requests
answered ``503`` after it (nor for each try to reconnect), until ``LOG_EVERY_S`` have passed:
then one more, saying how many were held back. A traceback says nothing more about an outage
than its first line does.
"""

from __future__ import annotations

import logging
import time
from typing import Final

from rummykit.protocol import Clock

LOG_EVERY_S: Final = 60.0
"""One log line per service out of reach in this time: the first request of an outage says
what is wrong; the next thousand would say the same."""

logger = logging.getLogger("rummykit.outage")


class OutageLog:
    """At most one log line per service every ``every_s`` seconds on ``clock``."""

    def __init__(self, clock: Clock = time.monotonic, every_s: float = LOG_EVERY_S) -> None:
        """A log of outages timed by ``clock``."""
        self.clock = clock
        self.every_s = every_s
        self.last: dict[str, float] = {}
        self.held_back: dict[str, int] = {}

    def note(self, service: str, detail: str) -> bool:
        """Log that ``service`` is out of reach (``detail`` says how), unless it was just said.

        Whether a line was written.
        """
        now = self.clock()
        last = self.last.get(service)
        if last is not None and now - last < self.every_s:
            self.held_back[service] = self.held_back.get(service, 0) + 1
            return False
        self.last[service] = now
        held = self.held_back.pop(service, 0)
        logger.warning(
            "the %s is out of reach (%s): answering 503 and try_again%s",
            service,
            detail,
            f" ({held} more like it since the last line)" if held else "",
        )
        return True


OUTAGES: Final = OutageLog()
"""The process's outage log (the exception handlers, the tables and the bus share it)."""
