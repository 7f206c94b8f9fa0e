"""Knock rummy at the browser table: the Knock button and key, and the deal's end with every
hand spread in its melds and loose cards. Chromium under Playwright, a live server."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.sync_api import expect

from rummykit.core.cards import Card
from rummykit.core.deadwood import best_discard, deadwood_value
from rummykit.core.presets import find_preset
from table_client import seeded_deal
from web_helpers import ClickPlayer, KeyPlayer, TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

KNOCK = find_preset("knock").rules


def human_first_seed(start: int = 0) -> int:
    """A seed whose first deal the computer deals, so seat 0 (ours) plays first."""
    return next(seed for seed in itertools.count(start) if seeded_deal(seed, 2)[0] == 1)


def knock_table(page: Any, server: Any, seed: int) -> TablePage:
    table_id, token = server.create_table(preset="knock", seed=seed, opponents=["basic"])
    table = TablePage(page, server, table_id, token).open()
    table.set_pace(0)
    return table


def our_knock(view: dict[str, Any]) -> str:
    """The knock that keeps the least loose: throw what ``best_discard`` would."""
    card, _ = best_discard([Card.parse(code) for code in view["hand"]], KNOCK)
    action = f"knock {card}"
    assert action in view["legal"], (action, view["legal"])
    return action


def check_laid_out(page: Any, table: TablePage) -> None:
    """The summary spreads both hands: melds, loose cards, and each count as the server's."""
    view = table.view()
    result = view["deal_result"]
    assert view["phase"] == "over" and result["knocker"] == 0
    assert result["result"] in ("knock", "undercut")
    summary = page.get_by_test_id("deal-summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("a knock, every hand laid out")
    cells = summary.get_by_test_id("laid-out")
    expect(cells).to_have_count(2)
    for seat, hand in enumerate(result["laid_out"]):
        cell = cells.nth(seat)
        expect(cell.get_by_test_id("laid-meld")).to_have_count(len(hand["melds"]))
        laid = [code for meld in hand["melds"] for code in meld["cards"]] + hand["deadwood"]
        expect(cell.locator(".card[role=img]")).to_have_count(len(laid))
        expect(cell.get_by_test_id("laid-loose").locator(".card")).to_have_count(
            len(hand["deadwood"])
        )
        expect(summary.locator("tbody tr").nth(seat)).to_contain_text(str(hand["value"]))
    expect(cells.nth(0)).to_contain_text("Knocked")


def test_a_knock_deal_played_to_its_end_by_clicks(page: Any, live_server: Any) -> None:
    table = knock_table(page, live_server, human_first_seed())
    # Knock rummy: no Meld or Lay off buttons; a Knock button instead.
    expect(page.get_by_test_id("knock-button")).to_be_visible()
    expect(page.get_by_test_id("meld-button")).to_be_hidden()
    expect(page.get_by_test_id("layoff-button")).to_be_hidden()
    clicks = ClickPlayer(table)
    view = table.wait_turn_or_over()
    # The hand's figure is its deadwood: what a knock would count now.
    loose = deadwood_value([Card.parse(code) for code in view["hand"]], KNOCK)
    assert view["hand_value"] == loose
    unit = "pt" if loose == 1 else "pts"
    expect(page.get_by_test_id("hand-value")).to_have_text(f"Loose: {loose} {unit}")
    clicks.play("draw stock", view)
    view = table.wait_applied(view["version"], "draw stock")
    table.wait_synced(view)
    action = our_knock(view)
    clicks.play(action, view)
    table.wait_applied(view["version"], action)
    check_laid_out(page, table)


def test_a_knock_by_keyboard_only(page: Any, live_server: Any) -> None:
    table = knock_table(page, live_server, human_first_seed(50))
    keys = KeyPlayer(table)
    view = table.wait_turn_or_over()
    keys.play("draw stock", view)
    view = table.wait_applied(view["version"], "draw stock")
    table.wait_synced(view)
    action = our_knock(view)
    keys.play(action, view)
    table.wait_applied(view["version"], action)
    assert keys.keys["k"] == 1
    check_laid_out(page, table)
    keys.press("n")
    expect(page.get_by_test_id("deal-summary")).to_be_hidden()


def test_the_knock_button_with_no_card_selected_asks_for_one(page: Any, live_server: Any) -> None:
    table = knock_table(page, live_server, human_first_seed(100))
    view = table.wait_turn_or_over()
    table.page.get_by_test_id("stock").click()
    view = table.wait_applied(view["version"], "draw stock")
    table.wait_synced(view)
    # As Discard does, it asks for a card and sends nothing.
    page.get_by_test_id("knock-button").click()
    expect(page.get_by_test_id("message")).not_to_be_empty()
    assert table.view()["phase"] == "play"
