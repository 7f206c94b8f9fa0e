"""The two backends of the lease and the bus, behind one test interface: in memory, or on the
test Redis (``redis_service``). The behavioural tests take a ``Backend`` and run on both."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from redis_service import RedisService
from rummykit.server.cluster.bus import QUEUE_LIMIT, Bus, Item, MemoryBus, RedisBus, Subscription
from rummykit.server.cluster.lease import LEASE_S, Leases, MemoryLeases, RedisLeases
from table_client import ManualClock

EXPIRY_POLL_S = 0.01
"""Redis expires a lease on its own clock: the one wait the tests spend on time itself."""

TINY_LEASE_S = 0.05
"""A lease that Redis lets go at once, for the tests that wait on Redis's own expiry."""


def table_id() -> str:
    """A table id no other test uses (the tests share one Redis)."""
    return f"t-{uuid.uuid4().hex}"


class Backend:
    """Leases and buses of one kind, on a ``ManualClock`` (the leases' ``now``)."""

    def __init__(self, name: str, service: RedisService | None) -> None:
        self.name = name
        self.service = service
        self.clock = ManualClock()
        self._memory_bus: MemoryBus | None = None
        self._memory_leases: dict[float, MemoryLeases] = {}

    @property
    def is_redis(self) -> bool:
        return self.service is not None

    def leases(self, lease_s: float = LEASE_S) -> Leases:
        """Leases as one process sees them. In memory all processes share one ``MemoryLeases``
        (one per ``lease_s``); on Redis each call makes a client with its own connection."""
        if self.service is None:
            return self._memory_leases.setdefault(
                lease_s, MemoryLeases(lease_s, now=self.clock.time)
            )
        return RedisLeases.from_url(self.service.url, lease_s, now=self.clock.time)

    def short_lease_s(self) -> float:
        """A lease the test can see expire: in memory any length (the clock jumps)."""
        return LEASE_S if self.service is None else TINY_LEASE_S

    async def expire(self, leases: Leases, table: str) -> None:
        """Let the table's lease run out: the clock jumps in memory, Redis's own time passes
        on Redis (``leases.lease_s`` must be short there)."""
        self.clock.advance(leases.lease_s)
        if self.service is None:
            return
        assert leases.lease_s <= TINY_LEASE_S, "a long lease would hold the test up"
        while await leases.holder(table) is not None:
            await asyncio.sleep(EXPIRY_POLL_S)

    def bus(self, limit: int = QUEUE_LIMIT) -> Bus:
        """A bus as one process sees it: the one ``MemoryBus`` in memory, a new ``RedisBus``
        (two connections of its own) on Redis. The test closes it."""
        if self.service is None:
            if self._memory_bus is None:
                self._memory_bus = MemoryBus(limit)
            return self._memory_bus
        return RedisBus(self.service.url, limit=limit, backoff_s=(0.01, 0.2))

    @asynccontextmanager
    async def buses(self, count: int, limit: int = QUEUE_LIMIT) -> AsyncIterator[list[Bus]]:
        """``count`` processes' buses, closed at the end."""
        made = [self.bus(limit) for _ in range(count)]
        try:
            yield made
        finally:
            for bus in {id(bus): bus for bus in made}.values():
                await bus.aclose()


async def take(subscription: Subscription, count: int) -> list[Item]:
    """The next ``count`` items of ``subscription``."""
    return [await anext(subscription) for _ in range(count)]
