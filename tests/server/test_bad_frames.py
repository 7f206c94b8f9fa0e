"""Nothing a client sends makes a traceback: bad bytes close the socket with a code, and the
log gets at most one line per address a minute.

Text frames that were not UTF-8 once made a traceback each (117 tracebacks from 427 frames in
5 s from one address). Browsers and the ``websockets`` client refuse to send such frames, so
the test writes raw frames on a plain socket, against a live server on 127.0.0.1.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import socket
import struct
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ports import free_port
from rummykit.protocol.limits import Limits
from rummykit.protocol.messages import CloseCode
from rummykit.server.http.frame_guard import NOT_UTF8_LOGGED
from rummykit.server.runtime.logs import AddressLog
from table_client import STUCK_S, LiveServer

pytestmark = pytest.mark.timeout(120)

TEXT, BINARY, CLOSE = 0x1, 0x2, 0x8
NOT_UTF8 = b"\xff\xfe\xfd"
SOCKETS = 40
FRAMES_PER_SOCKET = 10


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    # the socket limits as served; requests unlimited, so that every socket opens
    live = LiveServer(tmp_path / "tables.sqlite3", free_port(), limits=Limits(address_burst=None))
    live.start()
    yield live
    live.stop()


@pytest.fixture
def log(server: LiveServer) -> Iterator[_Collector]:
    """Every record of the server's loggers, from after uvicorn set its own up."""
    collector = _Collector()
    loggers = [logging.getLogger(name) for name in ("", "uvicorn")]  # uvicorn's stop there
    for logger in loggers:
        logger.addHandler(collector)
    yield collector
    for logger in loggers:
        logger.removeHandler(collector)


def frame(opcode: int, payload: bytes, *, fin: bool = True) -> bytes:
    """A client's frame, masked as the standard wants (RFC 6455, section 5.2)."""
    mask = os.urandom(4)
    first = (0x80 if fin else 0) | opcode
    size = len(payload)
    length = bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack("!H", size)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return bytes([first]) + length + mask + masked


