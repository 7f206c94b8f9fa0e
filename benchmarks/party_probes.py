"""What the party benchmark times at one seat: a reconnection, a turn's expiry, a cheap message.

- ``reconnector``: a person who keeps dropping and coming back. It plays its seat at once for
  a while, closes the socket while the others play, waits, opens a new socket and sends
  ``hello`` with the last version it saw (``recent``: the server sends the events missed, then
  the view) or one older than the table keeps (``full``: the view alone), and times ``hello``
  to the view.
- ``timed_seat``: a person at a timed table who plays one turn when told to, then does nothing:
  the next turn runs out and the computer plays it. It times the stand-in's first event against
  the deadline the view announced.
- ``Probe``: a cheap message's round trip, sent every few milliseconds on an idle table's
  sockets: how late the server's event loop answers (the server has no lag probe of its own).
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import itertools
import json
import math
import random
import secrets
import time
from collections.abc import Callable
from typing import Any, Final, Literal

from benchmarks.load_client import STALL_S, post_json
from benchmarks.party_load import (
    Frame,
    StartedParty,
    hello,
    message,
    my_turn,
    quick_choice,
    receive,
    seat_socket,
)
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake

Mode = Literal["recent", "full"]
MODES: Final[tuple[Mode, Mode]] = ("recent", "full")

FULL_BACK: Final = 300
"""A ``full`` reconnection says a version this far back (or 0): more than the 256 events a
table keeps (``RECENT_EVENTS``), so the server sends the view alone."""

SOCKET_ERRORS: Final = (ConnectionClosed, InvalidHandshake, OSError, TimeoutError)


def _reply(view: dict[str, Any], version: int) -> str:
    """The seat's answer to a view that waits for it: "next" after a deal, else an action."""
    if view["phase"] == "over":
        return message("next", version=version)
    return message("act", {"action": quick_choice(view["legal"])}, version)


# ----- reconnections ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Reconnect:
    """One reconnection."""

    mode: Mode
    hello_s: float
    """From sending ``hello`` to the view's arrival."""
    open_s: float
    """From opening the socket (TCP and the WebSocket handshake) to the view's arrival."""
    events: int
    """Missed events sent before the view."""
    said: int
    """The version the hello said."""
    version: int
    """The view's version."""
    view_bytes: int


@dataclasses.dataclass(frozen=True)
class ReconnectSettings:
    port: int
    stay_s: float
    """Mean time connected between drops (each uniform in 0.5-1.5 times it)."""
    gap_s: float
    """Time away before coming back."""


async def play_while(socket: ClientConnection, frame: Frame, seconds: float) -> tuple[int, bool]:
    """Play the seat at once for ``seconds``, and on until it is not its turn.

    ``frame`` is the latest view; the last version seen and whether the game is over.
    """
    version, view = frame["v"], frame["d"]
    seen = version
    end = time.perf_counter() + seconds
    acted_at = -1
    while True:
        if view["game_over"]:
            return seen, True
        if version != acted_at and (view["phase"] == "over" or my_turn(view)):
            acted_at = version
            await socket.send(_reply(view, version))
        left = end - time.perf_counter()
        if left <= 0 and not my_turn(view):
            return seen, False
        try:
            async with asyncio.timeout(STALL_S if my_turn(view) or left <= 0 else left):
                frame = await receive(socket)
        except TimeoutError:
            if my_turn(view):
                raise
            return seen, False
        if frame["t"] in ("event", "view"):
            seen = frame["v"]
        if frame["t"] == "view":
            version, view = frame["v"], frame["d"]


async def reconnector(
    settings: ReconnectSettings,
    party: StartedParty,
    seat: int,
    count: int,
    results: list[Reconnect],
    errors: collections.Counter[str],
) -> int:
    """Seat ``seat`` drops and comes back ``count`` times (or until the game is over),
    alternating ``recent`` and ``full`` hellos; the reconnections made."""
    token, address = party.tokens[seat], party.addresses[seat]
    client = secrets.token_hex(8)  # the page's id, as a browser's
    rng = random.Random(party.table)
    first, last, done = True, 0, 0
    offset = rng.randrange(2)  # tables start on either mode
    while done < count:
        mode = MODES[(done + offset) % 2]
        said = 0 if first else last if mode == "recent" else max(0, last - FULL_BACK)
        opened = time.perf_counter()
        try:
            async with seat_socket(settings.port, party.table, address) as socket:
                sent = time.perf_counter()
                await socket.send(hello(token, said, client))
                events = 0
                async with asyncio.timeout(STALL_S):
                    while (frame := json.loads(text := await socket.recv()))["t"] != "view":
                        if frame["t"] == "event":
                            events += 1
                            if not said < frame["v"]:
                                errors["an event the hello said was seen"] += 1
                arrived = time.perf_counter()
                if not first:
                    results.append(
                        Reconnect(
                            mode,
                            arrived - sent,
                            arrived - opened,
                            events,
                            said,
                            frame["v"],
                            len(text),
                        )
                    )
                    done += 1
                first = False
                last, over = await play_while(
                    socket, frame, rng.uniform(0.5, 1.5) * settings.stay_s
                )
        except SOCKET_ERRORS as error:
            errors[f"reconnector: {type(error).__name__}"] += 1
            over = False
        if over:
            return done
        await asyncio.sleep(settings.gap_s)
    return done


