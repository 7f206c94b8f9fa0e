"""Failed sign-ins counted per account name and per address, on the server's clock.

Past ``MAX_FAILURES`` failures within ``FAILURE_WINDOW_S`` for a name (whoever tries it) or
from an address (whichever names it tries), sign-ins are refused (429 with ``Retry-After``)
before any password is checked, until the oldest of those failures is a window old. A guess
at a password thus costs a minute per five tries, and a flood costs the server no hashing.
A right password forgets its name's failures (not its address's earlier ones).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from typing import Final

from rummykit.server.limits import MAX_ADDRESSES, Clock

MAX_FAILURES: Final = 5
"""Failed sign-ins a name, or an address, may have within ``FAILURE_WINDOW_S``."""
FAILURE_WINDOW_S: Final = 60.0
"""The window failures are counted in."""

MAX_KEYS: Final = 2 * MAX_ADDRESSES
"""Names and addresses whose failures are kept; the least recently failed is forgotten first
(its failures would soon have left the window anyway)."""


class LoginLimiter:
    """The failures of each name and address within the window."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        """Failures timed by ``clock`` (the app's; tests move it by hand)."""
        self.clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    @staticmethod
    def _keys(name: str, address: str) -> tuple[str, str]:
        return f"name:{name.casefold()}", f"address:{address}"

    def _recent(self, key: str, now: float) -> deque[float]:
        failures = self._failures.get(key)
        if failures is None:
            return deque()
        while failures and failures[0] <= now - FAILURE_WINDOW_S:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return failures

    def retry_after(self, name: str, address: str) -> int | None:
        """Whole seconds to wait before trying ``name`` from ``address``; ``None``: go on."""
        now = self.clock()
        waits = [
            failures[0] + FAILURE_WINDOW_S - now
            for failures in (self._recent(key, now) for key in self._keys(name, address))
            if len(failures) >= MAX_FAILURES
        ]
        return max(1, math.ceil(max(waits))) if waits else None

    def attempt(self, name: str, address: str) -> None:
        """Count a sign-in about to be checked as failed, until ``succeeded`` says otherwise.

        Counted before the password is checked, so that many attempts sent at once (each
        waiting for its hash) cannot all pass the limit before the first failure is counted.
        """
        now = self.clock()
        for key in self._keys(name, address):
            failures = self._failures.pop(key, None) or deque()
            failures.append(now)
            while len(failures) > MAX_FAILURES:
                failures.popleft()
            self._failures[key] = failures  # most recently failed last
        while len(self._failures) > MAX_KEYS:
            self._failures.popitem(last=False)

    def succeeded(self, name: str, address: str) -> None:
        """The password was right: forget the name's failures, and this attempt's count."""
        by_name, by_address = self._keys(name, address)
        self._failures.pop(by_name, None)
        failures = self._failures.get(by_address)
        if failures:
            failures.pop()
            if not failures:
                del self._failures[by_address]
