"""Parties in a real browser: friends at one table, each in a browser context of their own.

The host makes a party in the lobby, a second person joins by the invite link and a third by
the code read aloud; they mark ready (a rules change clears it), the host starts, and they
play. What each seat plays is decided from its view on the server (``simple_choice``) and
played with clicks on that person's page (``web_helpers``). A spectator watches by the link.
Drops run on a short grace (``ServerConfig(drop_grace_s=..., bye_grace_s=...)``), the turn
timer on a ``ManualClock``: no test waits for real seconds to pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ports import free_port
from rummykit.protocol import TIME_RAN_OUT
from rummykit.server.parties.party_reference import CODE_MISSES_PER_MINUTE
from rummykit.server.tables.table_words import REACTIONS_PER_WINDOW
from table_client import LiveServer, ManualClock, simple_choice
from web_helpers import (
    ClickPlayer,
    People,
    TablePage,
    is_my_turn,
    screenshot,
    violations,
    wait_until,
)

pytestmark = [pytest.mark.e2e, pytest.mark.heavy]

GRACE_S = 0.3
"""The grace before the computer plays a dropped seat's turn, in these tests."""


@contextlib.contextmanager
def serving(
    tmp_path: Path,
    clock: ManualClock | None = None,
    drop_grace_s: float = GRACE_S,
    *,
    people: People | None = None,
) -> Iterator[LiveServer]:
    """A live server with a short grace for seats whose page said ``bye`` (and ``drop_grace_s``
    for those who just dropped), on ``clock``'s time if one is given. The ``people``'s pages
    close before the server stops: a page left open would try to reconnect to it, and log
    that the socket was refused."""
    path, port = tmp_path / "tables.sqlite3", free_port()
    sleep, now = (clock.sleep, clock.time) if clock is not None else (asyncio.sleep, time.time)
    server = LiveServer(path, port, sleep, now=now, drop_grace_s=drop_grace_s, bye_grace_s=GRACE_S)
    server.start()
    try:
        yield server
    finally:
        if people is not None:
            people.close()
        server.stop()


# ----- the party's lobby ------------------------------------------------------------------------


def host_party(page: Page, server: LiveServer, name: str) -> str:
    """Make a party from the lobby; its code."""
    page.goto(server.url + "/")
    page.get_by_test_id("friends-name").fill(name)
    page.get_by_test_id("play-with-friends").click()
    page.wait_for_url("**/#/party/*")
    code = page.get_by_test_id("party-code")
    expect(code).to_have_text(re.compile(r"^[A-Z0-9]{4,12}$"))
    expect(page.get_by_test_id("member")).to_have_text([re.compile(f"{name}.*host")])
    return code.inner_text()


def join_by_link(page: Page, link: str, name: str) -> None:
    page.goto(link)
    join_here(page, name)


def join_by_code(page: Page, server: LiveServer, code: str, name: str) -> None:
    page.goto(server.url + "/")
    page.get_by_test_id("join-code").fill(" ".join(code.lower()))  # as heard, in small letters
    page.get_by_test_id("join-with-code").click()
    join_here(page, name)


def join_here(page: Page, name: str) -> None:
    """On the invite page: the name, then Join; wait for the party's lobby."""
    expect(page.get_by_test_id("party-about")).to_contain_text("invites you")
    page.get_by_test_id("party-name").fill(name)
    page.get_by_test_id("join-party").click()
    expect(page.get_by_test_id("members")).to_contain_text(name)


def member(page: Page, name: str) -> Any:
    return page.get_by_test_id("member").filter(has_text=name)


def mark_ready(page: Page, name: str) -> None:
    page.get_by_test_id("ready-toggle").click()
    expect(page.get_by_test_id("ready-toggle")).to_have_attribute("aria-pressed", "true")
    expect(member(page, name)).to_have_attribute("data-ready", "true")


