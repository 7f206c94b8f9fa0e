"""The programs' accounts online: their stream, the list of them, challenges and invitations.

``/ws/bot`` keeps a program's account online (``rummykit.protocol.bot_stream``);
``GET /api/bots`` lists those online; ``POST /api/challenges`` makes a party for a game
against one and asks it; ``POST /api/parties/{code}/invite`` asks one to the host's party.
"""

from __future__ import annotations

import asyncio
from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.protocol import (
    TOO_MANY_MESSAGES,
    Accept,
    BadRequest,
    BotHello,
    ClientLimiter,
    CloseCode,
    Decline,
    InvitationView,
    InviteAnswered,
    InviteBot,
    NewChallenge,
    NewParty,
    OnlineBots,
    ProtocolError,
    parse_bot_message,
    read_body,
    refusal,
)
from rummykit.server.accounts import session_account
from rummykit.server.http import (
    ConnectionDropped,
    Outbox,
    counted_socket,
    read_request_body,
    receive_first,
    refused_request,
)
from rummykit.server.parties.bot_desk import BotDesk, BotLine
from rummykit.server.parties.party import Party, PartyError
from rummykit.server.parties.party_reference import invite_path
from rummykit.server.parties.party_routes import (
    joined_answer,
    lobby_of,
    party_found,
    refused_answer,
)
from rummykit.server.store import Account

NOT_A_PROGRAM: Final = (
    "The bot stream is for programs' accounts: sign in to one (rummy account new "
    "--bot-account) and send its session cookie."
)
BOT_HELLO_FIRST: Final = 'Send hello first: {"t": "hello", "v": 0, "d": {"limits": {...}}}.'


def _desk(connection: HTTPConnection) -> BotDesk:
    return lobby_of(connection).bots


def invitation_of(party: Party, number: int, challenge: bool) -> InvitationView:
    """What a program is asked about ``party``."""
    record = party.record
    host = next(each.name for each in record.members if each.id == record.host)
    return InvitationView(
        id=number,
        code=record.code,
        url=invite_path(record.code, record.key),
        host=host,
        challenge=challenge,
        preset=record.preset,
        rules=record.rules,
        turn_timer=record.turn_timer,
        ranked=record.ranked,
        seats=len(record.members),
    )


async def _program(connection: HTTPConnection, name: str) -> Account:
    """The program's account named ``name``; ``PartyError`` unless it is one and online."""
    account = await asyncio.to_thread(lobby_of(connection).store.accounts.named, name)
    if account is None or not account.bot:
        raise PartyError("bot_unknown", name=name)
    if not _desk(connection).is_online(account.id):
        raise PartyError("bot_offline", name=account.name)
    return account


# ----- HTTP ----------------------------------------------------------------------------------


async def online_bots(request: Request) -> Response:
    """``GET /api/bots``: the programs' accounts online here, and what each takes."""
    return JSONResponse(OnlineBots(bots=_desk(request).online()).model_dump(mode="json"))


async def challenge(request: Request) -> Response:
    """``POST /api/challenges``: a party for a game against an online program, once it accepts.

    The person signed in hosts it; a decline or no answer closes the party again.
    """
    try:
        wanted = read_body(NewChallenge, await read_request_body(request))
    except BadRequest as error:
        return refused_request(error)
    account = await session_account(request)
    if account is None:
        return refused_answer(PartyError("challenge_sign_in"), status=401)
    try:
        program = await _program(request, wanted.bot)
        request_party = NewParty(
            name=account.name,
            preset=wanted.preset,
            rules=wanted.rules,
            turn_timer=wanted.turn_timer,
            ranked=wanted.ranked,
            program_pool=wanted.program_pool,
        )
        party, member, token = await lobby_of(request).new_party(request_party, account)
    except PartyError as error:
        return refused_answer(error)
    except ValueError as error:  # rules that cannot be played together
        return refused_request(BadRequest(str(error)))
    try:
        await _desk(request).invite(
            program.id, program.name, lambda number: invitation_of(party, number, True)
        )
    except PartyError as error:
        await party.leave(member.id)  # nobody else is there: the party closes
        return refused_answer(error)
    return joined_answer(party, member, token)


async def invite_bot(request: Request) -> Response:
    """``POST /api/parties/{code}/invite``: the host asks an online program to the party."""
    try:
        wanted = read_body(InviteBot, await read_request_body(request))
    except BadRequest as error:
        return refused_request(error)
    found = await party_found(request, wanted.token)
    if isinstance(found, Response):
        return found
    member = found.member_of(wanted.token)
    try:
        if member is None or member.id != found.record.host:
            raise PartyError("not_host")
        if found.record.state != "lobby":
            raise PartyError("party_started")
        program = await _program(request, wanted.bot)
        await _desk(request).invite(
            program.id, program.name, lambda number: invitation_of(found, number, False)
        )
    except PartyError as error:
        return refused_answer(error)
    return JSONResponse(InviteAnswered(bot=program.name).model_dump())


# ----- the stream ----------------------------------------------------------------------------


async def bot_socket(websocket: WebSocket) -> None:
    """A program's account online: its invitations and games, until the socket closes."""
    await counted_socket(websocket, _bot_socket)


async def _bot_socket(websocket: WebSocket, limiter: ClientLimiter) -> None:
    account = await session_account(websocket)
    if account is None or not account.bot:
        await websocket.close(CloseCode.NOT_A_PROGRAM, NOT_A_PROGRAM[:120])
        return
    hello = await receive_first(
        websocket, limiter.limits.header_timeout_s, parse_bot_message, BotHello, BOT_HELLO_FIRST
    )
    if hello is None:
        return

    async def close(code: int, reason: str) -> None:
        await websocket.close(code, reason)

    outbox = Outbox(websocket.send_text, close)
    outbox.start()
    desk = _desk(websocket)
    bucket = limiter.socket_bucket()
    line = await desk.connect(account.id, account.name, hello.d.limits, outbox.send, close)
    try:
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            if bucket is not None and not bucket.take():
                await close(CloseCode.TOO_MANY_MESSAGES, TOO_MANY_MESSAGES)
                break
            await _answer(desk, line, received.get("text"), outbox)
    except (WebSocketDisconnect, ConnectionDropped, asyncio.CancelledError):
        pass
    finally:
        desk.disconnect(line)
        await outbox.stop()


async def _answer(desk: BotDesk, line: BotLine, text: str | None, outbox: Outbox) -> None:
    """One message of the program: an answer to an invitation, or a refusal of it."""
    try:
        if text is None:
            raise ProtocolError("Send messages as text frames of JSON, not binary.")
        match parse_bot_message(text):
            case Accept() as accepted:
                desk.answered(line, accepted.d.invitation, None)
            case Decline() as declined:
                desk.answered(line, declined.d.invitation, declined.d.reason)
            case BotHello():
                raise ProtocolError("hello is the stream's first message, and only its first.")
    except ProtocolError as error:
        await outbox.send(refusal(line.sent, error.code, str(error)))


BOT_ROUTES: Final[list[BaseRoute]] = [
    Route("/api/bots", online_bots),
    Route("/api/challenges", challenge, methods=["POST"]),
    Route("/api/parties/{code}/invite", invite_bot, methods=["POST"]),
    WebSocketRoute("/ws/bot", bot_socket),
]
"""The routes of programs' accounts online, mounted by the app."""
