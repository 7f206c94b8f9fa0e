"""Staying connected: the socket addresses, the wait between tries, and what ends the tries.

A program at the table keeps its seat through anything short of the server saying it has no
seat: a dropped connection, a server restarted, a server gone for minutes. It reconnects with
a growing wait (``Backoff``: 0.5 s doubling to 8 s, each wait drawn between half and all of
it, so that the programs of a table do not all knock at once) and sends ``hello`` with the
last version it saw.
"""

from __future__ import annotations

import random
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Final

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from rummykit.client.addresses import base_url
from rummykit.protocol import CloseCode, TokenBucket

FIRST_WAIT_S: Final = 0.5
"""The wait before the first retry: a restarted server is usually back within a second."""

LONGEST_WAIT_S: Final = 8.0
"""The longest wait between two tries: a server back after minutes is found within 8 s."""

OPEN_TIMEOUT_S: Final = 10.0
"""How long opening a socket may take before the try counts as failed."""

MAX_FRAME_BYTES: Final = 4 * 1024 * 1024
"""The largest frame read: a six-seat view with a long score sheet is tens of kilobytes."""

FATAL_CLOSES: Final[dict[int, str]] = {
    CloseCode.NO_SEAT: "The server knows no seat for this token: it was removed, or the "
    "party is over.",
    CloseCode.BAD_QUERY: "The server could not read this program's hello: a protocol mismatch.",
    CloseCode.FOREIGN_ORIGIN: "The server refuses programs from this origin.",
}
"""Closes after which trying again cannot help."""


SEND_BURST: Final = 30
SENDS_PER_SECOND: Final = 9.0
"""What a program sends at most: under the server's burst and rate (``Limits``: 40 at once,
10 a second), past which it closes the socket (4429). A bot acting at once on every view of
a fast table (computer players at pace 0) passed it; this caps such a table at about 9
actions a second for each program at it."""


class Throttle:
    """Waits before a message that would go past ``SEND_BURST`` / ``SENDS_PER_SECOND``."""

    def __init__(
        self,
        burst: int = SEND_BURST,
        per_second: float = SENDS_PER_SECOND,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.bucket = TokenBucket(burst, per_second, clock)
        self.sleep = sleep

    def wait(self) -> None:
        """Return once one more message may go."""
        while not self.bucket.take():
            self.sleep((1 - self.bucket.tokens) / self.bucket.per_second)


class SeatLost(Exception):
    """Trying again cannot help: the server says there is no seat (or no hello it can read)."""

    def __init__(self, message: str, code: int | None = None):
        super().__init__(message)
        self.message = message
        self.code = code


class Backoff:
    """The waits between tries: 0.5 s doubling to 8 s, each drawn in [half, whole]."""

    def __init__(
        self,
        first: float = FIRST_WAIT_S,
        longest: float = LONGEST_WAIT_S,
        rng: random.Random | None = None,
    ):
        self.first = first
        self.longest = longest
        self.rng = rng or random.Random()
        self.tries = 0

    def next_wait(self) -> float:
        """The wait before the next try (each one twice the last, up to ``longest``)."""
        whole = min(self.longest, self.first * 2**self.tries)
        self.tries = min(self.tries + 1, 32)
        return self.rng.uniform(whole / 2, whole)

    def reset(self) -> None:
        """Connected again: the next drop starts from the first wait."""
        self.tries = 0


def socket_url(server: str, path: str) -> str:
    """The socket's address on ``server`` (``http`` becomes ``ws``, ``https`` ``wss``)."""
    parts = urllib.parse.urlsplit(base_url(server))
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urllib.parse.urlunsplit((scheme, parts.netloc, parts.path + path, "", ""))


def table_socket_url(server: str, table: str) -> str:
    """A table's socket: ``/ws/{table}`` (the token goes in ``hello``, never here)."""
    return socket_url(server, f"/ws/{urllib.parse.quote(table)}")


def bot_socket_url(server: str) -> str:
    """The address of the bot stream (``/ws/bot``) on ``server``."""
    return socket_url(server, "/ws/bot")


def party_socket_url(server: str, code: str) -> str:
    """A party's socket: ``/ws/party/{code}``."""
    return socket_url(server, f"/ws/party/{urllib.parse.quote(code)}")


def close_code(error: ConnectionClosed) -> int | None:
    """The code the server closed with, if it sent one."""
    return error.rcvd.code if error.rcvd is not None else None


@contextmanager
def opened(
    url: str,
    signed: Mapping[str, str] | None = None,
    fatal: Mapping[int, str] = FATAL_CLOSES,
) -> Iterator[ClientConnection]:
    """A socket to ``url``; ``signed``: headers of the handshake that sign an account in.

    ``SeatLost`` if the server closes it for good (a code of ``fatal``, with its sentence when
    the server gave none); ``ConnectionError`` for anything worth another try (refused,
    reset, closed, timed out).
    """
    try:
        with connect(
            url,
            open_timeout=OPEN_TIMEOUT_S,
            close_timeout=2,
            max_size=MAX_FRAME_BYTES,
            additional_headers=dict(signed) if signed else None,
        ) as connection:
            yield connection
    except ConnectionClosed as closed:
        code = close_code(closed)
        if code is not None and code in fatal:
            reason = closed.rcvd.reason if closed.rcvd is not None else ""
            raise SeatLost(reason or fatal[code], code) from None
        reason = closed.rcvd.reason if closed.rcvd is not None else ""
        said = f"{code}: {reason}" if reason else str(code or "no code")
        raise ConnectionError(f"the server closed the connection ({said})") from None
    except InvalidURI as error:
        raise SeatLost(str(error)) from None
    except (OSError, InvalidHandshake, TimeoutError) as error:
        raise ConnectionError(str(error) or type(error).__name__) from None


def keep_trying(
    attempt: Callable[[], bool],
    backoff: Backoff,
    sleep: Callable[[float], None],
    dropped: Callable[[str, float], None],
) -> None:
    """Run ``attempt`` until it returns ``True`` (done), waiting after each connection lost.

    ``attempt`` resets ``backoff`` once it is connected; ``SeatLost`` goes through;
    ``dropped`` is told why each try ended and how long the wait is.
    """
    while True:
        try:
            if attempt():
                return
            why = "the server closed the connection"
        except ConnectionError as error:
            why = str(error)
        wait = backoff.next_wait()
        dropped(why, wait)
        sleep(wait)
