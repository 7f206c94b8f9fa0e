"""Outages fail fast and clean: PostgreSQL down, Redis down, the SQLite disk full.

During each outage every answer comes within ``ANSWER_S``, timed by the test: HTTP ``503``
with ``Retry-After`` and the player's sentence, an intent refused with ``try_again``, a new
socket closed with ``CloseCode.TRY_AGAIN_LATER``; never a 500, never a traceback, and one log
line for the outage at most. Once the service is back, every action acknowledged before is
still there, and the intent refused during the outage is applied once when sent again.

The times measured are printed (``pytest -s``) as ``outage answer times``.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from redis_service import RedisService, redis_server
from rummykit.protocol.api import NewTable
from rummykit.protocol.limits import Limits
from rummykit.protocol.messages import CloseCode
from rummykit.server.cluster.bus import MemoryBus
from rummykit.server.cluster.lease import MemoryLeases
from rummykit.server.cluster.outage_log import LOG_EVERY_S, OUTAGES, OutageLog
from rummykit.server.cluster.site import Cluster
from rummykit.server.parties.lobby import Lobby
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.store.database import RECONNECT_S
from rummykit.server.store.outage import OUT_OF_REACH, RETRY_AFTER_S
from rummykit.server.store.store import Store
from rummykit.server.tables.new_table import new_table_settings
from services import PostgresServer, StoreBackend
from table_client import (
    WORKERS,
    SeatSocket,
    bearer,
    create_table,
    hello,
    seat_connection,
    seed_where_human_starts,
    sent_until_applied,
)

__all__ = ["redis_server"]

pytestmark = pytest.mark.timeout(120)

ANSWER_S = 2.0
"""The longest any answer may take during an outage."""

LEASE_S = 3.0
"""The cluster's leases (as in ``test_cluster``): the owner keeps its table through a Redis
outage shorter than this."""

Answer = TypeVar("Answer")


def timed(
    times: dict[str, float], name: str, answer: Callable[[], Answer], bound: float = ANSWER_S
) -> Answer:
    """``answer()``, its time kept in ``times`` under ``name`` and checked against ``bound``."""
    start = time.monotonic()
    result = answer()
    times[name] = elapsed = time.monotonic() - start
    assert elapsed < bound, f"{name} took {elapsed:.2f} s"
    return result


def report(outage: str, times: dict[str, float]) -> None:
    """Print the answer times of one outage (the figures of the closing note)."""
    figures = ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in times.items())
    print(f"\noutage answer times ({outage}): {figures}")


@pytest.fixture
def outage_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every log record of the test, the outage log fresh (its first line not yet said)."""
    OUTAGES.last.clear()
    OUTAGES.held_back.clear()
    caplog.set_level(logging.DEBUG)
    yield caplog


def assert_quiet(caplog: pytest.LogCaptureFixture, services: set[str]) -> None:
    """No traceback, and one warning for each service out of reach, none besides."""
    tracebacks = [record.getMessage() for record in caplog.records if record.exc_info]
    assert not tracebacks
    loud = [record for record in caplog.records if record.levelno >= logging.WARNING]
    said = [record.getMessage() for record in loud]
    assert [record.name for record in loud] == ["rummykit.outage"] * len(services), said
    assert {message.split()[1] for message in said} == services, said


def assert_unavailable(answer: Any) -> None:
    """A ``503`` that says when to ask again, and why, in the player's words."""
    assert answer.status_code == 503, answer.text
    assert answer.headers["retry-after"] == str(RETRY_AFTER_S)
    assert answer.json() == {"error": OUT_OF_REACH, "reason": "out_of_reach"}


def closed_at_hello(client: TestClient, table: str, token: str) -> WebSocketDisconnect:
    """A new socket's hello, answered by a close: the close."""
    with client.websocket_connect(f"/ws/{table}") as websocket:
        websocket.send_text(hello(token))
        with pytest.raises(WebSocketDisconnect) as closed:
            websocket.receive_text()
    return closed.value


def first(legal: list[str], verb: str) -> str:
    return next(action for action in legal if action.startswith(verb))


def drawn(seat: SeatSocket) -> tuple[str, str]:
    """The seat's first draw, acknowledged; the draw, and a discard it may make next."""
    seat.recv()
    seat.set_pace(0)
    draw = first(seat.view["legal"], "draw")
    seat.act(draw)
    return draw, first(seat.view["legal"], "discard")


