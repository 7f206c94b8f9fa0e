"""The sockets of finding a game, as the tests hold them: the lobby, quick pairing, inbox, arena.

Shared by the tests of one process and of several (``tests/server/test_cluster_finding.py``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

from starlette.testclient import TestClient

from frame_socket import FrameSocket
from party_client import open_seat, play_everyone, post
from rummykit.protocol import (
    ARENA_SERVER_MESSAGES,
    INBOX_SERVER_MESSAGES,
    OPEN_TABLES_MESSAGES,
    PAIRING_SERVER_MESSAGES,
    QUICK_POOLS,
    PoolsAnswer,
)
from table_client import hello


class PairingSocket(FrameSocket):
    """One page waiting for a table: every frame kept."""

    def __init__(self, websocket: Any) -> None:
        super().__init__(websocket, PAIRING_SERVER_MESSAGES)

    def seek(self, pool: str, name: str | None = None) -> dict[str, Any]:
        """Seek in ``pool`` where nobody matches at once: the answer (``seeking`` or
        ``refused``)."""
        self.send_seek(pool, name)
        return self.recv()

    def send_seek(self, pool: str, name: str | None = None) -> None:
        """Seek in ``pool`` (a table may be made at once: then ``paired`` comes)."""
        self.send("seek", {"pool": pool} if name is None else {"pool": pool, "name": name})

    def paired(self) -> dict[str, Any]:
        """The seat, once given."""
        frame = self.until(lambda frame: frame["t"] in ("paired", "refused"))
        assert frame["t"] == "paired", frame
        paired: dict[str, Any] = frame["d"]
        return paired


@contextlib.contextmanager
def pairing(client: TestClient, who: dict[str, str] | None = None) -> Iterator[PairingSocket]:
    """The pairing socket, as the account whose session headers are ``who`` (or a guest)."""
    client.cookies.clear()
    with client.websocket_connect("/ws/pairing", headers=who or {}) as websocket:
        websocket.send_text(json.dumps({"t": "hello", "v": 0, "d": {}}))
        yield PairingSocket(websocket)


def waiting(client: TestClient) -> dict[str, tuple[int, int]]:
    """GET /api/pools: the ranked and friendly players waiting, by pool."""
    answer = PoolsAnswer.model_validate_json(client.get("/api/pools").text)
    assert [view.pool for view in answer.pools] == list(QUICK_POOLS)
    return {view.pool.name: (view.ranked, view.friendly) for view in answer.pools}


ONE_DEAL: dict[str, Any] = {"deals": 1}


class ArenaSocket(FrameSocket):
    """One page watching an arena: every frame kept, and the arena as it last stood."""

    def __init__(self, websocket: Any) -> None:
        super().__init__(websocket, ARENA_SERVER_MESSAGES)
        self.view: dict[str, Any] = {}

    def recv(self) -> dict[str, Any]:
        frame = super().recv()
        if frame["t"] == "arena":
            self.view = frame["d"]
        return frame

    def until_view(self, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        if self.view and condition(self.view):
            return self.view
        frame = self.until(lambda frame: frame["t"] == "arena" and condition(frame["d"]))
        view: dict[str, Any] = frame["d"]
        return view


Watch = Callable[[str, dict[str, str] | None], contextlib.AbstractContextManager[ArenaSocket]]


@contextlib.contextmanager
def arena_page(client: TestClient, arena: str, who: dict[str, str] | None) -> Iterator[ArenaSocket]:
    """An arena's page, as the account whose session headers are ``who`` (or a guest)."""
    client.cookies.clear()
    with client.websocket_connect(f"/ws/arena/{arena}", headers=who or {}) as websocket:
        websocket.send_text(json.dumps({"t": "hello", "v": 0, "d": {}}))
        socket = ArenaSocket(websocket)
        socket.until(lambda frame: frame["t"] == "arena")
        yield socket


def new_arena(client: TestClient, who: dict[str, str] | None, **body: Any) -> Any:
    wanted = {"name": "Friday", "minutes": 10, "starts_in_min": 1, "rules": ONE_DEAL, **body}
    return post(client, "/api/arenas", wanted, who)


def standing(view: dict[str, Any], name: str) -> dict[str, Any]:
    line: dict[str, Any] = next((line for line in view["standings"] if line["name"] == name), {})
    return line


def play_round(client: TestClient, seats: list[dict[str, Any]]) -> None:
    """Play every table these seats were given, each to its end."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for seat in seats:
        tables.setdefault(seat["table"], []).append(seat)
    for table, at in tables.items():
        with contextlib.ExitStack() as playing:
            sockets = {
                n: playing.enter_context(open_seat(client, table, seat["token"]))
                for n, seat in enumerate(sorted(at, key=lambda seat: seat["member"]))
            }
            play_everyone(sockets)


class LobbySocket:
    """A lobby's connection to /ws/lobby: every list it was sent."""

    def __init__(self, websocket: Any) -> None:
        self.ws = websocket
        self.lists: list[list[dict[str, Any]]] = []
        self.versions: list[int] = []

    def recv(self) -> list[dict[str, Any]]:
        text = self.ws.receive_text()
        message = OPEN_TABLES_MESSAGES.validate_json(text)
        frame = json.loads(text)
        self.versions.append(message.v)
        self.lists.append(frame["d"]["tables"])
        return self.lists[-1]

    def until(self, condition: Callable[[list[dict[str, Any]]], bool]) -> list[dict[str, Any]]:
        """Receive lists until one satisfies ``condition``."""
        while True:
            tables = self.recv()
            if condition(tables):
                return tables


@contextlib.contextmanager
def lobby(client: TestClient) -> Iterator[LobbySocket]:
    """A lobby's socket, its first list received."""
    with client.websocket_connect("/ws/lobby") as websocket:
        websocket.send_text(hello(None))  # a watcher's hello
        socket = LobbySocket(websocket)
        socket.recv()
        yield socket


def codes(tables: list[dict[str, Any]]) -> list[str]:
    """The parties' codes of a list of open tables, in its order."""
    return [line["code"] for line in tables]


class InboxSocket(FrameSocket):
    """One signed-in page's inbox: every frame kept."""

    def __init__(self, websocket: Any) -> None:
        super().__init__(websocket, INBOX_SERVER_MESSAGES)

    def challenge(self, player: str, **terms: Any) -> None:
        self.send("challenge", {"player": player, **terms})

    def refused(self) -> dict[str, Any]:
        return self.data_of("refused")


@contextlib.contextmanager
def inbox_page(client: TestClient, who: dict[str, str]) -> Iterator[InboxSocket]:
    """A signed-in page's inbox, open (challenges reach it from now on)."""
    client.cookies.clear()
    with client.websocket_connect("/ws/inbox", headers=who) as websocket:
        websocket.send_text(json.dumps({"t": "hello", "v": 0, "d": {}}))
        socket = InboxSocket(websocket)
        socket.data_of("inbox")
        yield socket
