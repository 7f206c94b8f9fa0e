"""The turn timer: server-authoritative deadlines, the computer playing a turn that ran out.

The app runs on a ``ManualClock``: its ``sleep`` paces the computer and waits for the timer,
its ``time`` is the wall clock of the deadlines (``ServerConfig(now=clock.time)``), so time
passes only when a test advances it, and no test sleeps.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import pytest
from starlette.testclient import TestClient

from rummykit.core.actions import parse_action
from rummykit.protocol import TIME_RAN_OUT
from rummykit.protocol.api import NewTable
from rummykit.protocol.limits import Limits
from rummykit.protocol.messages import Act, Pace, PaceData, ServerMessage
from rummykit.server.runtime.workers import WorkerPool
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.store.store import SCHEMA_VERSION, Store
from rummykit.server.tables.table import (
    RESTART_GRACE_S,
    Expiry,
    Table,
    deal_new_table,
    new_table_settings,
)
from table_client import (
    WORKERS,
    Frame,
    ManualClock,
    SeatSocket,
    create_table,
    is_my_turn,
    seat_connection,
    seed_where_human_starts,
    simple_choice,
    stored_record,
)

pytestmark = pytest.mark.timeout(60)

TIMER: Final = 30


@contextmanager
def serving(store_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """The app on ``store_path``, its pace and its wall clock both ``clock``."""
    app = create_app(
        ServerConfig(store_path=store_path, accept_seeds=True, limits=Limits.unlimited()),
        sleep=clock.sleep,
        now=clock.time,
        workers=WORKERS,
    )
    with TestClient(app) as client:
        yield client


@contextmanager
def seated(client: TestClient, table_id: str, token: str) -> Iterator[SeatSocket]:
    """Seat 0's socket, its first view received."""
    with seat_connection(client, table_id, token) as seat:
        seat.recv()
        yield seat


def timed_table(client: TestClient, **body: Any) -> tuple[str, str]:
    """A table with a 30 s turn timer whose first turn is the person's."""
    return create_table(client, seed=seed_where_human_starts(), turn_timer=TIMER, **body)


def notices(seat: SeatSocket) -> list[str]:
    """The texts of the notices the seat received so far."""
    return [frame["d"]["text"] for frame in seat.frames if frame["t"] == "notice"]


def settled(seat: SeatSocket) -> Frame:
    """A round trip through the table's queue (a pace the table already has): the view it
    answers with, once everything queued before has been handled."""
    return seat.set_pace(seat.view["pace_ms"])


def actions_of(store_path: Path, table_id: str) -> list[str]:
    """The actions stored for the table's deals, in order."""
    return [
        action
        for deal in stored_record(store_path, table_id)["deals"]
        for action in deal["actions"]
    ]


def test_the_view_carries_the_timer_and_the_deadline_on_the_server_clock(
    store_path: Path, clock: ManualClock
) -> None:
    clock.advance(1000)
    with serving(store_path, clock) as client:
        table_id, token = timed_table(client)
        with seated(client, table_id, token) as seat:
            view = seat.view
            assert is_my_turn(view)
            assert view["turn_timer"] == TIMER
            assert view["deadline"] == 1000 + TIMER
            assert view["server_now"] == 1000
            clock.advance(10)
            assert settled(seat)["d"]["server_now"] == 1010
            assert seat.view["deadline"] == 1000 + TIMER  # a deadline, not a counter
    assert Store(store_path).deadline(table_id) == 1000 + TIMER


def test_the_computer_plays_the_turn_when_the_time_runs_out(
    store_path: Path, clock: ManualClock
) -> None:
    with serving(store_path, clock) as client:
        table_id, token = timed_table(client)
        with seated(client, table_id, token) as seat:
            version = seat.version
            clock.advance(TIMER - 1)  # before the deadline nothing happens
            assert settled(seat)["v"] == version
            assert notices(seat) == []
            assert actions_of(store_path, table_id) == []
            clock.advance(2)
            seat.until(lambda frame: frame["t"] == "notice")
            assert notices(seat) == [TIME_RAN_OUT]
            events = [frame["d"] for frame in seat.frames if frame["t"] == "event"]
            assert [event["seat"] for event in events] == [0] * len(events)
            assert events[0]["action"].startswith("draw") and events[-1]["action"].startswith(
                "discard"
            )
            played = actions_of(store_path, table_id)
            assert len(played) == len(events) and all(a.startswith("0 ") for a in played)
            view = seat.view
            assert view["turn"] == 1 and view["deadline"] is None  # the computer is not timed
            # the computer's turn, then a fresh 30 s for the person's next turn
            seat.set_pace(0)
            mine = seat.my_turn_view()["d"]
            assert mine["deadline"] == clock.time() + TIMER