def seat_of(page: Page, server: LiveServer, after: str | None = None) -> TablePage:
    """The table page a party's start (or a rematch after table ``after``) took this person
    to, with its seat's token."""
    page.wait_for_url(
        lambda url: "#/table/" in url and not url.endswith(f"/{after}"), timeout=15_000
    )
    table_id = page.url.split("#/table/", 1)[1]
    token = page.evaluate("id => localStorage.getItem('rummykit.seat.' + id)", table_id)
    assert token, "the party page kept no seat token for the table"
    table = TablePage(page, server, table_id, token)
    table.wait_hand()
    return table


def start_party(
    people: People, server: LiveServer, names: list[str], timer: str | None = None
) -> tuple[list[Page], str]:
    """The first name hosts, the second joins by link, the rest by code; all ready; started.
    The pages (in seat order) and the party's code."""
    pages = [people.new_page() for _ in names]
    code = host_party(pages[0], server, names[0])
    link = pages[0].get_by_test_id("invite-link").input_value()
    for index, (page, name) in enumerate(zip(pages[1:], names[1:], strict=True)):
        if index == 0:
            join_by_link(page, link, name)
        else:
            join_by_code(page, server, code, name)
    if timer is not None:
        pages[0].get_by_test_id("party-timer").select_option(timer)
    for page, name in zip(pages[1:], names[1:], strict=True):  # the host's Start is theirs
        expect(page.get_by_test_id("members").get_by_test_id("member")).to_have_count(len(names))
        mark_ready(page, name)
    start = pages[0].get_by_test_id("start-party")
    expect(start).to_be_enabled()
    start.click()
    return pages, code


# ----- playing together -----------------------------------------------------------------------


def play_one(tables: list[TablePage]) -> dict[str, Any] | None:
    """Play one action for whichever person's turn it is (after the computer's, if it is
    one's); the view after it, or None once the deal is over."""

    def someone_to_act() -> tuple[TablePage, dict[str, Any]] | None:
        for table in tables:
            view = table.view()
            if view["phase"] == "over" or is_my_turn(view):
                return table, view
        return None

    table, view = wait_until(someone_to_act, what="a person's turn or the deal's end")
    if view["phase"] == "over":
        return None
    table.wait_synced(view)
    action = simple_choice(view["legal"])
    ClickPlayer(table).play(action, view)
    return table.wait_applied(view["version"], action)


def play_deal(tables: list[TablePage], limit: int = 400) -> None:
    """Play until the deal is over."""
    for _ in range(limit):
        if play_one(tables) is None:
            return
    raise AssertionError(f"the deal went on past {limit} actions")


# ----- the tests --------------------------------------------------------------------------------


