"""Table ownership: one owner process a table at a time, by a lease with an epoch.

With several server processes, each table is played by exactly one of them, its *owner*. The
owner holds a lease on the table: it expires ``LEASE_S`` seconds after it was last renewed, so
a process that dies loses its tables within that time and another process may take them.

A lease alone is not safe. An owner may pause (a long garbage collection, SIGSTOP, a stalled
virtual machine) past its lease, while another process takes the table and plays on; when
the paused one wakes it still believes it owns the table and would write a forked game. So
every lease carries an **epoch**, a number that grows by one at each acquisition of the table.
The store keeps, for each table, the highest epoch that has written to it, and refuses a write
whose epoch is lower (``check_epoch``, raising ``StaleOwner``): the new owner's first write
raises the table's epoch, and from then on the old owner can never write again, however
long it slept. The check must run in the same transaction as the write it guards.

``MemoryLeases`` serves one process (the default, with SQLite); ``RedisLeases`` serves any
number of processes sharing one Redis. ``LeaseKeeper`` renews a process's leases in the
background and reports the ones it loses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Final

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from rummykit.server.runtime import REDIS_GONE, going_on

LEASE_S: Final = 6.0
"""How long a lease lasts unless renewed: the longest a dead owner's tables wait for a new
owner. ``LeaseKeeper`` renews every lease at a third of it, so two renewals may fail in a row
(a Redis hiccup) before a lease is lost."""

RENEW_CONCURRENCY: Final = 4
"""The batches of renewals ``LeaseKeeper`` has under way at once: a process with a thousand
tables opens no thousand connections to Redis."""
RENEW_BATCH: Final = 200
"""Leases renewed in one request (a Redis pipeline): one round trip for a batch, so a busy
process does not need hundreds of turns of its event loop to keep its tables."""

REDIS_CONNECTIONS: Final = 32
"""Connections to Redis a client pools (publishing, leases, locks): commands are short, so a
few dozen carry a busy process; more would only queue inside Redis instead."""
REDIS_TIMEOUT_S: Final = 2.0
"""The longest a command waits for a connection, or for Redis's answer."""

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class StaleOwner(Exception):
    """A write by an owner whose epoch is below the table's: it lost the table meanwhile."""

    def __init__(self, stored: int, mine: int) -> None:
        super().__init__(f"epoch {mine} is stale: the table is at epoch {stored}")
        self.stored = stored
        self.mine = mine


class LeaseUnavailable(Exception):
    """The lease service cannot be reached now; the caller may try again later."""


def check_epoch(stored: int | None, mine: int) -> int:
    """The table's epoch after a write by an owner at epoch ``mine``.

    Raises ``StaleOwner`` when ``mine`` is below ``stored`` (the table's epoch in the store,
    ``None`` for a table never written with an epoch).

    The store calls it inside the transaction of every write and saves the epoch it returns,
    so the first write of a new owner fences off every older one:

    >>> check_epoch(None, 1)
    1
    >>> check_epoch(3, 4)
    4
    >>> check_epoch(4, 4)
    4
    >>> check_epoch(4, 3)
    Traceback (most recent call last):
        ...
    rummykit.server.cluster.lease.StaleOwner: epoch 3 is stale: the table is at epoch 4
    """
    if stored is not None and mine < stored:
        raise StaleOwner(stored, mine)
    return mine


