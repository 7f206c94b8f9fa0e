"""A deal of Boathouse in the browser: a take from the discard pile brings the stock's top
card, and the "What happened" log says so, naming that card to its taker alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from rummykit.core.cards import Card
from table_client import LiveServer, seed_where_human_starts
from web_helpers import ClickPlayer, TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

RULES = {"renewals": 1}
"""Boathouse with one new stock a deal: the deal ends, by going out or blocked, in a test's time."""


def test_a_boathouse_deal_says_which_stock_card_came_with_your_take(
    page: Page, live_server: LiveServer
) -> None:
    seed = seed_where_human_starts(2, preset="boathouse", rules=RULES)
    table_id, token = live_server.create_table(
        seed=seed, preset="boathouse", rules=RULES, opponents=["basic"]
    )
    table = TablePage(page, live_server, table_id, token).open()
    table.set_pace(0)
    player = ClickPlayer(table)
    view = table.wait_turn_or_over()
    top = view["discard"][-1]
    before = list(view["hand"])
    player.play("draw discard", view)
    view = table.wait_applied(view["version"], "draw discard")
    gained = list(view["hand"])
    for card in [*before, top]:
        gained.remove(card)
    [extra] = gained  # the stock's top card came with the discard
    assert len(view["hand"]) == len(before) + 2
    log = page.get_by_test_id("log").locator("li")
    took = page.get_by_test_id("log").get_by_text(re.compile(r"^You took .* discard pile"))
    expect(took).to_have_count(1)
    line = took.inner_text()
    assert line.endswith(f"and the {Card.parse(extra).symbol} from the top of the stock."), line
    assert Card.parse(top).symbol in line
    shown = page.locator(f"[data-testid=hand-card][data-card='{extra}']").first
    assert shown.is_visible()

    played = table.play_deal(player)
    assert played >= 1
    expect(page.get_by_test_id("deal-summary")).to_be_visible()
    # the computer's takes from the pile, if any, say only that a stock card came too
    for text in log.all_inner_texts():
        if "from the discard pile and" in text and not text.startswith("You"):
            assert text.endswith("and the top card of the stock."), text
