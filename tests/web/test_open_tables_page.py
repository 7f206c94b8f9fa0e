"""The lobby's open tables in a real browser: a listed party fills from the lobby.

Ann makes a party in the lobby with "list it" ticked; Bob, with the lobby already open, sees
its line come without a reload (the rules in short, the seats, the host) and takes a seat
with one click; a third person's lobby sees the line go when Ann unlists the party, come back
when she lists it again (read there in Japanese too), and go for good when she starts it. A
party not listed never shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from table_client import LiveServer
from web.test_party_page import mark_ready, member, seat_of, serving
from web_helpers import People
from web_languages import wait_language

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def server(tmp_path: Path, people: People) -> Iterator[LiveServer]:
    with serving(tmp_path, people=people) as live:
        yield live


def lobby(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    expect(page.get_by_test_id("open-tables-none")).to_be_visible()


def make_party(page: Page, server: LiveServer, name: str, *, listed: bool) -> str:
    """From the lobby: a party of ``name``'s, listed or not; its code."""
    page.goto(server.url + "/")
    page.get_by_test_id("friends-name").fill(name)
    if listed:
        page.get_by_test_id("friends-listed").check()
    page.get_by_test_id("play-with-friends").click()
    page.wait_for_url("**/#/party/*")
    expect(page.get_by_test_id("party-listed")).to_be_checked(checked=listed)
    return page.get_by_test_id("party-code").inner_text()


def test_a_listed_party_fills_from_the_lobby(people: People, server: LiveServer) -> None:
    ann, bob, cy = people.new_page(), people.new_page(), people.new_page()
    lobby(bob, server)
    lobby(cy, server)
    hidden = make_party(people.new_page(), server, "Dee", listed=False)
    code = make_party(ann, server, "Ann", listed=True)
    line = bob.get_by_test_id("open-table")
    expect(line).to_have_count(1)  # Dee's party, not listed, never shows
    expect(line).to_have_attribute("data-code", code)
    assert hidden != code
    expect(line.get_by_test_id("open-table-rules")).to_have_text(
        "party · to 100 points · no time limit · friendly"
    )
    expect(line.get_by_test_id("open-table-host")).to_have_text("Host: Ann")
    expect(line.get_by_test_id("open-table-seats")).to_have_text("1 of 6 seats taken")
    bob.get_by_test_id("take-seat").click()  # no name yet: asked for one
    expect(bob.get_by_test_id("open-tables-error")).to_contain_text("Your name first")
    expect(bob.get_by_test_id("friends-name")).to_be_focused()
    bob.get_by_test_id("friends-name").fill("Bob")
    bob.get_by_test_id("take-seat").click()
    bob.wait_for_url("**/#/party/*")
    expect(bob.get_by_test_id("members")).to_contain_text("Bob")
    expect(member(ann, "Bob")).to_be_visible()
    seats = cy.get_by_test_id("open-table").get_by_test_id("open-table-seats")
    expect(seats).to_have_text("2 of 6 seats taken")
    expect(bob.get_by_test_id("party-listed")).to_be_disabled()  # only the host lists
    ann.get_by_test_id("party-listed").uncheck()
    expect(cy.get_by_test_id("open-table")).to_have_count(0)
    expect(cy.get_by_test_id("open-tables-none")).to_be_visible()
    ann.get_by_test_id("party-listed").check()
    expect(cy.get_by_test_id("open-table")).to_have_count(1)
    cy.get_by_test_id("lang").select_option("ja")  # the lobby drawn again, its list live still
    wait_language(cy, "ja")
    line = cy.get_by_test_id("open-table")
    expect(line.get_by_test_id("open-table-rules")).to_have_text(
        "パーティー · 100点先取 · 持ち時間なし · フレンドリー戦"
    )
    expect(line.get_by_test_id("open-table-host")).to_have_text("ホスト：Ann")
    expect(line.get_by_test_id("open-table-seats")).to_have_text("6席中2席が埋まっています")
    expect(line.get_by_test_id("take-seat")).to_have_text("空席に座る")
    mark_ready(bob, "Bob")
    ann.get_by_test_id("start-party").click()
    seat_of(ann, server)
    expect(cy.get_by_test_id("open-table")).to_have_count(0)  # started: gone at once
    expect(cy.get_by_test_id("open-tables-none")).to_contain_text("いま募集中の卓はありません")
