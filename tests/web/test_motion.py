"""Cards that move, your hand in your own order, and sound, in a real browser.

- Dragging a card (a mouse on the desktop, a finger on the phone) or Shift+arrows moves it
  in the hand; the order survives a reload; the sorts keep a new card in its sorted place,
  the player's own order puts it at the right end.
- A draw makes a flight over the page while the hand already holds the drawn card; a key, a
  click or the next view ends the flights; under ``prefers-reduced-motion`` there is none.
- The sound is off by default and makes no AudioContext until the player turns it on.

The flights are watched through ``Element.prototype.animate`` (an init script records each
flight and, when asked, holds it paused so that the test sees it without racing its 260 ms).
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from rummykit.core.cards import Card
from table_client import LiveSocket, SeatSocket, seed_where_human_starts, simple_choice
from web_helpers import HAND_CARDS, ClickPlayer, TablePage, fresh_page

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "has_touch": True,
        "is_mobile": True,
    },
}

RECORD_FLIGHTS = """
window.__flights = [];
window.__holdFlights = false;
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  const anim = animate.call(this, keyframes, options);
  if (options && options.id === "rummy-flight") {
    if (window.__holdFlights) anim.pause();
    const hand = [...document.querySelectorAll("[data-testid=hand-card]")]
      .map((e) => e.dataset.card).sort();
    window.__flights.push({ anim, ghost: this.classList.contains("flying"), hand });
  }
  return anim;
};
"""
"""Records each flight: its animation, whether it moves a ghost, and the hand's DOM then."""

COUNT_AUDIO = """
window.__audio = { contexts: 0, tones: 0 };
class FakeParam { setValueAtTime() {} exponentialRampToValueAtTime() {} }
class FakeNode {
  constructor() { this.gain = new FakeParam(); this.frequency = new FakeParam(); }
  connect() {} start() {} stop() {}
}
window.AudioContext = class {
  constructor() { window.__audio.contexts += 1; this.state = "running"; this.currentTime = 0;
    this.destination = new FakeNode(); }
  createOscillator() { window.__audio.tones += 1; return new FakeNode(); }
  createGain() { return new FakeNode(); }
  resume() { return Promise.resolve(); }
};
"""
"""Stands in for the Web Audio API: counts the contexts made and the tones played."""

HAND_IS = """(want) => JSON.stringify([...document.querySelectorAll('[data-testid=hand-card]')]
  .map((card) => card.dataset.card)) === JSON.stringify(want)"""

FLIGHTS_RUNNING = (
    "() => document.getAnimations().filter((a) => a.id === 'rummy-flight'"
    " && a.playState !== 'finished').length"
)


@contextlib.contextmanager
def sized_page(browser: Any, size: str, **options: Any) -> Iterator[Any]:
    """A fresh page at ``size`` (``SIZES``); errors in the page fail the test."""
    sized = dict(SIZES[size])
    viewport = sized.pop("viewport")
    with fresh_page(browser, viewport, **sized, **options) as page:
        yield page


def open_table(page: Any, server: Any, human_starts: bool = True) -> TablePage:
    """A two-seat table (one basic computer) whose first turn is ours, opened in ``page``."""
    seed = seed_where_human_starts() if human_starts else 3
    table_id, token = server.create_table(seed=seed)
    return TablePage(page, server, table_id, token).open()


def wait_hand_is(table: TablePage, codes: list[str]) -> None:
    table.page.wait_for_function(HAND_IS, arg=codes)


def center(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Any, card: Any, to: tuple[float, float], finger: bool) -> None:
    """Drag ``card`` to the point ``to``: with the mouse, or a finger (Chromium's touch input)."""
    (x, y), (tx, ty) = center(card), to
    path = [(x + 14 * i, y) for i in range(1, 3)] + [
        (x + (tx - x) * i / 8, y + (ty - y) * i / 8) for i in range(1, 9)
    ]
    if not finger:
        page.mouse.move(x, y)
        page.mouse.down()
        for px, py in path:
            page.mouse.move(px, py)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, *points: tuple[float, float]) -> None:
        at = [{"x": px, "y": py} for px, py in points]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": at})

    touch("touchStart", (x, y))
    for point in path:
        touch("touchMove", point)
    touch("touchEnd")


def past_the_last_card(page: Any) -> tuple[float, float]:
    """A point just right of the middle of the hand's last card."""
    last = page.locator(HAND_CARDS).last
    box = last.bounding_box()
    assert box is not None
    return box["x"] + box["width"] * 0.85, box["y"] + box["height"] / 2


def drawn_card(before: list[str], after: list[str]) -> str:
    """The one card in ``after`` that ``before`` lacks."""
    (code,) = (Counter(after) - Counter(before)).elements()
    return code


def draw_from_stock(table: TablePage) -> str:
    """Press S on our turn; the card drawn, once the page shows it."""
    before = table.wait_turn_or_over()
    assert before["phase"] == "draw", before["phase"]
    table.page.keyboard.press("s")
    after = table.wait_applied(before["version"], "draw stock")
    table.wait_synced(after)
    return drawn_card(before["hand"], after["hand"])


