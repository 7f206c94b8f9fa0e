"""The table page words refusals and events with the table's names, and its log survives a
reload: the "What happened" lines come from the server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ports import free_port
from table_client import LiveServer, ManualClock, seed_where_human_starts
from web_helpers import ClickPlayer, TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


@pytest.fixture
def held_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose computer players wait for a clock nobody moves: they never act."""
    server = LiveServer(tmp_path / "tables.sqlite3", free_port(), ManualClock().sleep)
    server.start()
    yield server
    server.stop()


def test_out_of_turn_says_whose_turn_by_name_and_a_reload_keeps_the_log(
    page: Page, held_server: LiveServer
) -> None:
    table_id, token = held_server.create_table(
        seed=seed_where_human_starts(3), opponents=["basic", "basic"]
    )
    table = TablePage(page, held_server, table_id, token).open()
    player = ClickPlayer(table)
    view = table.view()
    player.play("draw stock", view)
    view = table.wait_applied(view["version"], "draw stock")
    discard = next(action for action in view["legal"] if action.startswith("discard"))
    player.play(discard, view)
    view = table.wait_applied(view["version"], discard)
    assert view["turn"] == 1  # the computer on our left, held by the clock
    name = view["players"][1]["name"]

    page.get_by_test_id("stock").click()  # out of turn
    expect(page.get_by_test_id("message")).to_have_text(f"It is {name}'s turn, not yours.")
    assert "seat 1" not in table.message()

    log = page.get_by_test_id("log").locator("li")
    expect(log).to_have_count(3)  # the deal, our draw, our discard
    lines = log.all_inner_texts()
    assert lines[1] == "You drew from the stock."
    page.reload()
    table.wait_hand()
    expect(log).to_have_text(lines)  # the same lines, not just the deal's
