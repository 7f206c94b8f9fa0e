"""Who is connected to a party, across the processes serving one site.

Alone, a process knows who has the party open: its own sockets. With several, a member may be
connected to another process, so each process writes the members connected to it on Redis, in
a sorted set a party whose scores are expiry times (``member`` is ``process:id``), and reads
the others'. A process writes again every ``PRESENCE_EVERY_S`` and whenever its own set
changes; an entry not written again for ``PRESENCE_TTL_S`` (a process that died) no longer
counts. The party's channel carries a nudge (``HERE``) so that the others read at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

import redis.asyncio as aioredis

from rummykit.server.cluster.lease import LEASE_S

PRESENCE_EVERY_S: Final = LEASE_S / 3
"""How often a process writes its members again, and reads the others'."""
PRESENCE_TTL_S: Final = LEASE_S
"""How long an entry counts without being written again: a dead process's members are shown
as gone within this time, as its tables are taken over within the lease."""
HERE: Final = b"here"
"""The nudge on the party's channel: someone's connection came or went; read again."""


def presence_key(code: str) -> str:
    """The Redis key of a party's presence."""
    return f"rummy:here:{code}"


class SharedPresence:
    """This process's members of each party on Redis, and the other processes'."""

    def __init__(self, redis: aioredis.Redis, process: str, now: Callable[[], float]) -> None:
        """Entries of ``process`` on ``redis``; ``now`` is the wall clock (seconds)."""
        self.redis = redis
        self.process = process
        self.now = now
        self.written: dict[str, set[int]] = {}
        """The members this process last wrote for each party."""

    async def write(self, code: str, members: Iterable[int]) -> None:
        """Say these members are connected here now (and no others)."""
        here = set(members)
        key = presence_key(code)
        gone = self.written.get(code, set()) - here
        now = self.now()
        pipeline = self.redis.pipeline(transaction=False)
        pipeline.zremrangebyscore(key, "-inf", now)
        if gone:
            pipeline.zrem(key, *(f"{self.process}:{member}" for member in gone))
        if here:
            until = now + PRESENCE_TTL_S
            pipeline.zadd(key, {f"{self.process}:{member}": until for member in here})
        pipeline.expire(key, int(PRESENCE_TTL_S * 2) + 1)
        await pipeline.execute()
        if here:
            self.written[code] = here
        else:
            self.written.pop(code, None)

    async def elsewhere(self, code: str) -> set[int]:
        """The members connected to the party through other processes, as last written."""
        entries = await self.redis.zrangebyscore(presence_key(code), self.now(), "+inf")
        found: set[int] = set()
        for entry in entries:
            text = entry.decode() if isinstance(entry, bytes) else str(entry)
            process, _, member = text.rpartition(":")
            if process != self.process and member.isdigit():
                found.add(int(member))
        return found

    async def forget(self, code: str) -> None:
        """This process no longer serves the party: take its entries away."""
        await self.write(code, ())
