"""The puzzles page in a real browser: the lobby's link and the day's puzzle, a puzzle's
cards and its legal choices as buttons, an answer judged right or wrong with why (the best
choice and the move played in the game, in the review's words), and a signed-in player's
rating moved by their first answer only.

The server serves the hand-made puzzles of ``puzzle_fixtures`` (put on its shelf once it
runs), so the go_out theme holds exactly one puzzle whose answer is known.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ports import free_port
from puzzle_fixtures import small_set
from rummykit.server.puzzles import PuzzleShelf
from table_client import LiveServer
from web_helpers import fresh_page

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

DESKTOP = {"width": 1280, "height": 860}
GO_OUT = "meld 6c 6h 6s"
THREW = "discard 6h"


@pytest.fixture
def puzzle_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "tables.sqlite3", free_port())
    server.start()
    server.app.state.puzzles = PuzzleShelf(small_set())
    yield server
    server.stop()


def open_go_out_puzzle(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/#/puzzles")
    expect(page.get_by_test_id("puzzle-heading")).to_have_text("Puzzles")
    page.get_by_test_id("puzzle-theme").select_option("go_out")
    expect(page.get_by_test_id("puzzle-about")).to_contain_text("Theme: Going out.")
    expect(page.get_by_test_id("puzzle-hand").locator(".card")).to_have_count(4)


def choose(page: Page, action: str) -> None:
    """Press the choice's button with the keyboard: it can be reached and pressed."""
    page.locator(f'[data-testid="puzzle-choice"][data-action="{action}"]').focus()
    page.keyboard.press("Enter")


def test_a_guest_answers_a_puzzle_and_is_told_why(browser: Any, puzzle_server: LiveServer) -> None:
    with fresh_page(browser, DESKTOP) as page:
        page.goto(puzzle_server.url + "/")
        expect(page.get_by_test_id("daily-puzzle-solve")).to_have_text("Solve")
        expect(page.get_by_test_id("daily-puzzle")).to_contain_text("Today's puzzle: ")
        page.get_by_test_id("puzzles-link").click()
        open_go_out_puzzle(page, puzzle_server)
        choices = page.get_by_test_id("puzzle-choice")
        assert choices.count() > 2
        choose(page, THREW)
        result = page.get_by_test_id("puzzle-result")
        expect(result).to_have_text("Not this time: Discard the 6♥ is not the best choice.")
        expect(page.get_by_test_id("puzzle-why")).to_have_text(
            "Best: Meld 6♣ 6♥ 6♠. In the game the player chose Discard the 6♥, "
            "which gave away about 8 points."
        )
        expect(page.get_by_test_id("puzzle-guest")).to_be_visible()
        expect(page.get_by_test_id("puzzle-next")).to_be_focused()

        page.keyboard.press("Enter")  # the next puzzle, of the same theme: the same one
        expect(page.get_by_test_id("puzzle-result")).to_have_count(0)
        choose(page, GO_OUT)
        expect(result).to_have_text("Right! Meld 6♣ 6♥ 6♠ is the best choice.")


def test_a_signed_in_players_rating_moves_on_the_first_answer_only(
    browser: Any, puzzle_server: LiveServer
) -> None:
    with fresh_page(browser, DESKTOP) as page:
        page.goto(puzzle_server.url + "/")
        signed_up = page.request.post(
            puzzle_server.url + "/api/accounts",
            data={"name": "Solver", "password": "correct horse battery"},
        )
        assert signed_up.ok, signed_up.text()
        open_go_out_puzzle(page, puzzle_server)
        choose(page, GO_OUT)
        rating = page.get_by_test_id("puzzle-rating")
        expect(rating).to_have_text(re.compile(r"Your puzzle rating: 1\d{3}\? \(\+\d+\)\."))
        moved = rating.inner_text()
        after = re.search(r"rating: (\d+\?)", moved)
        assert after is not None

        page.get_by_test_id("puzzle-next").click()
        # the same puzzle again (the theme has one): once it is shown afresh, not before
        expect(page.get_by_test_id("puzzle-result")).to_have_count(0)
        choose(page, THREW)
        expect(rating).to_have_text(
            f"You had answered this puzzle before, so your rating stays at {after.group(1)}."
        )
        page.goto(puzzle_server.url + "/#/player/Solver")  # their page says it too
        expect(page.get_by_test_id("player-puzzles")).to_have_text(
            f"Puzzle rating {after.group(1)}, from one puzzle answered."
        )
