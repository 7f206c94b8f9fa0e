"""The table in a real browser: Debian's Chromium under Playwright, a live uvicorn server.

What each test plays is decided from the seat's view on the server (the same view the page
renders) and played through the page: clicks, or keys only. See ``web_helpers``.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from rummykit.core.actions import Draw, DrawSource, LayOff, Meld
from rummykit.core.cards import Card
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState
from rummykit.protocol import DEFAULT_HINT_LEVEL, TABLE_HINT_LEVELS
from table_client import seeded_deal
from web_helpers import (
    ClickPlayer,
    KeyPlayer,
    TablePage,
    hold_seat,
    is_my_turn,
    not_a_meld,
    screenshot,
    wait_until,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


def start_from_lobby(page: Any, server: Any, name: str = "Ada") -> TablePage:
    """Make a table in the lobby: one basic computer player, classic rules."""
    page.goto(server.url + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("opponents-count").select_option("1")
    page.get_by_test_id("opponent-level-0").select_option("basic")
    expect(page.get_by_test_id("preset").locator("option[value=classic]")).to_have_count(1)
    page.get_by_test_id("preset").select_option("classic")
    page.get_by_test_id("start").click()
    return TablePage.from_lobby(page, server)


def human_first_seed(start: int = 0) -> int:
    """A seed whose first deal the computer deals, so seat 0 plays first."""
    return next(seed for seed in itertools.count(start) if seeded_deal(seed, 2)[0] == 1)


# ----- a whole deal, by clicks and by keys -------------------------------------------------


def test_whole_deal_by_clicks(page: Any, live_server: Any, tmp_path: Path) -> None:
    table = start_from_lobby(page, live_server)
    expect(page.get_by_test_id("scoreboard")).to_contain_text("You")
    expect(page.get_by_test_id("dealer-mark")).to_have_count(1)
    table.set_pace(0)
    # the hand: a button per card, named for screen readers, with data-card
    first = page.get_by_test_id("hand-card").first
    code = first.get_attribute("data-card")
    assert code is not None
    expect(first).to_have_accessible_name(Card.parse(code).word)  # "seven of hearts"
    assert first.get_attribute("aria-pressed") == "false"
    assert page.get_by_test_id("hand-value").inner_text().strip()

    def shoot(turns: int) -> None:
        if turns == 4:
            screenshot(page, "table.png", tmp_path)

    played = table.play_deal(ClickPlayer(table), on_turn=shoot)
    assert played >= 2
    summary = page.get_by_test_id("deal-summary")
    expect(summary).to_be_visible()
    view = table.view()
    assert view["phase"] == "over" and view["deal_result"] is not None
    expect(summary).to_contain_text(str(view["scores"][0]))
    screenshot(page, "summary.png", tmp_path)
    # the next deal
    page.get_by_test_id("next-deal").click()
    expect(summary).to_be_hidden()
    wait_until(lambda: table.view()["deal"] == 1, what="the second deal")
    log = page.get_by_test_id("log")
    expect(log).to_contain_text("Deal 2")


def test_whole_deal_by_keyboard_only(page: Any, live_server: Any) -> None:
    table_id, token = live_server.create_table(seed=human_first_seed(100), rules={"target": 500})
    table = TablePage(page, live_server, table_id, token).open()
    table.set_pace(0)
    keys = KeyPlayer(table)
    # ? opens the help, Escape closes it
    keys.press("?")
    expect(page.get_by_test_id("help")).to_be_visible()
    keys.press("Escape")
    expect(page.get_by_test_id("help")).to_be_hidden()
    played = table.play_deal(keys)
    assert played >= 2
    expect(page.get_by_test_id("deal-summary")).to_be_visible()
    keys.press("n")
    expect(page.get_by_test_id("deal-summary")).to_be_hidden()
    wait_until(lambda: table.view()["deal"] == 1, what="the second deal (N)")
    assert keys.keys["s"] + keys.keys["t"] >= 1 and keys.keys["d"] >= 1
    assert keys.keys["ArrowRight"] + keys.keys["ArrowLeft"] >= 1


def test_a_seat_shows_its_last_turn(page: Any, live_server: Any) -> None:
    """The note under a computer's name says its last turn in a few words, move by move, each
    move one the log tells in full; it stays until that seat's next turn."""
    table_id, token = live_server.create_table(seed=human_first_seed())
    table = TablePage(page, live_server, table_id, token).open()
    table.set_pace(0)
    clicks = ClickPlayer(table)
    note = page.locator("[data-testid=seat-note]")
    for _ in range(12):  # our turn, then the computer's; the page then shows our turn
        view = table.play_actions(clicks, 1)
        if view["phase"] == "over" or note.count():
            break
    expect(note).to_have_count(1)
    moves = note.inner_text().strip().split(" · ")
    assert re.fullmatch(r"drew from the stock|took .+", moves[0]), moves
    log = " ".join(page.get_by_test_id("log").locator("li").all_inner_texts())
    for move in moves:
        card = re.search(r"(10|[A2-9JQK])[♣♦♥♠]", move)
        if card:
            assert card.group(0) in log, (move, log)