def test_with_postgresql_down_every_answer_is_fast_and_clean_and_nothing_is_lost(
    tmp_path: Path,
    postgres_url: str,
    postgres_server: PostgresServer,
    outage_log: pytest.LogCaptureFixture,
) -> None:
    app = create_app(
        ServerConfig(
            store_path=tmp_path / "unused.sqlite3",
            database_url=postgres_url,
            accept_seeds=True,
            limits=Limits.unlimited(),
        ),
        workers=WORKERS,
    )
    times: dict[str, float] = {}
    with TestClient(app) as client:
        table, token = create_table(client, seed=seed_where_human_starts())
        with seat_connection(client, table, token) as seat:
            draw, discard = drawn(seat)
            acknowledged = seat.version
            with postgres_server.down():
                board = timed(times, "leaderboard", lambda: client.get("/api/leaderboard"))
                made = timed(times, "new table", lambda: client.post("/api/tables", json={}))
                view = timed(
                    times,
                    "table view",
                    lambda: client.get(f"/api/tables/{table}", headers=bearer(token)),
                )
                closed = timed(times, "hello", lambda: closed_at_hello(client, table, token))
                seat.send("act", {"action": discard})
                refused = timed(times, "intent", seat.refused)
            for answer in (board, made, view):
                assert_unavailable(answer)
            assert closed.code == CloseCode.TRY_AGAIN_LATER and closed.reason == OUT_OF_REACH
            assert refused["d"]["code"] == "try_again" and refused["v"] == acknowledged
            # the same intent once the database is back: applied once
            recovery = RECONNECT_S + ANSWER_S  # the pool's try to reconnect may have begun
            timed(times, "recovery", lambda: sent_until_applied(seat, discard), recovery)
            assert seat.version == acknowledged + 1
    report("PostgreSQL down", times)
    assert_quiet(outage_log, {"database"})
    assert first_actions(postgres_url, table) == [f"0 {draw}", f"0 {discard}"]


