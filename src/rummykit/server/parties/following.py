"""Parties followed across the processes of a site: others' changes, and who is where.

The process that changes a party says so on the party's channel; each process that holds the
party in memory reads it again and shows it to its members. With presence switched on, who is
connected through each process is written to Redis and read back
(``rummykit.server.cluster.SharedPresence``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

from rummykit.server.cluster import (
    HERE,
    PRESENCE_EVERY_S,
    BusUnavailable,
    Cluster,
    SharedPresence,
    party_channel,
)
from rummykit.server.parties.party import Party
from rummykit.server.runtime import REDIS_GONE, going_on

STOP_WAIT_S: Final = 2.0
"""The longest a party's follower may take to let go when the party leaves memory or the
process stops."""


class PartyFollowers:
    """The parties in memory whose changes by other processes are followed, one task each."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.following: dict[str, asyncio.Task[None]] = {}
        self.presence: SharedPresence | None = None
        """Who is connected to each party through each process (``SharedPresence``): not
        switched on yet. Its follower could outlive the bus at a process's stop and hang it
        (1 test run in about 7); until that is found, members on another process show as
        away, as before."""

    async def follow(self, party: Party) -> None:
        """Show the party's members here each change another process made (once a party)."""
        if party.code in self.following:
            return
        presence = self.presence
        nudged = asyncio.Event()
        if presence is not None:
            party.nudge = nudged.set

        async def follow() -> None:
            subscription = await self.cluster.bus.subscribe(party_channel(party.code))
            keeping = None
            if presence is not None:
                keeping = asyncio.get_running_loop().create_task(
                    self._keep_presence(party, presence, nudged)
                )
            try:
                async with subscription:
                    async for item in subscription:
                        if item != HERE:  # a change, or a gap (RESYNC): read it again
                            with going_on("reading a party again"):  # the next change reads it
                                await party.refresh()
                        nudged.set()
            finally:
                if keeping is not None:
                    keeping.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await keeping

        # registered before any await: two requests for one party start one follower, and
        # the lobby's close stops every follower while the bus is still there
        self.following[party.code] = asyncio.get_running_loop().create_task(follow())

    async def _keep_presence(
        self, party: Party, presence: SharedPresence, nudged: asyncio.Event
    ) -> None:
        """Write who is connected here, read who is elsewhere, show the party when it moves.

        Every ``PRESENCE_EVERY_S``, and at once when nudged (a connection here came or went,
        or another process said so).
        """
        told: set[int] | None = None
        try:
            while True:
                nudged.clear()
                # Redis away: try again next time
                with going_on("sharing a party's presence", expected=REDIS_GONE):
                    here = party.here()
                    await presence.write(party.code, here)
                    if here != told:  # the others read at once
                        with contextlib.suppress(BusUnavailable):
                            await self.cluster.bus.publish(party_channel(party.code), HERE)
                        told = here
                    elsewhere = await presence.elsewhere(party.code)
                    if elsewhere != party.elsewhere:
                        party.elsewhere = elsewhere
                        await party.broadcast()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(nudged.wait(), PRESENCE_EVERY_S)
        finally:
            # unwritten, the entries expire by themselves
            with going_on("forgetting a party's presence", expected=(*REDIS_GONE, TimeoutError)):
                async with asyncio.timeout(STOP_WAIT_S):
                    await presence.forget(party.code)

    async def unfollow(self, code: str) -> None:
        """Stop following a party (it left memory)."""
        task = self.following.pop(code, None)
        if task is not None:
            task.cancel()
            # bounded: a stop must not hang on Redis (the task ends by itself once it answers)
            await asyncio.wait({task}, timeout=STOP_WAIT_S)

    async def close(self) -> None:
        """Stop following every party (the process stops; the bus is about to go)."""
        for code in list(self.following):
            await self.unfollow(code)
