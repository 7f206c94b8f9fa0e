"""The leaderboard and the player pages in the browser, over a store full of rated games
(``tests/rated_store.py``): both pools, "Show everyone rated", the BOT mark, a player's chart
(a dot per game), figures and recent games (one opens the replay), an unknown player; at a
desktop and a phone size, never wider than the screen.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from rated_store import BOT, CLUB, PENALTY_PLAYERS, RANKED, RatedStore, rated_server
from rummykit.ratings import LEADERBOARD_GAMES, LEADERBOARD_IDLE_DAYS, LEADERBOARD_OPPONENTS
from table_client import LiveServer
from web_helpers import fresh_page, screenshot
from web_languages import english_left_over, language_page, wait_language

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, RatedStore]]:
    with rated_server(tmp_path_factory.mktemp("rated") / "rated.sqlite3") as both:
        yield both


@pytest.fixture
def server(served: tuple[LiveServer, RatedStore]) -> LiveServer:
    return served[0]


@pytest.fixture
def rated(served: tuple[LiveServer, RatedStore]) -> RatedStore:
    return served[1]


def api(server: LiveServer, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=10) as answer:
        return json.loads(answer.read())


def fits(page: Page) -> None:
    assert page.evaluate(NO_SIDEWAYS_SCROLL), "the page scrolls sideways"


def board_names(page: Page) -> list[str]:
    names: list[str] = page.get_by_test_id("board-row").evaluate_all(
        "rows => rows.map((row) => row.dataset.name)"
    )
    return names


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_leaderboard_shows_each_pool_and_everyone_rated(
    browser: Any, server: LiveServer, tmp_path: Path, size: str
) -> None:
    with fresh_page(browser, SIZES[size]) as page:
        page.goto(server.url + "/")
        expect(page.locator("header nav a")).to_have_count(3)
        tops = page.locator("header .brand, header nav a").evaluate_all(
            "links => links.map((link) => Math.round(link.getBoundingClientRect().top))"
        )
        assert max(tops) - min(tops) <= 3, f"the header's brand and links wrap: {tops}"
        page.locator("header nav").get_by_role("link", name="Leaderboard").click()
        page.wait_for_url("**/#/leaderboard")
        rows = page.get_by_test_id("board-row")
        expect(rows).to_have_count(len(CLUB))
        # best first as the server says, the program's account marked
        expected = [entry["name"] for entry in api(server, "/api/leaderboard?pool=winner")]
        assert board_names(page) == expected
        bot_row = rows.filter(has=page.get_by_test_id("bot-badge"))
        expect(bot_row).to_have_count(1)
        expect(bot_row).to_have_attribute("data-name", BOT)
        expect(page.get_by_test_id("board-rating").filter(has_text="?")).to_have_count(0)
        rules = page.get_by_test_id("board-thresholds")
        for number in (LEADERBOARD_GAMES, LEADERBOARD_OPPONENTS, LEADERBOARD_IDLE_DAYS):
            expect(rules).to_contain_text(str(number))
        fits(page)
        if size == "desktop":
            screenshot(page, "leaderboard.png", tmp_path)

        # everyone rated: the two newcomers too, provisional
        page.get_by_test_id("board-everyone").check()
        expect(rows).to_have_count(len(CLUB) + len(RANKED))
        for name in RANKED:
            rating = rows.and_(page.locator(f'[data-name="{name}"]')).get_by_test_id("board-rating")
            expect(rating).to_contain_text("?")
        fits(page)

        # the penalty pool: nobody qualifies (one game each), and it says why
        page.get_by_test_id("board-everyone").uncheck()
        expect(rows).to_have_count(len(CLUB))
        page.get_by_test_id("pool-penalty").click()
        page.wait_for_url("**/#/leaderboard/penalty")
        expect(page.get_by_test_id("pool-penalty")).to_have_attribute("aria-current", "page")
        empty = page.get_by_test_id("board-empty")
        expect(empty).to_contain_text("No one qualifies yet")
        expect(empty).to_contain_text(str(LEADERBOARD_GAMES))
        page.get_by_test_id("board-everyone").check()
        expect(rows).to_have_count(len(PENALTY_PLAYERS))
        assert board_names(page) == [CLUB[number - 1] for number in PENALTY_PLAYERS]
        fits(page)


def one_place(value: float) -> str:
    """A number to one decimal place as the page's Intl.NumberFormat writes it in English:
    the double's exact value, halves away from zero."""
    return str(Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def percent(share: float) -> str:
    """A share as the page's Intl.NumberFormat writes a whole percentage in English."""
    return f"{(Decimal(share) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP)}%"


def figure_texts(record: dict[str, Any]) -> dict[str, str]:
    """How the page writes a pool record's figures in English ("—" for null)."""
    kinds: dict[str, Callable[[Any], str]] = {
        "games": str,
        "deals": str,
        "wins": str,
        "draws": str,
        "losses": str,
        "average_place": one_place,
        "points_per_deal": one_place,
        "going_out_rate": percent,
        "rummies": str,
        "seconds_per_turn": lambda seconds: f"{one_place(seconds)} s",
        "timeouts": str,
        "computer_share": percent,
    }
    return {
        field: "—" if record[field] is None else write(record[field])
        for field, write in kinds.items()
    }


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_player_page_charts_every_game_and_lists_the_figures(
    browser: Any, server: LiveServer, tmp_path: Path, size: str
) -> None:
    best = CLUB[0]
    shown = api(server, f"/api/players/{best}")
    with fresh_page(browser, SIZES[size]) as page:
        page.goto(server.url + "/#/leaderboard")
        page.get_by_test_id("board-player").filter(has_text=re.compile(f"^{best}$")).click()
        page.wait_for_url(f"**/#/player/{best}")
        expect(page.get_by_test_id("player-name")).to_have_text(best)
        pools = page.get_by_test_id("pool-record")
        expect(pools).to_have_count(2)  # P00 played the penalty game too
        for pool in ("winner", "penalty"):
            record = shown["pools"][pool]
            section = page.locator(f'[data-testid=pool-record][data-pool="{pool}"]')
            chart = section.get_by_test_id("rating-chart-svg")
            expect(chart).to_have_attribute("role", "img")
            expect(chart).to_have_attribute("aria-label", re.compile(f"last {record['rating']}"))
            expect(section.get_by_test_id("rating-dot")).to_have_count(record["games"])
            expect(section.locator("[data-figure=games]")).to_have_text(str(record["games"]))
            for figure, text in figure_texts(record).items():
                expect(section.locator(f"[data-figure={figure}]")).to_have_text(text)
            expect(section.get_by_test_id("player-rating")).to_contain_text(
                f"{record['rating']}{'?' if record['provisional'] else ''}"
            )
        # each dot says its game's date and rating
        last = shown["pools"]["winner"]["history"][-1]
        dot = page.locator("[data-pool=winner] [data-testid=rating-dot]").last
        expect(dot.locator("title")).to_contain_text(str(last["rating"]))
        chart_width = page.locator("[data-pool=winner] svg").evaluate(
            "svg => svg.getBoundingClientRect().width"
        )
        assert chart_width <= SIZES[size]["width"]
        games = page.get_by_test_id("recent-game")
        expect(games).to_have_count(len(shown["recent"]))
        first = shown["recent"][0]
        change = first["rating_after"] - first["rating_before"]
        sign = "+" if change > 0 else "−" if change < 0 else "±"
        expect(games.first.get_by_test_id("recent-change")).to_contain_text(
            f"{first['rating_before']} → {first['rating_after']} ({sign}{abs(change)})"
        )
        expect(games.first.get_by_test_id("recent-place")).to_contain_text(f"of {first['seats']}")
        fits(page)
        if size == "desktop":
            screenshot(page, "player.png", tmp_path)


def test_a_recent_game_opens_its_replay(
    browser: Any, server: LiveServer, rated: RatedStore
) -> None:
    name = RANKED[0]
    with fresh_page(browser, SIZES["phone"]) as page:
        # a fresh browser, holding no seat: a rated game's replay is everyone's
        page.goto(f"{server.url}/#/player/{name}")
        expect(page.get_by_test_id("rating-dot")).to_have_count(1)
        expect(page.get_by_test_id("player-rating")).to_contain_text("?")
        game = page.get_by_test_id("recent-game")
        expect(game).to_have_count(1)
        expect(game.get_by_test_id("recent-place")).to_have_text(re.compile(r"^=?(1st|2nd) of 2$"))
        opponent = game.get_by_test_id("recent-opponents").get_by_role("link", name=RANKED[1])
        expect(opponent).to_have_attribute("href", f"#/player/{RANKED[1]}")
        fits(page)
        game.get_by_test_id("recent-replay").click()
        page.wait_for_url(f"**/#/replay/{rated.ranked_table}")
        expect(page.get_by_test_id("replay-slider")).not_to_have_attribute("max", "0")


def test_an_unknown_player_is_said_to_be_unknown(browser: Any, server: LiveServer) -> None:
    unknown = ["404 (Not Found) at */api/players/Nobody"]  # the answer for nobody
    with fresh_page(browser, SIZES["phone"], expected=unknown) as page:
        page.goto(f"{server.url}/#/player/Nobody")
        notice = page.get_by_test_id("notice")
        expect(notice).to_contain_text("No such player")
        expect(notice).to_contain_text("Nobody")
        fits(page)


def test_the_japanese_ratings_pages_show_no_english_words(browser: Any, server: LiveServer) -> None:
    names = (*CLUB, *RANKED)
    with language_page(browser, "ja", SIZES["phone"]) as page:
        page.goto(server.url + "/#/leaderboard")
        wait_language(page, "ja")
        expect(page.get_by_test_id("board-row")).to_have_count(len(CLUB))
        expect(page.get_by_test_id("board-thresholds")).to_contain_text("14日")
        assert english_left_over(page, areas=(), names=names) == []
        page.get_by_test_id("pool-penalty").click()
        expect(page.get_by_test_id("board-empty")).to_contain_text("まだ誰も")
        assert english_left_over(page, areas=(), names=names) == []
        for name in (CLUB[0], RANKED[0]):
            page.goto(f"{server.url}/#/player/{name}")
            expect(page.get_by_test_id("recent-place").first).to_contain_text("位")
            assert english_left_over(page, areas=(), names=names) == []
