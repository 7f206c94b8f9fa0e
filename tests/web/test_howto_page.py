"""How to play: the rules in our own words, then every house rule as the rules engine describes
it; from a table, that table's rules with the ones unlike the standard preset marked.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from rummykit.core.presets import find_preset
from rummykit.core.rules import Rules, find_option, option_names
from table_client import LiveServer
from web_helpers import TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

PHONE = {"width": 390, "height": 844}
HOUSE_RULES = {"aces": "around", "target": 250}


def marked(page: Any) -> list[str]:
    """The options the page marks as differing from the standard preset, in its order."""
    rows = page.locator("[data-testid=howto-rule][data-differs=true]")
    names: list[str] = rows.evaluate_all("rows => rows.map((row) => row.dataset.option)")
    return names


def differing(rules: Rules) -> list[str]:
    standard = find_preset("standard").rules.to_mapping()
    mine = rules.to_mapping()
    return [name for name in option_names() if mine[name] != standard[name]]


def test_the_table_links_to_its_own_rules_with_the_house_rules_marked(
    page: Any, live_server: LiveServer
) -> None:
    table = TablePage(
        page, live_server, *live_server.create_table(rules=HOUSE_RULES, seed=3)
    ).open()
    page.get_by_test_id("table-howto-link").click()
    page.wait_for_url(f"**/#/howto/{table.table_id}")
    expect(page.get_by_test_id("howto-rules-title")).to_have_text("The rules of your table")
    expect(page.get_by_test_id("howto-rule")).to_have_count(len(option_names()))
    rules = Rules.from_mapping({"preset": "classic", **HOUSE_RULES})
    assert marked(page) == differing(rules)
    assert {"aces", "target", "rummy_bonus"} <= set(marked(page))
    aces = page.locator("[data-testid=howto-rule][data-option=aces]")
    expect(aces).to_contain_text("House rule")
    expect(aces).to_contain_text(find_option("aces").label(rules.aces))
    expect(aces).to_contain_text(find_option("aces").title)
    unmarked = page.locator("[data-testid=howto-rule][data-option=decks]")
    expect(unmarked).not_to_contain_text("House rule")
    expect(page.get_by_test_id("howto-about")).to_contain_text("2 players, 10 cards each")
    expect(page.get_by_test_id("howto")).to_contain_text("reaches 250")
    page.get_by_test_id("howto-back").click()
    table.wait_hand()


def test_the_lobby_links_to_the_presets_rules(page: Any, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    page.get_by_test_id("howto-link").click()
    expect(page.get_by_test_id("howto-rules-title")).to_have_text("House rules")
    expect(page.get_by_test_id("howto-preset")).to_have_value("standard")
    expect(page.get_by_test_id("howto-rule")).to_have_count(len(option_names()))
    assert marked(page) == []
    page.get_by_test_id("howto-preset").select_option("party")
    expect(page.get_by_test_id("howto-about")).to_contain_text(find_preset("party").summary)
    assert marked(page) == differing(find_preset("party").rules)
    renewals = page.locator("[data-testid=howto-rule][data-option=renewals]")
    expect(renewals).to_contain_text("Up to 15 times")  # the party's own label


def test_a_table_without_a_seat_here_shows_the_presets(page: Any, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/#/howto/no-such-table")
    expect(page.get_by_test_id("howto-no-seat")).to_be_visible()
    expect(page.get_by_test_id("howto-preset")).to_have_value("standard")


def test_how_to_play_reads_in_japanese_on_a_phone(browser: Any, live_server: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        table = TablePage(page, live_server, *live_server.create_table(rules=HOUSE_RULES, seed=3))
        page.goto(live_server.url + "/")
        page.locator("#lang").select_option("ja")
        table.open()
        page.get_by_test_id("table-howto-link").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("ストレート・ラミーの遊び方")
        aces = page.locator("[data-testid=howto-rule][data-option=aces]")
        expect(aces).to_contain_text("ランのエース")
        expect(aces).to_contain_text("ハウスルール")
        expect(aces).to_contain_text("回り込みあり")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"How to play scrolls sideways: {width} px"
    finally:
        context.close()