# ----- the turn timer ---------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Expired:
    """A timed turn that ran out, as the seat saw it."""

    deadline: float
    """The view's ``deadline`` (the server's wall clock)."""
    lateness_s: float
    """The stand-in's first event's arrival less the deadline on this client's clock: the
    view's ``deadline - server_now`` counted from the view's arrival (the earliest estimate
    of the views that carried it), as a client on another machine must."""
    same_clock_s: float
    """The event's arrival (``time.time()`` here) less ``deadline``: the server shares this
    machine's wall clock, so no offset is needed (a check of the figure above)."""


async def timed_seat(
    port: int,
    party: StartedParty,
    connected: Callable[[], None],
    go: asyncio.Event,
    patience_s: float,
) -> Expired | str:
    """Seat 0 of a timed party: connects (then calls ``connected``), plays its turn at once
    when ``go`` is set, then waits for its next turn to run out.

    The expiry as seen, or why there is none.
    """
    async with seat_socket(port, party.table, party.addresses[0]) as socket:
        await socket.send(hello(party.tokens[0]))
        frame = await receive(socket)
        while frame["t"] != "view":
            frame = await receive(socket)
        connected()
        view, version = frame["d"], frame["v"]
        await go.wait()
        acted_at = -1
        async with asyncio.timeout(patience_s):
            while True:  # play one whole turn at once
                if view["phase"] == "over":
                    return "the deal ended"
                if my_turn(view) and version != acted_at:
                    acted_at = version
                    await socket.send(_reply(view, version))
                elif acted_at >= 0 and not my_turn(view):
                    break
                frame = await receive(socket)
                if frame["t"] == "view":
                    view, version = frame["d"], frame["v"]
            estimate = math.inf
            deadline = None
            while True:  # wait for the next turn, let it run out
                frame = await receive(socket)
                now, wall = time.perf_counter(), time.time()
                data = frame["d"]
                if frame["t"] == "view" and my_turn(data) and data["deadline"] is not None:
                    if deadline not in (None, data["deadline"]):
                        return "the deadline moved"
                    deadline = data["deadline"]
                    estimate = min(estimate, now + data["deadline"] - data["server_now"])
                elif frame["t"] == "view" and data["phase"] == "over":
                    return "the deal ended"
                elif frame["t"] == "event" and deadline is not None and data["seat"] == 0:
                    return Expired(deadline, now - estimate, wall - deadline)


# ----- the loop's lag ---------------------------------------------------------------------

PROBE_SOCKETS: Final = 4
"""Sockets the probe's messages take turns on: a socket may send 10 messages a second
(``Limits.socket_per_second``), the probe sends 20."""


class Probe:
    """A cheap message's round trip, every ``every_s``, on an idle table's sockets.

    The message is a second ``hello`` on a seat's socket: the table's task refuses it at once
    ("hello is the socket's first message, and only its first."), with no store, no view and
    no worker: its round trip is the time the server's event loop takes to get to it (twice:
    the socket's reader, then the table's task), the socket's own work, and loopback.
    """

    def __init__(self, sockets: list[ClientConnection], token: str) -> None:
        self.sockets = sockets
        self.token = token
        self.samples: list[tuple[float, float]] = []
        """(when sent, seconds to the answer), ``time.perf_counter``."""
        self.pending: dict[int, float] = {}
        """When each socket's unanswered probe was sent."""
        self.skipped = 0
        """Probes not sent: the socket's previous one was still unanswered."""

    @classmethod
    async def open(cls, port: int, address: str, sockets: int = PROBE_SOCKETS) -> Probe:
        """An idle table (a person and one computer player; the person never acts) and
        ``sockets`` sockets to its seat; returns once it waits for the person."""
        body = {"preset": "classic", "opponents": ["basic"]}
        status, answer = await post_json(port, "/api/tables", body, address)
        if status != 200:
            raise RuntimeError(f"the probe's table was refused: http {status}")
        opened = []
        for _ in range(sockets):
            socket = await seat_socket(port, answer["table"], address)
            await socket.send(hello(answer["token"]))
            opened.append(socket)
        async with asyncio.timeout(STALL_S):  # until the computer has played to the person
            while True:
                frame = await receive(opened[-1])
                if frame["t"] == "view" and my_turn(frame["d"]):
                    break
        return cls(opened, answer["token"])

    def unanswered(self, now: float) -> list[tuple[float, float]]:
        """Probes still waiting, with the time they have waited (a lower bound)."""
        return [(sent, now - sent) for sent in self.pending.values()]

    async def _read(self, index: int) -> None:
        socket = self.sockets[index]
        while True:
            frame = await receive(socket)
            if frame["t"] == "refused" and index in self.pending:
                sent = self.pending.pop(index)
                self.samples.append((sent, time.perf_counter() - sent))

    async def run(self, every_s: float) -> None:
        """Send a probe every ``every_s`` (on the sockets in turn), until cancelled."""
        readers = [asyncio.create_task(self._read(index)) for index in range(len(self.sockets))]
        text = hello(self.token)
        start = time.perf_counter()
        try:
            for tick in itertools.count():
                await asyncio.sleep(max(0.0, start + tick * every_s - time.perf_counter()))
                index = tick % len(self.sockets)
                if index in self.pending:
                    self.skipped += 1
                    continue
                self.pending[index] = time.perf_counter()
                await self.sockets[index].send(text)
        finally:
            for reader in readers:
                reader.cancel()

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()
