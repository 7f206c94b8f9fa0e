"""A connection that goes silent is noticed, and its seat's grace counts from its last word.

The tables' pace, timers, graces and wall run on a ``ManualClock``; only the heartbeat's
silences run in real time (a server notices silence by waiting), shortened to fractions of a
second. The black hole itself, between Chromium and the server, is
``tests/web/test_silent_drop.py``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from party_client import open_seat, started_party
from rummykit.protocol.api import NewTable
from rummykit.protocol.messages import BeatMessage, CloseCode, ServerMessage
from rummykit.server.http.heartbeat import (
    BEAT_S,
    PING_S,
    PING_TIMEOUT_S,
    SILENT_S,
    Hearing,
    Heartbeat,
    beating,
)
from rummykit.server.site import app as app_module
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.site.run import uvicorn_config
from rummykit.server.store.store import Store
from rummykit.server.tables.table import deal_new_table, new_table_settings
from rummykit.server.tables.turn_keeper import DROP_GRACE_S
from table_client import WORKERS, ManualClock, SeatSocket, clocked_app, seat_connection

pytestmark = pytest.mark.timeout(120)

SHORT = Heartbeat(beat_s=0.1, silent_s=1.0)
"""Beats every 0.1 s; silent after 1 s (real time) without a word."""


def _notices(seat: SeatSocket) -> list[str]:
    return [frame["d"]["text"] for frame in seat.frames if frame["t"] == "notice"]


def _connected(view: dict[str, object], seat: int) -> bool:
    players = view["players"]
    assert isinstance(players, list)
    return bool(players[seat]["connected"])


def test_the_grace_counts_from_the_last_word_heard_not_from_when_the_silence_was_noticed(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    with TestClient(clocked_app(tmp_path / "t.sqlite3", clock, SHORT)) as client:
        _, table, tokens = started_party(client, ["Ann", "Bob"])
        with open_seat(client, table, tokens[0]) as probe:
            turn = probe.view["turn"]
        with open_seat(client, table, tokens[1 - turn]) as here:
            with seat_connection(client, table, tokens[turn], beat=True) as silent:
                silent.set_pace(0)  # its last word, at 0 on the tables' clock
                # it answers no beat; 15 s pass on the tables' clock before the server can
                # notice (the server waits 1 s of real time for a word)
                clock.advance(DROP_GRACE_S - 5)
                with pytest.raises(WebSocketDisconnect) as closed:
                    silent.until(lambda frame: False)
                assert closed.value.code == CloseCode.SILENT
                assert any(frame["t"] == "beat" for frame in silent.frames)
            here.until(lambda frame: frame["t"] == "view" and not _connected(frame["d"], turn))
            # noticed at 15, last heard at 0: the computer comes at 20, not at 35
            clock.advance(4)
            here.set_pace(0)
            assert not _notices(here)
            clock.advance(2)
            here.until(lambda frame: frame["t"] == "notice")
            assert _notices(here)[-1].startswith("The computer is playing for")


def test_a_client_that_answers_its_beats_stays(tmp_path: Path) -> None:
    heartbeat = Heartbeat(beat_s=0.1, silent_s=0.6)
    clock = ManualClock()
    with TestClient(clocked_app(tmp_path / "t.sqlite3", clock, heartbeat)) as client:
        table, token = _table(client)
        with seat_connection(client, table, token, beat=True) as seat:
            beats = []
            until = time.monotonic() + 3 * heartbeat.silent_s
            while time.monotonic() < until:
                frame = seat.recv()
                if frame["t"] == "beat":
                    beats.append(frame)
                    seat.send("beat")
            assert len(beats) >= 5
            assert beats[0]["d"] == {"every": 0.1, "silent": 0.6}
            view = seat.set_pace(0)["d"]  # still open, still seated
            assert _connected(view, 0)


def test_a_spectator_beats_too_and_its_beats_are_not_refused(tmp_path: Path) -> None:
    clock = ManualClock()
    with TestClient(clocked_app(tmp_path / "t.sqlite3", clock, SHORT)) as client:
        _, table, _ = started_party(client, ["Ann", "Bob"])
        with seat_connection(client, table, None, beat=True) as watcher:
            for _ in range(3):
                watcher.until(lambda frame: frame["t"] == "beat")
                watcher.send("beat")
            watcher.send_raw('{"t": "bogus"}')  # answered in order, after the beats
            refusal = watcher.until(lambda frame: frame["t"] == "refused")
            assert refusal["d"]["code"] == "bad_message"  # the first: no beat was refused


def test_a_client_that_does_not_ask_gets_no_beats_and_is_left_to_the_pings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what the server decides for each socket, seen as it decides it (no waiting for a
    # silence that must not come): how long a silence it takes as a drop, and whom it beats
    hearings: list[Hearing] = []
    beaten: list[Heartbeat] = []

    class Heard(Hearing):
        def __init__(self, now: Callable[[], float], silent_s: float | None) -> None:
            super().__init__(now, silent_s)
            hearings.append(self)

    async def beats(
        send: Callable[[BeatMessage], Awaitable[None]],
        version: Callable[[], int],
        heartbeat: Heartbeat,
    ) -> None:
        beaten.append(heartbeat)
        await beating(send, version, heartbeat)

    monkeypatch.setattr(app_module, "Hearing", Heard)
    monkeypatch.setattr(app_module, "beating", beats)
    clock = ManualClock()
    with TestClient(clocked_app(tmp_path / "t.sqlite3", clock, SHORT)) as client:
        table, token = _table(client)
        with seat_connection(client, table, token) as seat:
            seat.set_pace(0)  # served: its hearing is made before it joins
            assert [hearing.silent_s for hearing in hearings] == [None]  # never taken as silent
            assert beaten == []
        with seat_connection(client, table, token, beat=True) as beating_seat:
            beating_seat.until(lambda frame: frame["t"] == "beat")
            assert [hearing.silent_s for hearing in hearings] == [None, SHORT.silent_s]
            assert beaten == [SHORT]
        assert not any(frame["t"] == "beat" for frame in seat.frames)


def test_a_client_heard_without_a_limit_of_silence_is_never_taken_as_silent() -> None:
    # ``Hearing`` without ``silent_s`` waits for the next message however long it takes: on
    # an event loop whose clock the test moves (asyncio's timeouts read the loop's clock)
    class Quiet:
        """A socket whose client says one thing, once the test lets it."""

        def __init__(self) -> None:
            self.speaks = asyncio.Event()

        async def receive(self) -> dict[str, str]:
            await self.speaks.wait()
            return {"type": "websocket.receive", "text": "hello"}

    async def scenario(silent_s: float | None) -> tuple[object, bool, float]:
        loop = asyncio.get_running_loop()
        later = [0.0]
        loop.time = lambda: time.monotonic() + later[0]  # type: ignore[method-assign]
        hearing = Hearing(lambda: 7.0, silent_s)
        quiet = Quiet()
        heard = loop.create_task(hearing.receive(quiet))  # type: ignore[arg-type]
        await asyncio.sleep(0)  # it waits, with its timeout set (if any)
        later[0] = 10 * SHORT.silent_s  # ten silences pass on the loop's clock
        for _ in range(2):  # the loop's next rounds: the timers due run, then what they woke
            await asyncio.sleep(0)
        quiet.speaks.set()
        received = await heard
        return received, hearing.silent, hearing.heard

    assert asyncio.run(scenario(None)) == (
        {"type": "websocket.receive", "text": "hello"},
        False,
        7.0,
    )
    assert asyncio.run(scenario(SHORT.silent_s)) == (None, True, 7.0)  # the other way


def test_a_seats_away_time_is_the_latest_word_any_of_its_pages_said(tmp_path: Path) -> None:
    async def sink(message: ServerMessage) -> None:
        pass

    async def other(message: ServerMessage) -> None:
        pass

    async def scenario() -> list[float | None]:
        clock = ManualClock()
        store = Store(tmp_path / "t.sqlite3", now=clock.time)
        settings = new_table_settings(NewTable(preset="classic", opponents=("basic",)))
        table, _ = await deal_new_table(store, settings, WORKERS, sleep=clock.sleep, now=clock.time)
        seen: list[float | None] = []
        await table.join(0, sink)
        await table.join(0, other)
        clock.advance(10)
        await table.leave(0, sink, 8.0)  # found silent at 10, last heard at 8
        seen.append(table.away_since.get(0))  # the other page is open: not away
        clock.advance(5)
        await table.leave(0, other, 3.0)  # it had died before: last heard at 3
        seen.append(table.away_since.get(0))  # away since the latest word: 8
        await table.join(0, sink)
        clock.advance(1)
        await table.leave(0, sink)  # a page that closed: away from now
        seen.append(table.away_since.get(0))
        await table.join(0, sink)
        await table.leave(0, sink, 99.0)  # another process's clock ahead: never after now
        seen.append(table.away_since.get(0))
        await table.stop()
        store.close()
        return seen

    assert asyncio.run(scenario()) == [None, 8.0, 16.0, 16.0]


def test_uvicorn_pings_every_socket_as_the_heartbeat_says(tmp_path: Path) -> None:
    default = uvicorn_config(
        create_app(ServerConfig(store_path=tmp_path / "a.sqlite3"), workers=WORKERS), "127.0.0.1", 1
    )
    assert (default.ws_ping_interval, default.ws_ping_timeout) == (PING_S, PING_TIMEOUT_S)
    short = Heartbeat(beat_s=0.2, silent_s=1.0, ping_s=0.5, ping_timeout_s=0.7)
    app = create_app(
        ServerConfig(store_path=tmp_path / "b.sqlite3", heartbeat=short), workers=WORKERS
    )
    config = uvicorn_config(app, "127.0.0.1", 1)
    assert (config.ws_ping_interval, config.ws_ping_timeout) == (0.5, 0.7)
    # a dead connection is noticed within seconds, not uvicorn's 20 to 40
    assert BEAT_S < SILENT_S <= PING_S + PING_TIMEOUT_S < 20
    with pytest.raises(ValueError, match="beat_s"):
        Heartbeat(beat_s=2.0, silent_s=2.0)


def _table(client: TestClient) -> tuple[str, str]:
    answer = client.post("/api/tables", json={"preset": "classic", "opponents": ["basic"]})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    return body["table"], body["token"]
