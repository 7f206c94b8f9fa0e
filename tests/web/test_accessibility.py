"""The accessibility audit: axe-core (WCAG 2.0 and 2.1, levels A and AA) finds no violation on
any page, at a desktop and a phone size, in English and in Japanese.

axe-core comes from npm (``package.json``'s devDependencies, installed by ``npm ci``); its
``axe.min.js`` is injected into each page, which is audited as a player sees it: the lobby, a
table mid-turn with a card selected, how to play, a lesson, the puzzles, the practice table, a
party's lobby, the history and a replay; and, over a store of rated games, the leaderboard and
a player's page.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from helpers import IN_CI
from rated_store import CLUB, rated_server
from table_client import LiveServer
from web_helpers import AXE, violations
from web_languages import (
    SIZES,
    history_page,
    language_page,
    open_lobby,
    party_page,
    practice_table,
    replay_page,
    table_mid_turn,
    wait_language,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def axe_script() -> Path:
    if not AXE.is_file():
        reason = f"{AXE} is missing: run npm ci"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    return AXE


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_page_passes_the_audit(
    browser: Any, live_server: LiveServer, axe_script: Path, lang: str, size: str
) -> None:
    game, token = live_server.finished_game(rules={"target": 10}, name="Ada", seed=5)
    found: dict[str, list[dict[str, Any]]] = {}
    with language_page(browser, lang, SIZES[size], bypass_csp=True) as page:
        open_lobby(page, live_server)
        wait_language(page, lang)
        found["lobby"] = violations(page)
        table_mid_turn(page, live_server)
        found["table"] = violations(page)
        page.get_by_test_id("table-howto-link").click()  # the rules of that table
        expect(page.get_by_test_id("howto-rule").first).to_be_visible()
        found["how to play"] = violations(page)
        page.goto(live_server.url + "/#/lessons/melds")
        expect(page.get_by_test_id("lesson-practise")).to_be_visible()
        found["lesson"] = violations(page)
        page.get_by_test_id("lesson-practise").click()  # the puzzles of its theme
        expect(page.get_by_test_id("puzzle-choices").get_by_role("button").first).to_be_visible()
        found["puzzles"] = violations(page)
        practice_table(page, live_server)
        found["practice"] = violations(page)
        history_page(page, live_server, {game: token})
        found["history"] = violations(page)
        replay_page(page, live_server, game)
        found["replay"] = violations(page)
        party_page(page, live_server)
        found["party"] = violations(page)
    failing = {name: problems for name, problems in found.items() if problems}
    assert not failing, json.dumps(failing, indent=1, ensure_ascii=False)


@pytest.fixture(scope="module")
def rated_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server over a store full of rated games (``tests/rated_store.py``)."""
    with rated_server(tmp_path_factory.mktemp("rated") / "rated.sqlite3") as (server, _):
        yield server


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_ratings_pages_pass_the_audit(
    browser: Any, rated_live: LiveServer, axe_script: Path, lang: str, size: str
) -> None:
    found: dict[str, list[dict[str, Any]]] = {}
    unknown = ["404 (Not Found) at */api/players/"]  # an unknown player's page, on purpose
    with language_page(browser, lang, SIZES[size], bypass_csp=True, expected=unknown) as page:
        page.goto(rated_live.url + "/#/leaderboard")
        wait_language(page, lang)
        expect(page.get_by_test_id("board-row")).to_have_count(len(CLUB))
        found["leaderboard"] = violations(page)
        page.get_by_test_id("pool-penalty").click()
        expect(page.get_by_test_id("board-empty")).to_be_visible()
        found["empty leaderboard"] = violations(page)
        page.get_by_test_id("board-everyone").check()
        expect(page.get_by_test_id("board-row").first).to_be_visible()
        found["everyone rated"] = violations(page)
        page.goto(f"{rated_live.url}/#/player/{CLUB[0]}")
        expect(page.get_by_test_id("rating-dot").first).to_be_visible()
        found["player"] = violations(page)
        page.goto(f"{rated_live.url}/#/player/Nobody")
        expect(page.get_by_test_id("notice")).to_be_visible()
        found["no such player"] = violations(page)
    failing = {name: problems for name, problems in found.items() if problems}
    assert not failing, json.dumps(failing, indent=1, ensure_ascii=False)
