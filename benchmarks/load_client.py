"""The load: simulated people, each alone at a table with three computer players, on sockets.

A ``Player`` creates a table (``POST /api/tables``), opens its seat's socket and plays the
seat as ``simple_choice`` does in the tests (first draw, first meld, first lay-off, last
discard), thinking a random while before each action and pressing "next" between deals; when
the game ends it starts another table. It times:

- the round trip of each action: from sending ``act`` to the ``view`` with a higher version
  (the seat's acknowledgment);
- each computer step beyond its pace: the time from the seat's acknowledgment (or the previous
  computer move) to the next computer move's event, less the pace the table waits on purpose.
  It includes the computer's own thinking (``expert`` searches about 200 ms), so it grows when
  the server falls behind, and the wait between the seat's turns with it.

Each player comes from a loopback address of its own (any 127.x.y.z is this machine): the
server limits requests per address, as it would for people at their own computers.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import json
import math
import random
import time
from collections.abc import AsyncIterator
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from rummykit.protocol.facts import DEFAULT_PACE_MS
from table_client import hello, is_my_turn, simple_choice  # the tests' own player

STALL_S: Final = 120.0
"""A socket silent this long while the seat waits for the table is called stalled and opened
again (at pace 700 ms a frame comes every second or so; only a drowning server is this late)."""
HTTP_TIMEOUT_S: Final = 60.0
RETRY_PAUSE_S: Final = 1.0
"""Before trying again after a refused request or a dropped socket."""
MAX_RECONNECTS: Final = 5
"""Sockets opened again for one table before the player gives it up and starts another."""


@dataclasses.dataclass
class Recorder:
    """What the players saw; timings count only when their start is within the window."""

    window_start: float = math.inf
    window_end: float = math.inf
    round_trips: list[tuple[float, float]] = dataclasses.field(default_factory=list)
    """(when sent, seconds to the acknowledgment)"""
    step_excess: list[tuple[float, float]] = dataclasses.field(default_factory=list)
    """(when, seconds a computer step took beyond its pace)"""
    turn_waits: list[tuple[float, int]] = dataclasses.field(default_factory=list)
    """(seconds the seat waited between its turns, computer steps meanwhile)"""
    loop_lag: list[float] = dataclasses.field(default_factory=list)
    """How late the load generator's own event loop woke up (seconds)."""
    errors: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    refusals: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    in_flight: dict[int, float] = dataclasses.field(default_factory=dict)
    """When each seat's action still unanswered was sent, by seat."""
    computer_moves: int = 0
    """Computer moves seen in the window (however long each took)."""
    tables_created: int = 0
    games_finished: int = 0
    tables_open: int = 0
    stopping: bool = False
    """Set at the end of a run: every player leaves at its next frame."""

    def in_window(self, moment: float) -> bool:
        return self.window_start <= moment < self.window_end


@dataclasses.dataclass(frozen=True)
class PlayerSettings:
    port: int
    level: str
    think_s: float
    """Mean think time before each action; each is uniform in [0.5, 1.5] times it."""
    pace_ms: int | None = None
    """The computer's pace to ask for; ``None`` leaves the table's default (700 ms)."""
    seats: int = 4
    site: tuple[int, ...] = ()
    """The ports of every process of a site of several (empty: just ``port``)."""
    socket_port: int | None = None
    """Where the seat's socket is opened, when not on ``port`` (where the table is made)."""

    def spread(self, index: int) -> PlayerSettings:
        """Player ``index``'s settings on a site of several processes, as a balancer would
        send it: its tables made on one process and its sockets opened on one, each in
        turn, so that the tables are shared evenly and a socket is on the table's owner
        only one time in ``len(site)``; the others are relayed."""
        if not self.site:
            return self
        count = len(self.site)
        return dataclasses.replace(
            self, port=self.site[index % count], socket_port=self.site[index // count % count]
        )

    @property
    def effective_pace_s(self) -> float:
        return (DEFAULT_PACE_MS if self.pace_ms is None else self.pace_ms) / 1000


def client_address(index: int) -> str:
    """Player ``index``'s own loopback address (not .0 nor .255)."""
    index %= 250 * 256 * 250
    return f"127.{1 + index // (250 * 256)}.{index // 250 % 256}.{index % 250 + 1}"


class Refused(Exception):
    """An HTTP request answered with an error status."""


async def post_json(
    port: int, path: str, body: dict[str, Any], address: str
) -> tuple[int, dict[str, Any]]:
    """A JSON POST over a connection from ``address``; (status, answer)."""
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        "Connection: close\r\n\r\n"
    )
    async with asyncio.timeout(HTTP_TIMEOUT_S):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        try:
            writer.write(head.encode() + data)
            answer = await reader.read()  # the server closes after its answer
        finally:
            writer.close()
    head_bytes, _, payload = answer.partition(b"\r\n\r\n")
    status = int(head_bytes.split(b" ", 2)[1])
    return status, json.loads(payload) if payload else {}


