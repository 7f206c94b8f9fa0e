"""The replay viewer in a real browser: deal by deal, a scrubber with the deals marked, a
remembered speed, and the keys (← → a step, PageUp/PageDown or [ ] a deal, Space to play).

Before: the viewer stepped one position at a time at 0.9 s a step (14 minutes for a game),
with no way to jump to a deal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from rummykit.server.tables.frames import replay_frames
from table_client import LiveServer, stored_record
from web_helpers import hold_seat

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def game(live_server: LiveServer) -> tuple[str, str, list[int]]:
    """A finished game of three deals: its id, the seat's token, and where each deal starts
    among its steps (read from the stored record, not from the page)."""
    table_id, token = live_server.finished_game(rules={"deals": 3}, seed=5)
    frames = replay_frames(stored_record(live_server.store_path, table_id))["frames"]
    starts = [i for i, f in enumerate(frames) if i == 0 or f["deal"] != frames[i - 1]["deal"]]
    assert len(starts) == 3
    return table_id, token, starts


@pytest.fixture
def open_replay(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """Open a game's replay in a fresh context of a given size (and language); its page."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_(table_id: str, token: str, viewport: dict[str, int], lang: str = "en") -> Any:
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(live_server.url + "/")
        hold_seat(page, table_id, token)
        page.goto(f"{live_server.url}/#/replay/{table_id}")
        page.locator("#lang").select_option(lang)  # the header's switch
        expect(page.get_by_test_id("replay-slider")).to_have_attribute("value", "0")
        expect(page.get_by_test_id("replay-deal").locator("option")).to_have_count(3)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def at_step(page: Any) -> int:
    return int(page.get_by_test_id("replay-slider").input_value())


def expect_step(page: Any, step: int) -> None:
    expect(page.get_by_test_id("replay-slider")).to_have_value(str(step))


def test_the_replay_goes_deal_by_deal_by_buttons_list_and_keys(
    open_replay: Any, game: tuple[str, str, list[int]]
) -> None:
    table_id, token, starts = game
    page = open_replay(table_id, token, DESKTOP)
    position = page.get_by_test_id("replay-position")
    expect(position).to_contain_text("deal 1 of 3")
    # the scrubber marks where each deal starts
    marks = page.get_by_test_id("replay-deal-marks").locator("option")
    assert marks.evaluate_all("options => options.map((o) => Number(o.value))") == starts
    expect(page.get_by_test_id("replay-prev-deal")).to_be_disabled()
    page.get_by_test_id("replay-next-deal").click()
    expect_step(page, starts[1])
    expect(position).to_contain_text("deal 2 of 3")
    expect(page.get_by_test_id("replay-text")).to_contain_text("Deal 2")
    page.get_by_test_id("replay-deal").select_option(label="Deal 3")
    expect_step(page, starts[2])
    expect(page.get_by_test_id("replay-next-deal")).to_be_disabled()
    page.get_by_test_id("replay-heading").focus()
    page.keyboard.press("PageUp")
    expect_step(page, starts[1])
    page.keyboard.press("ArrowLeft")  # the last step of deal 1
    expect_step(page, starts[1] - 1)
    expect(page.get_by_test_id("replay-deal")).to_have_value("0")
    page.keyboard.press("]")
    expect_step(page, starts[1])
    page.keyboard.press("ArrowRight")
    expect_step(page, starts[1] + 1)
    page.keyboard.press("[")
    expect_step(page, starts[0])
    page.keyboard.press("PageDown")
    page.keyboard.press("PageDown")
    expect_step(page, starts[2])
    page.keyboard.press("End")
    expect(page.get_by_test_id("replay-next")).to_be_disabled()


def test_the_scrubber_reaches_any_step_at_once(
    open_replay: Any, game: tuple[str, str, list[int]]
) -> None:
    table_id, token, starts = game
    page = open_replay(table_id, token, DESKTOP)
    slider = page.get_by_test_id("replay-slider")
    last = int(slider.get_attribute("max") or 0)
    assert last > starts[2]
    slider.fill(str(starts[2] + 1))  # as a drag ends: an input event at that step
    expect(page.get_by_test_id("replay-position")).to_contain_text(
        f"Step {starts[2] + 2} of {last + 1} · deal 3 of 3"
    )
    expect(page.get_by_test_id("replay-deal")).to_have_value("2")
    assert "deal 3 of 3" in (slider.get_attribute("aria-valuetext") or "")


def test_space_plays_at_the_chosen_speed_which_is_remembered(
    open_replay: Any, game: tuple[str, str, list[int]]
) -> None:
    table_id, token, _ = game
    page = open_replay(table_id, token, DESKTOP)
    page.get_by_test_id("replay-speed").select_option("8")
    page.get_by_test_id("replay-heading").focus()
    page.keyboard.press("Space")
    expect(page.get_by_test_id("replay-play")).to_have_text("Pause")
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=replay-slider]').value) >= 3"
    )
    page.keyboard.press("Space")
    expect(page.get_by_test_id("replay-play")).to_have_text("Play")
    paused_at = at_step(page)
    page.keyboard.press("ArrowRight")  # stepping still works after a pause
    expect_step(page, paused_at + 1)
    page.reload()
    expect(page.get_by_test_id("replay-speed")).to_have_value("8")


def test_the_replay_fits_a_phone_and_speaks_japanese(
    open_replay: Any, game: tuple[str, str, list[int]]
) -> None:
    table_id, token, starts = game
    page = open_replay(table_id, token, PHONE, lang="ja")
    expect(page.get_by_test_id("replay-heading")).to_have_text("リプレイ")
    expect(page.get_by_test_id("replay-position")).to_contain_text("第1ディール")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the replay scrolls sideways: {width} px"
    for control in ("replay-prev-deal", "replay-prev", "replay-play", "replay-next"):
        expect(page.get_by_test_id(control)).to_be_in_viewport()
    page.get_by_test_id("replay-next-deal").click()
    expect_step(page, starts[1])
    expect(page.get_by_test_id("replay-deal")).to_have_value("1")
    # the step's sentence in Japanese, worded from the frame's kind and params
    text = page.get_by_test_id("replay-text")
    expect(text).to_contain_text("第2ディール")
    expect(text).to_contain_text("親です")
    for key in ("ArrowRight", "End"):
        page.keyboard.press(key)
        expect(text).not_to_contain_text("ディール：")
        expect(text).to_contain_text("。")
        assert english_in(text.inner_text(), page) == "", text.inner_text()


def english_in(line: str, page: Any) -> str:
    """The Latin letters of a step's sentence, less the players' names and the cards."""
    for name in page.get_by_test_id("replay-hand").locator("strong").all_inner_texts():
        line = line.replace(name, "")
    return re.sub(r"[AKQJ](?=[♠♥♦♣])|[^A-Za-z]", "", line)
