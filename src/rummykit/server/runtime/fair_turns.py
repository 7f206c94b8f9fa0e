"""Turns at a few shared slots, taken fairly across clients rather than first come, first served.

The worker pool ran every job in the order it came: 60 ``expert`` tables opened from one
address queued sixty 200 ms searches ahead of an honest table's computer, which then answered
3 times in 20 s instead of about 18. Here each client (an address, a party) waits in a line of
its own, and a freed slot goes to the waiting client served least recently: a client with one
job waits for at most one job of anyone else, however many another client has queued.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final

NEVER_SERVED: Final = -1
"""The rank of a client with no turn remembered: ahead of every client served before."""

CLIENTS_REMEMBERED: Final = 4096
"""Clients whose last turn the gate remembers; past it, only those waiting are kept (the
others then count as new: ahead of the line once, which costs the busy ones one turn)."""


class FairGate:
    """At most ``capacity`` holders at once; waiting clients take freed slots in turn."""

    def __init__(self, capacity: int) -> None:
        """A gate of ``capacity`` slots (at least one)."""
        if capacity < 1:
            raise ValueError(f"capacity: a gate needs at least one slot, not {capacity}")
        self.capacity = capacity
        self.busy = 0
        self._waiting: dict[str, collections.deque[asyncio.Future[None]]] = {}
        self._served_at: dict[str, int] = {}
        """When each client last took a slot: it is remembered after its line empties, so
        that a busy client coming back is not new again, ahead of one that waited."""
        self._turns = itertools.count()

    def waiting_count(self, client: str | None = None) -> int:
        """Turns waiting: of ``client``, or of everyone."""
        if client is not None:
            return len(self._waiting.get(client, ()))
        return sum(len(line) for line in self._waiting.values())

    @asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """Hold a slot for ``client`` (waiting fairly for one) while the block runs."""
        await self.acquire(client)
        try:
            yield
        finally:
            self.release()

    async def acquire(self, client: str) -> None:
        """Wait for a slot for ``client``; ``release`` gives it back."""
        if self.busy < self.capacity and not self._waiting:
            self.busy += 1
            self._served_at[client] = next(self._turns)
            self._prune()
            return
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line = self._waiting.get(client)
        if line is None:
            line = self._waiting[client] = collections.deque()
        line.append(ticket)
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self.release()  # the slot came just as the waiter gave up: pass it on
            else:
                self._forget(client, ticket)
            raise

    def release(self) -> None:
        """Give a slot back: to the waiting client served least recently, if any."""
        while self._waiting:
            # dictionaries keep insertion order: among equals, the client that came first
            client = min(self._waiting, key=self._rank)
            line = self._waiting[client]
            ticket = line.popleft()
            self._served_at[client] = next(self._turns)
            if not line:
                del self._waiting[client]
                self._prune()
            if not ticket.done():
                ticket.set_result(None)  # the slot passes to it: busy stays the same
                return
        self.busy -= 1

    def _forget(self, client: str, ticket: asyncio.Future[None]) -> None:
        line = self._waiting.get(client)
        if line is None:
            return
        try:
            line.remove(ticket)
        except ValueError:
            return
        if not line:
            del self._waiting[client]

    def _rank(self, client: str) -> int:
        return self._served_at.get(client, NEVER_SERVED)

    def _prune(self) -> None:
        if len(self._served_at) > CLIENTS_REMEMBERED:
            self._served_at = {
                client: turn for client, turn in self._served_at.items() if client in self._waiting
            }