async def create_table(settings: PlayerSettings, address: str) -> tuple[str, str]:
    body = {"preset": "classic", "opponents": [settings.level] * (settings.seats - 1)}
    status, answer = await post_json(settings.port, "/api/tables", body, address)
    if status != 200:
        raise Refused(f"http {status}")
    return answer["table"], answer["token"]


@contextlib.asynccontextmanager
async def open_socket(
    settings: PlayerSettings, table: str, token: str, address: str
) -> AsyncIterator[ClientConnection]:
    """The seat's socket, as a browser opens it (no pings from the client's side), the token
    sent in its first message (``hello``)."""
    async with connect(
        f"ws://127.0.0.1:{settings.socket_port or settings.port}/ws/{table}",
        proxy=None,
        local_addr=(address, 0),
        open_timeout=HTTP_TIMEOUT_S,
        ping_interval=None,
        close_timeout=2,
    ) as socket:
        await socket.send(hello(token))
        yield socket


class Seat:
    """The human seat on one open socket: reads frames, times them, and plays its turns."""

    def __init__(
        self,
        socket: ClientConnection,
        settings: PlayerSettings,
        recorder: Recorder,
        rng: random.Random,
        think_s: float | None = None,
    ) -> None:
        self.socket = socket
        self.settings = settings
        self.recorder = recorder
        self.rng = rng
        self.think_s = settings.think_s if think_s is None else think_s
        self.pending: tuple[int, float, bool] | None = None
        """(version sent against, when, whether an act) of the message not yet answered"""
        self.acted_at = -1
        self.mark: float | None = None
        """When the computer's current step began (the seat's acknowledgment, or its last)."""
        self.turn_start: float | None = None
        self.computer_steps = 0
        self.acts = 0

    async def play(self, acts: int | None = None) -> bool:
        """Play until the game is over (``True``), or until ``acts`` actions are answered."""
        while not self.recorder.stopping and (
            acts is None or self.acts < acts or self.pending is not None
        ):
            # asyncio.timeout, not wait_for: Python 3.11's wait_for may swallow a cancellation
            # that comes as the frame does, and the player would then play on for good
            async with asyncio.timeout(STALL_S):
                text = await self.socket.recv()
            frame: dict[str, Any] = json.loads(text)
            now = time.perf_counter()
            if frame["t"] == "event":
                self._on_event(frame["d"], now)
            elif frame["t"] == "refused":
                self.recorder.refusals[frame["d"]["code"]] += 1
                self.recorder.in_flight.pop(id(self), None)
                self.pending = None
            elif frame["t"] == "view" and await self._on_view(frame["v"], frame["d"], now):
                return True
        return False

    def _on_event(self, event: dict[str, Any], now: float) -> None:
        if event["seat"] != 0 and self.recorder.in_window(now):
            self.recorder.computer_moves += 1
        if event["seat"] == 0 or self.mark is None:
            return
        excess = now - self.mark - self.settings.effective_pace_s
        if self.recorder.in_window(self.mark):
            self.recorder.step_excess.append((self.mark, excess))
        self.mark = now
        self.computer_steps += 1

    async def _on_view(self, version: int, view: dict[str, Any], now: float) -> bool:
        acknowledged = False
        if self.pending is not None:
            sent_version, sent_at, is_act = self.pending
            if version <= sent_version:
                return False
            if is_act and self.recorder.in_window(sent_at):
                self.recorder.round_trips.append((sent_at, now - sent_at))
            self.recorder.in_flight.pop(id(self), None)
            self.pending = None
            acknowledged = True
        if view["game_over"]:
            return True
        if version == self.acted_at:
            return False
        if view["phase"] == "over":
            self.mark = self.turn_start = None
            await self._send(version, None)
        elif is_my_turn(view):
            start = self.turn_start
            if start is not None and self.computer_steps and self.recorder.in_window(start):
                self.recorder.turn_waits.append((now - start, self.computer_steps))
            self.mark = self.turn_start = None
            await self._send(version, simple_choice(list(view["legal"])))
        elif acknowledged:  # the computer players' turns begin now
            self.mark = self.turn_start = now
            self.computer_steps = 0
        return False

    async def _send(self, version: int, action: str | None) -> None:
        """Think, then send ``act`` (or ``next`` when ``action`` is ``None``)."""
        if self.think_s > 0:
            await asyncio.sleep(self.think_s * self.rng.uniform(0.5, 1.5))
        if action is None:
            message: dict[str, Any] = {"t": "next", "v": version, "d": {}}
        else:
            message = {"t": "act", "v": version, "d": {"action": action}}
            self.acts += 1
        self.acted_at = version
        self.pending = (version, time.perf_counter(), action is not None)
        if action is not None:
            self.recorder.in_flight[id(self)] = self.pending[1]
        await self.socket.send(json.dumps(message))

    def forget(self) -> None:
        """The socket is gone: its unanswered action is counted as an error, not waited on."""
        self.recorder.in_flight.pop(id(self), None)


