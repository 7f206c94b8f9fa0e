"""The table's layout in a browser: on a phone the hand, the piles and the buttons are in view
together at every moment of a turn; nothing that appears during a turn moves the hand or the
buttons; errors go when they stop being true; whose turn it is shows in the page's title and
at the seats, with each seat's last turn; a dark theme follows the system.

Sizes measured: 390x844 (a phone) and 1280x800 (a desktop), as issue 10 asks.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Page, expect

from ports import free_port
from rummykit.core.rules import MAX_SEATS, MAX_SEATS_ONE_DECK
from table_client import (
    LiveServer,
    ManualClock,
    seed_where_human_starts,
    seeded_deal,
    simple_choice,
)
from web_helpers import (
    SOCKET_REFUSED,
    ClickPlayer,
    TablePage,
    fresh_page,
    is_my_turn,
    not_a_meld,
    screenshot,
    wait_until,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

IN_VIEW = """async () => {
  // measure what a player sees: after the next frame is painted (the header's size observer
  // fits the board before paint, so a layout read between two frames may see it unfitted)
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const ids = ['hand-card', 'stock', 'discard', 'meld-button', 'layoff-button', 'discard-button',
    'hint-button'];
  const parts = [...document.querySelectorAll(ids.map((id) => `[data-testid=${id}]`).join(','))];
  const out = parts.filter((el) => {
    const r = el.getBoundingClientRect();
    return !r.width || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight;
  }).map((el) => `${el.dataset.testid} ${el.dataset.card || ''}`);
  return {out, count: parts.length, scrollY: window.scrollY};
}"""
"""The hand's cards, the two piles and the action buttons that are not wholly in the viewport
(as the page lies, unscrolled)."""

FIXED = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return Object.fromEntries(
    ['hand', 'meld-button', 'layoff-button', 'discard-button', 'hint-button'].map((id) => {
      const r = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
      return [id, [r.left, r.top, r.width, r.height]];
    }));
}"""
"""Where the hand's row and the action buttons are."""