@dataclass(frozen=True, slots=True)
class Lease:
    """A table held by ``owner`` at ``epoch``, surely valid until ``valid_until``.

    ``valid_until`` is on the clock of the ``Leases`` that granted it (``time.monotonic`` by
    default): the time the request was sent plus the lease's length, so it never lies past
    the moment the lease service lets the lease go.
    """

    table_id: str
    owner: str
    epoch: int
    valid_until: float


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a table now, and at which epoch."""

    owner: str
    epoch: int


class Leases(ABC):
    """Table leases: ``acquire``, ``renew``, ``release`` and ``holder`` (all async)."""

    def __init__(self, lease_s: float, now: Clock) -> None:
        if lease_s <= 0:
            raise ValueError("a lease lasts more than 0 seconds")
        self.lease_s = lease_s
        self.now = now

    @abstractmethod
    async def acquire(self, table_id: str, owner: str, *, after: int = 0) -> Lease | None:
        """The table's lease for ``owner``, or ``None`` when another live owner holds it.

        A fresh acquisition gets an epoch one above every earlier one of the table, and above
        ``after`` too: the owner-to-be passes the epoch the store last saw, so a lease service
        that lost its data (a Redis restarted without persistence) still hands out an epoch
        the store accepts. An owner that still holds the lease gets it back renewed, at the
        same epoch.
        """

    @abstractmethod
    async def renew(self, lease: Lease) -> Lease | None:
        """The lease extended by ``lease_s`` from now, or ``None`` when it was lost.

        Lost: expired, released, or taken by another owner. Raises ``LeaseUnavailable`` when
        the lease service cannot be reached.
        """

    async def renew_many(self, leases: Sequence[Lease]) -> list[Lease | None]:
        """``renew`` of each lease, in order (a service may do them in one request).

        Raises ``LeaseUnavailable`` when the lease service cannot be reached.
        """
        return [await self.renew(lease) for lease in leases]

    @abstractmethod
    async def release(self, lease: Lease) -> None:
        """Let the table go at once (a clean shutdown), if ``lease`` still holds it."""

    @abstractmethod
    async def holder(self, table_id: str) -> Holder | None:
        """Who holds the table now, or ``None`` when nobody does."""

    @abstractmethod
    async def aclose(self) -> None:
        """Free what the leases hold (a connection)."""


class MemoryLeases(Leases):
    """Leases within one process, on an injectable clock (the default with SQLite)."""

    def __init__(self, lease_s: float = LEASE_S, now: Clock = time.monotonic) -> None:
        super().__init__(lease_s, now)
        self._held: dict[str, tuple[Holder, float]] = {}
        self._epochs: dict[str, int] = {}

    def _live(self, table_id: str) -> Holder | None:
        held = self._held.get(table_id)
        if held is None or held[1] <= self.now():
            return None
        return held[0]

    def _grant(self, table_id: str, holder: Holder) -> Lease:
        until = self.now() + self.lease_s
        self._held[table_id] = (holder, until)
        return Lease(table_id, holder.owner, holder.epoch, until)

    async def acquire(self, table_id: str, owner: str, *, after: int = 0) -> Lease | None:
        """See ``Leases.acquire``."""
        live = self._live(table_id)
        if live is not None:
            return self._grant(table_id, live) if live.owner == owner else None
        epoch = max(self._epochs.get(table_id, 0), after) + 1
        self._epochs[table_id] = epoch
        return self._grant(table_id, Holder(owner, epoch))

    async def renew(self, lease: Lease) -> Lease | None:
        """See ``Leases.renew``."""
        if self._live(lease.table_id) != Holder(lease.owner, lease.epoch):
            return None
        return self._grant(lease.table_id, Holder(lease.owner, lease.epoch))

    async def release(self, lease: Lease) -> None:
        """See ``Leases.release``."""
        if self._live(lease.table_id) == Holder(lease.owner, lease.epoch):
            del self._held[lease.table_id]

    async def holder(self, table_id: str) -> Holder | None:
        """See ``Leases.holder``."""
        return self._live(table_id)

    async def aclose(self) -> None:
        """Nothing to free."""


# The lease key holds "EPOCH:OWNER" and expires by itself (PX); the epoch counter never
# expires. Both keys share the table's hash tag, so a Redis Cluster keeps them on one node.
_ACQUIRE: Final = """
local held = redis.call('GET', KEYS[1])
if held then
  local colon = string.find(held, ':', 1, true)
  if string.sub(held, colon + 1) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(string.sub(held, 1, colon - 1))
  end
  return 0
end
local epoch = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if epoch <= floor then
  epoch = floor + 1
  redis.call('SET', KEYS[2], epoch)
