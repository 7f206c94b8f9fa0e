"""Who is connected to a party through each process, shared on Redis.

Each process writes its own members with an expiry and reads the others'; a process that
stops writing (it died) drops out once its entries expire. The clock is injected.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

from redis_service import RedisService
from rummykit.server.cluster.lease import redis_client
from rummykit.server.cluster.presence import PRESENCE_TTL_S, SharedPresence


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


Scenario = Callable[[SharedPresence, SharedPresence, Clock, str], Awaitable[None]]


def run_two_processes(url: str, scenario: Scenario) -> None:
    """``scenario`` with two processes' presence on one Redis, a clock and a fresh party."""

    async def run() -> None:
        clock, code = Clock(), f"P{secrets.token_hex(3).upper()}"
        client = redis_client(url)
        try:
            first = SharedPresence(client, "first", clock)
            second = SharedPresence(client, "second", clock)
            await scenario(first, second, clock, code)
        finally:
            await client.aclose()

    asyncio.run(run())


def test_each_process_reads_the_members_connected_through_the_others(
    redis_server: RedisService,
) -> None:
    async def scenario(
        first: SharedPresence, second: SharedPresence, clock: Clock, code: str
    ) -> None:
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

    run_two_processes(redis_server.url, scenario)


def test_the_members_of_a_process_that_stopped_writing_expire_after_the_ttl(
    redis_server: RedisService,
) -> None:
    async def scenario(
        dead: SharedPresence, alive: SharedPresence, clock: Clock, code: str
    ) -> None:
        await dead.write(code, {1})
        clock.now += PRESENCE_TTL_S - 0.5
        assert await alive.elsewhere(code) == {1}, "still within its time"
        clock.now += 1.0
        assert await alive.elsewhere(code) == set(), "not written again: gone"
        await alive.write(code, {2})  # a write also clears the expired entries
        assert await alive.redis.zcard(f"rummy:here:{code}") == 1

    run_two_processes(redis_server.url, scenario)