# ----- refusals and choices ------------------------------------------------------------------


def test_illegal_meld_shows_its_reason(page: Any, live_server: Any) -> None:
    table_id, token = live_server.create_table(seed=human_first_seed())
    table = TablePage(page, live_server, table_id, token).open()
    view = table.wait_turn_or_over()
    assert is_my_turn(view)
    page.get_by_test_id("stock").click()
    view = table.wait_applied(view["version"], "draw stock")
    table.wait_synced(view)
    trio = not_a_meld(view["hand"])
    ClickPlayer(table).select(trio)
    page.get_by_test_id("meld-button").click()
    message = page.get_by_test_id("message")
    expect(message).to_contain_text(re.compile(r"is not a (run|set)|neither a set nor a run"))
    for code in trio:
        expect(message).to_contain_text(Card.parse(code).symbol)
    assert table.view()["version"] == view["version"]  # nothing was played


LAYOFF_CHOICE_SEED = 6685
"""The first seed ``layoff_choice_seed`` finds (searched from 0)."""


def layoff_choice_seed() -> tuple[int, list[str], list[str], str]:
    """A seed whose first deal lets seat 0, after drawing, lay two melds and then lay off one
    card that fits both: (seed, meld, meld, card). Found with the engine by trying seeds from 0,
    each dealt by the server's own ``Table.create`` (``seeded_deal``); e.g. seed 6685 gives
    3♠4♠5♠, 6♣6♦6♥ and the 6♠, which fits the run and the set. That seed is tried first (the
    search from 0 takes about 15 s); should the dealing change, the search finds another."""
    rules = find_preset("classic").rules
    for seed in itertools.chain([LAYOFF_CHOICE_SEED], range(50_000)):
        dealer, deck = seeded_deal(seed, 2)
        if dealer != 1:
            continue
        game = GameState(rules, 2, dealer=1)
        game.start_deal([Card.parse(code) for code in deck])
        game.apply(Draw(0, DrawSource.STOCK))
        melds = [a for a in game.legal_actions() if isinstance(a, Meld) and len(a.cards) == 3]
        for first, second in itertools.combinations(melds, 2):
            if set(first.cards) & set(second.cards):
                continue
            after = game.clone()
            after.apply(Meld(0, first.cards))
            after.apply(Meld(0, second.cards))
            fits: dict[Card, set[int]] = {}
            for action in after.legal_actions():
                if isinstance(action, LayOff):
                    fits.setdefault(action.card, set()).add(action.meld)
            for card, where in fits.items():
                if where == {0, 1} and len(after.hands[0]) > 1:
                    return (
                        seed,
                        [str(c) for c in first.cards],
                        [str(c) for c in second.cards],
                        str(card),
                    )
    raise AssertionError("no seed found")


def test_layoff_that_fits_two_melds_asks_which(page: Any, live_server: Any) -> None:
    seed, first, second, card = layoff_choice_seed()
    table_id, token = live_server.create_table(seed=seed)
    table = TablePage(page, live_server, table_id, token).open()
    view = table.wait_turn_or_over()
    assert is_my_turn(view) and view["phase"] == "draw"
    clicks = ClickPlayer(table)
    for action in ("draw stock", "meld " + " ".join(first), "meld " + " ".join(second)):
        clicks.play(action, view)
        view = table.wait_applied(view["version"], action)
        table.wait_synced(view)
    assert f"layoff {card} 0" in view["legal"] and f"layoff {card} 1" in view["legal"]
    clicks.select([card])
    page.get_by_test_id("layoff-button").click()
    choice = page.get_by_test_id("layoff-choice")
    expect(choice).to_be_visible()
    expect(page.get_by_test_id("layoff-choice-0")).to_be_visible()
    expect(page.get_by_test_id("layoff-choice-1")).to_be_visible()
    page.get_by_test_id("layoff-choice-1").click()
    view = table.wait_applied(view["version"], f"layoff {card} 1")
    expect(choice).to_be_hidden()
    assert card in view["melds"][1]["cards"] and card not in view["melds"][0]["cards"]
    expect(page.get_by_test_id("meld-1")).to_contain_text(Card.parse(card).symbol[:-1])


# ----- coming back ---------------------------------------------------------------------------


