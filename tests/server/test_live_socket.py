"""The socket over a real server: uvicorn on 127.0.0.1 in a thread, a ``websockets`` client.

TestClient runs the app in-process; some behaviour only shows over a real connection: what a
refused handshake looks like to a client, and sockets that close while the table answers them.
The server's tables run on a ``ManualClock``: the computer moves when the test advances it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from ports import free_port
from rummykit.protocol.limits import MAX_SOCKET_MESSAGE_BYTES, TOO_MANY_REQUESTS, Limits
from rummykit.protocol.messages import CloseCode
from rummykit.server.http.guard import FOREIGN_ORIGIN_MESSAGE
from rummykit.server.http.hello import HELLO_FIRST, NO_HELLO, NO_ONE
from rummykit.server.site.app import NO_SEAT, TOKEN_IN_HELLO
from table_client import (
    STUCK_S,
    LiveServer,
    LiveSocket,
    ManualClock,
    SeatSocket,
    hello,
    is_my_turn,
    seed_where_human_starts,
)

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(tmp_path: Path, clock: ManualClock) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "tables.sqlite3", free_port(), sleep=clock.sleep)
    live.start()
    yield live
    live.stop()


def test_a_real_socket_plays(server: LiveServer) -> None:
    table_id, token = server.create_table(seed=seed_where_human_starts())
    with server.seat_socket(table_id, token) as websocket:
        seat = SeatSocket(LiveSocket(websocket))
        assert is_my_turn(seat.recv()["d"])
        view = seat.act("draw stock")["d"]
        assert len(view["hand"]) == 11
    assert server.view(table_id, token)["version"] == 2


def test_no_seat_is_closed_with_4404_over_a_real_server(server: LiveServer) -> None:
    """The page tells 'no seat' from a dropped line by the close code 4404 (web/api.js)."""
    table_id, _ = server.create_table()
    code, reason = _close_seen(server.socket_url(table_id), hello("not-a-token"))
    assert (code, reason) == (CloseCode.NO_SEAT, NO_SEAT)


def test_table_goes_on_after_a_reply_to_a_closed_socket(
    server: LiveServer, clock: ManualClock
) -> None:
    """A refusal or hint addressed to a connection that has just closed must not stop the
    table's task: the computer must still play, and the other tab must still be served."""
    table_id, token = server.create_table(seed=seed_where_human_starts())
    with (
        server.seat_socket(table_id, token) as watcher_socket,
        server.seat_socket(table_id, token) as leaver_socket,
    ):
        watcher = SeatSocket(LiveSocket(watcher_socket, timeout=8))
        watcher.recv()
        leaver = SeatSocket(LiveSocket(leaver_socket))
        leaver.recv()
        leaver.act("draw stock")
        version = leaver.version
        discard = leaver.view["hand"][-1]
        # the discard makes it the computer's turn (held by the clock); the hint right behind
        # it is refused (not our turn) to a socket that is gone by then
        throw = {"action": f"discard {discard}"}
        leaver_socket.send(json.dumps({"t": "act", "v": version, "d": throw}))
        leaver_socket.send(json.dumps({"t": "hint", "v": version + 1, "d": {}}))
        leaver_socket.close()
        # intents are handled in order: once the watcher's pace is answered, the hint has been
        # answered too, to the closed socket
        watcher.set_pace(1000)
        assert watcher.view["turn"] == 1 and watcher.version == version + 1
        clock.advance_once_sleeping(1)  # the computer may act
        try:
            view = watcher.until(lambda frame: frame["t"] == "view" and frame["v"] > version + 1)[
                "d"
            ]
        except TimeoutError:
            raise AssertionError(
                "the computer never played after a reply failed on a closed socket: "
                "the table's task has stopped"
            ) from None
        assert view["hand_sizes"][1] == 11 or view["phase"] == "over"


def test_an_oversized_message_closes_only_its_own_socket(server: LiveServer) -> None:
    # A 10 MB message used to be read and parsed, and froze every table while it was.
    table_id, token = server.create_table(seed=seed_where_human_starts())
    with server.seat_socket(table_id, token) as websocket:
        websocket.recv()
        with pytest.raises(ConnectionClosed) as closed:
            websocket.send("x" * (MAX_SOCKET_MESSAGE_BYTES + 1))
            websocket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.MESSAGE_TOO_BIG
    other, other_token = server.create_table(seed=seed_where_human_starts())
    with server.seat_socket(other, other_token) as websocket:
        seat = SeatSocket(LiveSocket(websocket))
        assert is_my_turn(seat.recv()["d"])
        assert len(seat.act("draw stock")["d"]["hand"]) == 11


