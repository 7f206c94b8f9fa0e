"""Past games in a real browser: each person sees the games of the seats their browser holds,
downloads their records with the seat's token, and nobody else's; a public history shows all.

Before: the page listed every game on the server, and its download was a plain link that
anyone with the game's id could follow.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ports import free_port
from rummykit.core.record import replay_json
from rummykit.protocol.answer_words import answer_text
from table_client import LiveServer
from web_helpers import hold_seat

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


def history_item(page: Any, table_id: str) -> Any:
    return page.locator(f"[data-testid=history-item][data-game='{table_id}']")


def open_history(page: Any, server: LiveServer, seats: dict[str, str]) -> None:
    """The history page in a browser that holds ``seats`` (table id → token)."""
    page.goto(server.url + "/")
    for table_id, token in seats.items():
        hold_seat(page, table_id, token)
    page.goto(server.url + "/#/history")


def downloaded_record(page: Any, item: Any, tmp_path: Path) -> dict[str, Any]:
    """Click the item's download; the record the browser saved."""
    with page.expect_download() as started:
        item.get_by_test_id("download").click()
    download = started.value
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    record: dict[str, Any] = json.loads(saved.read_text(encoding="utf-8"))
    return record


def test_each_person_sees_and_downloads_only_their_own_games(
    page: Any, browser: Any, live_server: LiveServer, tmp_path: Path
) -> None:
    mine, token = live_server.finished_game(rules={"target": 10}, name="Ada", seed=5)
    theirs, _ = live_server.finished_game(rules={"target": 10}, name="Bob", seed=7)
    open_history(page, live_server, {mine: token})
    item = history_item(page, mine)
    expect(item).to_be_visible()
    expect(page.get_by_test_id("history-item")).to_have_count(1)
    expect(history_item(page, theirs)).to_have_count(0)
    expect(page.get_by_test_id("history-about")).to_contain_text("Your finished games")
    record = downloaded_record(page, item, tmp_path)
    assert record["players"][0] == "Ada"  # and a computer player (its name chosen per table)
    assert replay_json(record)[1] == 0
    # another person's browser holds no seat of it: no list, no replay
    other = browser.new_context()
    try:
        stranger = other.new_page()
        open_history(stranger, live_server, {})
        expect(stranger.get_by_test_id("history")).to_contain_text("No finished games yet.")
        stranger.goto(live_server.url + f"/#/replay/{mine}")
        expect(stranger.get_by_test_id("replay-text")).to_contain_text(answer_text("game_unseen"))
    finally:
        other.close()


def test_the_page_forgets_seats_the_server_no_longer_knows(
    page: Any, live_server: LiveServer
) -> None:
    mine, token = live_server.finished_game(rules={"target": 10}, seed=5)
    going_on, going_on_token = live_server.create_table()
    open_history(page, live_server, {mine: token, going_on: going_on_token, "gone": "expired-1"})
    expect(history_item(page, mine)).to_be_visible()
    held = page.evaluate(
        "Object.keys(localStorage).filter((key) => key.startsWith('rummykit.seat.')).sort()"
    )
    assert held == sorted(f"rummykit.seat.{table}" for table in (mine, going_on))


@pytest.fixture
def public_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose host made the history public."""
    server = LiveServer(tmp_path / "tables.sqlite3", free_port(), public_history=True)
    server.start()
    yield server
    server.stop()


def test_a_public_history_shows_and_serves_everyone_every_game(
    page: Any, public_server: LiveServer, tmp_path: Path
) -> None:
    game, _ = public_server.finished_game(rules={"target": 10}, name="Ada", seed=5)
    open_history(page, public_server, {})
    expect(page.get_by_test_id("history-about")).to_contain_text("Every finished game")
    item = history_item(page, game)
    assert (
        downloaded_record(page, item, tmp_path)["players"][0] == "Ada"
    )  # and a computer player (its name chosen per table)
    item.get_by_test_id("replay-link").click()
    expect(page.get_by_test_id("replay-text")).to_contain_text("Deal 1")


def test_the_history_filters_by_player_rules_and_result(page: Any, live_server: LiveServer) -> None:
    games = {
        "classic": live_server.finished_game(rules={"target": 10}, name="Ada", seed=5),
        "knock": live_server.finished_game(
            preset="knock", rules={"target": 10}, name="Ada", seed=6
        ),
        "bob": live_server.finished_game(rules={"target": 10}, name="Bob", seed=7),
    }
    open_history(page, live_server, dict(games.values()))
    items, count = page.get_by_test_id("history-item"), page.get_by_test_id("history-count")
    expect(items).to_have_count(3)
    expect(count).to_have_text("3 of 3 games shown")
    page.get_by_test_id("history-search").fill("bo")
    expect(items).to_have_count(1)
    expect(history_item(page, games["bob"][0])).to_be_visible()
    page.get_by_test_id("history-search").fill("")
    page.get_by_test_id("history-rules").select_option("knock")
    expect(items).to_have_count(1)
    expect(history_item(page, games["knock"][0])).to_be_visible()
    page.get_by_test_id("history-rules").select_option("")
    # won or not, for the seat this browser held: each game's own answer decides
    views = {key: live_server.view(*game) for key, game in games.items()}
    won = sorted(key for key, view in views.items() if max(view["scores"]) == view["scores"][0])
    page.get_by_test_id("history-result").select_option("won")
    expect(count).to_have_text(f"{len(won)} of 3 games shown")
    page.get_by_test_id("history-result").select_option("lost")
    expect(count).to_have_text(f"{3 - len(won)} of 3 games shown")
    page.get_by_test_id("history-search").fill("nobody at all")
    expect(page.get_by_test_id("history-none-shown")).to_be_visible()
    # an unrated game on a private history: its replay offers no link to share
    page.goto(f"{live_server.url}/#/replay/{games['bob'][0]}")
    expect(page.get_by_test_id("replay-text")).to_contain_text("Deal 1")
    expect(page.get_by_test_id("replay-share")).to_be_hidden()


def test_a_public_game_has_a_short_link_anyone_opens(page: Any, public_server: LiveServer) -> None:
    game, _ = public_server.finished_game(rules={"target": 10}, name="Ada", seed=5)
    page.goto(f"{public_server.url}/#/replay/{game}")
    link = page.get_by_test_id("share-link")
    expect(link).to_have_value(f"{public_server.url}/g/{game}")
    page.goto(link.input_value())  # a stranger's browser: no seat held
    page.wait_for_url(f"**/#/replay/{game}")
    expect(page.get_by_test_id("replay-text")).to_contain_text("Deal 1")
