"""The number of players changed at the table: after a confirmation, a new table with the same
rules, name, timer and computer levels (extra seats get the last level), and the page moves
to it. Only at your own table against the computer: not in practice, not at a party's table.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from table_client import LiveServer
from web_helpers import TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

PHONE = {"width": 390, "height": 844}


def accept_next_dialog(page: Any, answer: bool, seen: list[str]) -> None:
    """Answer the next ``confirm`` with ``answer`` and keep its words in ``seen``."""

    def on_dialog(dialog: Any) -> None:
        seen.append(dialog.message)
        if answer:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", on_dialog)


def test_choosing_four_players_starts_the_same_table_with_four_after_asking(
    page: Any, live_server: LiveServer
) -> None:
    table = TablePage(
        page,
        live_server,
        *live_server.create_table(
            opponents=["expert"], rules={"target": 250, "aces": "around"}, name="Ada", seed=3
        ),
    ).open()
    seats = page.get_by_test_id("seat-count")
    expect(seats).to_have_value("2")
    offered = seats.locator("option").evaluate_all("options => options.map((o) => o.value)")
    assert offered == ["2", "3", "4", "5", "6"]
    seen: list[str] = []
    accept_next_dialog(page, True, seen)
    seats.select_option("4")
    page.wait_for_url(lambda url: "#/table/" in url and table.table_id not in url)
    moved = TablePage.from_lobby(page, live_server)  # the id from the address, the seat kept
    assert seen and "4 players" in seen[0]
    view = moved.view()
    assert [player["level"] for player in view["players"][1:]] == ["expert"] * 3
    assert view["players"][0]["name"] == "Ada"
    assert view["preset"] == "classic"
    assert (view["rules"]["target"], view["rules"]["aces"]) == (250, "around")
    expect(page.get_by_test_id("seat-count")).to_have_value("4")
    assert page.evaluate("localStorage.getItem('rummykit.lastTable')") == moved.table_id


def test_saying_no_keeps_the_game_and_the_choice(page: Any, live_server: LiveServer) -> None:
    table = TablePage(page, live_server, *live_server.create_table(seed=3)).open()
    seen: list[str] = []
    accept_next_dialog(page, False, seen)
    page.get_by_test_id("seat-count").select_option("3")
    expect(page.get_by_test_id("seat-count")).to_have_value("2")
    assert seen and "new game" in seen[0]
    assert page.url.endswith(f"#/table/{table.table_id}")


def test_the_practice_game_offers_no_other_number_of_players(
    page: Any, live_server: LiveServer
) -> None:
    TablePage(
        page,
        live_server,
        *live_server.create_table(practice=True, preset="practice", opponents=["strong"]),
    ).open()
    expect(page.get_by_test_id("hand-value")).to_be_visible()
    expect(page.get_by_test_id("seats")).to_be_hidden()


def test_the_switch_speaks_japanese_on_a_phone(browser: Any, live_server: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        table = TablePage(page, live_server, *live_server.create_table(seed=3))
        page.goto(live_server.url + "/")
        page.locator("#lang").select_option("ja")
        table.open()
        seats = page.get_by_test_id("seat-count")
        expect(seats.locator("option[value='3']")).to_have_text("3人")
        seats.scroll_into_view_if_needed()
        expect(seats).to_be_in_viewport()
        seen: list[str] = []
        accept_next_dialog(page, False, seen)
        seats.select_option("3")
        expect(seats).to_have_value("2")
        assert seen and "3人" in seen[0]
    finally:
        context.close()
