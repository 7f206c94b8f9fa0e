"""How much one client may ask: messages per socket, requests per address, message sizes.

A token bucket a socket and one per address: each message or request takes a token, tokens
come back at a steady rate up to a burst. Past it, a socket is closed
(``CloseCode.TOO_MANY_MESSAGES``) and a request answered 429, each with a sentence; nothing a
client sends can make another wait. Before, seat tokens could be guessed at 1,177 a second and
one client's stream of stale actions grew the server by hundreds of megabytes.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import Final

from rummykit.protocol.answer_words import answer_text

Clock = Callable[[], float]
"""Seconds from some start (``time.monotonic``; tests pass a clock they move by hand)."""

MAX_SOCKET_MESSAGE_BYTES: Final = 16_384
"""The largest socket frame the server reads (uvicorn's ``ws_max_size``): a message is a few
hundred bytes; a larger frame closes the connection (1009) before it is read."""

TOO_MANY_MESSAGES: Final = "Too many messages: slow down, then reconnect."
TOO_MANY_REQUESTS: Final = answer_text("too_many_requests")
TOO_MANY_SOCKETS: Final = answer_text("too_many_connections")

MAX_ADDRESSES: Final = 10_000
"""Addresses whose buckets are kept; the least recently seen is forgotten first (a full
bucket, which is what it would have been after a quiet while)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """The rates the server allows; ``None`` for no limit (a test server)."""

    socket_burst: int | None = 40
    """Messages a socket may send at once: far more than a player's fastest clicks."""
    socket_per_second: float = 10.0
    """Messages a second a socket may keep sending."""
    address_burst: int | None = 60
    """Requests (and socket opens) an address may make at once: a few page loads."""
    address_per_second: float = 5.0
    """Requests a second an address may keep making."""
    sockets_per_address: int | None = 64
    """Sockets an address may hold open at once: a household or a classroom behind one
    address, each player with a tab or two. 3,000 sockets once slowed every table."""
    connections_per_address: int | None = 64
    """HTTP connections an address may hold open at once (a browser opens six or so; a
    connection that became a socket counts in ``sockets_per_address`` instead)."""
    header_timeout_s: float = 10.0
    """A request's headers must be complete this long after its connection opened (or its
    last answer went out): a browser sends them at once. Half-sent requests were held for
    good: 1,000 of them were all still open after 70 s."""
    accounts_per_address: int | None = 5
    """Accounts an address may make in an hour (``rummykit.server.accounts.logins``): a
    family's, not
    a farm's (about 300 a minute were made from one address)."""

    @staticmethod
    def unlimited() -> Limits:
        """No limit at all (tests that send thousands of messages on purpose)."""
        return Limits(
            socket_burst=None,
            address_burst=None,
            sockets_per_address=None,
            connections_per_address=None,
            accounts_per_address=None,
        )


class TokenBucket:
    """Up to ``burst`` actions at once, then ``per_second`` on average."""

    def __init__(self, burst: int, per_second: float, clock: Clock = time.monotonic) -> None:
        """A full bucket."""
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> bool:
        """Take a token if there is one; whether the action may go on."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class AddressLimiter:
    """One bucket per client address, for at most ``MAX_ADDRESSES`` addresses."""

    def __init__(self, limits: Limits, clock: Clock = time.monotonic) -> None:
        """Buckets made as ``limits`` says, on ``clock``."""
        self.limits = limits
        self.clock = clock
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self.sockets: Counter[str] = Counter()

    def allow(self, address: str) -> bool:
        """Whether a request from ``address`` may go on now."""
        burst = self.limits.address_burst
        if burst is None:
            return True
        bucket = self.buckets.pop(address, None)
        if bucket is None:
            bucket = TokenBucket(burst, self.limits.address_per_second, self.clock)
        self.buckets[address] = bucket  # most recently seen last
        while len(self.buckets) > MAX_ADDRESSES:
            self.buckets.popitem(last=False)
        return bucket.take()

    def open_socket(self, address: str) -> bool:
        """Count a socket of ``address`` opening; ``False`` (not counted) past the limit."""
        cap = self.limits.sockets_per_address
        if cap is not None and self.sockets[address] >= cap:
            return False
        self.sockets[address] += 1
        return True

    def close_socket(self, address: str) -> None:
        """Count a socket counted by ``open_socket`` closing."""
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]

    def socket_bucket(self) -> TokenBucket | None:
        """A new socket's bucket for its messages (``None``: no limit)."""
        burst = self.limits.socket_burst
        if burst is None:
            return None
        return TokenBucket(burst, self.limits.socket_per_second, self.clock)
