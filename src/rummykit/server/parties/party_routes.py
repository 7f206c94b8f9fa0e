"""A party's HTTP routes and its lobby's socket (``rummykit.protocol.party``)."""

from __future__ import annotations

import asyncio
from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.core.errors import RulesError
from rummykit.protocol import (
    SEED_REFUSED,
    TOO_MANY_MESSAGES,
    AddCpu,
    BadRequest,
    ClientLimiter,
    CloseCode,
    ErrorAnswer,
    Hello,
    JoinParty,
    LeaveParty,
    NewParty,
    PartyClientMessage,
    PartyJoined,
    PartyRefusal,
    ProtocolError,
    Ready,
    Remove,
    Settings,
    Start,
    parse_party_message,
    read_body,
    refusal,
)
from rummykit.server.accounts import note_network, session_account
from rummykit.server.http import (
    ConnectionDropped,
    Outbox,
    counted_socket,
    finish,
    read_request_body,
    receive_hello,
    refused_request,
)
from rummykit.server.parties.lobby import Lobby
from rummykit.server.parties.party import Member, Party, PartyError
from rummykit.server.parties.party_reference import PartyReference, invite_path

NO_PARTY: Final = "There is no party with that code: check it with whoever invited you."
TOO_MANY_CODES: Final = (
    "Too many wrong party codes have been tried on this site just now: open the party by "
    "its invite link, or try the code again in a minute."
)
NOT_A_MEMBER: Final = "That token holds no seat in this party: join it by its link."


def lobby_of(connection: HTTPConnection) -> Lobby:
    """The app's lobby: its parties, tables and programs online."""
    lobby: Lobby = connection.app.state.lobby
    return lobby


def refused_answer(error: PartyError, *, watch: bool = False, status: int = 409) -> Response:
    """A party's refusal over HTTP (``PartyRefusal``); ``watch``: its tables may be watched."""
    answer = PartyRefusal(
        error=error.message, code=error.code, reason=error.reason, watch=watch, params=error.params
    )
    return JSONResponse(answer.model_dump(mode="json"), status)


def _error(message: str, status: int) -> Response:
    return JSONResponse(ErrorAnswer(error=message).model_dump(), status)


class CodesLimited(Exception):
    """Code-only requests are refused for now: guessers spent the site's misses."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(TOO_MANY_CODES)
        self.retry_after_s = retry_after_s


async def _found(connection: HTTPConnection, token: str | None = None) -> Party | None:
    """The party the path names; ``None``: no party; ``CodesLimited``: no answer for now.

    The link's key or a member's ``token`` finds it at once; the code alone goes through the
    site-wide limit of misses (``rummykit.server.parties.party_reference``).
    """
    reference = PartyReference.parse(connection.path_params["code"])
    if reference is None:
        return None
    lobby = lobby_of(connection)
    if reference.key is not None or token is not None:
        party = await lobby.party(reference.code)
        if party is not None and (
            (reference.key is not None and party.has_key(reference.key))
            or (token is not None and party.member_of(token) is not None)
        ):
            return party
    guesses, site = lobby.code_guesses, lobby.site_code_misses
    if not guesses.may_look():
        raise CodesLimited(guesses.retry_after_s())
    if site is not None and not await site.may_look():
        raise CodesLimited(site.retry_after_s())
    party = await lobby.party(reference.code)
    if party is None:
        guesses.missed()
        if site is not None:
            await site.missed()
    return party


def _limited(error: CodesLimited) -> Response:
    return JSONResponse(
        ErrorAnswer(error=str(error)).model_dump(),
        429,
        headers={"Retry-After": str(error.retry_after_s)},
    )


async def party_found(connection: HTTPConnection, token: str | None = None) -> Party | Response:
    """The party the path names, or the answer that there is none (404) or none for now (429)."""
    try:
        party = await _found(connection, token)
    except CodesLimited as error:
        return _limited(error)
    return _error(NO_PARTY, 404) if party is None else party


def joined_answer(party: Party, member: Member, token: str) -> Response:
    """The answer to a seat taken in ``party``: its code, the member, the token, the link."""
    answer = PartyJoined(
        code=party.code,
        member=member.id,
        token=token,
        url=invite_path(party.code, party.record.key),
    )
    return JSONResponse(answer.model_dump())


async def create_party(request: Request) -> Response:
    """``POST /api/parties``: a party, with the person who asks as its host."""
    try:
        wanted = read_body(NewParty, await read_request_body(request))
        if wanted.seed is not None and not lobby_of(request).accept_seeds:
            raise BadRequest(SEED_REFUSED)
        account = await session_account(request)
        party, member, token = await lobby_of(request).new_party(wanted, account)
    except (BadRequest, RulesError) as error:
        return refused_request(error)
    except PartyError as error:
        return refused_answer(error)
    await note_network(request, None if account is None else account.id)
    return joined_answer(party, member, token)


async def join_party(request: Request) -> Response:
    """``POST /api/parties/{code}/join``: a seat in the party, or 409 with why not."""
    try:
        wanted = read_body(JoinParty, await read_request_body(request))
    except BadRequest as error:
        return refused_request(error)
    try:
        party = await _found(request)
    except CodesLimited as error:
        return _limited(error)
    if party is None:
        return _error(NO_PARTY, 404)
    try:
        account = await session_account(request)
        member, token = await party.join(wanted.name, account)
    except PartyError as error:
        watch = party.record.spectators and party.record.table is not None
        return refused_answer(error, watch=watch)
    await note_network(request, None if account is None else account.id)
    return joined_answer(party, member, token)


async def party_view(request: Request) -> Response:
    """``GET /api/parties/{code}``: the party as a visitor sees it (for the invite page)."""
    try:
        party = await _found(request)
    except CodesLimited as error:
        return _limited(error)
    if party is None:
        return _error(NO_PARTY, 404)
    return JSONResponse(party.view(None).model_dump(mode="json"))


async def party_socket(websocket: WebSocket) -> None:
    """A member's (or a visitor's) connection to the party's lobby."""
    await counted_socket(websocket, _party_socket)


