"""Noticing a connection that went silent: beats both ways, and the protocol's own pings.

A connection can die without closing: a proxy, a phone or a Wi-Fi network that swallows its
traffic (a "black hole") keeps the TCP connection open while no byte passes either way.
Nothing then tells either end. Through such a black hole, before these beats, the page kept
saying "Connected" for the whole outage, the server noticed after 33.6 s (uvicorn's pings:
20 s apart, 20 s to answer) and the computer took the turn after 54.2 s, where the README
promises 20 (issue 27).

- A client that asks for beats in its ``hello`` (``"beat": true``; the page does) gets a
  ``beat`` frame every ``Heartbeat.beat_s`` and answers each with a ``beat`` of its own.
  The server takes such a client as gone once it has heard nothing from it (a beat, or any
  message) for ``Heartbeat.silent_s``: it closes the socket (``CloseCode.SILENT``), and the
  seat's grace before the computer plays its turns counts from the moment it was last heard,
  not from the moment the server noticed.
- The page, hearing nothing for a few beats, says it is reconnecting, drops the dead socket
  and opens another (``web/api.js``).
- Every client, beating or not, is also pinged by uvicorn (the WebSocket protocol's pings,
  which every browser and client library answers by itself): ``Heartbeat.ping_s`` apart,
  ``Heartbeat.ping_timeout_s`` to answer. A program that does not beat is noticed that way,
  its grace counted from that moment.

The measured figures are in ``benchmarks/README.md`` (``benchmarks/silent_drop.py``).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from typing import Final

from starlette.types import Message
from starlette.websockets import WebSocket

from rummykit.protocol import Beat, BeatMessage
from rummykit.server.runtime import going_on

BEAT_S: Final = 2.0
"""How often the server sends a ``beat`` to a client that asked for them. The page takes
``SILENT_BEATS`` of them missed as a dead connection, so this sets how soon a player sees
"Reconnecting": about 5 s. A beat is some 30 bytes each way: nothing next to a view."""

SILENT_S: Final = 6.0
"""How long the server waits without a word from a beating client before taking it as
gone: three beats (each answered at once) missed. Long enough that a slow phone, a busy
page or one lost beat is never taken for a drop; short, so that the seat's grace (counted
from the last word heard anyway) is not held up behind the noticing."""

PING_S: Final = 5.0
"""How often uvicorn pings every socket (the protocol's pings; uvicorn's default is 20 s)."""

PING_TIMEOUT_S: Final = 5.0
"""How long a ping may go unanswered before uvicorn closes the socket: a client that does
not beat (a program) is noticed within ``PING_S + PING_TIMEOUT_S`` of going silent."""


@dataclasses.dataclass(frozen=True, slots=True)
class Heartbeat:
    """How a server notices silent connections (``ServerConfig(heartbeat=...)``).

    Tests shorten them, so that a drop through a black hole is noticed in a second or two.
    """

    beat_s: float = BEAT_S
    """Seconds between the server's ``beat`` frames to a client that asked for them."""
    silent_s: float = SILENT_S
    """Seconds without a word from a beating client before it is taken as gone."""
    ping_s: float = PING_S
    """Seconds between the protocol's pings (uvicorn's ``ws_ping_interval``)."""
    ping_timeout_s: float = PING_TIMEOUT_S
    """Seconds a ping may go unanswered (uvicorn's ``ws_ping_timeout``)."""

    def __post_init__(self) -> None:
        """A beat must come well within the silence that ends a connection."""
        if not 0 < self.beat_s < self.silent_s:
            raise ValueError("A heartbeat's beat_s must be above 0 and below its silent_s.")


class Hearing:
    """When a socket's client was last heard, and whether it fell silent."""

    def __init__(self, now: Callable[[], float], silent_s: float | None) -> None:
        """Heard now, on the tables' clock ``now``.

        Silent after ``silent_s`` without a word (``None``: never, for a client that does not
        beat).
        """
        self.now = now
        self.silent_s = silent_s
        self.heard = now()
        """The last moment a message came (the socket's opening, before any)."""
        self.silent = False
        """Whether the client fell silent: nothing came for ``silent_s``."""

    async def receive(self, websocket: WebSocket) -> Message | None:
        """The next message; ``None`` once the socket closed or its client fell silent."""
        try:
            async with asyncio.timeout(self.silent_s):
                received = await websocket.receive()
        except TimeoutError:  # not a word for silent_s: a connection that died silently
            self.silent = True
            return None
        if received["type"] == "websocket.disconnect":
            return None
        self.heard = self.now()
        return received


async def beating(
    send: Callable[[BeatMessage], Awaitable[None]],
    version: Callable[[], int],
    heartbeat: Heartbeat,
) -> None:
    """Send a beat now and every ``heartbeat.beat_s``, until cancelled or dropped.

    Each carries the table's ``version()`` then (a client takes no version from a beat).
    """
    beat = Beat(every=heartbeat.beat_s, silent=heartbeat.silent_s)
    with going_on("beating"):  # the connection dropped: its handler cleans up
        while True:
            await send(BeatMessage(v=version(), d=beat))
            await asyncio.sleep(heartbeat.beat_s)