def play_out_the_turn(table: TablePage) -> dict[str, Any]:
    """Play our turn to its discard with clicks; the view when our next turn (or the end) comes."""
    player = ClickPlayer(table)
    view = table.wait_turn_or_over()
    while view["phase"] != "over" and view["turn"] == view["seat"]:
        action = simple_choice(view["legal"])
        player.play(action, view)
        view = table.wait_applied(view["version"], action)
    return table.wait_turn_or_over()


def table_with_a_meld(server: Any) -> tuple[str, str, str]:
    """A table whose first turn is ours and whose hand holds a meld once we have drawn from
    the stock (drawn over a socket): its id, its token and the meld."""
    start = 0
    for _ in range(50):
        seed = seed_where_human_starts(start=start)
        start = seed + 1
        table_id, token = server.create_table(seed=seed)
        with server.seat_socket(table_id, token) as websocket:
            seat = SeatSocket(LiveSocket(websocket))
            seat.my_turn_view()
            legal = seat.act("draw stock")["d"]["legal"]
        melds = [action for action in legal if action.startswith("meld ")]
        if melds:
            return table_id, token, melds[0]
    raise AssertionError("no seed gives a meld on the first turn")


def suit_sorted(codes: list[str]) -> bool:
    cards = [Card.parse(code) for code in codes]
    keys = [("shcd".index(str(card)[-1]), int(card.rank or 0)) for card in cards]
    return keys == sorted(keys)


# ----- your hand in your own order -------------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_dragging_a_card_moves_it_and_a_reload_keeps_the_order(
    browser: Any, live_server: Any, size: str
) -> None:
    with sized_page(browser, size) as page:
        table = open_table(page, live_server, human_starts=False)
        hand = table.hand()
        first = page.locator(HAND_CARDS).first
        drag(page, first, past_the_last_card(page), finger=size == "phone")
        moved = hand[1:] + hand[:1]
        wait_hand_is(table, moved)
        # a drag is not a click: nothing was selected, and neither sort is on any more
        expect(page.locator(f"{HAND_CARDS}[aria-pressed=true]")).to_have_count(0)
        expect(page.get_by_test_id("sort-rank")).to_have_attribute("aria-pressed", "false")
        expect(page.get_by_test_id("sort-suit")).to_have_attribute("aria-pressed", "false")
        page.reload()
        table.wait_hand()
        wait_hand_is(table, moved)


def test_shift_arrows_move_the_card_the_focus_is_on(page: Any, live_server: Any) -> None:
    table = open_table(page, live_server, human_starts=False)
    hand = table.hand()
    page.keyboard.press("ArrowRight")  # the focus comes to the first card
    page.keyboard.press("Shift+ArrowRight")
    wait_hand_is(table, [hand[1], hand[0], *hand[2:]])
    focused = page.evaluate("() => document.activeElement.dataset.card")
    assert focused == hand[0], "the focus stays on the card that moved"
    expect(page.get_by_test_id("hand-moved")).not_to_be_empty()
    page.keyboard.press("Shift+ArrowLeft")
    page.keyboard.press("Shift+ArrowLeft")  # already first: stays
    wait_hand_is(table, hand)
    expect(page.get_by_test_id("hand-help")).to_contain_text("Shift")

    page.get_by_test_id("lang").select_option("ja")  # the table is drawn again, in Japanese
    expect(page.get_by_test_id("sort-suit")).to_have_text("スート順")
    expect(page.get_by_test_id("hand-help")).to_contain_text("ドラッグ")
    expect(page.get_by_test_id("sound-setting")).to_have_accessible_name(re.compile("音"))
    table.wait_hand()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    wait_hand_is(table, [hand[1], hand[0], *hand[2:]])


def test_a_sort_places_new_cards_and_your_own_order_puts_them_last(
    page: Any, live_server: Any
) -> None:
    table = open_table(page, live_server)
    table.set_pace(0)
    page.get_by_test_id("sort-suit").click()
    expect(page.get_by_test_id("sort-suit")).to_have_attribute("aria-pressed", "true")
    assert suit_sorted(table.hand())
    draw_from_stock(table)
    assert suit_sorted(table.hand()), "after a sort, the drawn card goes to its sorted place"

    drag(page, page.locator(HAND_CARDS).first, past_the_last_card(page), finger=False)
    expect(page.get_by_test_id("sort-suit")).to_have_attribute("aria-pressed", "false")
    view = play_out_the_turn(table)
    assert view["phase"] == "draw", "the deal ended before our second turn"
    own = table.hand()
    code = draw_from_stock(table)
    wait_hand_is(table, [*own, code])  # the player's own order: the new card at the right end

    page.get_by_test_id("sort-rank").click()
    ranks = [int(Card.parse(card).rank or 99) for card in table.hand()]
    assert ranks == sorted(ranks)


