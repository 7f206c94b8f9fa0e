"""Arenas' routes: made and listed over HTTP, watched and played on their socket."""

from __future__ import annotations

from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from rummykit.protocol import (
    ArenaClientMessage,
    ArenaList,
    BadRequest,
    ClientLimiter,
    CloseCode,
    ErrorAnswer,
    JoinArena,
    NewArena,
    PartyRefusal,
    PauseArena,
    parse_arena_message,
    read_body,
)
from rummykit.server.accounts import note_network, session_account
from rummykit.server.http import (
    counted_socket,
    each_message,
    finish,
    read_request_body,
    receive_hello,
    refused_request,
    socket_outbox,
)
from rummykit.server.pairing.answers import carry_out
from rummykit.server.pairing.arena_pages import Watcher
from rummykit.server.pairing.arenas import Arenas
from rummykit.server.parties import PartyError

NO_ARENA: Final = "There is no arena with that id."


def arenas_of(connection: HTTPConnection) -> Arenas:
    """The app's arenas."""
    arenas: Arenas = connection.app.state.arenas
    return arenas


def _refused(error: PartyError, status: int) -> Response:
    answer = PartyRefusal(
        error=error.message, code=error.code, reason=error.reason, watch=False, params=error.params
    )
    return JSONResponse(answer.model_dump(mode="json"), status)


async def create_arena(request: Request) -> Response:
    """``POST /api/arenas``: a new arena, made by the signed-in account."""
    try:
        wanted = read_body(NewArena, await read_request_body(request))
    except BadRequest as error:
        return refused_request(error)
    account = await session_account(request)
    if account is None:
        return _refused(PartyError("arena_sign_in"), 401)
    try:
        record = await arenas_of(request).create(wanted, account)
    except PartyError as error:
        return _refused(error, 409)
    return JSONResponse(arenas_of(request).view(record, account).model_dump(mode="json"))


async def list_arenas(request: Request) -> Response:
    """``GET /api/arenas``: the upcoming and running arenas, then the lately finished."""
    listed = await arenas_of(request).listed()
    return JSONResponse(ArenaList(arenas=tuple(listed)).model_dump(mode="json"))


async def arena_view(request: Request) -> Response:
    """``GET /api/arenas/{arena_id}``: the arena as it stands."""
    arenas = arenas_of(request)
    record = await arenas.find(request.path_params["arena_id"])
    if record is None:
        return JSONResponse(ErrorAnswer(error=NO_ARENA).model_dump(), 404)
    account = await session_account(request)
    return JSONResponse(arenas.view(record, account).model_dump(mode="json"))


async def arena_socket(websocket: WebSocket) -> None:
    """``/ws/arena/{arena_id}``: the standings, live; a signed-in page joins and pauses."""
    await counted_socket(websocket, _arena_socket)


async def _carry_out(arenas: Arenas, arena_id: str, watcher: Watcher, text: str | None) -> None:
    """One message of an arena's page; a refusal is sent back, and changes nothing."""

    async def act(message: ArenaClientMessage) -> None:
        if watcher.account is None:
            raise PartyError("arena_sign_in")
        if isinstance(message, JoinArena):
            await arenas.join(arena_id, watcher.account)
        elif isinstance(message, PauseArena):
            await arenas.pause(arena_id, watcher.account)

    await carry_out(watcher.send, text, parse_arena_message, act)


async def _arena_socket(websocket: WebSocket, limiter: ClientLimiter) -> None:
    hello = await receive_hello(websocket, limiter.limits.header_timeout_s, parse_arena_message)
    if hello is None:
        return
    arenas = arenas_of(websocket)
    arena_id = websocket.path_params["arena_id"]
    record = await arenas.find(arena_id)
    if record is None:
        await websocket.close(CloseCode.NO_SEAT, NO_ARENA)
        return
    account = await session_account(websocket)
    if account is not None:
        await note_network(websocket, account.id)
    outbox = socket_outbox(websocket)
    watcher = Watcher(outbox.send, account)

    async def carry_out(text: str | None) -> None:
        await _carry_out(arenas, arena_id, watcher, text)

    try:
        await arenas.watch(record, watcher)
        await each_message(websocket, limiter, carry_out)
    finally:
        await finish(arenas.unwatch(arena_id, watcher), "closing an arena's page")
        await outbox.stop()


ARENA_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/arenas", create_arena, methods=["POST"]),
    Route("/api/arenas", list_arenas),
    Route("/api/arenas/{arena_id}", arena_view),
    WebSocketRoute("/ws/arena/{arena_id}", arena_socket),
]
"""The routes of arenas, mounted by the app."""