def _closed_reason(error: Exception) -> str:
    if isinstance(error, ConnectionClosed):
        code = error.rcvd.code if error.rcvd is not None else "without a close frame"
        return f"socket closed {code}"
    if isinstance(error, TimeoutError):
        return "stalled or timed out"
    return type(error).__name__


async def play_table(
    settings: PlayerSettings,
    recorder: Recorder,
    rng: random.Random,
    table: str,
    token: str,
    address: str,
) -> None:
    """Play one table's game to its end, opening its socket again if it drops."""
    for _ in range(MAX_RECONNECTS + 1):
        try:
            async with open_socket(settings, table, token, address) as socket:
                if settings.pace_ms is not None:
                    await socket.send(
                        json.dumps({"t": "pace", "v": 0, "d": {"ms": settings.pace_ms}})
                    )
                recorder.tables_open += 1
                seat = Seat(socket, settings, recorder, rng)
                try:
                    if await seat.play():
                        recorder.games_finished += 1
                        return
                finally:
                    recorder.tables_open -= 1
                    seat.forget()
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
            recorder.errors[_closed_reason(error)] += 1
        await asyncio.sleep(RETRY_PAUSE_S)
    recorder.errors["table given up after reconnecting"] += 1


async def player(index: int, settings: PlayerSettings, recorder: Recorder) -> None:
    """One simulated person: table after table, until cancelled."""
    rng = random.Random(index)
    address = client_address(index)
    settings = settings.spread(index)
    while not recorder.stopping:
        try:
            table, token = await create_table(settings, address)
        except (Refused, OSError, TimeoutError, ValueError) as error:
            recorder.errors[
                str(error) if isinstance(error, Refused) else _closed_reason(error)
            ] += 1
            await asyncio.sleep(RETRY_PAUSE_S)
            continue
        recorder.tables_created += 1
        await play_table(settings, recorder, rng, table, token, address)


async def churn_table(index: int, settings: PlayerSettings, recorder: Recorder, acts: int) -> None:
    """A table that comes and goes: made, ``acts`` actions played at pace 0, closed."""
    address = client_address(index)
    try:
        table, token = await create_table(settings, address)
        recorder.tables_created += 1
        async with open_socket(settings, table, token, address) as socket:
            await socket.send(json.dumps({"t": "pace", "v": 0, "d": {"ms": 0}}))
            seat = Seat(socket, settings, recorder, random.Random(index), think_s=0)
            try:
                if await seat.play(acts):
                    recorder.games_finished += 1
            finally:
                seat.forget()
    except (Refused, ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
        reason = str(error) if isinstance(error, Refused) else _closed_reason(error)
        recorder.errors[reason] += 1


async def watch_loop(recorder: Recorder, every_s: float = 0.05) -> None:
    """Time how late this process's own event loop wakes (it shares the machine)."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(every_s)
        if recorder.in_window(before):
            recorder.loop_lag.append(time.perf_counter() - before - every_s)