@pytest.mark.timeout(180)
def test_friends_make_a_party_play_a_deal_with_a_spectator_and_start_the_rematch(
    people: People, tmp_path: Path
) -> None:
    with serving(tmp_path, people=people) as server:
        ada, bo, cy = (people.new_page() for _ in range(3))
        code = host_party(ada, server, "Ada")
        expect(ada.get_by_test_id("start-party")).to_be_disabled()
        expect(ada.get_by_test_id("start-why")).to_contain_text("at least 2 players")
        link = ada.get_by_test_id("invite-link").input_value()
        # the link: the code and a key of 128 bits, which the code alone cannot be guessed to
        assert re.fullmatch(rf"{re.escape(server.url)}/#/party/{code}\.[A-Za-z0-9_-]{{22}}", link)
        join_by_link(bo, link, "Bo")
        join_by_code(cy, server, code, "Cy")
        for page in (ada, bo, cy):  # everyone sees everyone, in seat order, by name
            expect(page.get_by_test_id("member")).to_have_text(
                [re.compile(r"Ada.*host"), re.compile("Bo"), re.compile("Cy")]
            )
        mark_ready(bo, "Bo")
        expect(ada.get_by_test_id("start-why")).to_have_text("Waiting for Cy to be ready.")
        # the host changes the rules: to 50, the stock renewed once at most (a deal that cannot
        # end stops), one deal; Bo's ready is cleared, and Bo is told
        ada.get_by_test_id("party-rule-target").select_option(label="50 points")
        ada.get_by_test_id("party-rule-renewals").select_option(label="Once")
        ada.get_by_test_id("more-rules").locator("summary").click()
        ada.get_by_test_id("party-rule-deals-none").uncheck()
        expect(bo.get_by_test_id("party-message")).to_contain_text("mark ready again")
        expect(member(ada, "Bo")).to_have_attribute("data-ready", "false")
        deals = ada.get_by_test_id("party-rule-deals")
        deals.fill("1")
        deals.dispatch_event("change")
        expect(bo.get_by_test_id("party-rule-deals")).to_have_value("1")
        expect(bo.get_by_test_id("party-rule-target")).to_have_value("50")
        expect(bo.get_by_test_id("party-rule-target")).to_be_disabled()  # only the host's
        for page, name in ((bo, "Bo"), (cy, "Cy")):
            mark_ready(page, name)
        expect(ada.get_by_test_id("start-party")).to_be_enabled()
        ada.get_by_test_id("more-rules").locator("summary").click()  # folded again
        ada.evaluate("window.scrollTo(0, 0)")
        screenshot(ada, "party.png", tmp_path)
        ada.get_by_test_id("start-party").click()
        tables = [seat_of(page, server) for page in (ada, bo, cy)]
        first = tables[0].table_id
        assert {table.table_id for table in tables} == {first}
        view = tables[1].view()
        assert view["party"] == code and view["rules"]["target"] == 50
        assert view["rules"]["renewals"] == 1 and view["rules"]["deals"] == 1
        assert [player["name"] for player in view["players"]] == ["Ada", "Bo", "Cy"]
        assert [table.view()["seat"] for table in tables] == [0, 1, 2]
        # names at the seats, each person their own hand only
        expect(bo.get_by_test_id("seat-name")).to_have_text(["Cy", "Ada", "You (Bo)"])
        # a friend watches by the link: too late to join, so no name box and no Join (issue
        # 27: they stayed, Join greyed out), but "Watch"
        dee = people.new_page()
        dee.goto(link)
        expect(dee.get_by_test_id("party-about")).to_contain_text("too late to join")
        expect(dee.get_by_test_id("party-name")).to_be_hidden()
        expect(dee.get_by_test_id("join-party")).to_be_hidden()
        expect(dee.get_by_test_id("watch-instead")).to_have_text("Watch")
        dee.get_by_test_id("watch-instead").click()
        dee.wait_for_url(f"**/#/watch/{first}")
        expect(dee.get_by_test_id("watching-badge")).to_be_visible()
        expect(dee.locator("[data-testid=seat]:visible")).to_have_count(3)
        expect(dee.get_by_test_id("hand-card")).to_have_count(0)
        expect(ada.get_by_test_id("watching-badge")).to_be_hidden()
        # a quick reaction shows at the sender's seat on the others' pages
        cy.get_by_test_id("react-good_luck").click()
        for page in (ada, bo, dee):
            bubble = page.locator("[data-testid=seat][data-name=Cy] [data-testid=reaction-bubble]")
            expect(bubble).to_have_text("Good luck")
        # too many at once: refused quietly, by the reactions, not as an alert
        for _ in range(REACTIONS_PER_WINDOW):
            cy.get_by_test_id("react-thanks").click()
        expect(cy.get_by_test_id("reaction-note")).to_contain_text("Easy there")
        # (the message line may hold a notice such as "Bo is back", never the refusal)
        expect(cy.get_by_test_id("message")).not_to_contain_text("Easy there")
        expect(cy.get_by_test_id("message")).not_to_have_attribute("data-kind", "refusal")
        play_deal(tables)
        for page in (ada, bo, cy):
            expect(page.get_by_test_id("rematch")).to_have_text("Rematch")
        expect(dee.get_by_test_id("status")).to_contain_text("The game is over")
        # Bo asks for the rematch first: the others' button becomes "Join the rematch"
        bo.get_by_test_id("rematch").click()
        second = seat_of(bo, server, after=first)
        assert second.table_id != first
        for page in (ada, cy):
            join = page.get_by_test_id("rematch")
            expect(join).to_have_text("Join the rematch")
            join.click()
            assert seat_of(page, server, after=first).table_id == second.table_id
        expect(dee.get_by_test_id("watch-rematch")).to_be_visible()
        dee.get_by_test_id("watch-rematch").click()
        dee.wait_for_url(f"**/#/watch/{second.table_id}")
        expect(dee.locator("[data-testid=seat]:visible")).to_have_count(3)
        rematch = second.view()
        assert rematch["deal"] == 0 and rematch["rules"]["target"] == 50


