"""The server's guard against other web pages: origins, and the headers every answer carries.

A browser sends ``Origin`` with every socket it opens and every cross-site POST. Another site
must not open a seat's socket (it would receive the seat's hand) nor create tables in the
player's name, so a state-changing request or a socket whose ``Origin`` is neither this
server's own (the scheme and the ``Host`` it was reached by) nor one the host allowed is
refused: 403 for a request, ``CloseCode.FOREIGN_ORIGIN`` for a socket. A request without
``Origin`` comes from a program, not a page, and passes (``rummy join``, ``curl``, the tests).

Every HTTP answer also carries a Content-Security-Policy (our own scripts, styles and sockets
only; never in a frame), ``X-Content-Type-Options``, ``X-Frame-Options`` and a
``Referrer-Policy``. ``HostGuard`` answers only the ``Host`` names the server was given,
against DNS rebinding (a page of another name whose name now leads to this server); on a
loopback address with no names given, ``rummy serve`` gives the loopback names at its own port
(``loopback_hosts``).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Final

from starlette.requests import HTTPConnection, cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummykit.protocol import (
    BEARER,
    SESSION_COOKIE,
    TOO_MANY_REQUESTS,
    ClientLimiter,
    CloseCode,
    ErrorAnswer,
    answer_text,
    credential_key,
)

SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
"""Sent with every HTTP answer."""

LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "::1", "[::1]")
"""The names a server on this computer answers to: any other ``Host`` is a rebinding attack."""

INVALID_HOST: Final = answer_text("invalid_host")


def is_loopback(host: str) -> bool:
    """Whether listening on ``host`` serves only this computer (``127.0.0.1``, ``::1``...)."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def loopback_hosts(port: int) -> tuple[str, ...]:
    """The ``Host`` headers of this computer's own pages at ``port``.

    Each loopback name with the port (and without it on port 80, where browsers leave it out).
    """
    names = ("127.0.0.1", "localhost", "[::1]")
    with_port = tuple(f"{name}:{port}" for name in names)
    return (*with_port, *names) if port == 80 else with_port


def _host_name(host: str) -> str:
    """``host`` without its port (``[::1]:8000`` is ``[::1]``)."""
    if host.startswith("["):
        return host.partition("]")[0] + "]"
    return host.partition(":")[0]


