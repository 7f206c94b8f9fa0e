"""How much one client may ask: messages per socket, requests per identity or address, sizes.

A token bucket a socket, one per identity and one per address: each message or request takes a
token, tokens come back at a steady rate up to a burst. Past it, a socket is closed
(``CloseCode.TOO_MANY_MESSAGES``) and a request answered 429 with ``Retry-After``, each with a
sentence; nothing a client sends can make another wait. Before, seat tokens could be guessed
at 1,177 a second and one client's stream of stale actions grew the server by hundreds of
megabytes.

A request that shows a credential the server has checked (a seat's token in ``Authorization:
Bearer``, or a signed-in session's cookie) is counted against that identity (the seat, or the
account), so programs sharing one address (a machine running several) do not share a budget:
one noisy program no longer throttles the others. All the identified requests of one address
together may use ``Limits.identities_per_address`` identities' budgets, so that making tables
for tokens does not buy an address an unbounded rate. A credential not yet checked counts
against the address, as a request without one does.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
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
    """Requests (and socket opens) an address may make at once without a checked credential:
    a few page loads."""
    address_per_second: float = 5.0
    """Requests a second an address may keep making without a checked credential."""
    identity_burst: int | None = 60
    """Requests (and socket opens) one seat's token or one signed-in account may make at
    once, whatever address they come from."""
    identity_per_second: float = 5.0
    """Requests a second one seat's token or one signed-in account may keep making."""
    identities_per_address: int = 16
    """How many identities' budgets the identified requests of one address may use in all: a
    machine running many programs, not a farm of made-up tables."""
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
            identity_burst=None,
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

    def has(self) -> bool:
        """Whether a token is there now (taking none)."""
        now = self.clock()
        return self.tokens + (now - self.last) * self.per_second >= 1

    def wait_s(self) -> int:
        """Whole seconds until a token is there (at least 1: for ``Retry-After``)."""
        now = self.clock()
        tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        return max(1, math.ceil((1 - tokens) / self.per_second))


def credential_key(kind: str, secret: str) -> str:
    """How a limiter names a credential (``kind`` is ``bearer`` or ``session``).

    A digest, so that the limiter holds no token a memory dump could reveal.
    """
    digest = hashlib.blake2b(secret.encode(), digest_size=16).hexdigest()
    return f"{kind}:{digest}"


class ClientLimiter:
    """The request budgets: one bucket per checked identity, one per client address.

    At most ``MAX_ADDRESSES`` addresses, identities and checked credentials are remembered
    each; the least recently seen is forgotten first (a full bucket, which is what it would
    have been after a quiet while; a forgotten credential counts against its address until
    it is checked again).
    """

    def __init__(self, limits: Limits, clock: Clock = time.monotonic) -> None:
        """Buckets made as ``limits`` says, on ``clock``."""
        self.limits = limits
        self.clock = clock
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self.identities: OrderedDict[str, TokenBucket] = OrderedDict()
        self.identified: OrderedDict[str, TokenBucket] = OrderedDict()
        self.checked: OrderedDict[str, str] = OrderedDict()
        self.sockets: Counter[str] = Counter()

    def vouch(self, credential: str, identity: str) -> None:
        """Note that ``credential`` (a ``credential_key``) was checked and is ``identity``."""
        self.checked.pop(credential, None)
        self.checked[credential] = identity
        while len(self.checked) > MAX_ADDRESSES:
            self.checked.popitem(last=False)

    def identity_of(self, credential: str | None) -> str | None:
        """The identity a checked credential is, or ``None``."""
        return None if credential is None else self.checked.get(credential)

    def allow(self, address: str, credential: str | None = None) -> bool:
        """Whether a request from ``address`` showing ``credential`` may go on now."""
        return self.refusal(address, credential) is None

    def refusal(self, address: str, credential: str | None = None) -> int | None:
        """``None`` if the request may go on now (its token taken), else the seconds to wait."""
        identity = self.identity_of(credential)
        if identity is None:
            burst = self.limits.address_burst
            if burst is None:
                return None
            bucket = _bucket(self.buckets, address, burst, self.limits.address_per_second, self)
            return None if bucket.take() else bucket.wait_s()
        burst = self.limits.identity_burst
        if burst is None:
            return None
        rate, share = self.limits.identity_per_second, self.limits.identities_per_address
        own = _bucket(self.identities, identity, burst, rate, self)
        everyone = _bucket(self.identified, address, burst * share, rate * share, self)
        for bucket in (own, everyone):
            if not bucket.has():
                return bucket.wait_s()
        own.take()
        everyone.take()
        return None

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


def _bucket(
    buckets: OrderedDict[str, TokenBucket],
    key: str,
    burst: int,
    per_second: float,
    limiter: ClientLimiter,
) -> TokenBucket:
    """``key``'s bucket in ``buckets`` (a full one if new), now the most recently seen."""
    bucket = buckets.pop(key, None)
    if bucket is None:
        bucket = TokenBucket(burst, per_second, limiter.clock)
    buckets[key] = bucket
    while len(buckets) > MAX_ADDRESSES:
        buckets.popitem(last=False)
    return bucket