end
redis.call('SET', KEYS[1], epoch .. ':' .. ARGV[1], 'PX', ARGV[2])
return epoch
"""
_RENEW: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

_UNREACHABLE: Final = (RedisConnectionError, RedisTimeoutError, OSError)


def redis_client(url: str) -> aioredis.Redis:
    """A Redis client for leases and publishing: short timeouts, two quick retries.

    A Redis that is gone is reported within about a second instead of blocking a table. Its
    connections are pooled, at most ``REDIS_CONNECTIONS``: past them a command waits for one
    to come free (up to the same timeout) instead of failing, as a busy process's hundreds of
    sockets would otherwise make it.
    """
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff

    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=REDIS_CONNECTIONS,
        timeout=REDIS_TIMEOUT_S,
        socket_connect_timeout=1.0,
        socket_timeout=REDIS_TIMEOUT_S,
        socket_keepalive=True,
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), 2),
    )
    return aioredis.Redis.from_pool(pool)  # closing the client closes its pool


class RedisLeases(Leases):
    """Leases shared by every process on one Redis.

    Atomic Lua scripts, expiry by ``PX``, the epoch from ``INCR`` on a per-table counter at
    each acquisition.
    """

    def __init__(
        self,
        client: aioredis.Redis,
        lease_s: float = LEASE_S,
        now: Clock = time.monotonic,
        prefix: str = "rummy",
    ) -> None:
        super().__init__(lease_s, now)
        self.client = client
        self.prefix = prefix
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    @classmethod
    def from_url(
        cls, url: str, lease_s: float = LEASE_S, now: Clock = time.monotonic
    ) -> RedisLeases:
        """Leases on the Redis at ``url`` (``redis://host:port/db``)."""
        return cls(redis_client(url), lease_s, now)

    def _keys(self, table_id: str) -> list[str]:
        return [f"{self.prefix}:{{{table_id}}}:lease", f"{self.prefix}:{{{table_id}}}:epoch"]

    @property
    def _ms(self) -> int:
        return max(1, round(self.lease_s * 1000))

    async def acquire(self, table_id: str, owner: str, *, after: int = 0) -> Lease | None:
        """See ``Leases.acquire``."""
        sent = self.now()
        try:
            epoch = int(await self._acquire(self._keys(table_id), [owner, self._ms, after]))
        except _UNREACHABLE as error:
            raise LeaseUnavailable(str(error)) from error
        if epoch == 0:
            return None
        return Lease(table_id, owner, epoch, sent + self.lease_s)

    async def renew(self, lease: Lease) -> Lease | None:
        """See ``Leases.renew``."""
        sent = self.now()
        keys = self._keys(lease.table_id)[:1]
        try:
            kept = int(await self._renew(keys, [f"{lease.epoch}:{lease.owner}", self._ms]))
        except _UNREACHABLE as error:
            raise LeaseUnavailable(str(error)) from error
        return replace(lease, valid_until=sent + self.lease_s) if kept else None

    async def renew_many(self, leases: Sequence[Lease]) -> list[Lease | None]:
        """See ``Leases.renew_many``: one pipeline, one round trip to Redis."""
        sent = self.now()
        pipeline = self.client.pipeline(transaction=False)
        for lease in leases:
            keys = self._keys(lease.table_id)[:1]
            await self._renew(keys, [f"{lease.epoch}:{lease.owner}", self._ms], client=pipeline)
        try:
            answers = await pipeline.execute()
        except _UNREACHABLE as error:
            raise LeaseUnavailable(str(error)) from error
        return [
            replace(lease, valid_until=sent + self.lease_s) if int(kept) else None
            for lease, kept in zip(leases, answers, strict=True)
        ]

    async def release(self, lease: Lease) -> None:
        """See ``Leases.release``."""
        keys = self._keys(lease.table_id)[:1]
        try:
            await self._release(keys, [f"{lease.epoch}:{lease.owner}"])
        except _UNREACHABLE as error:
            raise LeaseUnavailable(str(error)) from error

    async def holder(self, table_id: str) -> Holder | None:
        """See ``Leases.holder``."""
        try:
            held: bytes | str | None = await self.client.get(self._keys(table_id)[0])
        except _UNREACHABLE as error:
            raise LeaseUnavailable(str(error)) from error
        if held is None:
            return None
        text = held.decode() if isinstance(held, bytes) else held
        epoch, _, owner = text.partition(":")
        return Holder(owner, int(epoch))

    async def aclose(self) -> None:
        """Close the connection to Redis."""
        await self.client.aclose()


OnLost = Callable[[Lease], Awaitable[None]]

logger = logging.getLogger("rummykit.lease")


class LeaseKeeper:
    """Renews every lease it keeps at a third of ``lease_s``; reports each lease it loses.

    ``on_lost`` is called with each lost lease: the owner must then drop the table at once.

    A lease is lost when its renewal is refused, or when the lease service stays out of reach
    until the lease's ``valid_until`` has passed on the leases' clock: past it another owner
    may hold the table. ``sleep`` is injectable, so tests move time by hand.
    """

    def __init__(
        self,
        leases: Leases,
        on_lost: OnLost,
        *,
        sleep: Sleep = asyncio.sleep,
        concurrency: int = RENEW_CONCURRENCY,
    ) -> None:
        self.leases = leases
        self.on_lost = on_lost
        self.sleep = sleep
        self._slots = asyncio.Semaphore(concurrency)
        self.rounds = 0
        """Renewal rounds done so far."""
        self._kept: dict[str, Lease] = {}
        self._kept_lock = threading.Lock()
        """``keep`` and ``forget`` may come from another thread (``ThreadedKeeper``)."""
        self._round_done = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None

    def keep(self, lease: Lease) -> None:
        """Renew ``lease`` from now on (replacing any lease kept for its table)."""
        with self._kept_lock:
            self._kept[lease.table_id] = lease

    def forget(self, table_id: str) -> Lease | None:
        """Stop renewing the table's lease (before releasing it); the lease kept, if any."""
        with self._kept_lock:
            return self._kept.pop(table_id, None)

    def current(self, table_id: str) -> Lease | None:
        """The table's lease as last renewed, or ``None`` when not kept (or lost)."""
        with self._kept_lock:
            return self._kept.get(table_id)

    async def renew_all(self) -> None:
        """One round: renew every kept lease, in batches at once, report the lost ones."""
        with self._kept_lock:
            kept = list(self._kept.values())
        batches = [kept[start : start + RENEW_BATCH] for start in range(0, len(kept), RENEW_BATCH)]
        await asyncio.gather(*(self._renew(batch) for batch in batches))
        self.rounds += 1
        async with self._round_done:
            self._round_done.notify_all()

    async def _renew(self, batch: list[Lease]) -> None:
        try:
            async with self._slots:
                answers: list[Lease | None] = await self.leases.renew_many(batch)
        except LeaseUnavailable:
            now = self.leases.now()
            # still surely ours: try again next round; past its time, it may be another's
            batch = [lease for lease in batch if now >= lease.valid_until]
            answers = [None] * len(batch)
        for lease, renewed in zip(batch, answers, strict=True):
            await self._settle(lease, renewed)

    async def _settle(self, lease: Lease, renewed: Lease | None) -> None:
        with self._kept_lock:
            if self._kept.get(lease.table_id) != lease:
                return  # forgotten or replaced meanwhile
            if renewed is not None:
                self._kept[lease.table_id] = renewed
                return
            del self._kept[lease.table_id]
        try:
            await self.on_lost(lease)
        except Exception:  # one failing callback must not stop the renewal of the others
            logger.exception("on_lost failed for table %s", lease.table_id)

    async def wait_rounds(self, rounds: int) -> None:
        """Wait until ``rounds`` renewal rounds in all have been done."""
        async with self._round_done:
            await self._round_done.wait_for(lambda: self.rounds >= rounds)

    async def run(self) -> None:
        """Renew forever, a round every third of ``lease_s``."""
        while True:
            await self.sleep(self.leases.lease_s / 3)
            await self.renew_all()

    def start(self) -> None:
        """Run ``run`` as a task of the running loop."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.run(), name="lease-keeper")

    async def stop(self) -> None:
        """Stop renewing (the leases then expire, unless released)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class ThreadedKeeper:
    """A ``LeaseKeeper`` on an event loop of its own, in a thread of its own.

    A process under heavy load answers its sockets late; renewed on that same loop, its leases
    would be late too, expire, and move its tables to another process just when everything is
    slow (and the moves cost more work). In a thread, the renewals wait for the interpreter
    (a few milliseconds at most), never behind the serving loop's queue. ``make_leases`` makes
    the thread's own ``Leases`` (with its own connection); ``on_lost`` runs on the loop that
    called ``start``.
    """

    def __init__(self, make_leases: Callable[[], Leases], on_lost: OnLost) -> None:
        self.make_leases = make_leases
        self.on_lost = on_lost
        self.keeper: LeaseKeeper | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start renewing, in the thread (called on the serving loop)."""
        serving = asyncio.get_running_loop()
        ready = threading.Event()

        async def on_serving_loop(lease: Lease) -> None:
            await self.on_lost(lease)

        async def lost(lease: Lease) -> None:
            with contextlib.suppress(RuntimeError):  # the serving loop has closed
                told: Future[None] = asyncio.run_coroutine_threadsafe(
                    on_serving_loop(lease), serving
                )
                await asyncio.wrap_future(told)

        def run() -> None:
            loop = asyncio.new_event_loop()
            leases = self.make_leases()
            self.keeper = LeaseKeeper(leases, lost)
            self._loop = loop
            self._task = loop.create_task(self.keeper.run(), name="lease-keeper")
            ready.set()
            with contextlib.suppress(asyncio.CancelledError):
                loop.run_until_complete(self._task)
            with going_on("closing the lease keeper's Redis", expected=REDIS_GONE):
                loop.run_until_complete(leases.aclose())
            loop.close()

        self._thread = threading.Thread(target=run, name="lease-keeper", daemon=True)
        self._thread.start()
        ready.wait()

    def keep(self, lease: Lease) -> None:
        """See ``LeaseKeeper.keep``."""
        assert self.keeper is not None, "start first"
        self.keeper.keep(lease)

    def forget(self, table_id: str) -> Lease | None:
        """See ``LeaseKeeper.forget``."""
        return None if self.keeper is None else self.keeper.forget(table_id)

    def current(self, table_id: str) -> Lease | None:
        """See ``LeaseKeeper.current``."""
        return None if self.keeper is None else self.keeper.current(table_id)

    async def stop(self) -> None:
        """Stop renewing and end the thread (the leases then expire, unless released)."""
        loop, task, thread = self._loop, self._task, self._thread
        self._thread = None
        if loop is None or task is None or thread is None:
            return
        with contextlib.suppress(RuntimeError):  # its loop has ended already
            loop.call_soon_threadsafe(task.cancel)
        await asyncio.to_thread(thread.join, LEASE_S)  # a daemon thread: never a hung stop