def seat_clock(page: Page, name: str) -> Any:
    """The turn's clock at the seat of ``name`` on ``page``."""
    return page.locator(f"[data-testid=seat][data-name={name}] [data-testid=seat-clock]")


def turn_or_end(table: TablePage, seat: int) -> dict[str, Any]:
    """The view once it is ``seat``'s turn, or once the deal is over."""

    def now() -> dict[str, Any] | None:
        view = table.view()
        return view if view["turn"] == seat or view["phase"] == "over" else None

    return wait_until(now, what=f"seat {seat}'s turn or the deal's end")


def turn_of(table: TablePage, seat: int) -> dict[str, Any]:
    """Play (for whoever's turn it is) until it is ``seat``'s turn; its view."""

    def now() -> dict[str, Any] | None:
        view = table.view()
        return view if view["turn"] == seat and view["phase"] != "over" else None

    return wait_until(now, what=f"seat {seat}'s turn")


@pytest.mark.timeout(120)
def test_once_guessers_spend_the_wrong_codes_a_code_says_to_use_the_link_and_the_link_works(
    people: People, tmp_path: Path
) -> None:
    with serving(tmp_path, people=people) as server:
        ada, bo, cy = (people.new_page() for _ in range(3))
        code = host_party(ada, server, "Ada")
        link = ada.get_by_test_id("invite-link").input_value()
        guesses = [f"ZZZZ{first}{second}" for first in "23456" for second in "23456789"]
        for guess in guesses[:CODE_MISSES_PER_MINUTE]:  # a guesser's misses, site-wide
            assert urllib_status(f"{server.url}/api/parties/{guess}") == 404
        people.expected.append("429 (Too Many Requests) at */api/parties/")  # on purpose
        cy.goto(f"{server.url}/#/party/{code}")  # the right code, read aloud, gets no answer
        expect(cy.get_by_test_id("party-about")).to_contain_text("invite link")
        join_by_link(bo, link, "Bo")  # the link still seats at once
        expect(ada.get_by_test_id("member")).to_have_text([re.compile("Ada"), re.compile("Bo")])


