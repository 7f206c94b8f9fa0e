"""The black hole the silent-drop tests put between a page and the server (``black_hole``).

It forwards bytes both ways until ``swallow``; then every byte is read and dropped, and an end
closed meanwhile is not passed on, until ``restore``. No waiting on time: the test waits on
the bytes themselves (a blocking read) and on the hole's count of those it swallowed.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

import pytest

from black_hole import BlackHole, running

pytestmark = pytest.mark.timeout(30)

STUCK_S = 10.0
"""The longest a blocking read waits: the bytes are on their way at once."""


def read(connection: socket.socket, size: int) -> bytes:
    """Exactly ``size`` bytes (fewer only at the end of the stream)."""
    data = b""
    while len(data) < size and (chunk := connection.recv(size - len(data))):
        data += chunk
    return data


@contextlib.contextmanager
def through_a_hole() -> Iterator[tuple[BlackHole, socket.socket, socket.socket]]:
    """A hole to a listening socket: the hole, the client's end, and the target's end."""
    with (
        socket.create_server(("127.0.0.1", 0)) as target,
        running(target.getsockname()[1]) as hole,
        socket.create_connection(("127.0.0.1", hole.port), timeout=STUCK_S) as client,
    ):
        upstream, _ = target.accept()
        with upstream:
            upstream.settimeout(STUCK_S)
            yield hole, client, upstream


def test_bytes_pass_both_ways_until_swallowed_and_again_once_restored() -> None:
    with through_a_hole() as (hole, client, upstream):
        client.sendall(b"ping")
        assert read(upstream, 4) == b"ping"
        upstream.sendall(b"pong")
        assert read(client, 4) == b"pong"
        hole.swallow()
        client.sendall(b"lost")
        upstream.sendall(b"gone too")
        hole.wait_swallowed(len(b"lost") + len(b"gone too"))
        hole.restore()
        client.sendall(b"back")
        assert read(upstream, 4) == b"back"  # the swallowed bytes never come
        upstream.sendall(b"here")
        assert read(client, 4) == b"here"


def test_an_end_closed_in_the_dark_is_passed_on_only_once_restored() -> None:
    with through_a_hole() as (hole, client, upstream):
        hole.swallow()
        client.sendall(b"last words")
        client.shutdown(socket.SHUT_WR)  # the client's end closes while nothing passes
        hole.wait_swallowed(len(b"last words"))
        upstream.setblocking(False)
        with pytest.raises(BlockingIOError):  # no end of stream has come: still open
            upstream.recv(1)
        upstream.setblocking(True)
        upstream.settimeout(STUCK_S)
        hole.restore()
        assert upstream.recv(1) == b""  # now the close comes through