class HostGuard:
    """ASGI middleware: answer only the ``Host`` names allowed (400 otherwise).

    A name without a port allows it at any port (``--allowed-host rummy.example``), one with
    a port only there (``localhost:8000``), and ``*.example`` any name under ``example``.
    """

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        """Guard ``app``; ``allowed_hosts`` as ``--allowed-host`` gives them."""
        self.app = app
        self.allowed = frozenset(host.lower() for host in allowed_hosts)

    def is_allowed(self, host: str) -> bool:
        """Whether a request with this ``Host`` header is answered."""
        host = host.lower()
        name = _host_name(host)
        if "*" in self.allowed or host in self.allowed or name in self.allowed:
            return True
        return any(
            pattern.startswith("*.") and name.endswith(pattern[1:]) for pattern in self.allowed
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request or socket on, or answer 400."""
        if scope["type"] in ("http", "websocket") and not self.is_allowed(
            _header(scope, b"host") or ""
        ):
            await answer_error(scope, receive, send, 400, "invalid_host")
            return
        await self.app(scope, receive, send)


SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing, so any page may send them (and read nothing it should not:
every seat's data needs its token)."""

FOREIGN_ORIGIN_MESSAGE: Final = answer_text("foreign_origin")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


class OriginGuard:
    """ASGI middleware: refuse other sites' sockets and state-changing requests; add headers."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        """Guard ``app``; ``allowed_origins`` are other origins the host trusts (no path)."""
        self.app = app
        self.allowed = frozenset(origin.rstrip("/").lower() for origin in allowed_origins)

    def is_allowed(self, scope: Scope) -> bool:
        """Whether the request or socket of ``scope`` may go on."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True  # not sent by a page
        origin = origin.rstrip("/").lower()
        host = (_header(scope, b"host") or "").lower()
        own = {f"http://{host}", f"https://{host}"} if host else set()
        return origin in own or origin in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, refuse it, or add the headers to its answer."""
        if scope["type"] == "websocket":
            if not self.is_allowed(scope):
                await refuse_socket(receive, send, CloseCode.FOREIGN_ORIGIN, FOREIGN_ORIGIN_MESSAGE)
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS and not self.is_allowed(scope):
            await answer_error(scope, receive, send, 403, "foreign_origin")
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def refuse_socket(receive: Receive, send: Send, code: CloseCode, reason: str) -> None:
    """Accept a socket only to close it with ``code`` and ``reason``.

    Closed before it is accepted, uvicorn refuses the handshake with HTTP 403 instead, and a
    browser sees only code 1006, with no reason.
    """
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": reason})


async def answer_error(
    scope: Scope, receive: Receive, send: Send, status: int, reason: str, **headers: str
) -> None:
    """Answer a request from the edge itself, as the API answers errors (``ErrorAnswer``).

    ``reason`` is one of ``ANSWER_REFUSALS``: the answer carries it and its sentence.
    """
    body = ErrorAnswer.said(reason).model_dump()
    security = {name.decode(): value.decode() for name, value in SECURITY_HEADERS}
    response = JSONResponse(body, status_code=status, headers={**headers, **security})
    await response(scope, receive, send)


SHOWN_CREDENTIAL: Final = "rummykit.credential"
"""The scope's key under which ``RateGuard`` leaves the credential a request showed, so that
``vouch_for`` reads it instead of parsing the headers again."""


def request_credential(scope: Scope) -> str | None:
    """The credential a request or socket shows, as ``credential_key`` names it, unchecked.

    A seat's token in ``Authorization: Bearer`` first, else the session cookie; ``None``
    without either.
    """
    authorization = _header(scope, b"authorization")
    if authorization is not None and authorization.startswith(BEARER):
        return credential_key("bearer", authorization[len(BEARER) :].strip())
    cookies = _header(scope, b"cookie")
    if cookies is not None:
        session = cookie_parser(cookies).get(SESSION_COOKIE)
        if session:
            return credential_key("session", session)
    return None


class RateGuard:
    """ASGI middleware: requests and socket opens of the API, counted per identity or address.

    A request showing a credential the server has checked (``ClientLimiter.vouch``) counts
    against that seat or account; any other against its client address.
    """

    def __init__(self, app: ASGIApp, limiter: ClientLimiter) -> None:
        """Guard ``app`` with ``limiter``'s buckets."""
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or refuse it (429 with ``Retry-After``; a socket, closed)."""
        counted = scope["type"] in ("http", "websocket") and scope["path"].startswith(
            ("/api/", "/ws/")
        )
        if not counted:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        credential = scope[SHOWN_CREDENTIAL] = request_credential(scope)
        wait = self.limiter.refusal(address, credential)
        if wait is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await refuse_socket(receive, send, CloseCode.TOO_MANY_MESSAGES, TOO_MANY_REQUESTS)
            return
        await answer_error(
            scope, receive, send, 429, "too_many_requests", **{"retry-after": str(wait)}
        )


def seat_identity(table_id: str, seat: int) -> str:
    """The identity a seat's token is, for its budget."""
    return f"seat {table_id} {seat}"


def account_identity(account_id: int) -> str:
    """The identity a signed-in session is, for its budget: the account, on every device."""
    return f"account {account_id}"


def vouch_for(connection: HTTPConnection, kind: str, secret: str, identity: str) -> None:
    """Count the requests that show ``secret`` (checked: it is ``identity``) against it.

    ``kind`` is ``bearer`` (a seat's token) or ``session`` (a session cookie). Only the
    credential this request itself shows is vouched for, so a token checked for another
    purpose (one of many in a history request, say) never moves a budget. A request
    ``RateGuard`` did not count shows nothing to vouch for.
    """
    key = credential_key(kind, secret)
    if connection.scope.get(SHOWN_CREDENTIAL) == key:
        limiter: ClientLimiter = connection.app.state.limiter
        limiter.vouch(key, identity)
