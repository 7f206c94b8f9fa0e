"""Messages between server processes: publish and subscribe, in memory or on Redis.

With several server processes, a socket may reach a process that does not own its table. That
process forwards the socket's intents to the owner (``intents_channel``) and relays the
owner's frames back (``frames_channel``). ``MemoryBus`` serves one process; ``RedisBus``
serves any number on one Redis.

Delivery is at most once, in publish order on each channel. Whenever messages may have been
lost, a subscription's stream holds a ``RESYNC`` marker at the place of the gap, so the
reader can fetch the current state instead (a client resyncs its table view). Two things make
gaps:

- A reader that falls behind: each subscription has a bounded queue. When it is full, the
  queued messages are dropped and replaced by ``RESYNC``, and the new message follows it. A
  slow reader never holds up the publisher or the other subscribers.
- A lost connection to Redis (a Redis restart, a network cut). redis-py's asyncio pub/sub does
  not resubscribe reliably by itself after a loss (redis-py issues 2089 and 2417), and when it
  does, it says nothing of the messages published meanwhile. ``RedisBus`` reads on a
  connection of its own that never retries silently: on a loss it reconnects with backoff,
  subscribes every channel again, and once Redis confirms a channel it puts ``RESYNC`` in the
  stream of each of the channel's subscriptions. Every message published after a reader has
  seen that ``RESYNC`` reaches it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, Final

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from rummykit.server.cluster.lease import Sleep, redis_client
from rummykit.server.cluster.outage_log import OUTAGES
from rummykit.server.runtime import REDIS_GONE, going_on

QUEUE_LIMIT: Final = 256
"""The messages a subscription may have waiting before it is cut back to ``RESYNC``."""

PING_S: Final = 5.0
"""A quiet subscriber connection is pinged after this long, and given up as lost when the
answer does not come within as long again (a network cut sends no error: redis-py 2417)."""


class Resync:
    """The marker of a possible gap in a subscription's stream.

    Messages may have been lost just before it. There is one, ``RESYNC``.
    """

    def __repr__(self) -> str:
        return "RESYNC"


RESYNC: Final = Resync()

Item = bytes | Resync
"""What a subscription yields: a message's bytes, or ``RESYNC``."""


def intents_channel(table_id: str) -> str:
    """The channel of the intents for the owner of table ``table_id``."""
    return f"rummy:{{{table_id}}}:intents"


def frames_channel(table_id: str) -> str:
    """The channel of the frames of table ``table_id``, for the processes relaying them."""
    return f"rummy:{{{table_id}}}:frames"


def party_channel(code: str) -> str:
    """The channel that says party ``code`` changed, for the processes showing it."""
    return f"rummy:party:{code}"


class BusUnavailable(Exception):
    """The bus cannot publish now (Redis is out of reach); the caller may try again later."""


class Subscription:
    """One reader's messages from one channel, as an async iterator of ``Item``.

    Made by ``Bus.subscribe``; ``aclose`` (or leaving its ``async with``) unsubscribes, and
    the iteration then ends.
    """

    def __init__(
        self,
        channel: str,
        limit: int,
        on_close: Callable[[Subscription], Awaitable[None]],
    ) -> None:
        self.channel = channel
        self.limit = limit
        self.overflows = 0
        """How many times the queue was full and cut back to ``RESYNC``."""
        self._items: deque[Item] = deque()
        self._ready = asyncio.Event()
        self._closed = False
        self._on_close = on_close

    def deliver(self, item: Item) -> None:
        """Queue ``item`` at once, never waiting (the bus's side)."""
        if self._closed:
            return
        if isinstance(item, Resync):
            if not self._items or self._items[-1] is not RESYNC:
                self._items.append(RESYNC)
        else:
            if len(self._items) >= self.limit:
                self._items.clear()
                self._items.append(RESYNC)
                self.overflows += 1
            self._items.append(item)
        self._ready.set()

    @property
    def closed(self) -> bool:
        """Whether the subscription has ended (closed, or its bus closed)."""
        return self._closed

    def pending(self) -> int:
        """How many items wait to be read."""
        return len(self._items)

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Item:
        while not self._items:
            if self._closed:
                raise StopAsyncIteration
            self._ready.clear()
            await self._ready.wait()
        return self._items.popleft()

    def end(self) -> None:
        """End the stream without unsubscribing (the bus is closing)."""
        self._closed = True
        self._items.clear()
        self._ready.set()

    async def aclose(self) -> None:
        """Unsubscribe; the iteration ends."""
        if not self._closed:
            self.end()
            await self._on_close(self)

    async def __aenter__(self) -> Subscription:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.aclose()


