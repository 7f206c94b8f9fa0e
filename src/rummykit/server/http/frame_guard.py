"""Socket frames before they are messages: bad bytes end the socket, quietly.

A text frame that is not UTF-8 made uvicorn log a traceback for every frame (117 tracebacks
from 427 frames in 5 s from one address). ``guarded_websockets`` makes uvicorn's WebSocket
protocol close such a socket with ``CloseCode.BAD_TEXT`` (1007, the standard's code) and a
reason, and write one line per address a minute (``AddressLog``) instead of a traceback.
Binary frames and other messages that cannot be read are the app's to refuse
(``bad_message``); frames that break the WebSocket framing itself are closed by the protocol
(1002) without a word in the log.

It also makes a close from the app after the protocol closed the socket itself (bad bytes,
broken framing, a ping unanswered) a no-op: uvicorn raised, and logged a traceback, for the
app's close sent a moment later.
"""

from __future__ import annotations

import logging
from typing import ClassVar, Final

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from rummykit.protocol import CloseCode
from rummykit.server.runtime import AddressLog

NOT_UTF8: Final = "Send text frames in UTF-8."
"""The close reason of a text frame that is not UTF-8."""
NOT_UTF8_LOGGED: Final = "a socket sent a text frame that is not UTF-8; closed (1007)"

LOGGER: Final = logging.getLogger("rummykit.server.http.frame_guard")


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """Uvicorn's WebSocket protocol, closing on text that is not UTF-8 without a traceback.

    ``guarded_websockets`` makes the subclass that holds the log.
    """

    log: ClassVar[AddressLog] = AddressLog(LOGGER)

    def send_receive_event_to_app(self) -> None:
        """Pass a whole message to the app, unless it is text that is not UTF-8."""
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                self.log.warning(self._address(), NOT_UTF8_LOGGED)
                if self.conn.state is State.OPEN:  # else the client's own close is under way
                    self.conn.send_close(CloseCode.BAD_TEXT, NOT_UTF8)
                    self.handle_parser_exception()  # uvicorn's close after a frame it cannot read
                return
        super().send_receive_event_to_app()

    def _address(self) -> str:
        # the scope's client: the player's address behind a trusted proxy, not the proxy's
        client = self.scope.get("client") or self.client
        return str(client[0]) if client else "unknown"

    async def send(self, message: ASGISendEvent) -> None:
        """Send as uvicorn does; a close once the socket is closing already is done."""
        if message["type"] == "websocket.close" and self.close_sent and self.handshake_complete:
            return
        await super().send(message)


def guarded_websockets(log: AddressLog | None = None) -> type[WebSocketsSansIOProtocol]:
    """The WebSocket protocol guarded so, for ``uvicorn.Config(ws=...)``.

    Each call makes a class with a log of its own (``log``, or a new one on
    ``rummykit.server.http.frame_guard``), so that two servers in one process (tests) do not share
    one.
    """
    attributes = {"log": log if log is not None else AddressLog(LOGGER)}
    return type("GuardedWebSocketProtocol", (GuardedWebSocketProtocol,), attributes)
