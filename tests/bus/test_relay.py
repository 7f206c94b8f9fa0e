"""A table's sockets on another process: intents forwarded to the owner, frames relayed back.

The owner's ``Desk`` serves a real ``Table``; a ``RemoteTable`` on a second bus (a second
process's, on Redis) relays it to connections that see just what a socket on the owner would:
the view on joining, each event, the answers to their own intents, refusals with the owner's
version. Run on both backends (``backend``), each with the test's own clock for the table.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

from bus_backends import Backend
from rummykit.protocol.api import NewTable
from rummykit.protocol.messages import CLIENT_MESSAGES, ClientMessage, ServerMessage
from rummykit.server.cluster.bus import BusUnavailable, MemoryBus
from rummykit.server.cluster.relay import Desk, RemoteTable, Send
from rummykit.server.store.store import Store
from rummykit.server.tables.new_table import new_table_settings
from rummykit.server.tables.table import deal_new_table
from table_client import WORKERS, ManualClock, seed_where_human_starts

pytestmark = pytest.mark.timeout(60)


Frame = dict[str, Any]


class Page:
    """A relayed connection's frames, as a page would receive them (as JSON)."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self.arrived = asyncio.Event()

    async def send(self, message: ServerMessage) -> None:
        self.frames.append(message.model_dump(mode="json"))
        self.arrived.set()

    async def until(self, wanted: Callable[[Frame], bool]) -> Frame:
        while True:
            found = next((frame for frame in self.frames if wanted(frame)), None)
            if found is not None:
                return found
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), timeout=20)


def _intent(kind: str, version: int, **data: object) -> ClientMessage:
    return CLIENT_MESSAGES.validate_python({"t": kind, "v": version, "d": data})


def test_a_relayed_seat_plays_at_the_owners_table(backend: Backend) -> None:
    async def scenario() -> None:
        store = Store(":memory:")
        clock = ManualClock()
        settings = new_table_settings(NewTable(seed=seed_where_human_starts()))
        table, _ = await deal_new_table(store, settings, WORKERS, sleep=clock.sleep)
        async with backend.buses(2) as (owner_bus, relay_bus):
            desk = Desk(owner_bus)
            await desk.serve(table)
            remote = RemoteTable(relay_bus, table.id, table.settings, "p2")
            page = Page()
            await remote.join(0, page.send, None)
            view = await page.until(lambda frame: frame["t"] == "view")
            assert view["v"] == table.version and view["d"]["hand"] == list(table.view(0).hand)
            assert table.listeners[0]  # the owner counts the relayed page as present
            card = view["d"]["hand"][0]
            await remote.submit(0, _intent("act", view["v"], action="draw stock"), page.send)
            drawn = await page.until(lambda frame: frame["t"] == "event" and frame["v"] > view["v"])
            assert drawn["d"]["seat"] == 0 and drawn["d"]["action"].startswith("draw")
            late = _intent("act", view["v"], action=f"discard {card}")  # an old version: stale
            await remote.submit(0, late, page.send)
            stale = await page.until(lambda frame: frame["t"] == "refused")
            assert stale["d"]["reason"] == "stale" and remote.version == table.version
            left = asyncio.Event()
            owners_leave = table.leave

            async def leave_heard(seat: int | None, send: Send, heard: float | None = None) -> None:
                await owners_leave(seat, send, heard)
                left.set()

            table.leave = leave_heard  # type: ignore[method-assign]
            heard = time.time() - 3.0  # a beating page found silent: last heard 3 s ago
            await remote.leave(0, page.send, heard)
            await asyncio.wait_for(left.wait(), timeout=20)  # the owner hears of it on the bus
            assert not table.listeners.get(0)
            assert table.away_since[0] == heard  # its grace counts from then, on the owner
            await remote.stop()
            await desk.aclose()
        await table.stop()
        store.close()

    asyncio.run(scenario())


def test_a_bus_gap_sends_every_relayed_connection_its_current_view(backend: Backend) -> None:
    async def scenario() -> None:
        store = Store(":memory:")
        settings = new_table_settings(NewTable(seed=seed_where_human_starts()))
        table, _ = await deal_new_table(store, settings, WORKERS, sleep=ManualClock().sleep)
        async with backend.buses(2) as (owner_bus, relay_bus):
            desk = Desk(owner_bus)
            await desk.serve(table)
            remote = RemoteTable(relay_bus, table.id, table.settings, "p2")
            page = Page()
            await remote.join(0, page.send, None)
            await page.until(lambda frame: frame["t"] == "view")
            page.frames.clear()
            await desk._resync(table)  # what the desk does when its stream says RESYNC
            again = await page.until(lambda frame: frame["t"] == "view")
            assert again["v"] == table.version
            await remote.stop()
            await desk.aclose()
        await table.stop()
        store.close()

    asyncio.run(scenario())


class Unreachable(MemoryBus):
    """A bus that stops carrying messages when told (Redis out of reach, or out of
    connections)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False

    async def publish(self, channel: str, data: bytes) -> None:
        if self.down:
            raise BusUnavailable("out of reach")
        await super().publish(channel, data)


def test_an_intent_the_bus_cannot_carry_is_refused_with_try_again() -> None:
    """The relaying process answers the page itself: nothing was passed on, so the page may
    send it again (numbered, it applies once)."""

    async def scenario() -> None:
        bus = Unreachable()
        settings = new_table_settings(NewTable(seed=seed_where_human_starts()))
        remote = RemoteTable(bus, "t-unreachable", settings, "relaying")
        page = Page()
        await remote.join(0, page.send)
        bus.down = True
        await remote.submit(0, _intent("pace", 0, ms=300), page.send)
        frame = await page.until(lambda frame: frame["t"] == "refused")
        assert frame["d"]["code"] == "try_again" and frame["d"]["reason"] == "try_again"
        await remote.leave(0, page.send)  # the note is lost too, quietly
        assert not remote.is_watched()
        await remote.stop()

    asyncio.run(scenario())
