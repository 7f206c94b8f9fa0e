"""The inbox socket: a signed-in page's challenges, made, received and answered."""

from __future__ import annotations

from typing import Final

from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket

from rummykit.protocol import (
    AcceptChallenge,
    ClientLimiter,
    CloseCode,
    DeclineChallenge,
    InboxClientMessage,
    SendChallenge,
    WithdrawChallenge,
    parse_inbox_message,
)
from rummykit.server.accounts import note_network, session_account
from rummykit.server.http import (
    counted_socket,
    each_message,
    finish,
    receive_hello,
    socket_outbox,
)
from rummykit.server.pairing.answers import carry_out
from rummykit.server.pairing.challenges import Challenges, Inbox
from rummykit.server.parties import PartyError


def challenges_of(connection: HTTPConnection) -> Challenges:
    """The app's challenges."""
    challenges: Challenges = connection.app.state.challenges
    return challenges


async def inbox_socket(websocket: WebSocket) -> None:
    """``/ws/inbox``: a signed-in page's challenges."""
    await counted_socket(websocket, _inbox_socket)


async def _carry_out(challenges: Challenges, inbox: Inbox, text: str | None) -> None:
    """One message of the page; a refusal is sent back, and changes nothing."""

    async def act(message: InboxClientMessage) -> None:
        match message:
            case SendChallenge(d=terms):
                await challenges.send(inbox, terms)
            case AcceptChallenge(d=which):
                await challenges.accept(inbox, which.id)
            case DeclineChallenge(d=which):
                await challenges.decline(inbox, which.id)
            case WithdrawChallenge():
                await challenges.withdraw(inbox)

    await carry_out(inbox.send, text, parse_inbox_message, act)


async def _inbox_socket(websocket: WebSocket, limiter: ClientLimiter) -> None:
    hello = await receive_hello(websocket, limiter.limits.header_timeout_s, parse_inbox_message)
    if hello is None:
        return
    account = await session_account(websocket)
    if account is None:
        await websocket.close(CloseCode.NO_SEAT, PartyError("challenge_signed_out").message)
        return
    await note_network(websocket, account.id)
    outbox = socket_outbox(websocket)
    challenges = challenges_of(websocket)
    inbox = Inbox(account, outbox.send)
    await challenges.open(inbox)

    async def carry_out(text: str | None) -> None:
        await _carry_out(challenges, inbox, text)

    try:
        await each_message(websocket, limiter, carry_out)
    finally:
        await finish(challenges.close(inbox), "closing an inbox")
        await outbox.stop()


INBOX_ROUTES: Final[list[BaseRoute]] = [WebSocketRoute("/ws/inbox", inbox_socket)]
"""The inbox's route, mounted by the app."""
