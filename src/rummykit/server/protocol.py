"""The table's WebSocket protocol: a closed set of typed JSON messages, one parser.

Every message is an envelope ``{"t": TYPE, "v": VERSION, "d": DATA}``. The browser sends
intents; the server answers each one, and sends every seat its own view after each change.

Client to server:

- ``{"t": "act", "v": V, "d": {"action": "discard Ks"}}``: an action in record notation
  without the seat (the connection's seat is used); refused as ``stale`` if ``V`` is not the
  table's current version.
- ``{"t": "next", "v": V, "d": {}}``: deal the next deal once the current one is over.
- ``{"t": "redeal", "v": V, "d": {}}``: throw the current deal away (it does not count) and
  deal again.
- ``{"t": "hint", "v": V, "d": {}}``: ask for the strong player's advice.
- ``{"t": "pace", "v": V, "d": {"ms": 700}}``: how long the computer waits between its
  actions (0 to 5000 ms).

Server to client:

- ``{"t": "view", "v": V, "d": VIEW}``: the seat's whole view (see ``rummykit.server.views``).
- ``{"t": "event", "v": V, "d": {"seat": S, "text": ..., "action": ..., "card": ...}}``: one
  action just played, for step-by-step display (``card`` only when it is public).
- ``{"t": "refused", "v": V, "d": {"code": CODE, "message": TEXT}}``: an intent was refused.
- ``{"t": "hint", "v": V, "d": {"action": TEXT, "reason": TEXT}}``: advice.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Final

CLIENT_TYPES: Final = ("act", "next", "redeal", "hint", "pace")
"""Every message type a client may send."""

SERVER_TYPES: Final = ("view", "event", "refused", "hint")
"""Every message type the server sends."""

MAX_PACE_MS: Final = 5000
"""The slowest the computer may be asked to play: slower feels broken."""


class ProtocolError(ValueError):
    """A message that cannot be read; answered with ``refused`` and code ``bad_message``."""

    code = "bad_message"


@dataclasses.dataclass(frozen=True, slots=True)
class ClientMessage:
    """An intent from a browser."""

    type: str
    version: int
    action: str = ""
    pace_ms: int = 0


def parse_client_message(text: str) -> ClientMessage:
    """Read one message from a client; ``ProtocolError`` says what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise ProtocolError("The message is not JSON.") from None
    if not isinstance(data, dict):
        raise ProtocolError("A message is a JSON object with t, v and d.")
    kind = data.get("t")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(f"Unknown message type {kind!r}: use one of {', '.join(CLIENT_TYPES)}.")
    version = data.get("v")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ProtocolError("Every message carries the table version it was sent against (v).")
    body = data.get("d", {})
    if not isinstance(body, dict):
        raise ProtocolError("The message's d must be an object.")
    if kind == "act":
        action = body.get("action")
        if not isinstance(action, str) or not action.strip():
            raise ProtocolError('An act message needs {"action": "draw stock"} or the like.')
        return ClientMessage(kind, version, action=action.strip())
    if kind == "pace":
        pace = body.get("ms")
        if not isinstance(pace, int) or isinstance(pace, bool) or not 0 <= pace <= MAX_PACE_MS:
            raise ProtocolError(f"The pace is a number of milliseconds from 0 to {MAX_PACE_MS}.")
        return ClientMessage(kind, version, pace_ms=pace)
    return ClientMessage(kind, version)


def envelope(kind: str, version: int, data: dict[str, Any]) -> str:
    """A server message as JSON text."""
    if kind not in SERVER_TYPES:
        raise ValueError(f"Unknown server message type {kind!r}.")
    return json.dumps({"t": kind, "v": version, "d": data}, ensure_ascii=False)


def refusal(version: int, code: str, message: str) -> str:
    """A ``refused`` message."""
    return envelope("refused", version, {"code": code, "message": message})
