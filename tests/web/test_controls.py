"""The lobby's house rules and errors, the table's display controls, and the game's end."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from rummykit.core.cards import Card
from table_client import LiveSocket, SeatSocket, play_until
from web_helpers import TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]


def test_house_rules_reach_the_table(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + "/")
    page.get_by_test_id("house-rules").click()
    page.get_by_test_id("rule-target").fill("30")
    page.get_by_test_id("rule-aces").select_option("around")
    page.get_by_test_id("opponents-count").select_option("2")
    page.get_by_test_id("opponent-level-1").select_option("strong")
    page.get_by_test_id("start").click()
    table = TablePage.from_lobby(page, live_server)
    view = table.view()
    assert view["rules"]["target"] == 30 and view["rules"]["aces"] == "around"
    assert [player["level"] for player in view["players"]] == [None, "basic", "strong"]
    expect(page.get_by_test_id("scoreboard")).to_contain_text("30")


def test_the_lobby_offers_only_the_opponents_the_rules_can_deal_to(
    page: Any, live_server: Any
) -> None:
    page.goto(live_server.url + "/")
    page.get_by_test_id("house-rules").click()
    count = page.get_by_test_id("opponents-count")
    expect(count.locator("option")).to_have_text(["1", "2", "3", "4", "5"])
    count.select_option("5")
    page.get_by_test_id("rule-hand_size").select_option("10")  # 61 cards for six from one deck
    expect(count.locator("option")).to_have_text(["1", "2", "3", "4"])
    expect(count).to_have_value("4")  # the most still offered
    page.get_by_test_id("rule-decks").select_option("2")  # two decks deal to eight
    expect(count.locator("option")).to_have_count(7)


@pytest.mark.expected_console("400 (Bad Request) at */api/rules")  # refused on purpose
def test_rules_that_cannot_be_played_together_are_said_before_the_start(
    page: Any, live_server: Any
) -> None:
    page.goto(live_server.url + "/")
    page.get_by_test_id("house-rules").click()
    page.get_by_test_id("rule-melding").select_option("knock")
    page.get_by_test_id("rule-scoring").select_option("melds")
    expect(page.get_by_test_id("rules-problem")).to_contain_text("knock")
    expect(page.get_by_test_id("start")).to_be_disabled()
    page.get_by_test_id("rule-scoring").select_option("")  # back to the preset's
    expect(page.get_by_test_id("rules-problem")).to_be_empty()
    expect(page.get_by_test_id("start")).to_be_enabled()


def test_sorting_colours_and_the_discard_pile(page: Any, live_server: Any) -> None:
    table_id, token = live_server.create_table(seed=3)
    table = TablePage(page, live_server, table_id, token).open()
    suit_order = "shcd"

    page.get_by_test_id("sort-suit").click()
    expect(page.get_by_test_id("sort-suit")).to_have_attribute("aria-pressed", "true")
    cards = [Card.parse(code) for code in table.hand()]
    keys = [(suit_order.index(str(card)[-1]), int(card.rank or 0)) for card in cards]
    assert keys == sorted(keys), table.hand()

    page.get_by_test_id("sort-rank").click()
    expect(page.get_by_test_id("sort-rank")).to_have_attribute("aria-pressed", "true")
    ranks = [int(Card.parse(code).rank or 0) for code in table.hand()]
    assert ranks == sorted(ranks)

    body = page.locator("body")
    page.get_by_test_id("four-colour").check()
    expect(body).to_have_class(re.compile(r"\bfour-colour\b"))
    page.get_by_test_id("large-cards").check()
    expect(body).to_have_class(re.compile(r"\blarge-cards\b"))
    page.reload()
    table.wait_hand()
    expect(page.get_by_test_id("four-colour")).to_be_checked()
    expect(body).to_have_class(re.compile(r"\bfour-colour\b"))

    pile = page.get_by_test_id("discard-pile")
    expect(pile).to_be_hidden()
    page.get_by_test_id("discard-pile-toggle").click()
    expect(pile).to_be_visible()
    top = table.view()["discard"][-1]
    expect(pile).to_contain_text(Card.parse(top).symbol[-1])

    page.get_by_test_id("help-button").click()
    expect(page.get_by_test_id("help")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("help")).to_be_hidden()


def test_game_over_is_shown(page: Any, live_server: Any) -> None:
    """A game to 1 point, played on the seat's socket beside the page: the page ends it."""
    table_id, token = live_server.create_table(rules={"target": 1}, seed=4)
    TablePage(page, live_server, table_id, token).open()
    with live_server.seat_socket(table_id, token) as websocket:
        seat = SeatSocket(LiveSocket(websocket))
        seat.recv()
        seat.set_pace(0)
        last = play_until(seat, lambda view: view["game_over"])
    expect(page.get_by_test_id("deal-summary")).to_be_visible()
    game_over = page.get_by_test_id("game-over")
    expect(game_over).to_be_visible()
    expect(game_over).to_contain_text("over")
    expect(page.get_by_test_id("next-deal")).to_have_count(0)
    expect(page.get_by_test_id("status")).to_contain_text("over")
    assert last["game_over"]
