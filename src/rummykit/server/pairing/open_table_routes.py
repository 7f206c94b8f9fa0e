"""The open tables' routes: the list over HTTP, and the lobby's socket that keeps it live."""

from __future__ import annotations

import asyncio
from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.protocol import ClientLimiter, CloseCode, parse_party_message
from rummykit.server.http import ConnectionDropped, Outbox, counted_socket, receive_hello
from rummykit.server.pairing.open_tables import OpenTablesBoard

ONLY_SENDS: Final = "The lobby's socket only sends: after the hello, send nothing."


def board_of(connection: HTTPConnection) -> OpenTablesBoard:
    """The app's open tables."""
    board: OpenTablesBoard = connection.app.state.open_tables
    return board


async def open_tables(request: Request) -> Response:
    """``GET /api/open-tables``: the listed parties with a free seat (``OpenTables``)."""
    return JSONResponse(board_of(request).view().model_dump(mode="json"))


async def lobby_socket(websocket: WebSocket) -> None:
    """``/ws/lobby``: the open tables now, and again after every change."""
    await counted_socket(websocket, _lobby_socket)


async def _lobby_socket(websocket: WebSocket, limiter: ClientLimiter) -> None:
    hello = await receive_hello(websocket, limiter.limits.header_timeout_s, parse_party_message)
    if hello is None:
        return

    async def close(code: int, reason: str) -> None:
        await websocket.close(code, reason)

    board = board_of(websocket)
    outbox = Outbox(websocket.send_text, close)
    outbox.start()
    try:
        await board.watch(outbox)
        received = await websocket.receive()
        if received["type"] != "websocket.disconnect":
            await close(CloseCode.BAD_QUERY, ONLY_SENDS)
    except (WebSocketDisconnect, ConnectionDropped, asyncio.CancelledError):
        pass
    finally:
        board.unwatch(outbox)
        await outbox.stop()


OPEN_TABLE_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/open-tables", open_tables),
    WebSocketRoute("/ws/lobby", lobby_socket),
]
"""The routes of the open tables, mounted by the app."""
