"""Who is connected to a party through each process, shared on Redis.

Each process writes its own members with an expiry and reads the others'; a process that
stops writing (it died) drops out once its entries expire. The clock is injected.
"""

from __future__ import annotations

import asyncio
import secrets

from redis_service import RedisService
from rummykit.server.lease import redis_client
from rummykit.server.presence import PRESENCE_TTL_S, SharedPresence


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_each_process_reads_the_members_connected_through_the_others(
    redis_server: RedisService,
) -> None:
    async def scenario() -> None:
        clock, code = Clock(), f"P{secrets.token_hex(3).upper()}"
        client = redis_client(redis_server.url)
        try:
            first = SharedPresence(client, "first", clock)
            second = SharedPresence(client, "second", clock)
            await first.write(code, {1, 2})
            await second.write(code, {3})
            assert await first.elsewhere(code) == {3}
            assert await second.elsewhere(code) == {1, 2}
            await first.write(code, {2})  # member 1 closed their page
            assert await second.elsewhere(code) == {2}
            await first.forget(code)  # the process let the party go
            assert await second.elsewhere(code) == set()
            assert await first.elsewhere(code) == {3}
            assert await first.elsewhere("OTHER") == set()
        finally:
            await client.aclose()

    asyncio.run(scenario())


def test_the_members_of_a_process_that_stopped_writing_expire_after_the_ttl(
    redis_server: RedisService,
) -> None:
    async def scenario() -> None:
        clock, code = Clock(), f"P{secrets.token_hex(3).upper()}"
        client = redis_client(redis_server.url)
        try:
            dead = SharedPresence(client, "dead", clock)
            alive = SharedPresence(client, "alive", clock)
            await dead.write(code, {1})
            clock.now += PRESENCE_TTL_S - 0.5
            assert await alive.elsewhere(code) == {1}, "still within its time"
            clock.now += 1.0
            assert await alive.elsewhere(code) == set(), "not written again: gone"
            await alive.write(code, {2})  # a write also clears the expired entries
            assert await client.zcard(f"rummy:here:{code}") == 1
        finally:
            await client.aclose()

    asyncio.run(scenario())