def _close_seen(url: str, first: str | bytes | None, **options: Any) -> tuple[int, str]:
    """The close code and reason a client sees when the server refuses its socket at ``url``,
    ``first`` sent as its first message (``None``: nothing); ``options`` go to ``connect``.

    Under uvicorn, closing before accepting refuses the handshake with HTTP 403 instead, so a
    browser sees code 1006, no reason, and keeps reconnecting.
    """
    try:
        with connect(url, **options) as websocket:
            if first is not None:
                websocket.send(first)
            websocket.recv(timeout=STUCK_S)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "closed without a close frame: the browser sees 1006"
        return closed.rcvd.code, closed.rcvd.reason
    except InvalidStatus as refused:
        raise AssertionError(
            f"the handshake was refused with HTTP {refused.response.status_code}: "
            "the client never sees the close code or why"
        ) from None
    raise AssertionError("the socket was served")


def test_another_sites_socket_is_closed_with_4403_and_why(server: LiveServer) -> None:
    table_id, token = server.create_table()
    evil = Origin("https://evil.example")
    code, reason = _close_seen(server.socket_url(table_id), hello(token), origin=evil)
    assert (code, reason) == (CloseCode.FOREIGN_ORIGIN, FOREIGN_ORIGIN_MESSAGE)


def test_an_address_over_its_rate_gets_4429_and_why(tmp_path: Path) -> None:
    limits = Limits(socket_burst=None, address_burst=1, address_per_second=0.001)
    live = LiveServer(tmp_path / "tables.sqlite3", free_port(), limits=limits)
    live.start()
    try:
        table_id, token = live.create_table()  # the address's one request
        code, reason = _close_seen(live.socket_url(table_id), hello(token))
        assert (code, reason) == (CloseCode.TOO_MANY_MESSAGES, TOO_MANY_REQUESTS)
    finally:
        live.stop()


@pytest.mark.parametrize(
    ("first", "closed"),
    [
        ('{"t": "hint", "v": 0, "d": {}}', (CloseCode.BAD_QUERY, HELLO_FIRST)),
        (b"binary", (CloseCode.BAD_QUERY, HELLO_FIRST)),
        ('{"t": "hello", "v": 0, "d": {}}', (CloseCode.BAD_QUERY, NO_ONE)),
    ],
)
def test_a_socket_opening_without_a_seats_hello_is_closed_and_told_why(
    server: LiveServer, first: str | bytes, closed: tuple[int, str]
) -> None:
    """Whose socket it is comes in its first message: anything else first closes it, with
    the code the page goes by (it retries after 4400, not after 4404) and the reason."""
    table_id, _ = server.create_table()
    assert _close_seen(server.socket_url(table_id), first) == closed


def test_a_token_in_the_address_is_closed_4400_and_why(server: LiveServer) -> None:
    """As clients before the hello opened it: the page would see why, and no seat."""
    table_id, token = server.create_table()
    url = server.socket_url(table_id) + f"?token={token}"
    assert _close_seen(url, hello(token)) == (CloseCode.BAD_QUERY, TOKEN_IN_HELLO)


def test_a_socket_that_says_no_hello_in_time_is_closed_4400_and_why(tmp_path: Path) -> None:
    limits = dataclasses.replace(Limits.unlimited(), header_timeout_s=0.2)
    live = LiveServer(tmp_path / "tables.sqlite3", free_port(), limits=limits)
    live.start()
    try:
        table_id, _ = live.create_table()
        code, reason = _close_seen(live.socket_url(table_id), None)
        assert (code, reason) == (CloseCode.BAD_QUERY, NO_HELLO)
    finally:
        live.stop()


def test_a_pace_change_reaches_every_page_of_the_table(server: LiveServer) -> None:
    table_id, token = server.create_table()
    with (
        server.seat_socket(table_id, token) as setter_socket,
        server.seat_socket(table_id, token) as other_socket,
    ):
        setter = SeatSocket(LiveSocket(setter_socket))
        other = SeatSocket(LiveSocket(other_socket))
        setter.recv()
        other.recv()
        setter.set_pace(1234)
        assert other.until(lambda frame: frame["t"] == "view")["d"]["pace_ms"] == 1234
        setter.send("hint")  # the setter was answered once: the next frame answers the hint
        assert setter.recv()["t"] in ("hint", "refused")
