"""Quick pairing's routes: the pools over HTTP, and the socket a player waits on."""

from __future__ import annotations

from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from rummykit.protocol import (
    POOLS_BY_NAME,
    ClientLimiter,
    PairingClientMessage,
    Seek,
    parse_pairing_message,
)
from rummykit.server.accounts import note_network, session_account
from rummykit.server.http import (
    Outbox,
    counted_socket,
    each_message,
    finish,
    receive_hello,
    socket_outbox,
)
from rummykit.server.pairing.answers import carry_out
from rummykit.server.pairing.quick_pairing import QuickPairing, Waiting
from rummykit.server.store import Account

GUEST_NAME: Final = "Guest"
"""A guest who gave no name plays as this."""


def pairing_of(connection: HTTPConnection) -> QuickPairing:
    """The app's pools."""
    pairing: QuickPairing = connection.app.state.pairing
    return pairing


async def pools(request: Request) -> Response:
    """``GET /api/pools``: the pools and how many wait in each (``PoolsAnswer``)."""
    answer = await pairing_of(request).view()
    return JSONResponse(answer.model_dump(mode="json"))


async def pairing_socket(websocket: WebSocket) -> None:
    """``/ws/pairing``: wait in a pool until seated."""
    await counted_socket(websocket, _pairing_socket)


class Waiter:
    """One socket's player: the pool they wait in, if any."""

    def __init__(self, pairing: QuickPairing, account: Account | None, outbox: Outbox) -> None:
        self.pairing = pairing
        self.account = account
        self.outbox = outbox
        self.waiting: Waiting | None = None

    async def carry_out(self, text: str | None) -> None:
        """One message; a refusal is sent back, and changes nothing."""
        await carry_out(self.outbox.send, text, parse_pairing_message, self._act)

    async def _act(self, message: PairingClientMessage) -> None:
        await self.stop_waiting()  # a seek elsewhere: the last one asked wins
        if isinstance(message, Seek):
            pool = POOLS_BY_NAME[message.d.pool]
            name = message.d.name or GUEST_NAME
            self.waiting = await self.pairing.seek(pool, name, self.account, self.outbox.send)

    async def stop_waiting(self) -> None:
        """Leave the pool (cancelled, or the socket closed)."""
        if self.waiting is not None:
            waiting, self.waiting = self.waiting, None
            await self.pairing.cancel(waiting)


async def _pairing_socket(websocket: WebSocket, limiter: ClientLimiter) -> None:
    hello = await receive_hello(websocket, limiter.limits.header_timeout_s, parse_pairing_message)
    if hello is None:
        return
    account = await session_account(websocket)
    await note_network(websocket, None if account is None else account.id)
    outbox = socket_outbox(websocket)
    waiter = Waiter(pairing_of(websocket), account, outbox)
    try:
        await each_message(websocket, limiter, waiter.carry_out)
    finally:
        await finish(waiter.stop_waiting(), "leaving a pool")
        await outbox.stop()


PAIRING_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/pools", pools),
    WebSocketRoute("/ws/pairing", pairing_socket),
]
"""The routes of quick pairing, mounted by the app."""
