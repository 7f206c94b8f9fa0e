"""The sockets of finding a game, as the tests hold them: quick pairing's (more to come).

Shared by the tests of one process and of several (``tests/server/test_cluster_finding.py``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from starlette.testclient import TestClient

from frame_socket import FrameSocket
from rummykit.protocol import PAIRING_SERVER_MESSAGES, QUICK_POOLS, PoolsAnswer


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
