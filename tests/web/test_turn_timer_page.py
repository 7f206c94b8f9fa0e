"""The turn timer in the browser: the countdown on your turn, the computer playing it out.

The server runs on a ``ManualClock`` (its pace and its wall clock): the test moves time past
the deadline by hand, so no test waits 30 real seconds. The page counts down from the
server's deadline on the server's clock (a clock that starts at 0 here: decades away from
the browser's, which is what the skew correction is for).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ports import free_port
from rummykit.protocol import TIME_RAN_OUT
from table_client import LiveServer, ManualClock
from web_helpers import MY_TURN_SHOWN, SOCKET_REFUSED, TablePage, is_my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def timed_server(tmp_path: Path, clock: ManualClock) -> Iterator[LiveServer]:
    """A live server whose computer's pace and turn timers run on ``clock``."""
    server = LiveServer(tmp_path / "tables.sqlite3", free_port(), clock.sleep, now=clock.time)
    server.start()
    yield server
    server.stop()


@pytest.mark.expected_console(SOCKET_REFUSED)  # the server restarts on purpose
def test_the_countdown_runs_on_your_turn_and_the_computer_plays_when_it_runs_out(
    page: Any, timed_server: LiveServer, clock: ManualClock
) -> None:
    page.goto(timed_server.url + "/")
    page.get_by_test_id("opponents-count").select_option("1")
    page.get_by_test_id("turn-timer-choice").select_option("30")
    page.get_by_test_id("start").click()
    table = TablePage.from_lobby(page, timed_server)
    table.set_pace(0)  # the computer plays at once: its pace is on the test's clock too
    view = table.wait_turn_or_over()
    while view["phase"] == "over":  # the computer went out before our first turn: deal again
        assert not view["game_over"]
        page.get_by_test_id("next-deal").click()
        table.wait_applied(view["version"], "the next deal")
        view = table.wait_turn_or_over()
    assert is_my_turn(view) and view["turn_timer"] == 30
    deadline = view["deadline"]
    assert deadline == clock.time() + 30
    timer = page.get_by_test_id("turn-timer")
    expect(timer).to_be_visible()
    expect(timer).to_have_text(re.compile(r"^Time left for your turn: 0:[0-3]\d$"))
    # the page counts down by itself, between views
    first = timer.inner_text()
    page.wait_for_function(
        "([el, first]) => el.innerText !== first", arg=[timer.element_handle(), first]
    )
    clock.advance(deadline - clock.time() + 1)  # the time runs out on the server
    expect(page.get_by_test_id("log")).to_contain_text(TIME_RAN_OUT)
    expect(page.get_by_test_id("message")).to_contain_text(TIME_RAN_OUT)
    # once the notice is shown the page has the computer's turn; then ours comes back
    page.wait_for_function(MY_TURN_SHOWN)
    after = table.view()
    assert after["version"] > view["version"] + 1 and is_my_turn(after)
    assert after["deadline"] == clock.time() + 30  # a fresh turn, a fresh deadline
    expect(timer).to_have_text(re.compile(r"^Time left for your turn: 0:[0-3]\d$"))
