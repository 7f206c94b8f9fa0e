"""The bus between processes: delivery in order across connections, unsubscribing, a slow
reader cut back to ``RESYNC`` without holding up the others, and, on Redis, a restart in the
middle of a stream (``RESYNC``, then the new messages). Each behavioural test runs in memory
and on a real Redis (``backend``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis

from bus_backends import Backend, table_id, take
from ports import free_port
from redis_service import RedisProcess, RedisService, redis_binary
from rummykit.server.cluster.bus import (
    RESYNC,
    BusUnavailable,
    MemoryBus,
    RedisBus,
    frames_channel,
    intents_channel,
)

TIMEOUT_S = 30
PAUSE_MS = 1500
"""How long Redis holds its answers in the ping test: many ``ping_s`` of the relay."""


def numbered(count: int, start: int = 0) -> list[bytes]:
    return [str(number).encode() for number in range(start, start + count)]


@pytest.mark.timeout(TIMEOUT_S)
def test_every_subscriber_gets_every_message_in_order(backend: Backend) -> None:
    async def scenario() -> None:
        channel = frames_channel(table_id())
        async with backend.buses(2) as (here, there):
            near = await here.subscribe(channel)
            far = await there.subscribe(channel)
            for message in numbered(200):
                await here.publish(channel, message)
            assert await take(far, 200) == numbered(200)
            assert await take(near, 200) == numbered(200)
            assert far.pending() == near.pending() == 0

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_channels_are_apart(backend: Backend) -> None:
    async def scenario() -> None:
        table, other = table_id(), table_id()
        async with backend.buses(2) as (owner, relay):
            intents = await owner.subscribe(intents_channel(table))
            frames = await relay.subscribe(frames_channel(table))
            elsewhere = await relay.subscribe(frames_channel(other))
            await relay.publish(intents_channel(table), b"draw")
            await owner.publish(frames_channel(table), b"frame 1")
            assert await take(intents, 1) == [b"draw"]
            assert await take(frames, 1) == [b"frame 1"]
            await owner.publish(frames_channel(other), b"frame of the other")
            assert await take(elsewhere, 1) == [b"frame of the other"]
            assert intents.pending() == frames.pending() == 0
        assert intents_channel(table) != frames_channel(table)

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_a_closed_subscription_ends_and_the_others_go_on(backend: Backend) -> None:
    async def scenario() -> None:
        channel = frames_channel(table_id())
        async with backend.buses(2) as (here, there):
            staying = await there.subscribe(channel)
            async with await there.subscribe(channel) as leaving:
                await here.publish(channel, b"1")
                assert await take(leaving, 1) == [b"1"]
            assert leaving.closed
            assert [item async for item in leaving] == []
            await here.publish(channel, b"2")
            assert await take(staying, 2) == [b"1", b"2"]
            # the last subscription of a channel closes; a new one gets what follows
            await staying.aclose()
            again = await there.subscribe(channel)
            await here.publish(channel, b"3")
            assert await take(again, 1) == [b"3"]
            assert leaving.pending() == 0

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_subscribing_again_and_again_to_one_channel_misses_nothing(backend: Backend) -> None:
    """Each UNSUBSCRIBE and SUBSCRIBE reach Redis in the order they were asked for."""

    async def scenario() -> None:
        channel = frames_channel(table_id())
        async with backend.buses(2) as (here, there):
            for message in numbered(30):
                subscription = await there.subscribe(channel)
                await here.publish(channel, message)
                assert await take(subscription, 1) == [message]
                await subscription.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_a_slow_subscriber_is_cut_back_to_resync_and_holds_up_nobody(backend: Backend) -> None:
    async def scenario() -> None:
        channel = frames_channel(table_id())
        limit = 4
        async with backend.buses(2, limit=limit) as (here, there):
            slow = await there.subscribe(channel)
            quick = await there.subscribe(channel)
            received: list[object] = []
            for message in numbered(30):
                # every publish returns at once, though ``slow`` reads nothing
                await asyncio.wait_for(here.publish(channel, message), TIMEOUT_S / 3)
                received.extend(await take(quick, 1))
            assert received == numbered(30)
            # every message has passed ``slow``'s queue: it holds a gap, then the tail
            assert slow.overflows >= 1 and slow.pending() <= limit + 1
            tail = await take(slow, slow.pending())
            assert tail[0] is RESYNC
            assert tail[1:] == numbered(30)[30 - len(tail) + 1 :]
            # and it reads on normally once it keeps up
            await here.publish(channel, b"next")
            assert await take(slow, 1) == [b"next"]

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_after_a_redis_restart_the_subscriber_gets_resync_then_the_new_messages(
    redis_server: RedisService,
) -> None:
    async def scenario() -> None:
        channel = frames_channel(table_id())
        other = intents_channel(table_id())
        publisher = RedisBus(redis_server.url)
        relay = RedisBus(redis_server.url, backoff_s=(0.01, 0.2))
        try:
            frames = await relay.subscribe(channel)
            intents = await relay.subscribe(other)
            for message in numbered(5):
                await publisher.publish(channel, message)
            assert await take(frames, 5) == numbered(5)
            redis_server.restart()
            # the relay reconnects, resubscribes both channels and marks the gap on each
            assert await take(frames, 1) == [RESYNC]
            assert await take(intents, 1) == [RESYNC]
            for message in numbered(5, start=5):
                await publisher.publish(channel, message)
            await publisher.publish(other, b"draw")
            assert await take(frames, 5) == numbered(5, start=5)
            assert await take(intents, 1) == [b"draw"]
            assert relay.reconnects == 1
            # a channel subscribed after the restart works as any other
            late = await relay.subscribe(frames_channel(table_id()))
            await publisher.publish(late.channel, b"late")
            assert await take(late, 1) == [b"late"]
        finally:
            await publisher.aclose()
            await relay.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_publishing_without_redis_says_so() -> None:
    async def scenario() -> None:
        bus = RedisBus(f"redis://127.0.0.1:{free_port()}/0")
        try:
            with pytest.raises(BusUnavailable):
                await bus.publish(frames_channel(table_id()), b"frame")
        finally:
            await bus.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_closing_the_bus_ends_every_subscription() -> None:
    async def scenario() -> list[object]:
        bus = MemoryBus()
        subscription = await bus.subscribe(frames_channel(table_id()))
        reading = asyncio.ensure_future(take(subscription, 1))
        await asyncio.sleep(0)  # the reader waits
        await bus.aclose()
        with pytest.raises(StopAsyncIteration):
            await reading
        return [item async for item in subscription]

    assert asyncio.run(scenario()) == []


@pytest.mark.timeout(TIMEOUT_S)
def test_a_dropped_subscriber_connection_is_a_gap_too(redis_server: RedisService) -> None:
    """Redis stays up, the relay's connection is cut (``CLIENT KILL``): redis-py could
    reconnect it by itself and say nothing; the bus marks the gap."""

    async def scenario() -> None:
        channel = frames_channel(table_id())
        relay = RedisBus(redis_server.url, backoff_s=(0.01, 0.2))
        try:
            frames = await relay.subscribe(channel)
            await relay.publish(channel, b"before")
            assert await take(frames, 1) == [b"before"]
            with redis.Redis.from_url(redis_server.url) as admin:
                assert admin.client_kill_filter(_type="pubsub") >= 1
            assert await take(frames, 1) == [RESYNC]
            await relay.publish(channel, b"after")
            assert await take(frames, 1) == [b"after"]
        finally:
            await relay.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_a_redis_that_stops_answering_is_given_up_and_found_again(
    redis_server: RedisService,
) -> None:
    """No error comes when a network path dies silently (redis-py issue 2417): an unanswered
    ping stands for one. ``CLIENT PAUSE`` makes Redis hold every answer for a while."""

    async def scenario() -> None:
        channel = frames_channel(table_id())
        relay = RedisBus(redis_server.url, backoff_s=(0.01, 0.2), ping_s=0.05)
        try:
            frames = await relay.subscribe(channel)
            with redis.Redis.from_url(redis_server.url) as admin:
                admin.client_pause(PAUSE_MS, all=True)
            assert await take(frames, 1) == [RESYNC]
            await relay.publish(channel, b"after")
            assert await take(frames, 1) == [b"after"]
            assert relay.reconnects >= 1
        finally:
            await relay.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_a_subscription_asked_for_while_redis_is_down_starts_when_it_is_back(
    redis_server: RedisService, tmp_path: Path
) -> None:
    """On a Redis of its own (this one is stopped for a while): ``subscribe`` waits."""
    binary = redis_binary()
    assert binary is not None  # ``redis_server`` fails or skips without it

    async def scenario(own: RedisProcess) -> None:
        relay = RedisBus(own.url, backoff_s=(0.01, 0.1))
        try:
            first = await relay.subscribe(frames_channel(table_id()))
            own.stop()
            while relay.connected:
                await asyncio.sleep(0)  # until the relay has seen the loss
            pending = asyncio.ensure_future(relay.subscribe(frames_channel(table_id())))
            for _ in range(50):
                await asyncio.sleep(0)
            assert not pending.done()
            own.start()
            second = await pending
            assert await take(first, 1) == [RESYNC]
            await relay.publish(second.channel, b"back")
            # asked for as the connection was lost, it may start with a RESYNC of its own
            received = await take(second, 1)
            if received == [RESYNC]:
                received = await take(second, 1)
            assert received == [b"back"]
        finally:
            await relay.aclose()

    with RedisProcess(tmp_path, binary) as own:
        asyncio.run(scenario(own))
