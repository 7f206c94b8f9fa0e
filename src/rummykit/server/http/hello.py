"""A socket's first message: ``hello``, which says whose it is (never the address)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from starlette.websockets import WebSocket

from rummykit.protocol import TOO_MANY_SOCKETS, ClientLimiter, CloseCode, Hello, ProtocolError

HELLO_FIRST: Final = (
    'Send hello first: {"t": "hello", "v": LAST_VERSION_SEEN, "d": {"token": YOUR_TOKEN}}.'
)
NO_HELLO: Final = "No hello came in time: reconnect and send it first."
NO_ONE: Final = 'A hello names its seat ("token") or asks to watch ("watch": true): it had neither.'

Message = TypeVar("Message")


async def receive_hello(
    websocket: WebSocket, timeout_s: float, parse: Callable[[str], Message]
) -> Hello | None:
    """The socket's ``hello``; or ``None``, the socket closed with the reason.

    It must come within ``timeout_s`` seconds of the socket opening, as a text frame that
    ``parse`` reads as a ``hello``.
    """
    return await receive_first(websocket, timeout_s, parse, Hello, HELLO_FIRST)


First = TypeVar("First")


async def receive_first(
    websocket: WebSocket,
    timeout_s: float,
    parse: Callable[[str], Message],
    kind: type[First],
    say_first: str,
) -> First | None:
    """The socket's first message, of ``kind``; or ``None``, the socket closed with the reason.

    It must come within ``timeout_s`` seconds of the socket opening, as a text frame that
    ``parse`` reads as a ``kind``; ``say_first`` tells a client that sent something else.
    """
    try:
        async with asyncio.timeout(timeout_s):
            received = await websocket.receive()
    except TimeoutError:
        await websocket.close(CloseCode.BAD_QUERY, NO_HELLO)
        return None
    if received["type"] == "websocket.disconnect":
        return None
    text = received.get("text")
    try:
        message = parse(text) if text is not None else None
    except ProtocolError as error:
        await websocket.close(CloseCode.BAD_QUERY, str(error)[:120])
        return None
    if not isinstance(message, kind):
        await websocket.close(CloseCode.BAD_QUERY, say_first[:120])
        return None
    return message


async def counted_socket(
    websocket: WebSocket, serve: Callable[[WebSocket, ClientLimiter], Awaitable[None]]
) -> None:
    """Accept a socket, count it against its address's limit, and ``serve`` it.

    Accepted first, so that a client refused sees the close code and why.
    """
    await websocket.accept()
    limiter: ClientLimiter = websocket.app.state.limiter
    address = websocket.client.host if websocket.client else ""
    if not limiter.open_socket(address):
        await websocket.close(CloseCode.TOO_MANY_PAGES, TOO_MANY_SOCKETS)
        return
    try:
        await serve(websocket, limiter)
    finally:
        limiter.close_socket(address)
