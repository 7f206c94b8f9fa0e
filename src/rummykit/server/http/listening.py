"""A listening socket's loop, and the cleanup after it.

Each text message is handed on at the rate its client may send; the cleanup runs to its end.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.protocol import TOO_MANY_MESSAGES, ClientLimiter, CloseCode
from rummykit.server.http.outbox import ConnectionDropped, Outbox
from rummykit.server.runtime import going_on

Handle = Callable[[str | None], Awaitable[None]]
"""Carries out one message (its text; ``None`` for a binary frame)."""


async def each_message(websocket: WebSocket, limiter: ClientLimiter, handle: Handle) -> None:
    """Hand each message of ``websocket`` to ``handle`` until it closes.

    A client that sends faster than its limit allows is closed (``TOO_MANY_MESSAGES``).
    """
    bucket = limiter.socket_bucket()
    with contextlib.suppress(WebSocketDisconnect, ConnectionDropped, asyncio.CancelledError):
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                return
            if bucket is not None and not bucket.take():
                await websocket.close(CloseCode.TOO_MANY_MESSAGES, TOO_MANY_MESSAGES)
                return
            await handle(received.get("text"))


def socket_outbox(websocket: WebSocket) -> Outbox:
    """A started outbox for ``websocket``'s frames (a reader too far behind is closed)."""

    async def close(code: int, reason: str) -> None:
        await websocket.close(code, reason)

    outbox = Outbox(websocket.send_text, close)
    outbox.start()
    return outbox


_FINISHING: set[asyncio.Task[None]] = set()
"""Cleanups running past their socket's end (held here: the loop keeps tasks weakly)."""


async def finish(cleanup: Awaitable[None], what: str) -> None:
    """Run a closed socket's ``cleanup`` to its end, even if the socket's task is cancelled.

    A socket's task is cancelled when its server or test client stops it; what its page left
    behind (a party's member shown here, a line in the open tables, an entry on the boards
    shared with other processes) must still be taken away, or its person would look online,
    waiting or watching until those entries expire, or for good.
    """

    async def guarded() -> None:
        with going_on(what):
            await cleanup

    task = asyncio.ensure_future(guarded())
    _FINISHING.add(task)
    task.add_done_callback(_FINISHING.discard)
    await asyncio.shield(task)
