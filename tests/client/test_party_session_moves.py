"""A member's program whose party socket moves to the site's other process (issue 29's hang).

The host's program sent ``start`` to the first process, which died before it answered; it
reconnected to the second, whose view of the party (everyone ready, still in the lobby)
carried the same version number as the one the start was sent at: each process counts its
own versions. The program sent what a view asks once per version, so it never asked again,
and the party waited for ever. Each connection now asks afresh.

The two processes here are small scripted socket servers, so the versions are set exactly.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable, Iterator
from typing import Final

import pytest
from websockets.sync.server import Server, ServerConnection, serve

from rummykit.client.party import PartyPlan, PartySession
from rummykit.client.report import Report
from rummykit.client.servers import Servers
from rummykit.protocol.party import MemberView, PartyMessage, PartyView

pytestmark = pytest.mark.timeout(60)

ANSWER_S: Final = 10.0
"""The longest a scripted process waits for the program's message (it comes at once)."""

VERSION: Final = 5
"""The version both processes show: the same number, counted by each on its own."""


def _view(state: str = "lobby", table: str | None = None) -> str:
    members = [
        MemberView(
            id=each,
            name=f"M{each}",
            kind="human",
            level=None,
            ready=True,
            connected=True,
            host=each == 0,
        )
        for each in range(3)
    ]
    view = PartyView(
        code="ABCDEF",
        url="/#/party/ABCDEF",
        state=state,  # type: ignore[arg-type]
        host=0,
        me=0,
        members=tuple(members),
        preset="classic",
        rules={},
        turn_timer=None,
        spectators=True,
        table=table,
        games=0 if table is None else 1,
    )
    return PartyMessage(v=VERSION, d=view).model_dump_json()


Script = Callable[[ServerConnection], None]


@pytest.fixture
def processes() -> Iterator[Callable[[Script], str]]:
    """Scripted socket servers on 127.0.0.1: each given its handler, its address back."""
    servers: list[tuple[Server, threading.Thread]] = []

    def start(script: Script) -> str:
        server = serve(script, "127.0.0.1", 0)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        servers.append((server, thread))
        return f"http://127.0.0.1:{server.socket.getsockname()[1]}"

    yield start
    for server, thread in servers:
        server.shutdown()
        thread.join(timeout=ANSWER_S)


def test_the_host_moved_to_the_other_process_asks_to_start_again(
    processes: Callable[[Script], str],
) -> None:
    asked: dict[str, list[str]] = {"first": [], "second": []}

    def first(connection: ServerConnection) -> None:
        connection.recv(ANSWER_S)  # hello
        connection.send(_view())
        asked["first"].append(json.loads(connection.recv(ANSWER_S))["t"])
        connection.close()  # dies before it answers: the start never took

    def second(connection: ServerConnection) -> None:
        connection.recv(ANSWER_S)  # hello
        connection.send(_view())  # everyone ready, at the very same version number
        try:
            asked["second"].append(json.loads(connection.recv(ANSWER_S))["t"])
        except TimeoutError:
            connection.send(_view("closed"))  # ends the program (it would wait for ever)
            return
        connection.send(_view("playing", table="T2"))

    servers = Servers([processes(first), processes(second)])
    report = Report(True, io.StringIO(), io.StringIO())
    session = PartySession(servers, "ABCDEF", "token", report, sleep=lambda seconds: None)
    view = session.wait_for_table(PartyPlan(host=True, seats=3))
    assert asked == {"first": ["start"], "second": ["start"]}
    assert view.table == "T2"