def open_raw_socket(server: LiveServer, table_id: str) -> socket.socket:
    """A WebSocket opened by hand: the handshake's answer read, nothing else."""
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=STUCK_S)
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall(
        (
            f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += connection.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return connection


def close_code(connection: socket.socket) -> int | None:
    """The code of the server's close frame (``None``: closed without one)."""
    received = b""
    try:
        while chunk := connection.recv(4096):
            received += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    while len(received) >= 2:  # frames from the server are not masked
        opcode, size = received[0] & 0x0F, received[1] & 0x7F
        start = 2
        if size == 126:
            size, start = struct.unpack("!H", received[2:4])[0], 4
        payload, received = received[start : start + size], received[start + size :]
        if opcode == CLOSE and len(payload) >= 2:
            code: int = struct.unpack("!H", payload[:2])[0]
            return code
    return None


def hello_frame(token: str) -> bytes:
    return frame(TEXT, json.dumps({"t": "hello", "v": 0, "d": {"token": token}}).encode())


def test_text_that_is_not_utf8_closes_the_socket_with_1007(server: LiveServer) -> None:
    table_id, token = server.create_table()
    with open_raw_socket(server, table_id) as connection:
        connection.sendall(hello_frame(token) + frame(TEXT, NOT_UTF8))
        assert close_code(connection) == CloseCode.BAD_TEXT


def test_a_flood_of_bad_frames_logs_no_traceback_and_one_line_per_address(
    server: LiveServer, log: _Collector
) -> None:
    table_id, token = server.create_table()
    floods: dict[str, Callable[[], bytes]] = {
        "not UTF-8 before the hello": lambda: frame(TEXT, NOT_UTF8),
        "not UTF-8 after the hello": lambda: frame(TEXT, NOT_UTF8),
        # the app closes for the unreadable hello as the protocol closes for the bytes: the
        # app's close came second, and uvicorn raised (a traceback) for it
        "not UTF-8 after a bad hello": lambda: frame(TEXT, NOT_UTF8),
        "not UTF-8 across a fragment": lambda: (
            frame(TEXT, b"\xe2\x82", fin=False) + frame(0x0, b"\xff")
        ),
        "binary before the hello": lambda: frame(BINARY, b"\x00\x01\x02"),
        "binary after the hello": lambda: frame(BINARY, b"\x00\x01\x02"),
        # an unmasked frame, reserved bits set, a reserved opcode: each breaks the framing
        "unmasked": lambda: b"\x81\x05hello",
        "reserved bits": lambda: bytes([0xF1]) + frame(TEXT, b"x")[1:],
        "reserved opcode": lambda: frame(0x3, os.urandom(8)),
    }
    goodbye = frame(CLOSE, struct.pack("!H", 1000))
    sent = 0
    for name, bad in floods.items():
        for _ in range(SOCKETS // len(floods) + 1):
            with open_raw_socket(server, table_id) as connection:
                first = {
                    "not UTF-8 after the hello": hello_frame(token),
                    "binary after the hello": hello_frame(token),
                    "not UTF-8 after a bad hello": frame(TEXT, b'{"t": "hello"}'),
                }.get(name, b"")
                bad_frames = b"".join(bad() for _ in range(FRAMES_PER_SOCKET))
                with contextlib.suppress(ConnectionError):  # closed before all were read
                    # the server closes a socket that sent bad text; the others the client closes
                    last = b"" if "UTF-8" in name else goodbye
                    connection.sendall(first + bad_frames + last)
                sent += FRAMES_PER_SOCKET
                code = close_code(connection)
                if "bad hello" in name:  # whichever close went first
                    assert code in (CloseCode.BAD_TEXT, CloseCode.BAD_QUERY), name
                elif "UTF-8" in name:
                    assert code == CloseCode.BAD_TEXT, name
    assert sent >= SOCKETS * FRAMES_PER_SOCKET
    tracebacks = [record for record in log.records if record.exc_info is not None]
    assert tracebacks == []
    assert not any("Traceback" in record.getMessage() for record in log.records)
    lines = [record.getMessage() for record in log.records]
    assert lines == [f"127.0.0.1: {NOT_UTF8_LOGGED}"]


def test_the_address_log_writes_one_line_per_address_per_interval(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    log = AddressLog(logging.getLogger("rummykit.test.address"), 60.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="rummykit.test.address"):
        written = [log.warning("192.0.2.1", "bad bytes") for _ in range(100)]
        assert log.warning("192.0.2.2", "bad bytes")  # another address has its own line
        now[0] += 59.0
        assert not log.warning("192.0.2.1", "bad bytes")
        now[0] += 1.0
        assert log.warning("192.0.2.1", "bad bytes")
    assert written == [True] + [False] * 99
    messages = [record.getMessage() for record in caplog.records]
    assert messages == [
        "192.0.2.1: bad bytes",
        "192.0.2.2: bad bytes",
        "192.0.2.1: bad bytes (100 more from this address held back)",
    ]


def test_the_address_log_forgets_quiet_addresses() -> None:
    now = [0.0]
    log = AddressLog(logging.getLogger("rummykit.test.quiet"), 60.0, clock=lambda: now[0])
    for number in range(1_000):
        log.warning(f"198.51.100.{number % 250}.{number}", "bad bytes")
    assert len(log.last) == 1_000
    now[0] += 121.0  # two intervals
    log.warning("203.0.113.9", "bad bytes")
    assert list(log.last) == ["203.0.113.9"]
    assert log.held_back == {}


def test_a_flood_of_requests_that_are_not_http_logs_one_line_per_address(
    server: LiveServer, log: _Collector
) -> None:
    not_http = (
        b"\x16\x03\x01\x00\xa5" + bytes(range(100)),  # a TLS hello on the plain port
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n",
        b"\x00" * 64 + b"\r\n\r\n",
    )
    for payload in not_http * 10:
        with socket.create_connection(("127.0.0.1", server.port), timeout=STUCK_S) as connection:
            connection.sendall(payload)
            answer = connection.recv(4096)  # answered 400, then closed
            assert answer.startswith(b"HTTP/1.1 400"), answer
    assert [record for record in log.records if record.exc_info is not None] == []
    lines = [record.getMessage() for record in log.records]
    assert lines == ["127.0.0.1: Invalid HTTP request received."]