class Bus(ABC):
    """Publish bytes on a channel; subscribe to a channel's messages."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("a subscription queues at least one message")
        self.limit = limit
        self._subs: dict[str, set[Subscription]] = {}

    @abstractmethod
    async def publish(self, channel: str, data: bytes) -> None:
        """Send ``data`` to every subscription of ``channel``, in any process.

        Raises ``BusUnavailable`` when the bus cannot be reached now.
        """

    async def subscribe(self, channel: str) -> Subscription:
        """A new subscription to ``channel``.

        It receives every message published after this returns (gaps marked by ``RESYNC``).
        """
        subscription = Subscription(channel, self.limit, self._unsubscribe)
        self._subs.setdefault(channel, set()).add(subscription)
        return subscription

    async def _unsubscribe(self, subscription: Subscription) -> None:
        readers = self._subs.get(subscription.channel)
        if readers is not None:
            readers.discard(subscription)
            if not readers:
                del self._subs[subscription.channel]

    def _deliver(self, channel: str, item: Item) -> None:
        for subscription in list(self._subs.get(channel, ())):
            subscription.deliver(item)

    async def aclose(self) -> None:
        """End every subscription and free the bus's connections."""
        for readers in self._subs.values():
            for subscription in readers:
                subscription.end()
        self._subs.clear()


class MemoryBus(Bus):
    """The bus within one process (the default with SQLite)."""

    def __init__(self, limit: int = QUEUE_LIMIT) -> None:
        super().__init__(limit)

    async def publish(self, channel: str, data: bytes) -> None:
        """See ``Bus.publish``."""
        self._deliver(channel, data)


_UNREACHABLE: Final = (RedisConnectionError, RedisTimeoutError, OSError)


def _listener_client(url: str) -> aioredis.Redis:
    # No retry at all: redis-py would reconnect and resubscribe behind our back, and the
    # messages lost meanwhile would go unmarked. Every loss must reach ``RedisBus._run``.
    client: aioredis.Redis = aioredis.Redis.from_url(
        url,
        socket_connect_timeout=1.0,
        socket_keepalive=True,
        retry=Retry(NoBackoff(), 0),
    )
    return client


