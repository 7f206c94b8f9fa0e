"""Connections before they are requests: a deadline for headers, and a cap per address.

uvicorn waits for a request's headers as long as the client likes: 1,000 connections that
sent half a request were all still held after 70 s, and one address could open as many as
it wanted. ``guarded_http`` makes uvicorn's HTTP protocol (h11) close a connection whose
request headers are not complete ``Limits.header_timeout_s`` after it opened or went idle, and
answer a connection past ``Limits.connections_per_address`` of one address 429 with
``Retry-After`` (and close it), whatever it asks. A connection that has become a WebSocket is
counted by the app instead (``Limits.sockets_per_address``).

Such connections were closed unanswered at first: of 70 simultaneous requests of the page from
one address, 6 got no answer at all.

uvicorn's warnings about what a client sent (a request that is not HTTP, say) were written
once per request; they go through an ``AddressLog`` instead: one line per address a minute.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any, ClassVar, Final

import h11
from starlette.types import Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from rummykit.protocol import Limits
from rummykit.server.http.guard import answer_error
from rummykit.server.runtime import AddressLog

LOGGER: Final = logging.getLogger("rummykit.server.http.connections")

BUSY_RETRY_AFTER_S: Final = 1
"""When a connection refused for its address's other connections may try again: a page's
requests take milliseconds, so a second frees many."""


async def refuse_busy(scope: Scope, receive: Receive, send: Send) -> None:
    """The app of a connection past its address's cap: 429, and the connection closed."""
    headers = {"retry-after": str(BUSY_RETRY_AFTER_S), "connection": "close"}
    await answer_error(scope, receive, send, 429, "too_many_connections", **headers)


class _ConnectionLogger:
    """Uvicorn's logger, as one connection uses it.

    Its warnings (about what the client sent) pass through ``log``, once a minute per address;
    everything else is uvicorn's own.
    """

    def __init__(self, logger: logging.Logger, address: str, log: AddressLog) -> None:
        self.logger = logger
        self.address = address
        self.address_log = log

    def __getattr__(self, name: str) -> Any:
        return getattr(self.logger, name)

    def warning(self, message: object, *args: object, **_: object) -> None:
        text = str(message) % args if args else str(message)
        self.address_log.warning(self.address, text)


class GuardedH11Protocol(H11Protocol):
    """h11 with a deadline for headers and a cap on connections per address (429 past it).

    ``guarded_http`` makes the subclass that holds the limits and the count.
    """

    limits: ClassVar[Limits] = Limits()
    open_by_address: ClassVar[Counter[str]] = Counter()
    log: ClassVar[AddressLog] = AddressLog(LOGGER)
    address: str | None = None
    deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection by address (closing it past the cap) and start its deadline."""
        super().connection_made(transport)
        if self.client is not None:
            self.address = self.client[0]
            self.logger = _ConnectionLogger(self.logger, self.address, self.log)  # type: ignore[assignment]
            self.open_by_address[self.address] += 1
            cap = self.limits.connections_per_address
            if cap is not None and self.open_by_address[self.address] > cap:
                self._forget()
                self.app = refuse_busy  # its requests are answered, not left without a word
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Read as h11 does; once the headers are in, or it became a WebSocket, no deadline."""
        super().data_received(data)
        if self.transport.get_protocol() is not self:  # it became a WebSocket
            self._disarm()
            self._forget()
        elif self.conn.their_state is h11.IDLE:
            self._arm()  # still waiting for headers: a deadline set before stands
        else:
            self._disarm()  # the headers are in: the app bounds the rest

    def on_response_complete(self) -> None:
        """After an answer, the next request's headers have a deadline of their own."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection has its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the deadline and the count."""
        self._disarm()
        self._forget()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.limits.header_timeout_s, self._expire)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _expire(self) -> None:
        self.deadline = None
        if self.conn.their_state is h11.IDLE and self.transport.get_protocol() is self:
            self.transport.close()

    def _forget(self) -> None:
        if self.address is not None:
            self.open_by_address[self.address] -= 1
            if self.open_by_address[self.address] <= 0:
                del self.open_by_address[self.address]
            self.address = None


def guarded_http(limits: Limits) -> type[H11Protocol]:
    """Uvicorn's h11 protocol with these limits, for ``uvicorn.Config(http=...)``.

    Each call makes a class with its own count of connections by address (and its own log),
    so that two servers in one process (tests) do not share one.
    """
    attributes = {"limits": limits, "open_by_address": Counter(), "log": AddressLog(LOGGER)}
    return type("GuardedH11Protocol", (GuardedH11Protocol,), attributes)