def test_acting_just_before_the_deadline_leaves_nothing_to_expire(
    store_path: Path, clock: ManualClock
) -> None:
    with serving(store_path, clock) as client:
        table_id, token = timed_table(client)
        with seated(client, table_id, token) as seat:
            seat.set_pace(0)
            clock.advance(TIMER - 1)
            seat.act(simple_choice(seat.view["legal"]))
            assert seat.view["deadline"] == TIMER  # the same turn: the same deadline
            while is_my_turn(seat.view):
                seat.act(simple_choice(seat.view["legal"]))
            view = seat.my_turn_view()["d"]  # the computer played at pace 0
            assert view["deadline"] == TIMER - 1 + TIMER  # a new turn: a new deadline
            clock.advance(2)  # past the first turn's deadline
            assert settled(seat)["v"] == seat.version
            assert notices(seat) == []


def test_a_stale_expiry_is_ignored(store_path: Path, clock: ManualClock) -> None:
    """An expiry queued behind the person's last actions of the turn changes nothing."""

    async def scenario() -> tuple[list[ServerMessage], Table, str]:
        store = Store(store_path, now=clock.time)
        table = await _timed(store, clock)
        armed_at = table.version
        drawn = table.game.stock[-1]
        discard = next(card for card in table.game.hands[0] if card != drawn)
        heard: list[ServerMessage] = []
        done = asyncio.Event()

        async def listen(message: ServerMessage) -> None:
            heard.append(message)

        async def answer(message: ServerMessage) -> None:
            done.set()

        clock.advance(TIMER + 1)  # the deadline passed, but the person's actions came first
        draw = Act.model_validate({"t": "act", "v": armed_at, "d": {"action": "draw stock"}})
        throw = Act.model_validate(
            {"t": "act", "v": armed_at + 1, "d": {"action": f"discard {discard}"}}
        )
        table.listeners[0] = {listen}
        await table.submit(0, draw, listen)
        await table.submit(0, throw, listen)
        await table.queue.put(Expiry(armed_at))
        await table.submit(0, Pace(t="pace", v=0, d=PaceData(ms=700)), answer)
        await asyncio.wait_for(done.wait(), 20)
        await table.stop()
        store.close()
        return heard, table, str(discard)

    heard, table, discard = asyncio.run(scenario())
    assert [message.t for message in heard if message.t in ("notice", "refused")] == []
    actions = [str(action) for action in table.game.logs[-1].actions]
    assert actions == ["0 draw stock", f"0 discard {discard}"]
    assert table.game.turn == 1  # the computer waits its pace


async def _timed(store: Store, clock: ManualClock) -> Table:
    """A table with a 30 s timer whose first turn is the person's, its task stopped, and a
    page of the person's open (a table nobody watches waits instead of playing): the page
    has had the deal, so the turn's clock runs."""
    wanted = NewTable(seed=seed_where_human_starts(), turn_timer=TIMER, opponents=("basic",))
    table, _ = await deal_new_table(
        store, new_table_settings(wanted), WORKERS, sleep=clock.sleep, now=clock.time
    )

    async def page(message: ServerMessage) -> None:
        pass

    await table.join(0, page)
    await table.stop()  # the test moves the table by hand
    return table


def test_an_expiry_counts_only_at_the_version_it_was_armed_at(
    store_path: Path, clock: ManualClock
) -> None:
    """Within one turn too: an expiry armed before the draw is stale after it (the expiry
    armed after the draw, at the same deadline, is the one that plays the turn)."""

    async def scenario() -> tuple[int, Table]:
        store = Store(store_path, now=clock.time)
        table = await _timed(store, clock)
        armed_at = table.version
        await table.play(parse_action("0 draw stock"))
        clock.advance(TIMER + 1)
        await table.keeper.expire(Expiry(armed_at))
        stale = len(table.game.logs[-1].actions)
        await table.keeper.expire(Expiry(table.version))
        store.close()
        return stale, table

    stale, table = asyncio.run(scenario())
    assert stale == 1
    actions = [str(action) for action in table.game.logs[-1].actions]
    assert actions[0] == "0 draw stock" and actions[-1].startswith("0 discard")
    assert table.game.turn == 1 and table.keeper.deadline is None


