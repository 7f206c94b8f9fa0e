"""Nothing kept per socket outlives it, and closed sockets' memory is collected as they go.

1,000 sockets that came and went left the server 90 MB larger; what held it was not ours (the
asyncio transports' reference cycles, awaiting a full collection), but this checks that our
own structures per socket and per address are emptied, and that the keeper collects.
"""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ports import free_port
from rummykit.protocol.limits import Limits
from rummykit.server.http.connections import GuardedH11Protocol
from rummykit.server.http.memory import NEVER, MemoryKeeper, defer_full_collections
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import STUCK_S, LiveServer

pytestmark = pytest.mark.timeout(60)

SOCKETS = 6


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "tables.sqlite3", free_port(), limits=Limits())  # as served
    live.start()
    yield live
    live.stop()


def _until(condition_met: Callable[[], bool]) -> None:
    deadline = time.monotonic() + STUCK_S
    while not condition_met():  # the server tidies up after the client's close, on its loop
        assert time.monotonic() < deadline, "not emptied"
        time.sleep(0.01)


def test_per_socket_structures_are_emptied_after_the_sockets_close(server: LiveServer) -> None:
    collected = threading.Event()  # set on the server's thread by the keeper's collection
    app = server.app
    app.state.memory = MemoryKeeper(every=SOCKETS, collect=collected.set, trim=lambda: None)
    table_id, token = server.create_table()
    table = app.state.lobby.tables[table_id]
    assert server.server is not None
    http = server.server.config.http
    assert isinstance(http, type) and issubclass(http, GuardedH11Protocol)
    opened = [server.seat_socket(table_id, token) for _ in range(SOCKETS)]
    connections = [socket.__enter__() for socket in opened]
    for connection in connections:
        connection.recv(timeout=STUCK_S)  # the view: the socket is at the table
    assert sum(app.state.limiter.sockets.values()) == SOCKETS
    assert len(table.listeners[0]) == SOCKETS
    for socket in opened:
        socket.__exit__(None, None, None)
    _until(lambda: not app.state.limiter.sockets and not table.listeners.get(0))
    assert collected.wait(STUCK_S), "no collection after the sockets closed"
    assert app.state.memory.collections == 1
    assert dict(http.open_by_address) == {}
    assert app.state.memory.closed_since == 0


def test_the_keeper_collects_every_so_many_closed_sockets() -> None:
    calls: list[str] = []
    keeper = MemoryKeeper(
        every=3, collect=lambda: calls.append("collect"), trim=lambda: calls.append("trim")
    )
    for _ in range(7):
        keeper.socket_closed()
    assert calls == ["collect", "trim", "collect", "trim"]
    assert keeper.collections == 2
    assert keeper.closed_since == 1


def test_the_keeper_collects_in_full_every_so_many_seconds_until_cancelled() -> None:
    calls: list[str] = []
    waits: list[float] = []
    keeper = MemoryKeeper(
        collect=lambda: calls.append("collect"), trim=lambda: calls.append("trim")
    )

    async def sleep(seconds: float) -> None:  # the clock: each wait passes at once, 3 of them
        waits.append(seconds)
        if len(waits) > 3:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(keeper.collect_periodically(every=120.0, sleep=sleep))
    assert waits == [120.0] * 4
    assert calls == ["collect", "trim"] * 3
    assert keeper.collections == 3


def test_deferred_full_collections_leave_the_young_ones_to_python() -> None:
    before = gc.get_threshold()
    try:
        defer_full_collections()
        young, middle, old = gc.get_threshold()
        assert (young, middle) == before[:2]
        assert (
            old == NEVER
        )  # the old generation's count (collections of the middle) never gets there
    finally:
        gc.set_threshold(*before)


def test_a_serving_app_runs_the_keepers_full_collections(tmp_path: Path) -> None:
    async def collecting() -> list[asyncio.Task[object]]:
        return [
            task
            for task in asyncio.all_tasks()
            if getattr(task.get_coro(), "__qualname__", "") == "MemoryKeeper.collect_periodically"
        ]

    app = create_app(
        ServerConfig(store_path=tmp_path / "tables.sqlite3", limits=Limits.unlimited())
    )
    with TestClient(app) as client:
        assert client.portal is not None
        found = client.portal.call(collecting)
        assert len(found) == 1 and not found[0].done()
    assert found[0].done()  # stopped with the app