class RedisBus(Bus):
    """The bus on Redis pub/sub, for several processes.

    Publishing uses one pooled connection; reading, one subscriber connection of its own,
    shared by every subscription of this process, read by one task. After a lost connection
    that task reconnects with exponential backoff (``backoff_s``: first delay and cap, with
    jitter), resubscribes every channel and marks the gap with ``RESYNC``.
    """

    def __init__(
        self,
        url: str,
        *,
        limit: int = QUEUE_LIMIT,
        backoff_s: tuple[float, float] = (0.05, 2.0),
        ping_s: float = PING_S,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        super().__init__(limit)
        self.backoff_s = backoff_s
        self.ping_s = ping_s
        self.sleep = sleep
        self.reconnects = 0
        """How many times the bus has resubscribed after losing Redis."""
        self._publisher = redis_client(url)
        self._listener = _listener_client(url)
        self._pubsub: PubSub | None = None
        self._confirmed: set[str] = set()
        self._gapped: set[str] = set()
        self._changed = asyncio.Condition()
        self._sending = asyncio.Lock()
        self._failures = 0
        self._behind = False
        self._task: asyncio.Task[None] | None = None

    @property
    def connected(self) -> bool:
        """Whether the subscriber connection is up (as far as the bus knows yet)."""
        return self._pubsub is not None

    async def publish(self, channel: str, data: bytes) -> None:
        """See ``Bus.publish``."""
        try:
            await self._publisher.publish(channel, data)
        except _UNREACHABLE as error:
            raise BusUnavailable(str(error)) from error

    async def subscribe(self, channel: str) -> Subscription:
        """See ``Bus.subscribe``; waits until Redis has confirmed the channel.

        While Redis is out of reach, that is until it is back.
        """
        subscription = await super().subscribe(channel)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="redis-bus")
        try:
            async with self._changed:
                self._changed.notify_all()  # the reader may wait for a first channel
            if channel not in self._confirmed:
                async with self._sending:
                    pubsub = self._pubsub
                    if pubsub is not None:
                        # harmless if the reader subscribed it too; on a loss the reader will
                        with contextlib.suppress(*_UNREACHABLE):
                            await pubsub.subscribe(channel)
                async with self._changed:
                    await self._changed.wait_for(lambda: channel in self._confirmed)
        except BaseException:
            await subscription.aclose()
            raise
        return subscription

    async def _unsubscribe(self, subscription: Subscription) -> None:
        await super()._unsubscribe(subscription)
        channel = subscription.channel
        if channel in self._subs:
            return
        self._confirmed.discard(channel)
        self._gapped.discard(channel)
        async with self._sending:
            pubsub = self._pubsub
            if pubsub is not None:
                with contextlib.suppress(*_UNREACHABLE):
                    await pubsub.unsubscribe(channel)

    async def _run(self) -> None:
        while True:
            async with self._changed:
                await self._changed.wait_for(lambda: bool(self._subs))
            pubsub = self._listener.pubsub()
            lost = False
            try:
                await self._open(pubsub)
                await self._read(pubsub)
            except (*_UNREACHABLE, RedisError) as error:
                self._lost(error)
                lost = True
            finally:
                await self._close(pubsub)
            if lost:
                await self.sleep(self._delay())

    async def _open(self, pubsub: PubSub) -> None:
        # Connect ``pubsub`` and subscribe every channel; from then on ``subscribe`` sends its
        # own SUBSCRIBE on it. The lock keeps the SUBSCRIBEs and UNSUBSCRIBEs in call order.
        self._behind = False
        async with self._sending:
            await pubsub.subscribe(*self._subs)
            if pubsub.connection is not None:
                pubsub.connection.register_connect_callback(self._reconnected)
            self._pubsub = pubsub

    async def _close(self, pubsub: PubSub) -> None:
        async with self._sending:
            self._pubsub = None
        if pubsub.connection is not None:
            pubsub.connection.deregister_connect_callback(self._reconnected)
        with going_on("closing the bus's subscription", expected=REDIS_GONE):
            await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed in redis 8.2

    def _reconnected(self, connection: object) -> None:
        # redis-py reconnected (and resubscribed) the subscriber connection by itself, from
        # a failed SUBSCRIBE: messages may be lost, so ``_read`` gives that connection up.
        self._behind = True

    def _lost(self, error: BaseException) -> None:
        # once per outage, however many tries to reconnect it takes
        OUTAGES.note("redis", f"the bus lost its connection: {error}")
        self._failures += 1
        self._gapped |= set(self._subs)
        self._confirmed.clear()

    def _delay(self) -> float:
        first, cap = self.backoff_s
        delay: float = min(cap, first * 2.0 ** max(0, self._failures - 1))
        return delay * random.uniform(0.5, 1.0)

    async def _read(self, pubsub: PubSub) -> None:
        """Hand out ``pubsub``'s messages until it has no channel left; raises on a loss."""
        pinged = False
        while self._subs:
            message: dict[str, Any] | None = await pubsub.get_message(timeout=self.ping_s)
            if self._behind:
                raise RedisConnectionError("the subscriber connection was reconnected")
            if message is not None:
                pinged = False
                await self._handle(message)
            elif pinged:
                raise RedisConnectionError(f"no answer to a ping within {self.ping_s} s")
            else:
                await pubsub.ping()
                pinged = True

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "message":
            self._deliver(message["channel"].decode(), message["data"])
        elif kind == "subscribe":
            channel = message["channel"].decode()
            if channel not in self._subs:
                return  # closed meanwhile
            self._failures = 0
            if channel in self._gapped:
                self._gapped.discard(channel)
                self._deliver(channel, RESYNC)
                if not self._gapped:
                    self.reconnects += 1
            async with self._changed:
                self._confirmed.add(channel)
                self._changed.notify_all()

    async def aclose(self) -> None:
        """See ``Bus.aclose``."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await super().aclose()
        await self._listener.aclose()
        await self._publisher.aclose()
