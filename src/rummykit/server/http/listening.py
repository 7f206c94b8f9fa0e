"""A listening socket's loop: each text message handed on, at the rate its client may send."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.protocol import TOO_MANY_MESSAGES, ClientLimiter, CloseCode
from rummykit.server.http.outbox import ConnectionDropped, Outbox

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