class FullDisk:
    """The store's SQLite connection on a disk that fills up.

    While ``full``, every statement that writes fails as SQLite's does on a full disk
    (``SQLITE_FULL``: "database or disk is full"); reads go on.
    """

    WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.full = False
        self.refused = 0
        """Writes refused so far."""

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        if self.full and sql.lstrip().upper().startswith(self.WRITES):
            self.refused += 1
            raise disk_full()
        return self.connection.execute(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


def test_with_the_disk_full_every_answer_is_fast_and_clean_and_nothing_is_lost(
    store_path: Path, outage_log: pytest.LogCaptureFixture
) -> None:
    app = create_app(
        ServerConfig(store_path=store_path, accept_seeds=True, limits=Limits.unlimited()),
        workers=WORKERS,
    )
    database = app.state.lobby.store._db
    disk = FullDisk(database.connection)
    database.connection = disk
    times: dict[str, float] = {}
    with TestClient(app) as client:
        table, token = create_table(client, seed=seed_where_human_starts())
        with seat_connection(client, table, token) as seat:
            draw, discard = drawn(seat)
            acknowledged = seat.version
            disk.full = True
            made = [
                timed(times, f"new table {count}", lambda: client.post("/api/tables", json={}))
                for count in range(1, 4)
            ]
            view = timed(
                times,
                "table view",
                lambda: client.get(f"/api/tables/{table}", headers=bearer(token)),
            )
            seat.send("act", {"action": discard})
            refused = timed(times, "intent", seat.refused)
            with seat_connection(client, table, token) as other_page:  # reads still work
                timed(times, "hello", other_page.recv)
            disk.full = False
            for answer in made:
                assert_unavailable(answer)
            assert view.status_code == 200 and view.json()["version"] == acknowledged
            assert refused["d"]["code"] == "try_again" and refused["v"] == acknowledged
            assert other_page.version == acknowledged
            timed(times, "recovery", lambda: sent_until_applied(seat, discard))
            assert seat.version == acknowledged + 1
        create_table(client)  # no transaction was left open by the failed writes
    report("disk full", times)
    assert disk.refused >= 4
    assert_quiet(outage_log, {"database"})
    store = Store(store_path)
    try:
        assert store.deals(table)[0]["actions"][:2] == [f"0 {draw}", f"0 {discard}"]
    finally:
        store.close()


def test_a_new_table_whose_row_cannot_be_written_holds_no_lease(store_path: Path) -> None:
    """The other way round: a table leased whose row cannot be stored (the disk full) lets its
    lease go and is no longer listened for, so that no process holds a table nobody has."""

    async def scenario() -> None:
        store = Store(store_path)
        disk = FullDisk(store._db.connection)  # type: ignore[attr-defined]
        store._db.connection = disk  # type: ignore[attr-defined]
        leases = MemoryLeases()
        cluster = Cluster(leases, MemoryBus())
        lobby = Lobby(store, WORKERS, cluster=cluster)
        settings = new_table_settings(NewTable())
        try:
            disk.full = True
            with pytest.raises(sqlite3.OperationalError):
                await lobby.open_table(settings, {0: "a seat's hash"})
            assert disk.refused == 1
            assert (cluster.owned, cluster.desk.tasks, lobby.tables) == ({}, {}, {})
            disk.full = False
            table = await lobby.open_table(settings, {0: "a seat's hash"})
            holder = await leases.holder(table.id)
            assert holder is not None and holder.owner == cluster.process
            assert list(cluster.owned) == list(cluster.desk.tasks) == [table.id]
            assert store.epoch(table.id) == holder.epoch  # owned in the store as well
        finally:
            await lobby.close()
            store.close()

    asyncio.run(scenario())


def cluster_process(database_url: str, redis: RedisService, tmp_path: Path) -> TestClient:
    """One server process of a site on PostgreSQL and Redis (as ``rummy serve`` makes it)."""
    app = create_app(
        ServerConfig(
            store_path=tmp_path / "unused.sqlite3",
            database_url=database_url,
            accept_seeds=True,
            limits=Limits.unlimited(),
        ),
        cluster=Cluster.on_redis(redis.url, lease_s=LEASE_S),
        workers=WORKERS,
    )
    return TestClient(app)


def test_with_redis_down_every_answer_is_fast_and_clean_and_nothing_is_lost(
    tmp_path: Path,
    postgres_url: str,
    redis_server: RedisService,
    outage_log: pytest.LogCaptureFixture,
) -> None:
    """The owner keeps playing the table it holds; what needs Redis is answered at once: a
    new table (its lease) with a ``503``, a socket at the other process (the table's lease)
    closed with ``TRY_AGAIN_LATER``."""
    times: dict[str, float] = {}
    with (
        cluster_process(postgres_url, redis_server, tmp_path) as owner,
        cluster_process(postgres_url, redis_server, tmp_path) as other,
    ):
        table, token = create_table(owner, seed=seed_where_human_starts())
        with seat_connection(owner, table, token) as seat:
            draw, discard = drawn(seat)
            with redis_server.down():
                made = timed(times, "new table", lambda: owner.post("/api/tables", json={}))
                board = timed(times, "leaderboard", lambda: owner.get("/api/leaderboard"))
                closed = timed(times, "hello", lambda: closed_at_hello(other, table, token))
                timed(times, "intent", lambda: seat.act(discard))  # applied: the table is here
        assert_unavailable(made)
        assert board.status_code == 200
        assert closed.code == CloseCode.TRY_AGAIN_LATER and closed.reason == OUT_OF_REACH
    report("Redis down", times)
    assert_quiet(outage_log, {"redis"})
    assert first_actions(postgres_url, table) == [f"0 {draw}", f"0 {discard}"]


def test_a_new_table_refused_while_redis_is_down_leaves_no_row_behind(
    tmp_path: Path,
    postgres_url: str,
    redis_server: RedisService,
    outage_log: pytest.LogCaptureFixture,
) -> None:
    """A table is leased and listened for before it is stored: one that cannot be leased
    (Redis out of reach) is refused with nothing stored, no table the player never had."""
    database = StoreBackend("postgresql", postgres_url)

    def stored() -> set[str]:
        return {row[0] for row in database.execute("SELECT id FROM tables")}

    with cluster_process(postgres_url, redis_server, tmp_path) as owner:
        table, _ = create_table(owner)
        with redis_server.down():
            refused = [owner.post("/api/tables", json={}) for _ in range(3)]
        for answer in refused:
            assert_unavailable(answer)
        assert stored() == {table}
        made, _ = create_table(owner)  # Redis back: tables are made again
        assert stored() == {table, made}
    assert_quiet(outage_log, {"redis"})


def test_an_outage_is_said_once_a_minute_with_the_count_of_those_held_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    log = OutageLog(lambda: now[0])
    caplog.set_level(logging.WARNING, logger="rummykit.outage")
    said = [log.note("database", "refused") for _ in range(500)]
    now[0] += LOG_EVERY_S - 1
    said.append(log.note("database", "refused"))
    assert said == [True] + [False] * 500
    assert log.note("redis", "refused")  # another service: its own line
    now[0] += 1
    assert log.note("database", "refused")
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 3
    assert messages[2].endswith("(500 more like it since the last line)")
    assert not any(record.exc_info for record in caplog.records)


def disk_full() -> sqlite3.OperationalError:
    """The error SQLite raises on a full disk, with its result code (``SQLITE_FULL``)."""
    error = sqlite3.OperationalError("database or disk is full")
    error.sqlite_errorcode = sqlite3.SQLITE_FULL
    error.sqlite_errorname = "SQLITE_FULL"
    return error


def first_actions(location: str, table: str) -> list[str]:
    """The first two actions of the table's first deal, as stored (nothing acknowledged lost)."""
    store = Store(location)
    try:
        return list(store.deals(table)[0]["actions"][:2])
    finally:
        store.close()
