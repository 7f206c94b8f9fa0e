"""This process among several serving one site: its name, the leases, the bus, the desk.

Alone (the default, with SQLite), a process owns every table it serves and needs none of this.
With several processes on one PostgreSQL and one Redis (``rummy serve --redis-url``), each
table has one owner at a time (``rummykit.server.cluster.lease``), which plays it; a socket that
reaches another process is relayed to the owner (``rummykit.server.cluster.relay``).
``Cluster`` holds
what a ``Lobby`` needs for that: this process's name, the leases and their keeper, the bus,
and the desk that serves the relayed connections of the tables this process owns.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Final

import redis.asyncio as aioredis

from rummykit.server.cluster.board import Board, MemoryBoard, RedisBoard
from rummykit.server.cluster.bus import Bus, RedisBus
from rummykit.server.cluster.lease import (
    LEASE_S,
    Holder,
    Lease,
    LeaseKeeper,
    Leases,
    RedisLeases,
    ThreadedKeeper,
    redis_client,
)
from rummykit.server.cluster.post import Post
from rummykit.server.cluster.relay import Desk
from rummykit.server.runtime import REDIS_GONE, going_on

LOCK_S: Final = 10.0
"""The longest a shared lock is held (a party's change takes milliseconds; a table's start,
a tenth of a second): past it, a dead holder's lock is free again."""

REDIS_URL_ENV: Final = "RUMMY_REDIS_URL"
"""The environment variable ``rummy serve`` reads the Redis address from."""


class OwnedElsewhere(Exception):
    """Another live process owns the table: relay to it."""

    def __init__(self, table_id: str, holder: Holder | None) -> None:
        super().__init__(f"table {table_id} is owned by another process")
        self.holder = holder


class LocalLocks:
    """Named locks of one process (a site of one process needs no others)."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        """Hold the lock ``name`` in this process."""
        async with self._locks.setdefault(name, asyncio.Lock()):
            yield


Locks = Callable[[str], AbstractAsyncContextManager[None]]
"""A lock by name, held across every process of the site."""


@dataclasses.dataclass(frozen=True, slots=True)
class Sharing:
    """What finding a game shares with the site's other processes.

    The boards, the post to their pages and the locks; alone, all of it in this process
    (``Sharing.alone``).
    """

    board: Board
    post: Post
    lock: Locks
    shared: bool
    """Whether other processes read and write them too."""

    @classmethod
    def alone(cls) -> Sharing:
        """A process that serves the site alone."""
        board = MemoryBoard()
        return cls(board, Post(board, None, "p"), LocalLocks().lock, shared=False)


class Cluster:
    """What a process needs to share a site with others."""

    def __init__(
        self,
        leases: Leases,
        bus: Bus,
        *,
        process: str | None = None,
        redis: aioredis.Redis | None = None,
        renewing: Callable[[], Leases] | None = None,
    ) -> None:
        """A process sharing ``leases`` and ``bus`` with the others.

        ``process`` names it among them (a random name by default: a restarted process is a
        new owner). ``renewing`` makes the leases the renewals use in a thread of their own
        (``ThreadedKeeper``); without it they are renewed on the serving loop.
        """
        self.process = process or f"p-{secrets.token_hex(6)}"
        self.redis = redis
        """For the locks shared by the processes (none: one process, in-memory locks)."""
        self.board: Board = MemoryBoard() if redis is None else RedisBoard(redis)
        """The lists the processes share (quick pairing's queues, the open tables...)."""
        self._local = LocalLocks()
        self.leases = leases
        self.bus = bus
        self.desk = Desk(bus)
        self.renewing = renewing
        self.keeper: LeaseKeeper | ThreadedKeeper | None = None
        self.owned: dict[str, Lease] = {}
        """The tables this process owns now, with their leases as acquired."""

    def sharing(self) -> Sharing:
        """What finding a game shares with the other processes (made once by the app)."""
        return Sharing(self.board, Post(self.board, self.bus, self.process), self.lock, True)

    @classmethod
    def on_redis(cls, url: str, lease_s: float = LEASE_S) -> Cluster:
        """A cluster whose leases and bus are on the Redis at ``url``."""
        return cls(
            RedisLeases.from_url(url, lease_s),
            RedisBus(url),
            redis=redis_client(url),
            renewing=lambda: RedisLeases.from_url(url, lease_s),
        )

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

        if self.renewing is None:
            self.keeper = LeaseKeeper(self.leases, on_lost=lost)
        else:
            self.keeper = ThreadedKeeper(self.renewing, on_lost=lost)
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

    @contextlib.asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        """Hold the lock ``name`` across every process (a party's changes, one at a time).

        It lasts ``LOCK_S`` at most, should its holder die holding it.
        """
        if self.redis is None:
            async with self._local.lock(name):
                yield
            return
        async with self.redis.lock(f"rummy:lock:{name}", timeout=LOCK_S, blocking_timeout=LOCK_S):
            yield

    async def release(self, table_id: str) -> None:
        """No longer own ``table_id`` (it left memory): another process may take it at once."""
        await self.desk.stop(table_id)
        acquired = self.owned.pop(table_id, None)
        renewed = self.keeper.forget(table_id) if self.keeper is not None else None
        lease = renewed or acquired
        if lease is not None:
            # unreleased, it expires by itself
            with going_on("releasing a lease", expected=REDIS_GONE):
                await self.leases.release(lease)

    async def aclose(self) -> None:
        """Release every lease (the others take the tables at once), stop, disconnect."""
        await self.desk.aclose()
        if self.keeper is not None:
            await self.keeper.stop()
        for table_id in list(self.owned):
            await self.release(table_id)
        closing = [self.bus.aclose(), self.leases.aclose()]
        if self.redis is not None:
            closing.append(self.redis.aclose())
        await asyncio.gather(*closing, return_exceptions=True)