async def _party_socket(websocket: WebSocket, limiter: ClientLimiter) -> None:
    hello = await receive_hello(websocket, limiter.limits.header_timeout_s, parse_party_message)
    if hello is None:
        return
    found = await _member_for_socket(websocket, hello)
    if found is None:
        return
    party, me = found

    async def close(code: int, reason: str) -> None:
        await websocket.close(code, reason)

    outbox = Outbox(websocket.send_text, close)
    outbox.start()
    bucket = limiter.socket_bucket()
    try:
        await party.attach(outbox.send, me)
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            if bucket is not None and not bucket.take():
                await close(CloseCode.TOO_MANY_MESSAGES, TOO_MANY_MESSAGES)
                break
            me = party.listeners.get(outbox.send)  # a member removed is now a visitor
            try:
                text = received.get("text")
                if text is None:
                    raise ProtocolError("Send messages as text frames of JSON, not binary.")
                await _carry_out(websocket, party, me, parse_party_message(text))
            except ProtocolError as error:
                await outbox.send(refusal(party.version, error.code, str(error)))
            except PartyError as error:
                await outbox.send(party.refusal(error))
    except (WebSocketDisconnect, ConnectionDropped, asyncio.CancelledError):
        pass
    finally:
        await finish(party.detach(outbox.send), "leaving a party's page")
        await outbox.stop()


async def _member_for_socket(websocket: WebSocket, hello: Hello) -> tuple[Party, int | None] | None:
    """The party and the member (``None``: a visitor); or ``None``, the socket closed."""
    try:
        party = await _found(websocket, hello.d.token)
    except CodesLimited as error:
        await websocket.close(CloseCode.NO_SEAT, str(error))
        return None
    if party is None:
        await websocket.close(CloseCode.NO_SEAT, NO_PARTY)
        return None
    if hello.d.token is None:
        return party, None
    member = party.member_of(hello.d.token)
    if member is None:
        await websocket.close(CloseCode.NO_SEAT, NOT_A_MEMBER)
        return None
    await note_network(websocket, member.account)
    return party, member.id


async def _carry_out(
    websocket: WebSocket, party: Party, me: int | None, message: PartyClientMessage
) -> None:
    """One message of a member; ``PartyError`` when it is refused.

    A party judges each intent on its state as it is, whatever version it was sent at (a
    ready or a change of rules means the same then as now); only a version the party never
    reached is refused, as ``party_version_ahead``.
    """
    if isinstance(message, Hello):
        raise ProtocolError("hello is the socket's first message, and only its first.")
    if message.v > party.version:
        raise PartyError("party_version_ahead", sent=message.v, party=party.version)
    if me is None:
        raise PartyError("watchers_only")
    match message:
        case Ready():
            await party.set_ready(me, message.d.ready)
        case Settings():
            await party.change_settings(me, message.d)
        case AddCpu():
            await party.add_cpu(me, message.d.level)
        case Remove():
            await party.remove(me, message.d.member)
        case Start():
            await party.start(me, lobby_of(websocket).make_party_table)
        case LeaveParty():
            await party.leave(me)


PARTY_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/parties", create_party, methods=["POST"]),
    Route("/api/parties/{code}", party_view),
    Route("/api/parties/{code}/join", join_party, methods=["POST"]),
    WebSocketRoute("/ws/party/{code}", party_socket),
]
"""The routes of parties, mounted by the app."""
