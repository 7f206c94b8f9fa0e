"""Driving the table page: reading the seat's view from the server, acting through the page.

The test decides what to play from the seat's view (``GET /api/tables/{id}`` with
``Authorization: Bearer T``, the same view the page gets) with the server tests'
``simple_choice``, and plays it with clicks (``ClickPlayer``) or with keys only
(``KeyPlayer``). Before each action it waits until the page shows that view (the same hand,
and the status of a turn), so the page sends its action against the latest version.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Locator, Page, expect

from rummykit.core.cards import Card
from rummykit.core.errors import IllegalActionError
from rummykit.core.melds import arrange_meld
from rummykit.core.rules import Aces
from table_client import LiveServer, LiveSocket, SeatSocket, play_until, simple_choice

T = TypeVar("T")
DOCS = Path(__file__).resolve().parents[1] / "docs"
HAND_CARDS = "[data-testid=hand-card]"

SHOWS_VIEW = """([hand, over, mine]) => {
  const cards = [...document.querySelectorAll('[data-testid=hand-card]')]
    .map((card) => card.dataset.card).sort();
  if (JSON.stringify(cards) !== JSON.stringify(hand)) return false;
  if (over) {
    const summary = document.querySelector('[data-testid=deal-summary]');
    return !!summary && summary.checkVisibility();
  }
  if (!mine) return true;
  return document.querySelector('[data-testid=status]').dataset.turn === 'mine';
}"""
"""Whether the page shows a view's hand, its end of deal, and our turn when it is ours (the
status line's ``data-turn``, set with its words: any language)."""

MY_TURN_SHOWN = "() => document.querySelector('[data-testid=status]').dataset.turn === 'mine'"
"""Whether the status line tells the person it is their turn (in any language)."""


@contextlib.contextmanager
def fresh_page(
    browser: Any,
    viewport: dict[str, int],
    timeout_ms: int = 10_000,
    expected: ExpectedErrors | None = None,
    **options: Any,
) -> Iterator[Page]:
    """A fresh page (its own storage) at ``viewport``, with the context's other ``options``
    (``locale``, ``reduced_motion``...); an error in the page, or one it logs to the console,
    fails the test, unless ``expected`` names it."""
    context = browser.new_context(viewport=viewport, **options)
    context.set_default_timeout(timeout_ms)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors, expected)
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


SOCKET_REFUSED = "WebSocket connection to * failed: * net::ERR_CONNECTION_REFUSED"
"""The console error of a socket the page opens while the server is down (expected where a
test stops its server on purpose)."""

ExpectedErrors = list[str]
"""Console errors a test provokes on purpose, each a part of the message and the address
(``"409 (Conflict) at */api/accounts"``): a refusal the test asks for, not a fault."""


def watch_errors(page: Page, errors: list[str], expected: ExpectedErrors | None = None) -> None:
    """Add to ``errors`` each error the page raises or logs to its console (a failed
    request among them: Chromium logs a 4xx or 5xx answer as one), but those ``expected``
    (read when each error comes, so a test may add to the list as it goes)."""

    watching = [True]
    _WATCHING.append(watching)

    def logged(message: Any) -> None:
        if message.type != "error" or not watching[0]:
            return
        said = f"console: {message.text} at {message.location.get('url', '?')}"
        if not any(fnmatch.fnmatch(said, f"*{pattern}*") for pattern in expected or ()):
            errors.append(said)

    def raised(error: Any) -> None:
        if watching[0]:
            errors.append(str(error))

    page.on("pageerror", raised)
    page.on("console", logged)


_WATCHING: list[list[bool]] = []
"""The switch of every page watched in this test (``watch_errors``)."""


def stop_watching_errors() -> None:
    """Stop recording every watched page's errors: the test's body is over. Its fixtures are
    then torn down in an order the test does not choose; a server stopped before a page closes
    makes the page, still open, log a refused socket or a reset request that is no fault."""
    for watching in _WATCHING:
        watching[0] = False
    _WATCHING.clear()


