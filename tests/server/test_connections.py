"""Connections that never finish a request, and addresses that open too many.

Half-sent requests were held for good (1,000 of them were all still open after 70 s), and one
address could hold any number of connections and sockets (3,000 sockets on one seat slowed
every table). The deadlines here run on the server's real clock, short for the test; every
wait is for an event (a connection closed by the server), with a safety net, never a sleep.
"""

from __future__ import annotations

import asyncio
import socket
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ports import free_port
from rummykit.protocol.limits import TOO_MANY_SOCKETS, Limits
from rummykit.protocol.messages import CloseCode
from rummykit.server.http.body import SLOW_BODY
from rummykit.server.http.connections import BUSY_RETRY_AFTER_S
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import STUCK_S, WORKERS, LiveServer, ManualClock, create_table, seat_connection

pytestmark = pytest.mark.timeout(60)

HALF_A_REQUEST = b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n"
A_REQUEST = HALF_A_REQUEST + b"\r\n"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    limits = Limits(
        socket_burst=None,
        address_burst=None,
        sockets_per_address=None,
        connections_per_address=3,
        header_timeout_s=0.3,
    )
    live = LiveServer(tmp_path / "tables.sqlite3", free_port(), limits=limits)
    live.start()
    yield live
    live.stop()


def _open(server: LiveServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=STUCK_S)


def _read_all(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    answer = b""
    while chunk := connection.recv(4096):
        answer += chunk
    return answer


def _closed_by_server(connection: socket.socket) -> bool:
    """Whether the server closes the connection (read until end of stream, answers aside)."""
    try:
        while chunk := connection.recv(4096):
            del chunk
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def test_a_half_sent_request_is_closed_after_the_header_deadline(server: LiveServer) -> None:
    with _open(server) as connection:
        connection.sendall(HALF_A_REQUEST)
        assert _closed_by_server(connection)


def test_a_connection_that_sends_nothing_is_closed(server: LiveServer) -> None:
    with _open(server) as connection:
        assert _closed_by_server(connection)


def test_a_whole_request_is_answered_and_the_next_has_its_own_deadline(server: LiveServer) -> None:
    with _open(server) as connection:
        connection.sendall(A_REQUEST)
        answer = connection.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")
        connection.sendall(HALF_A_REQUEST)  # a second request on the same connection, half sent
        assert _closed_by_server(connection)


def test_a_socket_outlives_the_header_deadline(server: LiveServer) -> None:
    table_id, token = server.create_table()
    with server.seat_socket(table_id, token) as websocket:
        websocket.recv(timeout=STUCK_S)
        with _open(server) as idle:  # when the server closes this one, the deadline has passed
            assert _closed_by_server(idle)
        websocket.send('{"t": "hint", "v": 1, "d": {}}')
        assert '"t":"' in str(websocket.recv(timeout=STUCK_S))


def test_an_address_may_hold_only_so_many_connections(server: LiveServer) -> None:
    held = [_open(server) for _ in range(3)]
    try:
        with _open(server) as one_too_many:  # answered 429, then closed
            one_too_many.sendall(A_REQUEST)
            answer = _read_all(one_too_many)
            assert answer.startswith(b"HTTP/1.1 429"), answer
            assert f"retry-after: {BUSY_RETRY_AFTER_S}".encode() in answer.lower()
        for connection in held:  # the three are served
            connection.sendall(A_REQUEST)
            assert connection.recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        for connection in held:
            connection.close()


def test_an_address_may_hold_only_so_many_sockets(store_path: Path) -> None:
    limits = Limits(socket_burst=None, address_burst=None, sockets_per_address=2)
    app = create_app(
        ServerConfig(store_path=store_path, accept_seeds=True, limits=limits),
        sleep=ManualClock().sleep,
        workers=WORKERS,
    )
    with TestClient(app) as client:
        table_id, token = create_table(client)
        with (
            seat_connection(client, table_id, token) as first,
            seat_connection(client, table_id, token) as second,
        ):
            first.recv()
            second.recv()
            with (
                seat_connection(client, table_id, token) as third,
                pytest.raises(WebSocketDisconnect) as closed,
            ):
                third.recv()
            assert closed.value.code == CloseCode.TOO_MANY_PAGES
            assert closed.value.reason == TOO_MANY_SOCKETS
        with seat_connection(client, table_id, token) as again:  # the two closed: room again
            assert again.recv()["t"] == "view"


SIMULTANEOUS = 70
"""Requests of the page at once from one address: more than its connections allowed (64)."""


async def _get_page_at_once(port: int, count: int) -> list[bytes]:
    """Open ``count`` connections, all before any request is sent; each one's whole answer."""
    opened = await asyncio.gather(
        *(asyncio.open_connection("127.0.0.1", port) for _ in range(count))
    )
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    for _, writer in opened:
        writer.write(request)

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bytes:
        try:
            return await reader.read()  # to the end: each answer closes its connection
        except ConnectionError:
            return b""
        finally:
            writer.close()

    async with asyncio.timeout(STUCK_S):
        return await asyncio.gather(*(answer(reader, writer) for reader, writer in opened))


def test_every_one_of_70_simultaneous_requests_is_answered(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "tables.sqlite3", free_port(), limits=Limits())  # as served
    live.start()
    try:
        answers = asyncio.run(_get_page_at_once(live.port, SIMULTANEOUS))
    finally:
        live.stop()
    statuses = Counter(answer[:12] for answer in answers)
    assert sum(statuses.values()) == SIMULTANEOUS
    assert set(statuses) <= {b"HTTP/1.1 200", b"HTTP/1.1 429"}, statuses
    assert statuses[b"HTTP/1.1 200"] >= Limits().connections_per_address  # type: ignore[operator]
    for answer in answers:
        if answer.startswith(b"HTTP/1.1 429"):
            assert f"retry-after: {BUSY_RETRY_AFTER_S}".encode() in answer.lower()


def test_a_body_that_trickles_is_refused_with_408(server: LiveServer) -> None:
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    with _open(server) as connection:
        connection.sendall(head + b'{"preset": ')  # and the rest never comes
        answer = b""
        while not answer.endswith(b"}") and (chunk := connection.recv(4096)):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert SLOW_BODY.encode() in answer
