"""The worker pool: computer decisions, hints and replays run in other processes, capped.

With ``expert`` opponents the search ran in threads of the serving process, and the round
trip of every table reached 739 ms at 30 tables.
"""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import subprocess
import sys
from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit.bots import make_bot
from rummykit.bots.hints import hint
from rummykit.core.observation import observe
from rummykit.core.presets import PRESETS
from rummykit.core.state import GameState
from rummykit.protocol.settings import TableSettings
from rummykit.server.runtime.workers import (
    ORPHAN_CHECK_S,
    SERVER_CLIENT,
    WORKER_NICENESS,
    WorkerPool,
    advise,
    decide,
)
from rummykit.server.tables.table import table_client
from table_client import WORKERS, create_table, pool_work, seat_connection, seed_where_human_starts

pytestmark = pytest.mark.timeout(120)


def test_work_runs_in_another_process_at_a_lower_priority() -> None:
    async def scenario() -> tuple[int, int]:
        return await WORKERS.run(os.getpid), await WORKERS.run(os.nice, 0)

    pid, niceness = asyncio.run(scenario())
    assert pid != os.getpid()
    assert niceness == min(19, os.nice(0) + WORKER_NICENESS)


def test_the_pool_has_a_cap() -> None:
    pool = WorkerPool(1)

    async def scenario() -> set[int]:
        return set(await asyncio.gather(*(pool.run(os.getpid) for _ in range(6))))

    try:
        assert len(asyncio.run(scenario())) == 1  # six jobs, one process: they took turns
    finally:
        pool.close()


def test_a_killed_worker_is_replaced_and_the_work_still_done() -> None:
    pool = WorkerPool(1)
    game = GameState.new(PRESETS["classic"].rules, 2, seed=5)
    view = observe(game, game.turn)

    async def scenario() -> None:
        first = await pool.run(os.getpid)
        os.kill(first, signal.SIGKILL)
        action = await pool.run(decide, "basic", view, 0.5)
        assert action in view.legal_actions
        assert await pool.run(os.getpid) != first

    try:
        asyncio.run(scenario())
    finally:
        pool.close()


def test_worker_answers_match_the_same_work_done_here() -> None:
    game = GameState.new(PRESETS["classic"].rules, 3, seed=8)
    view = observe(game, game.turn)

    async def scenario() -> tuple[Any, Any]:
        return await WORKERS.run(decide, "strong", view, 0.25), await WORKERS.run(advise, view)

    action, advice = asyncio.run(scenario())
    assert action == make_bot("strong").choose(view, random.Random(0.25))
    assert advice == hint(view)


def test_the_computer_players_and_hints_think_in_the_pool(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = pool_work(monkeypatch)
    table_id, token = create_table(client, seed=seed_where_human_starts(3), opponents=["basic"] * 2)
    with seat_connection(client, table_id, token) as seat:
        websocket = seat.ws
        websocket.receive_json()
        websocket.send_json({"t": "hint", "v": 1, "d": {}})
        assert websocket.receive_json()["t"] == "hint"
        websocket.send_json({"t": "pace", "v": 1, "d": {"ms": 0}})
        websocket.receive_json()
        websocket.send_json({"t": "act", "v": 1, "d": {"action": "draw stock"}})
        view = websocket.receive_json()
        while view["t"] != "view":
            view = websocket.receive_json()
        discard = view["d"]["hand"][0]
        websocket.send_json({"t": "act", "v": view["v"], "d": {"action": f"discard {discard}"}})
        # the two computer players move: each of their actions is an event
        seats: set[int] = set()
        while len(seats) < 2:
            frame = websocket.receive_json()
            if frame["t"] == "event":
                seats.add(frame["d"]["seat"])
    assert given[0] == "advise"
    assert given.count("decide") >= 2


def test_a_tables_work_takes_its_turns_as_the_address_that_opened_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Turns in the pool are fair across clients: a table's hints and computer players are
    the work of whoever opened it (the test client's address is ``testclient``)."""
    given: list[tuple[str, str]] = []
    run = WorkerPool.run

    async def watched(
        pool: WorkerPool, function: Any, *args: object, client: str = SERVER_CLIENT
    ) -> Any:
        given.append((function.__name__, client))
        return await run(pool, function, *args, client=client)

    monkeypatch.setattr(WorkerPool, "run", watched)
    table_id, token = create_table(client, seed=seed_where_human_starts(3), opponents=["basic"])
    with seat_connection(client, table_id, token) as seat:
        websocket = seat.ws
        websocket.receive_json()
        websocket.send_json({"t": "hint", "v": 1, "d": {}})
        assert websocket.receive_json()["t"] == "hint"
        websocket.send_json({"t": "pace", "v": 1, "d": {"ms": 0}})
        websocket.receive_json()
        websocket.send_json({"t": "act", "v": 1, "d": {"action": "draw stock"}})
        view = websocket.receive_json()
        while view["t"] != "view":
            view = websocket.receive_json()
        discard = view["d"]["hand"][0]
        websocket.send_json({"t": "act", "v": view["v"], "d": {"action": f"discard {discard}"}})
        frame = websocket.receive_json()
        while frame["t"] != "event" or frame["d"]["seat"] != 1:
            frame = websocket.receive_json()
    assert given[:2] == [("advise", "testclient"), ("decide", "testclient")]


def test_a_table_nobody_named_takes_turns_as_its_party_or_itself() -> None:
    alone = TableSettings(rules="classic", players=(), practice=False)
    party = alone.model_copy(update={"party": "ABCD"})
    assert (table_client("t1", alone), table_client("t1", party)) == ("table:t1", "party:ABCD")


_POOL_SCRIPT = """
import asyncio, sys
from rummykit.server.runtime.workers import WorkerPool
pool = WorkerPool(2)
asyncio.run(pool.run(int, "1"))
print(" ".join(str(pid) for pid in pool._executor._processes), flush=True)
sys.stdin.read()
"""


@pytest.mark.timeout(60)
def test_workers_end_when_their_server_is_killed() -> None:
    """A server killed outright cannot stop its pool: its workers see it gone and end."""
    server = subprocess.Popen(
        [sys.executable, "-c", _POOL_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert server.stdout is not None
    workers = [int(pid) for pid in server.stdout.readline().split()]
    assert workers  # the pool starts its workers as work comes
    # a pidfd becomes readable when its process has ended: no polling, no sleeps
    ends = [os.pidfd_open(pid) for pid in workers]
    server.kill()
    server.wait()
    try:
        for end in ends:
            ready, _, _ = select.select([end], [], [], 10 * ORPHAN_CHECK_S)
            assert ready, "a worker outlived its server"
    finally:
        for end in ends:
            os.close(end)
