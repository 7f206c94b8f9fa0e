"""The page's frame on a phone (issue 27): the header takes two lines, not three, and has no
"Keys ?" button, which a phone cannot use (a keyboard's "?" still opens the keys' panel);
each house rule keeps one line's height beside a neighbour with a longer help, and no menu's
longest choice makes a form wider than the screen. Sizes: 390x844 and 1280x800."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from table_client import LiveServer, seed_where_human_starts
from web_helpers import TablePage, fresh_page

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

HEADER_LINES = """() => {
  const tops = [...document.querySelectorAll('header.top > *')]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0)
    .map((r) => r.top + r.height / 2)
    .sort((a, b) => a - b);
  return tops.filter((mid, i) => i === 0 || mid - tops[i - 1] > 12).length;
}"""
"""How many lines the header's parts sit on (parts whose middles are within 12 px share one)."""

RULE_BOXES = """() => [...document.querySelectorAll(
    '.rules-grid select, .rules-grid input:not([type=checkbox])')]
  .map((el) => {
    const r = el.getBoundingClientRect();
    return {id: el.id, height: Math.round(r.height), right: Math.round(r.right)};
  })
  .filter((box) => box.height > 0)"""
"""Each menu and number box of the rules' grids: its height and right edge."""


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def sized(browser: Any, request: pytest.FixtureRequest) -> Iterator[Page]:
    with fresh_page(browser, request.param) as page:
        yield page


def open_page(page: Page, server: LiveServer, where: str) -> None:
    """The lobby, a table of one's own, or a party one hosts."""
    if where == "table":
        table_id, token = server.create_table(seed=seed_where_human_starts(2))
        TablePage(page, server, table_id, token).open()
        expect(page.get_by_test_id("connection")).not_to_be_empty()
        return
    page.goto(server.url + "/")
    expect(page.get_by_test_id("preset-summary")).not_to_be_empty()
    if where == "party":
        page.get_by_test_id("friends-name").fill("Ada")
        page.get_by_test_id("play-with-friends").click()
        expect(page.get_by_test_id("party-code")).not_to_be_empty()
        expect(page.get_by_test_id("connection")).not_to_be_empty()


@pytest.mark.parametrize("where", ["lobby", "table", "party"])
def test_the_header_is_two_lines_on_a_phone_one_on_a_desktop(
    sized: Page, live_server: LiveServer, where: str
) -> None:
    page = sized
    open_page(page, live_server, where)
    phone = page.viewport_size == PHONE
    keys = page.get_by_test_id("help-button")
    if phone:
        expect(keys).to_be_hidden()
    else:
        expect(keys).to_be_visible()
    assert page.evaluate(HEADER_LINES) == (2 if phone else 1)
    # the panel is still a keyboard's "?" away
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("?")
    expect(page.get_by_test_id("help")).to_be_visible()


@pytest.mark.parametrize("where", ["lobby", "party"])
def test_every_rule_is_one_line_high_and_within_the_screen(
    sized: Page, live_server: LiveServer, where: str
) -> None:
    page = sized
    open_page(page, live_server, where)
    for details in page.locator("details.house-rules").all():
        details.locator("summary").click()
    one_line = page.get_by_test_id("friends-timer" if where == "lobby" else "party-timer")
    height = round(one_line.bounding_box()["height"])  # type: ignore[index]
    boxes = page.evaluate(RULE_BOXES)
    assert len(boxes) > 10, boxes
    # "Game ends at" beside "Scoring" and its long help was stretched to three lines
    tall = [box for box in boxes if abs(box["height"] - height) > 1]
    assert not tall, f"not one line ({height} px) high: {tall}"
    width = page.viewport_size["width"]  # type: ignore[index]
    wide = [box for box in boxes if box["right"] > width]
    assert not wide, f"past the screen's right edge ({width} px): {wide}"
