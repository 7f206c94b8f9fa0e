"""The parties of a site served by several processes: one change at a time, news of each."""

from __future__ import annotations

import asyncio
import contextlib

from rummykit.server.cluster import BusUnavailable, Cluster, party_channel
from rummykit.server.parties.party import PartyRecord
from rummykit.server.store import Store


class SharedParties:
    """The parties of a site served by several processes.

    One change at a time across them, each read again from the store, and news of each change
    on the party's channel.
    """

    def __init__(self, cluster: Cluster, store: Store) -> None:
        self.cluster = cluster
        self.store = store

    def lock(self, code: str) -> contextlib.AbstractAsyncContextManager[None]:
        """The party's lock, across every process."""
        return self.cluster.lock(f"party:{code}")

    async def load(self, code: str) -> PartyRecord | None:
        """The party's record as stored."""
        stored = await asyncio.to_thread(self.store.parties.get, code)
        return None if stored is None else PartyRecord.model_validate_json(stored.party)

    async def changed(self, code: str) -> None:
        """Tell the other processes (a lost message: their members see the next change)."""
        with contextlib.suppress(BusUnavailable):
            await self.cluster.bus.publish(party_channel(code), b"changed")
