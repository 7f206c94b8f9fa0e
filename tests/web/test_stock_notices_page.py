"""The table page says what the stock does (issue 10, item 6): its last cards are counted
down, the pile turned over into a new stock is announced, and a deal that ends blocked says
so, in the log and in the message line, on the page of a player at the table."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from table_client import LiveServer, LiveSocket, SeatSocket, is_my_turn, seed_where_human_starts
from web_helpers import TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

SEED = seed_where_human_starts(6)
"""Six seats of six cards leave a stock of 15; under this seed the five `basic` players do not
go out before the renewed stock runs out too (the computer players play the seed alike)."""


def stall(seat: SeatSocket) -> dict[str, Any]:
    """Play seat 0 without ever melding (draw from the stock, throw the last card) until the
    deal is over; the last view. The computer (at pace 0) plays between."""
    while True:
        view = seat.view
        if not (view["phase"] == "over" or is_my_turn(view)):
            view = seat.my_turn_view()["d"]
        if view["phase"] == "over":
            return view
        seat.act("draw stock")
        view = seat.view
        if view["phase"] == "over":
            return view
        discards = [action for action in view["legal"] if action.startswith("discard")]
        seat.act(discards[-1])


def test_the_page_counts_down_the_stock_turns_the_pile_over_and_says_blocked(
    page: Page, live_server: LiveServer
) -> None:
    table_id, token = live_server.create_table(
        seed=SEED, opponents=["basic"] * 5, rules={"renew": "flip", "renewals": 1}
    )
    TablePage(page, live_server, table_id, token).open()
    with live_server.seat_socket(table_id, token) as websocket:
        seat = SeatSocket(LiveSocket(websocket))
        seat.set_pace(0)
        last = stall(seat)
    notices = [frame["d"]["kind"] for frame in seat.frames if frame["t"] == "notice"]
    assert last["deal_result"]["result"] == "blocked", last["deal_result"]
    assert "renewed_flip" in notices and "stock_low" in notices and "stock_last" in notices

    log = page.get_by_test_id("log")
    expect(log).to_contain_text("3 cards left in the stock.")
    expect(log).to_contain_text(
        "The discard pile was turned over to make a new stock (this happens once a deal)."
    )
    expect(log).to_contain_text("1 card left in the stock, and it will not be renewed.")
    expect(log).to_contain_text("The deal is blocked")
    # and the same lines after a reload: the log is the server's
    lines = log.locator("li").all_inner_texts()
    page.reload()
    expect(log.locator("li")).to_have_text(lines)
