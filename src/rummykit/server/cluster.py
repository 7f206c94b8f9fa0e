"""This process among several serving one site: its name, the leases, the bus, the desk.

Alone (the default, with SQLite), a process owns every table it serves and needs none of this.
With several processes on one PostgreSQL and one Redis (``rummy serve --redis-url``), each
table has one owner at a time (``rummykit.server.lease``), which plays it; a socket that
reaches another process is relayed to the owner (``rummykit.server.relay``). ``Cluster`` holds
what a ``Lobby`` needs for that: this process's name, the leases and their keeper, the bus,
and the desk that serves the relayed connections of the tables this process owns.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from typing import Final

from rummykit.server.bus import Bus, RedisBus
from rummykit.server.lease import LEASE_S, Holder, Lease, LeaseKeeper, Leases, RedisLeases
from rummykit.server.relay import Desk

REDIS_URL_ENV: Final = "RUMMY_REDIS_URL"
"""The environment variable ``rummy serve`` reads the Redis address from."""


class OwnedElsewhere(Exception):
    """Another live process owns the table: relay to it."""

    def __init__(self, table_id: str, holder: Holder | None) -> None:
        super().__init__(f"table {table_id} is owned by another process")
        self.holder = holder


class Cluster:
    """What a process needs to share a site with others."""

    def __init__(self, leases: Leases, bus: Bus, *, process: str | None = None) -> None:
        """A process sharing ``leases`` and ``bus`` with the others.

        ``process`` names it among them (a random name by default: a restarted process is a
        new owner).
        """
        self.process = process or f"p-{secrets.token_hex(6)}"
        self.leases = leases
        self.bus = bus
        self.desk = Desk(bus)
        self.keeper: LeaseKeeper | None = None
        self.owned: dict[str, Lease] = {}
        """The tables this process owns now, with their leases as acquired."""

    @classmethod
    def on_redis(cls, url: str, lease_s: float = LEASE_S) -> Cluster:
        """A cluster whose leases and bus are on the Redis at ``url``."""
        return cls(RedisLeases.from_url(url, lease_s), RedisBus(url))

    @property
    def lease_s(self) -> float:
        """How long a lease lasts unless renewed."""
        return self.leases.lease_s

    def start(self, on_lost: Callable[[str], Awaitable[None]]) -> None:
        """Start renewing this process's leases; ``on_lost(table_id)`` for each one lost."""

        async def lost(lease: Lease) -> None:
            self.owned.pop(lease.table_id, None)
            await self.desk.stop(lease.table_id)
            await on_lost(lease.table_id)

        self.keeper = LeaseKeeper(self.leases, on_lost=lost)
        self.keeper.start()

    async def acquire(self, table_id: str, after: int = 0) -> Lease:
        """Own ``table_id`` from now on (renewed in the background), or ``OwnedElsewhere``."""
        lease = await self.leases.acquire(table_id, self.process, after=after)
        if lease is None:
            raise OwnedElsewhere(table_id, await self.leases.holder(table_id))
        if self.keeper is not None:
            self.keeper.keep(lease)
        self.owned[table_id] = lease
        return lease

    async def release(self, table_id: str) -> None:
        """No longer own ``table_id`` (it left memory): another process may take it at once."""
        await self.desk.stop(table_id)
        acquired = self.owned.pop(table_id, None)
        renewed = self.keeper.forget(table_id) if self.keeper is not None else None
        lease = renewed or acquired
        if lease is not None:
            with contextlib.suppress(Exception):  # unreleased, it expires by itself
                await self.leases.release(lease)

    async def aclose(self) -> None:
        """Release every lease (the others take the tables at once), stop, disconnect."""
        await self.desk.aclose()
        if self.keeper is not None:
            await self.keeper.stop()
        for table_id in list(self.owned):
            await self.release(table_id)
        await asyncio.gather(self.bus.aclose(), self.leases.aclose(), return_exceptions=True)