@pytest.fixture
def sized(browser: Any, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page at the size the test is parametrized with (``PHONE`` by default)."""
    with fresh_page(browser, getattr(request, "param", PHONE), timeout_ms=15_000) as page:
        yield page


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def clocked_server(tmp_path: Path, clock: ManualClock) -> Iterator[LiveServer]:
    """A live server whose computer players wait their pace on ``clock``: between our
    turns the table stands still until the test moves time on."""
    server = LiveServer(tmp_path / "clocked.sqlite3", free_port(), clock.sleep)
    server.start()
    yield server
    server.stop()


def assert_in_view(page: Page, moment: str) -> None:
    seen = page.evaluate(IN_VIEW)
    assert seen["count"] >= 7, f"{moment}: the hand or the buttons are missing"
    assert seen["scrollY"] == 0, f"{moment}: the page had to scroll ({seen['scrollY']} px)"
    assert not seen["out"], f"{moment}: out of view: {seen['out']}"


def draw_from_stock(table: TablePage) -> dict[str, Any]:
    """Draw from the stock by a click; the view once the page shows it."""
    view = table.wait_turn_or_over()
    assert is_my_turn(view) and view["phase"] == "draw"
    table.page.get_by_test_id("stock").click()
    view = table.wait_applied(view["version"], "draw stock")
    table.wait_synced(view)
    return view


def play_computer_turns(table: TablePage, clock: ManualClock) -> None:
    """Move the clock on while the computer waits its pace, until it is our turn again."""

    def next_step() -> str | None:
        if is_my_turn(table.view()):
            return "ours"
        return "wait" if clock.sleeping() else None

    while wait_until(next_step, what="the computer to wait or our turn") == "wait":
        clock.advance(1.0)
    table.wait_turn_or_over()


def practice_seed() -> int:
    """A seed whose first practice deal the computer deals, so seat 0 plays first."""
    return next(s for s in itertools.count() if seeded_deal(s, 2, "practice")[0] == 1)


# ----- a phone: everything of a turn in view, for 2 to 8 seats ---------------------------------


def big_table(seats: int) -> dict[str, Any]:
    """The table's settings past six seats: two decks (``MAX_SEATS_ONE_DECK``)."""
    if seats <= MAX_SEATS_ONE_DECK:
        return {}
    return {"preset": "standard", "rules": {"decks": 2}}


@pytest.mark.parametrize("seats", [2, 3, 4, 6, 7, 8])
def test_phone_shows_hand_piles_and_buttons_together(
    sized: Page, live_server: LiveServer, seats: int, tmp_path: Path
) -> None:
    page = sized
    table_id, token = live_server.create_table(
        seed=seed_where_human_starts(seats, **big_table(seats)),
        opponents=["basic"] * (seats - 1),
        **big_table(seats),
    )
    table = TablePage(page, live_server, table_id, token).open()
    view = table.wait_turn_or_over()
    assert_in_view(page, "the start of the turn")
    view = draw_from_stock(table)
    assert_in_view(page, "after drawing")
    trio = not_a_meld(view["hand"])
    ClickPlayer(table).select(trio)
    assert_in_view(page, "three cards selected")
    if seats == 4:
        screenshot(page, "phone.png", tmp_path)
    page.get_by_test_id("meld-button").click()
    expect(page.get_by_test_id("message")).not_to_be_empty()
    assert_in_view(page, "a refusal shown")
    page.get_by_test_id("hint-button").click()
    expect(page.get_by_test_id("hint")).to_be_visible()
    assert_in_view(page, "the hint shown")
    # the other seats are chips: each says its cards and score on the phone
    chips = page.locator(".opponents [data-testid=seat]")
    expect(chips).to_have_count(seats - 1)
    expect(chips.locator("[data-testid=seat-score]")).to_have_count(seats - 1)


# ----- seven and eight seats: every other seat around the table, nothing sideways ---------------

SEAT_BOXES = """() => {
  const boxes = [...document.querySelectorAll('.opponents [data-testid=seat]')].map((el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  });
  return {boxes, width: document.documentElement.scrollWidth, inner: innerWidth};
}"""
"""Each other seat's box, and how wide the page is against the viewport."""


def overlaps(one: list[float], other: list[float]) -> bool:
    """Whether two boxes ``[left, top, right, bottom]`` share any area."""
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


@pytest.mark.parametrize("seats", [MAX_SEATS_ONE_DECK + 1, MAX_SEATS])
@pytest.mark.parametrize("sized", [DESKTOP, PHONE], indirect=True, ids=["desktop", "phone"])
def test_seven_or_eight_seats_sit_around_the_table_without_sideways_scroll(
    sized: Page, live_server: LiveServer, seats: int
) -> None:
    page = sized
    table_id, token = live_server.create_table(
        seed=seed_where_human_starts(seats, **big_table(seats)),
        opponents=["basic"] * (seats - 1),
        **big_table(seats),
    )
    table = TablePage(page, live_server, table_id, token).open()
    table.wait_turn_or_over()
    assert_in_view(page, f"{seats} seats, the start of the turn")
    laid = page.evaluate(SEAT_BOXES)
    assert laid["width"] <= laid["inner"], f"the page scrolls sideways ({laid['width']} px)"
    boxes = laid["boxes"]
    assert len(boxes) == seats - 1
    for box in boxes:
        assert box[0] >= 0 and box[2] <= laid["inner"], f"a seat is cut off: {box}"
    for one, other in itertools.combinations(boxes, 2):
        assert not overlaps(one, other), f"two seats overlap: {one} {other}"
    # each seat says where it sits, however many there are (the phone's chips say cards)
    positions = page.locator(".opponents [data-testid=seat]").all_inner_texts()
    assert len(set(positions)) == seats - 1
    draw_from_stock(table)
    assert_in_view(page, f"{seats} seats, after drawing")


# ----- nothing moves the hand or the buttons ---------------------------------------------------


@pytest.mark.parametrize("sized", [DESKTOP, PHONE], indirect=True, ids=["desktop", "phone"])
def test_messages_hints_and_explanations_move_nothing(sized: Page, live_server: LiveServer) -> None:
    page = sized
    table_id, token = live_server.create_table(
        practice=True, preset="practice", opponents=["strong"], seed=practice_seed()
    )
    table = TablePage(page, live_server, table_id, token).open()
    table.wait_turn_or_over()
    explain = page.get_by_test_id("explain")
    expect(explain).to_be_visible()
    before = page.evaluate(FIXED)
    view = draw_from_stock(table)
    assert page.evaluate(FIXED) == before, "the draw's explanation moved the hand or buttons"
    # a refusal
    ClickPlayer(table).select(not_a_meld(view["hand"]))
    page.get_by_test_id("meld-button").click()
    expect(page.get_by_test_id("message")).not_to_be_empty()
    assert page.evaluate(FIXED) == before, "a refusal moved the hand or buttons"
    # the hint
    page.get_by_test_id("hint-button").click()
    expect(page.get_by_test_id("hint")).to_be_visible()
    assert page.evaluate(FIXED) == before, "the hint moved the hand or buttons"
    # an explanation in three parts (or more), however long
    explain.evaluate(
        "el => { const ps = [...el.querySelectorAll('p')];"
        " while (el.querySelectorAll('p').length < 3) el.append(ps[0].cloneNode(true));"
        " el.querySelectorAll('p').forEach((p) => p.append(' ' + p.textContent)); }"
    )
    assert explain.locator("p").count() >= 3
    assert page.evaluate(FIXED) == before, "a long explanation moved the hand or buttons"
    assert_in_view(page, "everything shown at once")
    # the practice game's cost of your hand stays in view with them
    cost = page.get_by_test_id("hand-value")
    expect(cost).to_contain_text("In hand")
    expect(cost).to_be_in_viewport(ratio=1)


PILES_WATCH = """() => {
  window.piledAt = [];
  const piles = ['stock', 'discard'].map((id) => document.querySelector(`[data-testid=${id}]`));
  const note = () => {
    const at = piles.map((el) => {
      const r = el.getBoundingClientRect();
      return [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)];
    });
    const line = JSON.stringify(at);
    const said = [...document.querySelectorAll('[data-testid=log] li')].at(-1);
    if (window.piledAt.at(-1)?.at === line) return;
    window.piledAt.push({at: line, after: said?.textContent});
  };
  note();
  new MutationObserver(note).observe(document.querySelector('.board'),
    {subtree: true, childList: true, attributes: true, characterData: true});
}"""
"""Note where the stock and the discard pile are (left, top, width, height) after each change
of the board: every state the page is drawn in, painted or not, with the log's last line."""


@pytest.mark.parametrize("sized", [DESKTOP, PHONE], indirect=True, ids=["desktop", "phone"])
def test_the_piles_stay_put_while_a_computer_takes_from_the_pile(
    sized: Page, clocked_server: LiveServer, clock: ManualClock
) -> None:
    """Issue 27: the cards a seat takes from the pile are known to all until it plays them;
    they showed in a row of their own at its seat, which pushed the piles down for the
    computer's pace (0.6 s), until it melded them."""
    page = sized
    table_id, token = clocked_server.create_table(seed=seed_where_human_starts(2))
    table = TablePage(page, clocked_server, table_id, token).open()
    play_computer_turns(table, clock)  # the first view drawn, our turn shown
    page.evaluate(PILES_WATCH)
    clicks = ClickPlayer(table)
    took = re.compile(r"^(?!You).* took .* from the discard pile")
    log = page.get_by_test_id("log").locator("li")
    for _ in range(10):  # under this seed the computer takes our second discard
        view = table.wait_turn_or_over()
        assert view["phase"] != "over", "the deal ended before the computer took from the pile"
        while is_my_turn(view):
            action = simple_choice(view["legal"])
            clicks.play(action, view)
            view = table.wait_applied(view["version"], action)
        play_computer_turns(table, clock)
        if any(took.search(line) for line in log.all_inner_texts()):
            break
    else:
        raise AssertionError("the computer never took from the pile")
    placed = page.evaluate("window.piledAt")
    assert len(placed) == 1, f"the piles moved: {placed}"


LAST_MOVES_SHOWN = """() => [...document.querySelectorAll('.opponents [data-testid=seat-note]')]
  .map((note) => {
    const text = note.textContent;
    const last = text.lastIndexOf(' · ') + 3;
    const node = note.querySelector('.note-text').firstChild;
    const range = document.createRange();
    range.setStart(node, last);
    range.setEnd(node, text.length);
    const shown = range.getBoundingClientRect();
    const box = note.getBoundingClientRect();
    return {text, last: text.slice(last), inside: shown.left >= box.left - 1
      && shown.right <= box.right + 1};
  })"""
"""Each other seat's note: its words, its last move's, and whether that move lies within the
note's box (a line too long is cut, and the last move must not be what is cut)."""


def test_on_a_phone_each_seat_shows_the_card_it_discarded(
    sized: Page, live_server: LiveServer
) -> None:
    """Issue 27: "drew from the stock · drew from the stock · discar…": at three seats and
    more, a phone cut the note's end, which is the card just thrown."""
    page = sized
    table_id, token = live_server.create_table(
        seed=seed_where_human_starts(4), opponents=["basic"] * 3
    )
    table = TablePage(page, live_server, table_id, token).open()
    table.set_pace(0)
    table.play_actions(ClickPlayer(table), 2)  # our draw and discard, then theirs
    notes = page.evaluate(LAST_MOVES_SHOWN)
    assert len(notes) == 3, notes
    for note in notes:
        assert note["text"].count("drew from the stock") <= 1, note
        assert note["last"].startswith("discarded "), note
        assert note["inside"], f"the discarded card is cut off: {note}"


# ----- errors go when they stop being true -----------------------------------------------------


def test_an_out_of_turn_error_goes_when_your_turn_comes(
    page: Page, clocked_server: LiveServer, clock: ManualClock
) -> None:
    table_id, token = clocked_server.create_table(seed=seed_where_human_starts(2))
    table = TablePage(page, clocked_server, table_id, token).open()
    expect(page).to_have_title("● Your turn — rummykit")
    view = draw_from_stock(table)
    discard = next(action for action in view["legal"] if action.startswith("discard "))
    ClickPlayer(table).play(discard, view)
    table.wait_applied(view["version"], discard)
    # the computer's turn: it waits its pace on the test's clock
    expect(page).to_have_title("rummykit — table")
    page.get_by_test_id("stock").click()
    message = page.get_by_test_id("message")
    expect(message).to_contain_text(re.compile(r"turn", re.IGNORECASE))
    play_computer_turns(table, clock)
    expect(message).to_be_empty()
    expect(page).to_have_title("● Your turn — rummykit")
    # the computer's turn stays at its seat: what it drew and what it discarded
    note = page.locator(".opponents [data-testid=seat-note]")
    expect(note).to_have_count(1)
    expect(note).to_contain_text(re.compile(r"^(drew from the stock|took .+) · .*discarded .+$"))


@pytest.mark.expected_console(SOCKET_REFUSED)  # the server is stopped on purpose
def test_not_connected_goes_once_connected(page: Page, live_server: LiveServer) -> None:
    table_id, token = live_server.create_table(seed=seed_where_human_starts(2))
    table = TablePage(page, live_server, table_id, token).open()
    table.wait_turn_or_over()
    connection = page.get_by_test_id("connection")
    live_server.stop()
    expect(connection).to_have_attribute("data-state", "bad")
    page.get_by_test_id("stock").click()
    message = page.get_by_test_id("message")
    expect(message).to_contain_text("Not connected")
    live_server.start()
    expect(connection).to_have_attribute("data-state", "ok", timeout=20_000)
    expect(message).to_be_empty()


# ----- the dark theme --------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_theme_follows_the_system(
    page: Page, live_server: LiveServer, scheme: Literal["dark", "light"]
) -> None:
    page.emulate_media(color_scheme=scheme)
    table_id, token = live_server.create_table(seed=seed_where_human_starts(2))
    TablePage(page, live_server, table_id, token).open()
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    channels = [int(c) for c in re.findall(r"\d+", background)[:3]]
    if scheme == "dark":
        assert max(channels) < 60, background
    else:
        assert min(channels) > 200, background
    # the cards keep their paper in both themes, and the four-colour deck its colours
    card = page.get_by_test_id("hand-card").first
    paper_colour = card.evaluate("e => getComputedStyle(e).backgroundColor")
    paper = [int(c) for c in re.findall(r"\d+", paper_colour)[:3]]
    assert min(paper) > 200, paper
    page.get_by_test_id("four-colour").check()
    clubs = page.evaluate(
        "() => getComputedStyle(document.body).getPropertyValue('--clubs').trim()"
    )
    assert clubs == "#1b7a2e"
