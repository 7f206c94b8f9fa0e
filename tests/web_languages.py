"""Pages in a given language and size, for the browser tests of the interface's words and its
accessibility (``tests/web/test_languages.py``, ``tests/web/test_accessibility.py``).

The language comes from the browser the first time (``locale`` of the Playwright context, as
``navigator.languages``), so a context per language is all a test needs. The pages each test
visits are made here the way a player makes them: a table mid-turn with a card selected, the
practice table, a party, the history and a replay.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import Page, expect

from table_client import LiveServer, LiveSocket, SeatSocket, play_until, seed_where_human_starts
from web_helpers import HAND_CARDS, SHOWS_VIEW, TablePage, fresh_page, hold_seat, wait_until

LOCALES = {"en": "en-GB", "ja": "ja-JP"}
"""The browser locale that makes the page pick each language on its first load."""

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}

MY_AREAS = ("common", "lobby", "party", "history", "keys", "words", "account")
"""The catalogue areas whose English must not show on a Japanese page."""


@contextlib.contextmanager
def language_page(
    browser: Any,
    lang: str,
    viewport: dict[str, int],
    *,
    bypass_csp: bool = False,
    expected: list[str] | None = None,
) -> Iterator[Page]:
    """A fresh page (own storage) whose browser asks for ``lang``; page errors fail the test,
    but the console errors ``expected`` (``fresh_page``). ``bypass_csp`` lets the test inject a
    script (the page's policy allows none inline)."""
    options = {"locale": LOCALES[lang], "bypass_csp": bypass_csp}
    with fresh_page(browser, viewport, 15_000, expected, **options) as page:
        yield page


def wait_language(page: Page, lang: str) -> None:
    """Wait until the page is drawn in ``lang`` (``<html lang>`` follows the language)."""
    expect(page.locator("html")).to_have_attribute("lang", lang)


def open_lobby(page: Page, server: LiveServer) -> None:
    """The lobby, with the rules loaded from the server."""
    page.goto(server.url + "/")
    expect(page.get_by_test_id("preset-summary")).not_to_be_empty()


def wait_hand_shown(page: Page, hand: list[str]) -> None:
    """Wait until the page shows exactly ``hand`` (in any order), whatever its language."""
    page.wait_for_function(SHOWS_VIEW, arg=[sorted(hand), False, False], timeout=15_000)


def table_mid_turn(page: Page, server: LiveServer, **body: Any) -> TablePage:
    """A table where it is the person's turn, a card drawn from the stock and one selected."""
    seats = 1 + len(body.get("opponents", ["basic"]))
    table_id, token = server.create_table(seed=seed_where_human_starts(seats), **body)
    table = TablePage(page, server, table_id, token).open()
    view = table.view()
    assert view["turn"] == view["seat"] == 0 and view["phase"] == "draw", view
    wait_hand_shown(page, view["hand"])
    page.get_by_test_id("stock").click()
    drawn = wait_until(
        lambda: (lambda v: v if v["phase"] == "play" else None)(table.view()),
        what="the drawn card",
    )
    wait_hand_shown(page, drawn["hand"])
    card = page.locator(HAND_CARDS).first
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    return table


def practice_table(page: Page, server: LiveServer) -> TablePage:
    """The practice table (one strong computer player), its first hand shown."""
    table_id, token = server.create_table(preset="practice", practice=True, opponents=["strong"])
    table = TablePage(page, server, table_id, token).open()
    expect(page.get_by_test_id("explain")).to_be_visible()
    return table


def party_page(page: Page, server: LiveServer, name: str = "Ada") -> str:
    """A party made from the lobby's "Play with friends", its lobby shown; its code."""
    open_lobby(page, server)
    page.get_by_test_id("friends-name").fill(name)
    page.get_by_test_id("play-with-friends").click()
    page.wait_for_url("**/#/party/*")
    expect(page.get_by_test_id("members").get_by_test_id("member")).to_have_count(1)
    expect(page.get_by_test_id("party-house-rules").locator("select").first).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def history_page(page: Page, server: LiveServer, games: dict[str, str]) -> None:
    """The history of a browser that holds the seats ``games`` (table id → token)."""
    page.goto(server.url + "/")
    for table_id, token in games.items():
        hold_seat(page, table_id, token)
    page.goto(server.url + "/#/history")
    expect(page.get_by_test_id("history-item")).to_have_count(len(games))


def replay_page(page: Page, server: LiveServer, game: str) -> None:
    """A finished game's replay, a few steps in."""
    page.goto(f"{server.url}/#/replay/{game}")
    slider = page.get_by_test_id("replay-slider")
    expect(slider).not_to_have_attribute("max", "0")
    for _ in range(3):
        page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-hand").first).to_be_visible()


TABLE_WORDS = (
    "[data-testid=status]",
    "[data-testid=scoreboard]",
    "[data-testid=turn-timer]",
    "[data-testid=deal-summary]",
    "[data-testid=explain]",
    "[data-testid=hint]",
    "[data-testid=message]",
    "[data-testid=seat-name]",
    ".seat-line",
    "header nav",
    "[data-testid=help-button]",
)
"""The parts of a table page drawn from this branch's areas (the sentence modules of
``web/table``, the seats' names, the header's links); the rest (and the connection line) is
the table area's."""

ENGLISH_LEFT_OVER = """async ([areas, roots, names]) => {
  const i18n = await import('/static/i18n.js');
  // a page loads only its own language: the test needs both
  await Promise.all([i18n.loadLanguage('en'), i18n.loadLanguage('ja')]);
  const CATALOGUES = i18n.CATALOGUES;
  // the visible text under `roots`, but for other areas' words (data-words="rules"...)
  const texts = [];
  for (const root of document.querySelectorAll(roots.join(','))) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('[data-words]') || !parent.checkVisibility()) continue;
      texts.push(node.textContent);
    }
  }
  // the players' names are theirs, in no language
  let text = texts.join('\\n');
  for (const name of names) text = text.split(name).join('\\n');
  const forms = (entry) => (typeof entry === 'object' ? Object.values(entry) : [entry]);
  const found = [];
  for (const area of areas.length ? areas : Object.keys(CATALOGUES.en)) {
    for (const [key, entry] of Object.entries(CATALOGUES.en[area])) {
      const japanese = forms(CATALOGUES.ja[area][key]);
      for (const english of forms(entry)) {
        if (japanese.includes(english)) continue;
        // the words between placeholders: each must be absent
        for (const piece of english.split(/\\{\\w+\\}/)) {
          const words = piece.trim();
          if ((words.match(/[A-Za-z]/g) || []).length <= 3) continue;
          if (text.includes(words)) found.push(`${key}: ${words}`);
        }
      }
    }
  }
  return found;
}"""
"""The English words of the catalogues' ``areas`` (those that differ from the Japanese, with
more than three letters) shown under the ``roots`` selectors, outside the parts marked as
another area's words (``data-words``: the rules' descriptions in the lobby and a party):
none, when every string is translated."""


def english_left_over(
    page: Page,
    areas: tuple[str, ...] = MY_AREAS,
    roots: tuple[str, ...] = ("body",),
    names: tuple[str, ...] = (),
) -> list[str]:
    """The English catalogue words (key: words) that a Japanese page still shows; ``areas``
    empty: every area's. ``names`` (the players') are left out of the text."""
    found: list[str] = page.evaluate(ENGLISH_LEFT_OVER, [list(areas), list(roots), list(names)])
    return found


def player_names(table: TablePage) -> tuple[str, ...]:
    """The names of a table's players, as its view gives them."""
    return tuple(player["name"] for player in table.view()["players"] if player["name"])


def table_deal_over(page: Page, server: LiveServer, **body: Any) -> TablePage:
    """A table whose first deal is over (played by the test player over a socket, the
    computer at pace 0), the deal's summary shown and the game not over."""
    table_id, token = server.create_table(seed=5, rules={"target": 500}, **body)
    with server.seat_socket(table_id, token) as websocket:
        seat = SeatSocket(LiveSocket(websocket))
        seat.recv()
        seat.set_pace(0)
        play_until(seat, lambda view: view["phase"] == "over", next_deals=False)
    table = TablePage(page, server, table_id, token).open()
    expect(page.get_by_test_id("deal-summary")).to_be_visible()
    return table
