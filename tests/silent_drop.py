"""One person's page at a party's table through a black hole: what the browser test and
``benchmarks/silent_drop.py`` share.

Ann and Bob start a party (``party_client.started_party`` over a live server). Whoever is to
play first opens the table in Chromium through a ``black_hole.BlackHole``; the other keeps a
socket open straight to the server all along (a table with nobody there pauses, and then
nobody stands in). ``WATCH_CONNECTION`` records, in the page, each change of its connection
status with the wall-clock time, so that the moment the page said so is known exactly.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import Page, expect

from black_hole import BlackHole
from party_client import started_party
from table_client import LiveClient, LiveServer, SeatSocket, hello
from web_helpers import hold_seat

WATCH_CONNECTION = """() => {
  const el = document.getElementById("conn");
  window.connLog = [{ state: el.dataset.state, text: el.textContent, at: Date.now() }];
  new MutationObserver(() => window.connLog.push(
    { state: el.dataset.state, text: el.textContent, at: Date.now() }
  )).observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
}"""
"""Records each change of the page's connection status, on the wall clock (``time.time``'s)."""


@contextlib.contextmanager
def party_table(server: LiveServer) -> Iterator[tuple[str, str, int, SeatSocket]]:
    """A started party of Ann and Bob: its table, the token and seat of whoever is to play
    first, and the other's socket, open straight to the server until the block ends."""
    client = LiveClient(server)
    _, table_id, tokens = started_party(client, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/{table_id}") as websocket:
        websocket.send_text(hello(tokens[0]))
        first = SeatSocket(websocket)
        turn = first.until(lambda frame: frame["t"] == "view")["d"]["turn"]
    with client.websocket_connect(f"/ws/{table_id}") as websocket:
        websocket.send_text(hello(tokens[1 - turn]))
        stayer = SeatSocket(websocket)
        stayer.until(lambda frame: frame["t"] == "view")
        yield table_id, tokens[turn], turn, stayer


def open_through(page: Page, hole: BlackHole, table_id: str, token: str) -> None:
    """Open the seat's table page through the proxy; wait until it says it is connected."""
    page.goto(hole.url + "/")
    hold_seat(page, table_id, token)
    page.goto(f"{hole.url}/#/table/{table_id}")
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")


def status_log(page: Page) -> list[dict[str, Any]]:
    """The page's connection status changes since ``WATCH_CONNECTION``: state, text, and
    ``at`` in seconds on the wall clock."""
    log: list[dict[str, Any]] = page.evaluate("() => window.connLog")
    return [{**entry, "at": float(entry["at"]) / 1000} for entry in log]


def first_at(page: Page, state: str, text: str = "") -> float | None:
    """When (wall clock) the page first showed ``state`` (with ``text`` in its words)."""
    for entry in status_log(page):
        if entry["state"] == state and text in entry["text"]:
            return float(entry["at"])
    return None