# ----- cards that move ------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_draw_flies_over_a_hand_that_already_holds_the_card(
    browser: Any, live_server: Any, size: str
) -> None:
    with sized_page(browser, size) as page:
        page.add_init_script(RECORD_FLIGHTS)
        table = open_table(page, live_server)
        table.set_pace(3000)  # the computer waits: only our moves fly here
        page.evaluate("() => { window.__holdFlights = true; }")
        before = table.hand()
        code = draw_from_stock(table)
        page.wait_for_function("() => window.__flights.some((f) => f.ghost)")
        flights = page.evaluate(
            "() => window.__flights.map((f) => ({ghost: f.ghost, hand: f.hand}))"
        )
        assert flights[0]["hand"] == sorted([*before, code]), "the hand was final before the flight"
        expect(page.locator(".card.flying")).to_have_count(1)
        assert page.evaluate(FLIGHTS_RUNNING) > 0
        expect(page.locator(f'{HAND_CARDS}[data-card="{code}"]')).to_have_count(1)

        page.keyboard.press("Shift")  # any key ends the flights at once
        expect(page.locator(".card.flying")).to_have_count(0)
        assert page.evaluate(FLIGHTS_RUNNING) == 0


def test_the_next_view_or_a_click_ends_the_flights(page: Any, live_server: Any) -> None:
    page.add_init_script(RECORD_FLIGHTS)
    table = open_table(page, live_server)
    table.set_pace(0)
    draw_from_stock(table)
    page.evaluate("() => { window.__holdFlights = true; window.__flights = []; }")
    view = table.view()
    discard = next(action for action in view["legal"] if action.startswith("discard"))
    ClickPlayer(table).play(discard, view)
    # our discard flies from the hand to the pile; the computer's moves come next
    page.wait_for_function("() => window.__flights.length > 0")
    page.wait_for_function("() => window.__flights[0].anim.playState === 'finished'")
    table.wait_turn_or_over()
    page.wait_for_function(f"() => ({FLIGHTS_RUNNING})() > 0 || window.__flights.length > 2")
    page.get_by_test_id("log").click()
    assert page.evaluate(FLIGHTS_RUNNING) == 0
    expect(page.locator(".card.flying")).to_have_count(0)


def test_a_meld_flies_from_the_hand_to_the_table(page: Any, live_server: Any) -> None:
    page.add_init_script(RECORD_FLIGHTS)
    table_id, token, meld = table_with_a_meld(live_server)
    table = TablePage(page, live_server, table_id, token).open()
    view = table.view()
    table.wait_synced(view)
    page.evaluate("() => { window.__holdFlights = true; }")
    ClickPlayer(table).play(meld, view)
    played = meld.split()[1:]
    page.wait_for_function(
        "(n) => window.__flights.filter((f) => f.ghost).length === n", arg=len(played)
    )
    left = sorted((Counter(view["hand"]) - Counter(played)).elements())
    assert page.evaluate("() => window.__flights[0].hand") == left
    expect(page.get_by_test_id("meld-0").locator(".card")).to_have_count(len(played))
    expect(page.locator(".card.flying")).to_have_count(len(played))
    page.mouse.click(5, 5)  # a click anywhere ends them
    expect(page.locator(".card.flying")).to_have_count(0)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_flight_under_reduced_motion(browser: Any, live_server: Any, size: str) -> None:
    with sized_page(browser, size, reduced_motion="reduce") as page:
        page.add_init_script(RECORD_FLIGHTS)
        table = open_table(page, live_server)
        table.set_pace(3000)
        draw_from_stock(table)
        assert page.evaluate("() => document.getAnimations().length") == 0
        assert page.evaluate("() => window.__flights.length") == 0
        expect(page.get_by_test_id("motion-reduced")).to_be_attached()


def test_the_moving_cards_setting_turns_them_off(page: Any, live_server: Any) -> None:
    page.add_init_script(RECORD_FLIGHTS)
    table = open_table(page, live_server)
    table.set_pace(3000)
    setting = page.get_by_test_id("motion-setting")
    expect(setting).to_be_checked()
    setting.uncheck()
    page.reload()
    table.wait_hand()
    expect(page.get_by_test_id("motion-setting")).not_to_be_checked()
    draw_from_stock(table)
    assert page.evaluate("() => window.__flights.length") == 0


# ----- sound -----------------------------------------------------------------------------------


def test_sound_is_off_until_turned_on(page: Any, live_server: Any) -> None:
    page.add_init_script(COUNT_AUDIO)
    table = open_table(page, live_server)
    table.set_pace(0)
    toggle = page.get_by_test_id("sound-setting")
    expect(toggle).not_to_be_checked()
    view = play_out_the_turn(table)  # our turn comes again: silent while the sound is off
    assert view["phase"] == "draw"
    assert page.evaluate("() => window.__audio") == {"contexts": 0, "tones": 0}

    toggle.check()
    assert page.evaluate("() => window.__audio.contexts") == 1
    tones = page.evaluate("() => window.__audio.tones")
    assert tones > 0, "turning the sound on plays a short tone"
    play_out_the_turn(table)
    page.wait_for_function("(tones) => window.__audio.tones > tones", arg=tones)

    page.reload()
    table.wait_hand()
    expect(page.get_by_test_id("sound-setting")).to_be_checked()