def hold_seat(page: Page, table_id: str, token: str) -> None:
    """Give the page's browser a seat's token, where the lobby keeps the seats it made."""
    page.evaluate(
        "([key, token]) => localStorage.setItem(key, token)", [f"rummykit.seat.{table_id}", token]
    )


def wait_until(
    probe: Callable[[], T | None], timeout: float = 20, what: str = "the condition"
) -> T:
    """Poll ``probe`` until it returns something true; that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.03)


def screenshot(page: Page, name: str, tmp_path: Path) -> None:
    """Save a screenshot in the test's folder; also as docs/NAME when it is missing there
    or ``RUMMY_SCREENSHOTS=1`` (so a test run does not rewrite the committed pictures)."""
    page.screenshot(path=str(tmp_path / name))
    target = DOCS / name
    if os.environ.get("RUMMY_SCREENSHOTS") == "1" or not target.exists():
        DOCS.mkdir(exist_ok=True)
        page.screenshot(path=str(target))


def not_a_meld(hand: list[str]) -> list[str]:
    """Three different cards of ``hand`` that are neither a set nor a run (aces low).

    Different, so that a click on each selects three cards: with two decks a hand may hold
    two of a card, and ``ClickPlayer.card`` finds the first of them.
    """
    cards = sorted({Card.parse(code) for code in hand})
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            for k in range(j + 1, len(cards)):
                trio = (cards[i], cards[j], cards[k])
                try:
                    arrange_meld(trio, (), Aces.LOW)
                except IllegalActionError:
                    return [str(card) for card in trio]
    raise AssertionError(f"every three cards of {hand} make a meld")


def is_my_turn(view: dict[str, Any]) -> bool:
    return bool(view["turn"] == view["seat"] and view["phase"] != "over")


class TablePage:
    """One seat's table page, and the server's view of that seat."""

    def __init__(self, page: Page, server: LiveServer, table_id: str, token: str) -> None:
        self.page = page
        self.server = server
        self.table_id = table_id
        self.token = token

    @classmethod
    def from_lobby(cls, page: Page, server: LiveServer) -> TablePage:
        """The table the lobby just made (its id from the address, the token from storage)."""
        page.wait_for_url("**/#/table/*")
        table_id = page.url.split("#/table/", 1)[1]
        token = page.evaluate("id => localStorage.getItem('rummykit.seat.' + id)", table_id)
        assert token, "the lobby kept no seat token in localStorage"
        table = cls(page, server, table_id, token)
        table.wait_hand()
        return table

    def open(self) -> TablePage:
        """Give the browser the seat (as the lobby would) and open the table."""
        self.page.goto(self.server.url + "/")
        self.page.evaluate(
            "([id, token]) => localStorage.setItem('rummykit.seat.' + id, token)",
            [self.table_id, self.token],
        )
        self.page.goto(f"{self.server.url}/#/table/{self.table_id}")
        self.wait_hand()
        return self

    # ----- reading --------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        return self.server.view(self.table_id, self.token)

    def hand(self) -> list[str]:
        """The cards of the hand as the page shows them, in its order."""
        cards: list[str] = self.page.locator(HAND_CARDS).evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        return cards

    def wait_hand(self) -> None:
        self.page.locator(HAND_CARDS).first.wait_for(state="visible", timeout=15_000)

    def status(self) -> str:
        return self.page.get_by_test_id("status").inner_text()

    def message(self) -> str:
        return self.page.get_by_test_id("message").inner_text()

    def set_pace(self, ms: int) -> None:
        """Move the pace slider (as a user would drag it) and let it send the pace."""
        self.page.get_by_test_id("pace").evaluate(
            "(el, ms) => { el.value = String(ms); el.dispatchEvent(new Event('input'));"
            " el.dispatchEvent(new Event('change')); }",
            ms,
        )
        wait_until(lambda: self.view()["pace_ms"] == ms, what=f"the pace to become {ms}")

    def wait_turn_or_over(self, timeout: float = 30) -> dict[str, Any]:
        """The view once this seat is to act or the deal is over, shown by the page."""

        def ready() -> dict[str, Any] | None:
            view = self.view()
            return view if view["phase"] == "over" or is_my_turn(view) else None

        view = wait_until(ready, timeout=timeout, what="our turn or the deal's end")
        self.wait_synced(view)
        return view

    def wait_synced(self, view: dict[str, Any]) -> None:
        """Wait until the page shows ``view``: its hand, and our turn if it is ours.

        The browser checks on each change of the page (Playwright's ``wait_for_function``).
        """
        self.page.wait_for_function(
            SHOWS_VIEW,
            arg=[sorted(view["hand"]), view["phase"] == "over", is_my_turn(view)],
            timeout=15_000,
        )

    def wait_applied(self, before: int, action: str) -> dict[str, Any]:
        """The view once the version has moved past ``before``; a refusal fails at once.

        A notice the action brought (say, the stock running low) comes in the frames just
        before its view, on the same line as a refusal: it is told apart by its kind.
        """

        def moved() -> dict[str, Any] | None:
            view = self.view()
            if view["version"] > before:
                return view
            text = self.message()
            kind = self.page.get_by_test_id("message").get_attribute("data-kind")
            if text.strip() and kind != "notice":
                raise AssertionError(f"{action!r} was refused: {text}")
            return None

        return wait_until(moved, timeout=15, what=f"{action!r} to be played")

    # ----- playing ----------------------------------------------------------------------

    def play_actions(self, player: Any, count: int) -> dict[str, Any]:
        """Play ``count`` actions of this seat (fewer if the deal ends); the view after."""
        for _ in range(count):
            view = self.wait_turn_or_over()
            if view["phase"] == "over":
                return view
            action = simple_choice(view["legal"])
            player.play(action, view)
            self.wait_applied(view["version"], action)
        return self.wait_turn_or_over()

    def play_deal(self, player: Any, on_turn: Callable[[int], None] | None = None) -> int:
        """Play until the deal is over; how many actions this seat played."""
        played = 0
        while True:
            view = self.wait_turn_or_over()
            if view["phase"] == "over":
                return played
            action = simple_choice(view["legal"])
            player.play(action, view)
            self.wait_applied(view["version"], action)
            played += 1
            if on_turn is not None:
                on_turn(played)


class ClickPlayer:
    """Plays actions with the mouse."""

    def __init__(self, table: TablePage) -> None:
        self.table = table
        self.page = table.page

    def card(self, code: str) -> Locator:
        return self.page.locator(f'{HAND_CARDS}[data-card="{code}"]').first

    def select(self, codes: list[str]) -> None:
        for code in codes:
            card = self.card(code)
            card.click()
            expect(card).to_have_attribute("aria-pressed", "true")

    def play(self, action: str, view: dict[str, Any]) -> None:
        words = action.split()
        page = self.page
        if words[0] == "draw":
            page.get_by_test_id("stock" if words[1] == "stock" else "discard").click()
        elif words[0] == "meld":
            self.select(words[1:])
            page.get_by_test_id("meld-button").click()
        elif words[0] == "layoff":
            self.select([words[1]])
            page.get_by_test_id("layoff-button").click()
            choice = page.get_by_test_id("layoff-choice")
            if choice.is_visible():
                page.get_by_test_id(f"layoff-choice-{words[2]}").click()
        elif words[0] == "knock":
            self.select([words[1]])
            page.get_by_test_id("knock-button").click()
        else:
            self.select([words[1]])
            page.get_by_test_id("discard-button").click()


class KeyPlayer:
    """Plays actions with the keyboard only."""

    def __init__(self, table: TablePage) -> None:
        self.table = table
        self.page = table.page
        self.keys: Counter[str] = Counter()

    def press(self, key: str) -> None:
        self.keys[key] += 1
        self.page.keyboard.press(key)

    def focused(self) -> str | None:
        code: str | None = self.page.evaluate(
            "() => { const e = document.activeElement;"
            " return e && e.dataset && e.dataset.testid === 'hand-card' ? e.dataset.card : null; }"
        )
        return code

    def focus(self, code: str) -> None:
        """Walk the focus along the hand with the arrow keys to ``code``."""
        if self.focused() is None:
            self.press("ArrowRight")
        at = self.focused()
        assert at is not None, "the arrow keys do not reach the hand"
        for _ in range(60):
            hand = self.table.hand()
            at = self.focused()
            if at == code:
                return
            assert at is not None, "the focus left the hand"
            step = "ArrowRight" if hand.index(code) > hand.index(at) else "ArrowLeft"
            self.press(step)
        raise AssertionError(f"could not reach {code} with the arrow keys")

    def select(self, code: str) -> None:
        self.focus(code)
        self.press("Space")
        card = self.page.locator(f'{HAND_CARDS}[data-card="{code}"]').first
        expect(card).to_have_attribute("aria-pressed", "true")

    def play(self, action: str, view: dict[str, Any]) -> None:
        words = action.split()
        if words[0] == "draw":
            self.press("s" if words[1] == "stock" else "t")
        elif words[0] == "meld":
            for code in words[1:]:
                self.select(code)
            self.press("m")
        elif words[0] == "layoff":
            self.select(words[1])
            self.press("l")
            choice = self.page.get_by_test_id("layoff-choice")
            if choice.is_visible():
                ids = choice.locator("button[data-testid^=layoff-choice-]").evaluate_all(
                    "els => els.map(e => e.dataset.testid)"
                )
                self.press(str(ids.index(f"layoff-choice-{words[2]}") + 1))
        elif words[0] == "knock":
            self.focus(words[1])  # K knocks with the card the focus is on
            self.press("k")
        else:
            self.focus(words[1])  # D discards the card the focus is on
            self.press("d")


class People:
    """Browser contexts of their own (own storage, own sockets), one per person; the errors
    any of their pages raised or logged fail the test."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.expected: ExpectedErrors = []
        """Console errors the test provokes on purpose (see ``watch_errors``)."""

    def new_page(self, context: Any | None = None, **options: Any) -> Page:
        """A page in ``context``, or in a new one made with ``options`` (``bypass_csp``...)."""
        if context is None:
            context = self.browser.new_context(viewport={"width": 1280, "height": 860}, **options)
            context.set_default_timeout(10_000)
            self.contexts.append(context)
        page: Page = context.new_page()
        watch_errors(page, self.errors, self.expected)
        return page

    def close(self) -> None:
        """Close every person's browser (again: nothing more)."""
        for context in self.contexts:
            context.close()
        self.contexts.clear()


# ----- the accessibility audit (axe-core, from npm ci) -----------------------------------

AXE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core's browser build, from ``npm ci``."""

WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

AUDIT = """async (tags) => {
  const results = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => [n.target.join(' '), n.failureSummary]),
  }));
}"""


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's WCAG A and AA violations on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(AUDIT, WCAG_A_AA)
    return found


REVIEW_SAMPLES = 8
"""Samples a decision in the browser tests of the review (``review_server``): a game to 10
(some 70 decisions a seat) reviewed in a few seconds, the same review every run."""

REVIEW_TIMEOUT_MS = 90_000
"""How long a page may take to show a finished review (a few seconds here; a loaded CI
machine shares its cores with the browser)."""


def play_to_the_end(server: LiveServer, table_id: str, token: str) -> None:
    """Seat 0 plays the game to its end on a socket beside the page, the computer at pace 0."""
    with server.seat_socket(table_id, token) as websocket:
        seat = SeatSocket(LiveSocket(websocket))
        seat.recv()
        seat.set_pace(0)
        play_until(seat, lambda view: view["game_over"])
