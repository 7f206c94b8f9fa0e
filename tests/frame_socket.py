"""A socket of JSON frames for the tests: each frame checked against the protocol's schema,
kept, and waited for by a condition (pairing, the inbox, arenas)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter

Frame = dict[str, Any]


class FrameSocket:
    """One connection: every frame it received, in order."""

    def __init__(self, websocket: Any, adapter: TypeAdapter[Any]) -> None:
        """Over TestClient's ``websocket``; each frame must be a message ``adapter`` reads."""
        self.ws = websocket
        self.adapter = adapter
        self.frames: list[Frame] = []

    def recv(self) -> Frame:
        """The next frame."""
        text = self.ws.receive_text()
        self.adapter.validate_json(text)
        frame: Frame = json.loads(text)
        self.frames.append(frame)
        return frame

    def until(self, condition: Callable[[Frame], bool]) -> Frame:
        """Receive until a frame satisfies ``condition``; that frame."""
        while True:
            frame = self.recv()
            if condition(frame):
                return frame

    def data_of(self, kind: str) -> dict[str, Any]:
        """The data of the next frame of this ``kind`` (``t``)."""
        data: dict[str, Any] = self.until(lambda frame: frame["t"] == kind)["d"]
        return data

    def send(self, kind: str, data: dict[str, Any] | None = None) -> None:
        """Send a message ``kind`` with ``data`` (``{}`` when none)."""
        self.ws.send_text(json.dumps({"t": kind, "v": 0, "d": data or {}}))
