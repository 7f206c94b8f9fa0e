"""A connection's outgoing frames: a bounded queue, so that the table never waits for a reader.

The table hands each frame to ``Outbox.send``, which only queues it; a task of the connection
writes the queue out in order. A client that stops reading (a tab in the background, a
stalled network) fills its queue; it is then dropped (``CloseCode.TOO_SLOW``) and comes back
(the page reconnects and gets the whole view again). Before, one such tab of a seat froze
its whole table for about 35 seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Final

from rummykit.protocol import CloseCode, Strict
from rummykit.server.runtime import going_on

MAX_QUEUED_FRAMES: Final = 64
"""Frames one connection may have waiting: a few turns of the whole table (a turn sends an
event and a view to each seat); a reader this far behind is better served by a fresh view."""

TOO_SLOW_REASON: Final = "Too far behind: reconnect for the table as it stands."


class ConnectionDropped(ConnectionError):
    """The connection was dropped for falling behind; the table forgets it."""


class Outbox:
    """The frames waiting for one connection, written in order by ``pump``."""

    def __init__(
        self,
        write: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        limit: int = MAX_QUEUED_FRAMES,
    ) -> None:
        """Frames go out through ``write``; a reader too far behind is closed by ``close``."""
        self._write = write
        self._close = close
        self._queue: asyncio.Queue[str] = asyncio.Queue(maxsize=limit)
        self._pump: asyncio.Task[None] | None = None
        self._dropping: asyncio.Task[None] | None = None
        self.dropped = False

    def start(self) -> None:
        """Start writing queued frames out (call once, from the connection's task)."""
        self._pump = asyncio.create_task(self._run())

    async def send(self, message: Strict) -> None:
        """Queue one frame without waiting; ``ConnectionDropped`` once the queue is full."""
        await self.send_text(message.model_dump_json())

    async def send_text(self, text: str) -> None:
        """Queue one frame already written as JSON (one text sent to many connections)."""
        if self.dropped:
            raise ConnectionDropped(TOO_SLOW_REASON)
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True
            self._dropping = asyncio.create_task(self._drop())
            raise ConnectionDropped(TOO_SLOW_REASON) from None

    async def stop(self) -> None:
        """Stop writing (the connection has ended)."""
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._pump

    async def _run(self) -> None:
        while True:
            text = await self._queue.get()
            await self._write(text)

    async def _drop(self) -> None:
        await self.stop()
        with going_on("closing a socket too slow to read"):
            await self._close(CloseCode.TOO_SLOW, TOO_SLOW_REASON)