@pytest.mark.parametrize(
    ("elapsed", "deadline"),
    [
        (25.0, 25.0 + RESTART_GRACE_S),  # 5 s were left: at least 15 now
        (100.0, 100.0 + RESTART_GRACE_S),  # run out while the server was down
        (5.0, float(TIMER)),  # 25 s left: more than the grace, kept
    ],
)
def test_a_restart_rearms_the_timer_with_the_grace_and_says_so(
    store_path: Path, clock: ManualClock, elapsed: float, deadline: float
) -> None:
    with serving(store_path, clock) as client:
        table_id, token = timed_table(client)
        with seated(client, table_id, token) as seat:
            assert seat.view["deadline"] == TIMER
    clock.advance(elapsed)  # the server is down
    with serving(store_path, clock) as client, seated(client, table_id, token) as seat:
        assert seat.view["deadline"] == deadline
        assert Store(store_path).deadline(table_id) == deadline  # stored: a crash keeps it
        said = seat.until(lambda frame: frame["t"] == "notice")
        assert said["d"]["seat"] == 0 and "restarted" in said["d"]["text"]
        assert f"at least {int(RESTART_GRACE_S)} more seconds" in said["d"]["text"]
        clock.advance(deadline - clock.time() - 1)
        assert settled(seat)["v"] == seat.version and notices(seat) == [said["d"]["text"]]
        clock.advance(2)
        ran_out = seat.until(lambda frame: frame["t"] == "notice")
        assert ran_out["d"]["text"] == TIME_RAN_OUT
        assert seat.view["turn"] == 1


def test_without_a_timer_nothing_is_timed(store_path: Path, clock: ManualClock) -> None:
    with serving(store_path, clock) as client:
        table_id, token = create_table(client, seed=seed_where_human_starts())
        with seated(client, table_id, token) as seat:
            view = seat.view
            assert (view["turn_timer"], view["deadline"], view["server_now"]) == (None, None, None)
            clock.advance(3600)
            assert settled(seat)["v"] == seat.version and notices(seat) == []
    assert Store(store_path).deadline(table_id) is None


@pytest.mark.parametrize("value", [0, 45, "30", 30.0, True])
def test_only_30_or_60_seconds_may_be_asked_for(
    store_path: Path, clock: ManualClock, value: object
) -> None:
    with serving(store_path, clock) as client:
        answer = client.post("/api/tables", json={"turn_timer": value})
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("turn_timer")
        assert client.post("/api/tables", json={"turn_timer": 60}).status_code == 200


def test_a_database_of_version_2_gets_the_deadline_column(
    store_path: Path, clock: ManualClock
) -> None:
    with serving(store_path, clock) as client:
        table_id, token = create_table(client)
    with sqlite3.connect(store_path) as db:  # as version 2 wrote it
        db.execute("ALTER TABLE tables DROP COLUMN deadline")
        db.execute("PRAGMA user_version = 2")
    with serving(store_path, clock) as client, seated(client, table_id, token) as seat:
        assert seat.view["deadline"] is None
    with sqlite3.connect(store_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
        assert "deadline" in {row[1] for row in db.execute("PRAGMA table_info(tables)")}


def test_a_failing_stand_in_still_plays_the_turn(
    store_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The strong player's decision fails: the first draw and the last discard listed."""

    async def failing(pool: WorkerPool, function: Any, *args: object, client: str = "") -> Any:
        raise RuntimeError("the worker died")

    async def scenario() -> Table:
        store = Store(store_path, now=clock.time)
        table = await _timed(store, clock)
        monkeypatch.setattr(WorkerPool, "run", failing)
        clock.advance(TIMER)
        await table.keeper.expire(Expiry(table.version))
        store.close()
        return table

    table = asyncio.run(scenario())
    actions = [str(action) for action in table.game.logs[-1].actions]
    assert [action.split()[:2] for action in actions] == [["0", "draw"], ["0", "discard"]]
    assert table.game.turn == 1


def test_a_table_nobody_watches_waits_for_its_person_and_gives_a_grace_on_return(
    store_path: Path, clock: ManualClock
) -> None:
    # The computer used to play every turn of a person who closed the page, until the table
    # was let go: most of a game played without them.
    with serving(store_path, clock) as client:
        table_id, token = timed_table(client)
        with seated(client, table_id, token) as seat:
            version = seat.version
        clock.advance(TIMER * 5)  # the page is closed when the time runs out, and long after
        with seated(client, table_id, token) as seat:
            settled(seat)  # the return has been handled
            assert actions_of(store_path, table_id) == []  # nothing was played for them
            assert seat.version == version
            assert notices(seat) == []
            assert seat.view["deadline"] == clock.time() + RESTART_GRACE_S
            assert Store(store_path).deadline(table_id) == clock.time() + RESTART_GRACE_S
            clock.advance(RESTART_GRACE_S + 1)  # with the page open, the timer runs again
            seat.until(lambda frame: frame["t"] == "notice")
            assert notices(seat) == [TIME_RAN_OUT]
            assert actions_of(store_path, table_id)[0].startswith("0 draw")
