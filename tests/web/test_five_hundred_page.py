"""500 Rum in a real browser: a deal played by clicks shows the points beside each meld,
each seat's running meld points, and the deal's laid points and signed scores at its end."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from table_client import simple_choice
from web_helpers import ClickPlayer, TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SEED = 5


def points_text(count: int) -> re.Pattern[str]:
    """The page's words for ``count`` points (``27 pts``, ``1 pt``)."""
    return re.compile(rf"^{count} pts?$")


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def shows_meld_points(page: Page, view: dict[str, Any]) -> None:
    """Every meld of ``view`` shows its points, and every seat what it has laid."""
    for number, meld in enumerate(view["melds"]):
        shown = page.get_by_test_id(f"meld-{number}").get_by_test_id("meld-points")
        expect(shown).to_have_text(points_text(meld["points"]))
    for seat, laid in enumerate(view["table_points"]):
        shown = page.locator(f'.seat[data-seat="{seat}"] [data-testid=seat-laid]')
        expect(shown).to_have_text(f"laid {laid}")


def test_a_deal_of_500_shows_meld_points_as_it_goes_and_at_its_end(
    page: Page, live_server: Any
) -> None:
    table_id, token = live_server.create_table(preset="500", opponents=["strong"], seed=SEED)
    table = TablePage(page, live_server, table_id, token).open()
    table.set_pace(0)
    player = ClickPlayer(table)
    checked = 0
    while True:  # play_deal's loop, looking at the table whenever it waits for us
        view = table.wait_turn_or_over()
        if view["phase"] == "over":
            break
        if view["melds"]:
            shows_meld_points(page, view)
            checked += 1
        action = simple_choice(view["legal"])
        player.play(action, view)
        table.wait_applied(view["version"], action)
    assert view["rules"]["scoring"] == "melds"
    assert view["phase"] == "over" and view["melds"], "someone laid a meld in this deal"
    assert checked, "the meld points were seen while the deal went on"
    assert sum(meld["points"] for meld in view["melds"]) == sum(view["table_points"])
    shows_meld_points(page, view)
    summary = page.get_by_test_id("deal-summary")
    expect(summary).to_be_visible()
    result = view["deal_result"]
    expect(summary.get_by_test_id("summary-laid")).to_have_text(
        [str(laid) for laid in view["table_points"]]
    )
    expect(summary.get_by_test_id("summary-points")).to_have_text(
        [signed(points) for points in result["points"]]
    )
    assert result["points"] == [
        laid - held for laid, held in zip(view["table_points"], result["values"], strict=True)
    ]