def urllib_status(url: str) -> int:
    """The status of a GET of ``url``."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        with error:
            return error.code


@pytest.mark.timeout(120)
def test_a_reload_keeps_the_seat_and_the_computer_plays_for_one_who_closed_the_page(
    people: People, tmp_path: Path
) -> None:
    # a page closed says bye: its short grace applies, not the minute of a dropped connection
    with serving(tmp_path, drop_grace_s=60, people=people) as server:
        (ada, bo), _ = start_party(people, server, ["Ada", "Bo"])
        tables = [seat_of(page, server) for page in (ada, bo)]
        ada_table, bo_table = tables
        ada_table.set_pace(0)
        # play into the deal until it is Ada's turn again after a turn of Bo's
        while True:
            after = play_one(tables)
            assert after is not None, "the deal ended before both had played"
            if after["seat"] == 1 and after["turn"] == 0:
                break
        # Bo reloads while Ada is to play: back in the seat, the same hand, the same names
        hand = sorted(bo_table.view()["hand"])
        bo.reload()
        bo_table.wait_hand()
        assert sorted(bo_table.hand()) == hand
        expect(bo.get_by_test_id("seat-name")).to_have_text(["Ada", "You (Bo)"])
        expect(bo.get_by_test_id("status")).to_contain_text("Ada is thinking")
        # Bo closes the page; Ada plays her turn; after the grace the computer plays Bo's
        bo.close()
        bo_seat = ada.locator("[data-testid=seat][data-name=Bo]")
        expect(bo_seat.get_by_test_id("seat-mark")).to_have_text(["disconnected"])
        before = turn_of(ada_table, 0)
        while (played := play_one([ada_table])) is not None and played["turn"] == 0:
            pass
        expect(ada.get_by_test_id("log")).to_contain_text(
            re.compile(r"The computer is playing for Bo\b")
        )
        expect(bo_seat.get_by_test_id("seat-mark")).to_have_text(
            ["disconnected", "computer playing"]
        )
        # the computer plays Bo's whole turn: back to Ada, or the deal over if it went out
        # (the live server's decks are random; CI once dealt it the cards to go out)
        back_to_ada = turn_or_end(ada_table, 0)
        assert back_to_ada["version"] >= before["version"] + 3
        # Bo comes back on the same device: the seat, and Ada is told
        bo_again = people.new_page(people.contexts[1])
        bo_again.goto(f"{server.url}/#/table/{ada_table.table_id}")
        TablePage(bo_again, server, ada_table.table_id, bo_table.token).wait_hand()
        expect(ada.get_by_test_id("log")).to_contain_text(re.compile(r"Bo( \(\w+\))? is back\."))
        expect(bo_seat.get_by_test_id("seat-mark")).to_have_count(0)
        assert not ada_table.view()["players"][1]["stand_in"]


@pytest.mark.timeout(120)
def test_new_game_at_a_party_table_asks_first_and_says_the_computer_takes_the_seat(
    people: People, tmp_path: Path
) -> None:
    """Issue 27: "New game" left for the lobby at once, and the computer took the seat."""
    with serving(tmp_path, people=people) as server:
        pages, _ = start_party(people, server, ["Ada", "Bo"])
        ada = seat_of(pages[0], server).page
        seat_of(pages[1], server)
        asked: list[str] = []

        def answer(accept: bool) -> None:
            def on_dialog(dialog: Any) -> None:
                asked.append(dialog.message)
                (dialog.accept if accept else dialog.dismiss)()

            ada.once("dialog", on_dialog)

        answer(False)
        ada.get_by_test_id("new-game").click()
        wait_until(lambda: asked, what="New game to ask first")
        assert "the computer plays your seat" in asked[0], asked
        expect(ada.get_by_test_id("hand")).to_be_visible()  # "no": still at the table
        assert "#/table/" in ada.url
        answer(True)
        ada.get_by_test_id("new-game").click()
        ada.wait_for_url(f"{server.url}/#/")
        assert len(asked) == 2


@pytest.mark.timeout(120)
def test_the_turn_timer_runs_out_for_one_player_and_the_computer_plays_it(
    people: People, tmp_path: Path
) -> None:
    clock = ManualClock()
    with serving(tmp_path, clock, people=people) as server:
        pages, _ = start_party(people, server, ["Ada", "Bo"], timer="30")
        tables = [seat_of(page, server) for page in pages]
        view = tables[0].view()
        assert view["turn_timer"] == 30 and view["deadline"] == clock.time() + 30
        timed, other = tables[view["turn"]], tables[1 - view["turn"]]
        name = view["players"][view["turn"]]["name"]
        countdown = timed.page.get_by_test_id("turn-timer")
        expect(countdown).to_have_text(re.compile(r"^Time left for your turn: 0:[0-3]\d$"))
        # the other sees the same clock running, in the status strip and at the seat
        expect(other.page.get_by_test_id("turn-timer")).to_have_text(
            re.compile(f"^Time left for {name}: 0:[0-3]\\d$")
        )
        expect(seat_clock(other.page, name)).to_have_text(re.compile(r"^0:[0-3]\d$"))
        clock.advance(view["deadline"] - clock.time() + 1)
        expect(timed.page.get_by_test_id("log")).to_contain_text(TIME_RAN_OUT)
        expect(other.page.get_by_test_id("log")).to_contain_text(
            re.compile(f"The time ran out for {name}\\b")
        )
        # the turn went on to the other player, with a fresh deadline and their countdown
        after = turn_of(other, 1 - view["turn"])
        assert after["deadline"] == clock.time() + 30
        expect(other.page.get_by_test_id("turn-timer")).to_have_text(
            re.compile(r"^Time left for your turn: 0:[0-3]\d$")
        )
        expect(countdown).to_have_text(re.compile(r"^Time left for \w+: 0:[0-3]\d$"))


@pytest.mark.timeout(120)
def test_the_host_seats_a_computer_and_removes_a_person_one_leaves_for_good_and_the_table_pauses(
    people: People, tmp_path: Path
) -> None:
    with serving(tmp_path, people=people) as server:
        ada, bo, cy = (people.new_page() for _ in range(3))
        host_party(ada, server, "Ada")
        link = ada.get_by_test_id("invite-link").input_value()
        join_by_link(bo, link, "Bo")
        join_by_link(cy, link, "Cy")
        ada.get_by_test_id("cpu-level").select_option("strong")
        ada.get_by_test_id("add-cpu").click()
        # the computer has a name of its own (not its level), shown with its level
        expect(member(ada, "computer · strong")).to_have_count(1)
        member(ada, "Cy").get_by_test_id("remove-member").click()
        expect(cy.get_by_test_id("notice")).to_contain_text("Not in this party any more")
        expect(bo.get_by_test_id("member")).to_have_text(
            [re.compile("Ada"), re.compile("Bo"), re.compile("computer · strong")]
        )
        expect(bo.get_by_test_id("remove-member")).to_have_count(0)  # the host's alone
        mark_ready(bo, "Bo")
        ada.get_by_test_id("start-party").click()
        ada_table = seat_of(ada, server)
        seat_of(bo, server)
        ada_table.set_pace(0)
        dee = people.new_page()
        dee.goto(f"{server.url}/#/watch/{ada_table.table_id}")
        expect(dee.get_by_test_id("watching-badge")).to_be_visible()
        # Bo leaves for good (after saying yes): back to the lobby, the computer has the seat
        bo.once("dialog", lambda dialog: dialog.accept())
        bo.get_by_test_id("leave-table").click()
        bo.wait_for_url(f"{server.url}/#/")
        for page in (ada, dee):
            seat = page.locator("[data-testid=seat][data-name=Bo]")
            expect(seat.get_by_test_id("seat-mark")).to_have_text(["left"])
        assert ada_table.view()["players"][1]["left"]
        # Ada closes her page: nobody is left at the table, and it waits
        ada.close()
        expect(dee.get_by_test_id("status")).to_contain_text(
            "Paused: waiting for a player to come back."
        )


@pytest.mark.timeout(240)
def test_a_timed_party_waits_for_everyone_between_deals_and_starts_no_clock_early(
    people: People, tmp_path: Path
) -> None:
    clock = ManualClock()
    with serving(tmp_path, clock, people=people) as server:
        names = ["Ada", "Bo", "Cy"]
        # Ada's page may load the accessibility audit (axe), which the site's CSP refuses
        ada = people.new_page(bypass_csp=True)
        bo, cy = people.new_page(), people.new_page()
        pages = [ada, bo, cy]  # their console errors fail the test (People)
        code = host_party(ada, server, "Ada")
        join_by_link(bo, ada.get_by_test_id("invite-link").input_value(), "Bo")
        join_by_code(cy, server, code, "Cy")
        # 30 s turns; two deals, each of which ends (the stock turned over once at most)
        ada.get_by_test_id("party-timer").select_option("30")
        ada.get_by_test_id("party-rule-renewals").select_option(label="Once")
        ada.get_by_test_id("more-rules").locator("summary").click()
        ada.get_by_test_id("party-rule-deals-none").uncheck()
        deals = ada.get_by_test_id("party-rule-deals")
        deals.fill("2")
        deals.blur()  # its change is sent now, before anyone is ready (a change clears it)
        for page, name in ((bo, "Bo"), (cy, "Cy")):
            expect(page.get_by_test_id("party-rule-deals")).to_have_value("2")
            mark_ready(page, name)
        expect(ada.get_by_test_id("start-party")).to_be_enabled()
        ada.get_by_test_id("start-party").click()
        tables = [seat_of(page, server) for page in pages]
        view = tables[0].view()
        assert view["turn_timer"] == 30 and view["deadline"] == clock.time() + 30
        # everyone sees the clock of whoever's turn it is, at that seat
        first = names[view["turn"]]
        for page, name in zip(pages, names, strict=True):
            if name != first:
                expect(seat_clock(page, first)).to_have_text(re.compile(r"^0:[0-3]\d$"))
                expect(page.get_by_test_id("turn-timer")).to_have_text(
                    re.compile(f"^Time left for {first}: 0:[0-3]\\d$")
                )
        play_deal(tables)
        over = tables[0].view()
        assert over["phase"] == "over" and over["deal"] == 0 and not over["game_over"]
        version = over["version"]
        starter = (over["dealer"] + 2) % 3  # the next dealer's left plays first
        early, middle = [seat for seat in range(3) if seat != starter]
        summaries = [page.get_by_test_id("deal-summary") for page in pages]
        for summary in summaries:
            expect(summary).to_be_visible()
        # the first reader presses: the others keep their summary, and everyone sees the wait
        pages[early].get_by_test_id("next-deal").click()
        expect(pages[early].get_by_test_id("next-deal")).to_have_text("Waiting for the others…")
        expect(pages[early].get_by_test_id("next-deal")).to_be_disabled()
        readers = " and ".join(names[seat] for seat in sorted((middle, starter)))
        expect(pages[early].get_by_test_id("next-wait")).to_have_text(
            re.compile(f"^You are ready: waiting for {readers}, at most 0:[0-2]\\d\\.$")
        )
        for seat in (middle, starter):
            others = names[middle + starter - seat]
            expect(pages[seat].get_by_test_id("next-wait")).to_have_text(
                re.compile(f"^Still reading: {others}\\. The next deal starts in 0:[0-2]\\d\\.$")
            )
            expect(pages[seat].get_by_test_id("next-deal")).to_have_text(re.compile("^Next deal"))
        # Ada's summary, waiting or still reading, passes the accessibility audit
        assert violations(ada) == []
        waiting = tables[starter].view()
        assert waiting["version"] == version and waiting["phase"] == "over"
        assert waiting["next_ready"] == [early]
        assert waiting["next_deadline"] == clock.time() + 20
        # time passes on the server (not yet the 20 s); a second reader presses
        clock.advance(12)
        pages[middle].get_by_test_id("next-deal").click()
        expect(pages[middle].get_by_test_id("next-deal")).to_have_text("Waiting for the others…")
        expect(pages[starter].get_by_test_id("next-wait")).to_have_text(
            re.compile(r"^The next deal starts in 0:[0-2]\d\.$")
        )
        # nobody was pushed: the one still reading has the summary, and no deal was dealt
        expect(summaries[starter]).to_be_visible()
        assert tables[starter].view()["version"] == version
        # the last reader presses: the next deal, and their clock has the whole turn
        pages[starter].get_by_test_id("next-deal").click()
        dealt = wait_until(
            lambda: (found := tables[starter].view())["version"] > version and found,
            what="the next deal",
        )
        assert dealt["deal"] == 1 and dealt["turn"] == starter
        assert dealt["deadline"] == clock.time() + 30  # not 30 - 12: it starts on arrival
        tables[starter].wait_synced(dealt)
        expect(pages[starter].get_by_test_id("turn-timer")).to_have_text(
            re.compile(r"^Time left for your turn: 0:(30|29|28)$")
        )
        for seat in (early, middle):
            expect(summaries[seat]).to_be_hidden()
            expect(seat_clock(pages[seat], names[starter])).to_have_text(
                re.compile(r"^0:(30|29|28|27)$")
            )
        assert violations(ada) == []  # the table with a clock at a seat
