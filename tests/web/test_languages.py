"""The interface in English and in Japanese, in a real browser.

The language comes from the browser the first time (Playwright's ``locale``), then from the
switch in the header, which draws the page again in the new words and sets ``<html lang>``.
A Japanese page must show none of the English catalogue's words (of any area, on the table,
the replay, the history and How to play; of ``web_languages.MY_AREAS`` in the lobby): a
string left hard-coded in English is caught here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from rummykit.core.presets import PRESETS
from table_client import LiveServer
from web_helpers import is_my_turn, screenshot
from web_languages import (
    DESKTOP,
    PHONE,
    english_left_over,
    history_page,
    language_page,
    open_keys_panel,
    open_lobby,
    player_names,
    practice_table,
    replay_page,
    table_deal_over,
    table_mid_turn,
    wait_language,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


def test_the_language_comes_from_the_browser_then_from_the_switch(
    browser: Any, live_server: LiveServer
) -> None:
    with language_page(browser, "ja", DESKTOP) as page:
        open_lobby(page, live_server)
        wait_language(page, "ja")
        expect(page.get_by_test_id("start")).to_have_text("ゲーム開始")
        expect(page.get_by_test_id("lang")).to_have_value("ja")
        page.get_by_test_id("lang").select_option("en")
        wait_language(page, "en")
        expect(page.get_by_test_id("start")).to_have_text("Deal me in")
        expect(page.get_by_test_id("help-button")).to_contain_text("Keys")
        page.reload()  # the switch is remembered over the browser's language
        wait_language(page, "en")
        expect(page.get_by_test_id("start")).to_have_text("Deal me in")
        page.get_by_test_id("lang").select_option("ja")
        wait_language(page, "ja")
        expect(page.get_by_test_id("start")).to_have_text("ゲーム開始")
        expect(page.get_by_test_id("help-button")).to_contain_text("キー操作")


def test_the_table_redraws_in_the_new_language(browser: Any, live_server: LiveServer) -> None:
    with language_page(browser, "en", DESKTOP) as page:
        table_mid_turn(page, live_server)
        status = page.get_by_test_id("status")
        expect(status).to_contain_text("Select cards to meld")
        page.get_by_test_id("lang").select_option("ja")
        wait_language(page, "ja")
        expect(status).to_contain_text("1枚捨てて番を終えて")
        expect(page.get_by_test_id("scoreboard")).to_contain_text("得点")
        assert page.title().endswith("rummykit")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_japanese_lobby_shows_no_english_words(
    browser: Any, live_server: LiveServer, viewport: dict[str, int]
) -> None:
    with language_page(browser, "ja", viewport) as page:
        open_lobby(page, live_server)
        wait_language(page, "ja")
        page.get_by_test_id("house-rules").locator("summary").click()
        open_keys_panel(page)
        assert english_left_over(page) == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_japanese_table_shows_no_english_words(
    browser: Any, live_server: LiveServer, viewport: dict[str, int], tmp_path: Path
) -> None:
    """The whole table page, every area's words: mid-turn with the hint shown, at the end of
    a deal, and on the practice table with its hint (the players' names and cards aside)."""
    with language_page(browser, "ja", viewport) as page:
        table = table_mid_turn(page, live_server, opponents=["basic", "basic"])
        wait_language(page, "ja")
        expect(page.get_by_test_id("status")).to_contain_text("番")
        show_hint(page)
        assert english_left_over(page, areas=(), names=player_names(table)) == []
        if viewport == DESKTOP:
            screenshot(page, "table_ja.png", tmp_path)
        table = table_deal_over(page, live_server, opponents=["basic", "strong"])
        expect(page.get_by_test_id("log").locator("li").first).to_contain_text("ディール")
        assert english_left_over(page, areas=(), names=player_names(table)) == []
        table = practice_table(page, live_server)
        expect(page.get_by_test_id("explain")).to_contain_text("ルールを覚えよう")
        expect(page.get_by_test_id("explain")).to_contain_text("カードを")
        assert english_left_over(page, areas=(), names=player_names(table)) == []
        table.set_pace(0)
        assert is_my_turn(table.wait_turn_or_over())
        show_hint(page)
        assert english_left_over(page, areas=(), names=player_names(table)) == []


def show_hint(page: Page) -> None:
    """Press Hint on our turn and wait for the advice, worded in Japanese (the reason's
    {action} filled: a card or the stock named, and a full stop)."""
    page.get_by_test_id("hint-button").click()
    hint = page.get_by_test_id("hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(re.compile(r"(山札|捨て札|[0-9JQKA]+[♣♦♥♠]).*。$"))


def test_a_japanese_lobby_and_party_name_the_presets_and_refuse_in_japanese(
    browser: Any, live_server: LiveServer
) -> None:
    """Issue 27: the presets' names (their ids) and the party's refusals (the server's
    English) showed as they came; now from the catalogues (rules.preset_name.NAME,
    refusals.REASON)."""
    english_names = set(PRESETS)
    full = ["409 (Conflict) at */api/parties/*/join"]  # the full party's refusal, on purpose
    with (
        language_page(browser, "ja", DESKTOP) as host,
        language_page(browser, "ja", DESKTOP, expected=full) as late,
    ):
        open_lobby(host, live_server)
        wait_language(host, "ja")
        shown = option_texts(host.get_by_test_id("preset"))
        assert "クラシック" in shown and not english_names & set(shown), shown
        host.get_by_test_id("friends-name").fill("Ada")
        host.get_by_test_id("play-with-friends").click()
        expect(host.get_by_test_id("party-code")).not_to_be_empty()
        presets = host.get_by_test_id("party-preset")
        expect(presets.locator("option")).to_have_count(len(PRESETS))  # the rules panel is built
        shown = option_texts(presets)
        assert "パーティー" in shown and not english_names & set(shown), shown
        # a latecomer opens the invite while a seat is free; the host fills the party first
        late.goto(host.get_by_test_id("invite-link").input_value())
        wait_language(late, "ja")
        expect(late.get_by_test_id("join-party")).to_be_enabled()
        members = host.get_by_test_id("member")
        for count in range(2, 9):
            host.get_by_test_id("add-cpu").click()
            expect(members).to_have_count(count)
        late.get_by_test_id("party-name").fill("Bo")
        late.get_by_test_id("join-party").click()
        error = late.get_by_test_id("party-error")
        expect(error).to_have_text("このパーティーの席はすべて埋まっています。")
        assert english_left_over(late) == []
        assert english_left_over(host, names=("Ada",)) == []


def test_a_japanese_lobby_says_in_japanese_why_rules_cannot_be_played(
    browser: Any, live_server: LiveServer
) -> None:
    """Issue 30: rules that cannot be played together were said in the server's English; now
    the answer's reason is worded from the catalogue (refusals.knock_meld_points)."""
    refused = ["400 (Bad Request) at */api/rules"]  # the rules refused, on purpose
    with language_page(browser, "ja", DESKTOP, expected=refused) as page:
        open_lobby(page, live_server)
        wait_language(page, "ja")
        page.get_by_test_id("house-rules").click()
        page.get_by_test_id("rule-melding").select_option("knock")
        page.get_by_test_id("rule-scoring").select_option("melds")
        expect(page.get_by_test_id("rules-problem")).to_have_text(re.compile("^メルド得点は"))
        expect(page.get_by_test_id("start")).to_be_disabled()
        assert english_left_over(page, areas=("refusals",)) == []


def option_texts(select: Any) -> list[str]:
    """The words of a menu's choices (shown or not: a closed menu's are not drawn)."""
    texts: list[str] = select.locator("option").evaluate_all(
        "options => options.map((o) => o.textContent)"
    )
    return texts


def test_the_japanese_replay_history_and_how_to_play_show_no_english_words(
    browser: Any, live_server: LiveServer
) -> None:
    game, token = live_server.finished_game(rules={"target": 10}, name="Ada", seed=5)
    names = tuple(live_server.view(game, token)["players"][i]["name"] for i in range(2))
    with language_page(browser, "ja", DESKTOP) as page:
        history_page(page, live_server, {game: token})
        wait_language(page, "ja")
        assert english_left_over(page, areas=(), names=names) == []
        replay_page(page, live_server, game)
        expect(page.get_by_test_id("replay-text")).to_contain_text("。")
        assert english_left_over(page, areas=(), names=names) == []
        page.keyboard.press("End")
        expect(page.get_by_test_id("replay-text")).to_contain_text("得点")
        assert english_left_over(page, areas=(), names=names) == []
        page.goto(f"{live_server.url}/#/howto/{game}")
        expect(page.get_by_test_id("howto-rule").first).to_be_visible()
        assert english_left_over(page, areas=(), names=names) == []
        page.goto(f"{live_server.url}/#/howto")
        expect(page.get_by_test_id("howto-rule").first).to_be_visible()
        assert english_left_over(page, areas=()) == []


def test_the_keyboard_help_lists_moving_a_card_and_the_replay_keys(
    browser: Any, live_server: LiveServer
) -> None:
    with language_page(browser, "ja", PHONE) as page:
        open_lobby(page, live_server)
        wait_language(page, "ja")
        open_keys_panel(page)
        help_ = page.get_by_test_id("help")
        expect(help_).to_be_visible()
        expect(help_.locator("tr", has_text="Shift")).to_contain_text("手札の中で動かす")
        replay = page.get_by_test_id("help-replay")
        for key in ("PageUp", "PageDown", "[", "]", "Space", "Home", "End"):
            expect(replay.locator("kbd", has_text=key).first).to_be_visible()
        expect(replay).to_contain_text("一時停止")
        assert english_left_over(page, areas=(), roots=("[data-testid=help]",)) == []
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the help scrolls sideways: {width} px"