def test_reload_returns_to_the_seat(page: Any, live_server: Any) -> None:
    table = start_from_lobby(page, live_server)
    table.set_pace(0)
    view = table.play_actions(ClickPlayer(table), 4)
    before = sorted(table.hand())
    page.reload()
    table.wait_hand()
    assert page.url.endswith(f"#/table/{table.table_id}")
    table.wait_synced(view)
    assert sorted(table.hand()) == before == sorted(view["hand"])
    # and the lobby offers to continue it
    page.goto(live_server.url + "/#/")
    page.get_by_test_id("continue").click()
    page.wait_for_url(f"**/#/table/{table.table_id}")
    table.wait_synced(view)


def test_server_restart_mid_game(page: Any, live_server: Any) -> None:
    table = start_from_lobby(page, live_server)
    table.set_pace(0)
    clicks = ClickPlayer(table)
    view = table.play_actions(clicks, 2)
    version, hand = view["version"], sorted(view["hand"])
    live_server.stop()
    expect(page.get_by_test_id("connection")).to_contain_text("lost", timeout=10_000)
    live_server.start()  # a new app on the same store and port
    expect(page.get_by_test_id("connection")).to_contain_text("Connected", timeout=15_000)
    view = table.view()
    assert view["version"] == version and sorted(view["hand"]) == hand
    table.wait_synced(view)
    # play goes on: six more of our actions, or to the deal's end
    table.play_actions(clicks, 6)
    assert table.view()["version"] > version + 2


# ----- learning ------------------------------------------------------------------------------


def test_practice_game_explains_and_hints(page: Any, live_server: Any, tmp_path: Path) -> None:
    page.goto(live_server.url + "/")
    page.get_by_test_id("practice").click()
    table = TablePage.from_lobby(page, live_server)
    view = table.view()
    assert view["practice"] and view["preset"] == "practice"
    explain = page.get_by_test_id("explain")
    expect(explain).to_be_visible()
    assert explain.inner_text().strip()
    table.set_pace(0)
    view = table.wait_turn_or_over()
    assert is_my_turn(view)
    expect(explain).to_contain_text(re.compile(r"\w+"))
    page.get_by_test_id("hint-button").click()
    hint = page.get_by_test_id("hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(re.compile(r"\w"))  # the hint's text has come
    assert "Hint" in hint.inner_text()
    screenshot(page, "practice.png", tmp_path)


def test_hints_come_from_the_level_chosen_and_the_choice_is_kept(
    page: Any, live_server: Any
) -> None:
    """The table's settings offer the levels the server names, in its order; the hint button
    (and its key) asks the one chosen, and a reloaded table remembers it."""
    sent: list[str] = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(frame)))
    table = start_from_lobby(page, live_server)
    choice = page.get_by_test_id("hint-level")
    expect(choice).to_be_visible()
    options = choice.locator("option")
    assert options.evaluate_all("all => all.map(o => o.value)") == list(TABLE_HINT_LEVELS)
    assert choice.input_value() == DEFAULT_HINT_LEVEL
    choice.select_option("expert")
    table.set_pace(0)
    assert is_my_turn(table.wait_turn_or_over())
    page.keyboard.press("h")
    expect(page.get_by_test_id("hint")).to_contain_text(re.compile(r"\w"))
    asked = [json.loads(frame)["d"] for frame in sent if '"t":"hint"' in frame.replace(" ", "")]
    assert asked == [{"level": "expert"}], sent
    page.reload()
    expect(page.get_by_test_id("hint-level")).to_have_value("expert")


# ----- a phone ---------------------------------------------------------------------------


def test_no_horizontal_scroll_at_390_px(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        page.get_by_test_id("start").wait_for()
        page.get_by_test_id("house-rules").click()  # open the rules too: they must fit
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the lobby scrolls sideways: {width} px"
        table = start_from_lobby(page, live_server)
        view = table.wait_turn_or_over()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the table scrolls sideways: {width} px"
        assert view is not None
    finally:
        context.close()


# ----- history and replay --------------------------------------------------------------------


def test_history_lists_the_game_and_replays_it(page: Any, live_server: Any) -> None:
    table_id, token = live_server.finished_game(rules={"target": 10}, seed=5)
    page.goto(live_server.url + "/")
    hold_seat(page, table_id, token)  # as the lobby keeps the seat of a table it made
    page.get_by_test_id("history-link").click()
    item = page.locator(f"[data-testid=history-item][data-game='{table_id}']")
    expect(item).to_be_visible()
    item.get_by_test_id("replay-link").click()
    text = page.get_by_test_id("replay-text")
    expect(text).to_contain_text("Deal 1")
    first = text.inner_text()
    page.get_by_test_id("replay-next").click()
    expect(text).not_to_have_text(first)
    page.get_by_test_id("replay-prev").click()
    expect(text).to_have_text(first)
