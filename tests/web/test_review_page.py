"""The post-game review in a real browser: opened from the game-over notice and from the
history, a progress bar while the server judges the decisions, then the summary, the marks
explained, the marked decisions (each moves the replay to its step) and, at a reviewed step,
what was played against the best choice found.

The server judges each decision in 8 samples instead of 32 (``review_samples``): a game to 10
is then reviewed in a few seconds, and the same game gives the same review every run.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from rummykit.server.tables.frames import replay_frames
from table_client import LiveServer, bearer, stored_record
from web_helpers import (
    AXE,
    REVIEW_TIMEOUT_MS,
    TablePage,
    fresh_page,
    hold_seat,
    play_to_the_end,
    violations,
)
from web_languages import english_left_over, language_page, wait_language

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(150)]


DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 360, "height": 740}


def server_review(server: LiveServer, table_id: str, token: str, seat: int) -> dict[str, Any]:
    """The review as the server answers it (the page has asked for it already)."""
    request = urllib.request.Request(
        f"{server.url}/api/games/{table_id}/review/{seat}", headers=bearer(token)
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        body: dict[str, Any] = json.loads(answer.read())
    assert body["state"] == "done", body
    review: dict[str, Any] = body["review"]
    return review


def decision_steps(server: LiveServer, table_id: str, review: dict[str, Any]) -> dict[int, Any]:
    """Each reviewed decision by its replay step, from the stored record's frames: the step
    whose action is the one the review says was played (not the page's arithmetic)."""
    frames = replay_frames(stored_record(server.store_path, table_id))["frames"]
    starts = [i for i, f in enumerate(frames) if i == 0 or f["deal"] != frames[i - 1]["deal"]]
    record = stored_record(server.store_path, table_id)
    steps = {}
    for decision in review["decisions"]:
        step = starts[decision["deal"]] + decision["action"] + 1
        assert frames[step]["deal"] == decision["deal"]
        actions = record["deals"][decision["deal"]]["actions"]
        assert actions[decision["action"]] == decision["played"]
        steps[step] = decision
    return steps


def expect_review_done(page: Any, name: str) -> None:
    """The progress bar, then the finished review of ``name``'s decisions."""
    expect(page.get_by_test_id("review-progress")).to_be_visible()
    expect(page.get_by_test_id("review-heading")).to_have_text(
        f"Review of {name}'s decisions", timeout=REVIEW_TIMEOUT_MS
    )
    expect(page.get_by_test_id("review-progress")).to_have_count(0)


def expect_step(page: Any, step: int) -> None:
    expect(page.get_by_test_id("replay-slider")).to_have_value(str(step))


def test_the_review_opens_from_the_game_over_notice_and_walks_to_each_marked_decision(
    browser: Any, review_server: LiveServer, tmp_path: Path
) -> None:
    table_id, token = review_server.create_table(rules={"target": 10}, name="Ann", seed=5)
    with fresh_page(browser, DESKTOP) as page:
        TablePage(page, review_server, table_id, token).open()
        play_to_the_end(review_server, table_id, token)
        game_over = page.get_by_test_id("game-over")
        expect(game_over).to_be_visible()
        game_over.get_by_test_id("review-link").click()
        expect(page).to_have_url(re.compile(rf"#/replay/{table_id}\?review=0$"))
        expect(page.get_by_test_id("review-seat")).to_have_value("0")
        expect_review_done(page, "Ann")

        review = server_review(review_server, table_id, token, 0)
        steps = decision_steps(review_server, table_id, review)
        summary = review["summary"]
        for mark in ("inaccuracy", "mistake", "blunder"):
            count = page.get_by_test_id(f"review-count-{mark}")
            expect(count).to_have_attribute("data-count", str(summary[mark]))
            expect(count.get_by_test_id("mark-badge")).to_contain_text(mark.capitalize())
        expect(page.get_by_test_id("review-lost")).to_contain_text(
            f"{summary['points_lost']:g} in {summary['deals']} deals, "
            f"{summary['points_lost_per_deal']:g} a deal"
        )
        legend = page.get_by_test_id("review-legend")
        for least in review["marks"].values():
            expect(legend).to_contain_text(f"at least {least:g} points")
        page.get_by_test_id("review-how").locator("summary").click()
        expect(page.get_by_test_id("review-how")).to_contain_text("95% range")
        page.screenshot(path=str(tmp_path / "review-desktop.png"), full_page=True)

        marked = sorted(step for step, decision in steps.items() if decision["mark"])
        items = page.get_by_test_id("review-item")
        expect(items).to_have_count(len(marked))
        if marked:
            # each listed decision moves the replay to its step, its judgement under the step
            for index, step in enumerate(marked):
                items.nth(index).click()
                expect_step(page, step)
                line = page.get_by_test_id("review-line")
                expect(line).to_be_visible()
                expect(line.get_by_test_id("mark-badge")).to_have_attribute(
                    "data-mark", steps[step]["mark"]
                )
                expect(line).to_contain_text("Best found:")
                expect(line).to_contain_text(" ± ")
                if index == 0:
                    page.screenshot(path=str(tmp_path / "review-marked-step.png"))
            # the keys: from the start, N to the first mark, and P back from the last
            page.get_by_test_id("replay-heading").focus()
            page.keyboard.press("Home")
            page.keyboard.press("n")
            expect_step(page, marked[0])
            page.keyboard.press("End")
            page.keyboard.press("p")
            expect_step(page, marked[-1])
        else:
            expect(page.get_by_test_id("review-none-marked")).to_be_visible()
        # a step that was no decision of Ann's says nothing; one that was, its judgement
        page.get_by_test_id("replay-slider").fill("0")
        expect(page.get_by_test_id("review-line")).to_be_hidden()
        best_step = min(step for step, decision in steps.items() if not decision["mark"])
        page.get_by_test_id("replay-slider").fill(str(best_step))
        expect(page.get_by_test_id("review-line")).to_contain_text("Ann: ")
        expect(page.get_by_test_id("replay-text")).to_contain_text("Ann")


def test_the_review_opens_from_the_history_on_a_phone_for_any_seat(
    browser: Any, review_server: LiveServer, tmp_path: Path
) -> None:
    table_id, token = review_server.finished_game(rules={"target": 10}, name="Ann", seed=5)
    with fresh_page(browser, PHONE) as page:
        page.goto(review_server.url + "/")
        hold_seat(page, table_id, token)
        page.goto(review_server.url + "/#/history")
        item = page.locator(f"[data-testid=history-item][data-game='{table_id}']")
        item.get_by_test_id("review-link").click()
        expect(page).to_have_url(re.compile(rf"#/replay/{table_id}\?review=0$"))
        expect(page.get_by_test_id("review-seat")).to_have_value("0")  # the seat held here
        expect_review_done(page, "Ann")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the review scrolls sideways: {width} px"
        page.screenshot(path=str(tmp_path / "review-phone.png"), full_page=True)
        # the other seat's decisions, judged from what that seat could see
        other = stored_record(review_server.store_path, table_id)["players"][1]
        page.get_by_test_id("review-seat").select_option("1")
        page.get_by_test_id("review-start").click()
        expect(page).to_have_url(re.compile(rf"#/replay/{table_id}\?review=1$"))
        expect_review_done(page, other)
        review = server_review(review_server, table_id, token, 1)
        steps = decision_steps(review_server, table_id, review)
        first = min(steps)
        page.get_by_test_id("replay-slider").fill(str(first))
        expect(page.get_by_test_id("review-line")).to_contain_text(f"{other}: ")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the review scrolls sideways: {width} px"


def test_a_refused_review_is_told_in_a_sentence_and_can_be_asked_again(
    browser: Any, review_server: LiveServer
) -> None:
    table_id, token = review_server.finished_game(rules={"target": 10}, name="Ann", seed=5)
    refused = ["503 (Service Unavailable) at */review/"]  # the busy answer, made on purpose
    with fresh_page(browser, DESKTOP, expected=refused) as page:
        page.goto(review_server.url + "/")
        hold_seat(page, table_id, token)
        busy = {"error": "Too many games are being reviewed right now: try again in a minute."}
        page.route(
            "**/api/games/*/review/*",
            lambda route: route.fulfill(status=503, json=busy),
        )
        page.goto(f"{review_server.url}/#/replay/{table_id}")
        page.get_by_test_id("review-start").click()
        error = page.get_by_test_id("review-error")
        expect(error).to_have_text(
            "Too many games are being reviewed right now: try again in a minute."
        )
        expect(page.get_by_test_id("review-start")).to_be_enabled()
        page.unroute("**/api/games/*/review/*")
        page.get_by_test_id("review-start").click()
        expect(error).to_have_count(0)
        expect_review_done(page, "Ann")


def test_a_finished_review_speaks_japanese_on_a_phone_and_passes_the_audit(
    browser: Any, review_server: LiveServer
) -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run npm ci")
    table_id, token = review_server.finished_game(rules={"target": 10}, name="Ann", seed=5)
    names = tuple(stored_record(review_server.store_path, table_id)["players"])
    with language_page(browser, "ja", PHONE, bypass_csp=True) as page:
        page.goto(review_server.url + "/")
        hold_seat(page, table_id, token)
        page.goto(f"{review_server.url}/#/replay/{table_id}?review=0")
        wait_language(page, "ja")
        expect(page.get_by_test_id("review-progress")).to_be_visible()
        expect(page.get_by_test_id("review-heading")).to_have_text(
            "Annの判断のレビュー", timeout=REVIEW_TIMEOUT_MS
        )
        review = server_review(review_server, table_id, token, 0)
        step = min(decision_steps(review_server, table_id, review))
        page.get_by_test_id("replay-slider").fill(str(step))
        expect(page.get_by_test_id("review-line")).to_contain_text("Ann: ")
        page.get_by_test_id("review-how").locator("summary").click()
        assert english_left_over(page, areas=(), names=names) == []
        assert violations(page) == []
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the review scrolls sideways: {width} px"
        page.get_by_test_id("analysis-try").click()  # the analysis board, in Japanese too
        board = page.get_by_test_id("analysis")
        board.get_by_test_id("analysis-choice").first.click()
        expect(board.get_by_test_id("analysis-judgement")).to_be_visible(timeout=30_000)
        assert english_left_over(page, areas=(), names=names) == []
        assert violations(page) == []
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the analysis board scrolls sideways: {width} px"
