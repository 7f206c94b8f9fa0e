"""The analysis board in a real browser: at a reviewed decision of a finished game, "Try a
move" opens the seat's cards and the table as the seat saw them, its legal choices as
buttons; a choice is answered with its value against the best found, with its interval, and
"Undo" and "Back to the game" return.

The server judges each decision in 8 samples (``review_samples``), as the review page's tests
do: a game to 10 is reviewed in a few seconds, and each tried move judged at once.
"""

from __future__ import annotations

import contextlib
import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from table_client import LiveServer, bearer
from web_helpers import REVIEW_SAMPLES, REVIEW_TIMEOUT_MS, fresh_page, hold_seat, play_to_the_end

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(150)]


DESKTOP = {"width": 1280, "height": 860}


@contextlib.contextmanager
def replay_of_a_finished_game(
    browser: Any, server: LiveServer, query: str = ""
) -> Iterator[tuple[Any, str, str]]:
    """Ann plays a game to 10 to its end; her browser, holding her seat, opens its replay."""
    table_id, token = server.create_table(rules={"target": 10}, name="Ann", seed=5)
    play_to_the_end(server, table_id, token)
    with fresh_page(browser, DESKTOP) as page:
        page.goto(server.url + "/")
        hold_seat(page, table_id, token)
        page.goto(f"{server.url}/#/replay/{table_id}{query}")
        yield page, table_id, token


def first_decision_step(server: LiveServer, table_id: str, token: str) -> int:
    """The replay step of seat 0's first reviewed decision (the page has asked for it)."""
    request = urllib.request.Request(
        f"{server.url}/api/games/{table_id}/review/0", headers=bearer(token)
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        review: dict[str, Any] = json.loads(answer.read())["review"]
    decision = review["decisions"][0]
    assert decision["deal"] == 0
    return int(decision["action"]) + 1  # the first deal starts at step 0


def test_a_move_tried_at_a_decision_shows_its_value_against_the_best_with_its_interval(
    browser: Any, review_server: LiveServer
) -> None:
    with replay_of_a_finished_game(browser, review_server, "?review=0") as (page, table_id, token):
        expect(page.get_by_test_id("review-heading")).to_have_text(
            "Review of Ann's decisions", timeout=REVIEW_TIMEOUT_MS
        )
        step = first_decision_step(review_server, table_id, token)
        page.get_by_test_id("replay-slider").fill(str(step))
        expect(page.get_by_test_id("replay-slider")).to_have_value(str(step))
        page.get_by_test_id("analysis-try").click()

        board = page.get_by_test_id("analysis")
        expect(board.get_by_test_id("analysis-heading")).to_have_text("Trying moves for Ann")
        expect(board.get_by_test_id("analysis-heading")).to_be_focused()
        expect(board.get_by_test_id("analysis-hand").locator(".card").first).to_be_visible()
        expect(board.get_by_test_id("analysis-other")).to_have_count(1)
        choices = board.get_by_test_id("analysis-choice")
        expect(choices.first).to_be_visible()
        assert choices.count() > 1  # a reviewed decision had a choice
        expect(board.get_by_test_id("analysis-undo")).to_be_disabled()

        choices.last.focus()  # keyboard reachable: a button, pressed with Enter
        page.keyboard.press("Enter")
        judged = board.get_by_test_id("analysis-judgement")
        expect(judged).to_contain_text("points for the deal", timeout=30_000)
        expect(board.get_by_test_id("analysis-samples")).to_have_text(
            f"Weighed over {REVIEW_SAMPLES} deals of the unseen cards."
        )
        text = judged.inner_text()
        assert "is the best choice found" in text or "(95% sure)" in text, text

        board.get_by_test_id("analysis-undo").click()
        expect(board.get_by_test_id("analysis-judgement")).to_have_count(0)
        expect(board.get_by_test_id("analysis-undo")).to_be_disabled()

        board.get_by_test_id("analysis-back").click()
        expect(page.get_by_test_id("analysis")).to_have_count(0)
        expect(page.get_by_test_id("analysis-try")).to_be_focused()


def test_a_replay_without_a_review_lets_the_players_own_steps_be_tried(
    browser: Any, review_server: LiveServer
) -> None:
    with replay_of_a_finished_game(browser, review_server) as (page, _, _):
        # the game loaded (its steps and seats): before it, the slider has no steps to take
        expect(page.get_by_test_id("review-seat")).to_be_enabled()
        slider = page.get_by_test_id("replay-slider")
        slider.fill("0")  # a deal's first frame shows the deal: nothing to try
        expect(page.get_by_test_id("analysis-try")).to_have_count(0)
        step = next(
            index
            for index in range(1, 12)
            if _try_shown(page, index)  # the first of Ann's own steps (seat 0)
        )
        assert step >= 1
        page.get_by_test_id("analysis-try").click()
        board = page.get_by_test_id("analysis")
        expect(board.get_by_test_id("analysis-heading")).to_have_text("Trying moves for Ann")
        board.get_by_test_id("analysis-choice").first.click()
        expect(board.get_by_test_id("analysis-judgement")).to_contain_text(
            "points for the deal", timeout=30_000
        )


def _try_shown(page: Any, step: int) -> bool:
    """Move the replay to ``step``; whether it offers "Try a move" there."""
    page.get_by_test_id("replay-slider").fill(str(step))
    expect(page.get_by_test_id("replay-slider")).to_have_value(str(step))
    return bool(page.get_by_test_id("analysis-try").count())
