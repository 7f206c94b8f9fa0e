"""Quick pairing in a real browser: two strangers press "Play now" and sit at one table.

Each person is a browser context of their own. Signed in (their accounts made with the
context's own cookie jar), both press the same pool's button in the lobby: the first is
told how the wait goes (the range of ratings accepted), and as the second presses, both
are taken to the same table, ranked. Guests are paired with guests in friendly games; a
person who stops looking leaves the pool.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from party_client import PASSWORD
from table_client import LiveServer
from web.test_party_page import seat_of, serving
from web_helpers import People

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def server(tmp_path: Path, people: People) -> Iterator[LiveServer]:
    with serving(tmp_path, people=people) as live:
        yield live


def signed_up(page: Page, server: LiveServer, name: str) -> None:
    """An account made with the page's own cookie jar, then the lobby opened signed in."""
    origin = {"Origin": server.url}
    body = {"name": name, "password": PASSWORD, "bot": False}
    made = page.context.request.post(f"{server.url}/api/accounts", data=body, headers=origin)
    assert made.ok, made.text()
    page.goto(server.url + "/")
    expect(page.get_by_test_id("account-label")).to_have_text(name)


def press(page: Page, pool: str) -> None:
    page.locator(f'[data-testid="play-now"][data-pool="{pool}"]').click()


def test_two_strangers_who_press_play_now_sit_at_one_ranked_table(
    people: People, server: LiveServer
) -> None:
    ada, bob = people.new_page(), people.new_page()
    signed_up(ada, server, "Ada")
    signed_up(bob, server, "Bob")
    expect(ada.get_by_test_id("play-now-intro")).to_contain_text("ranked")
    expect(ada.get_by_test_id("play-now-name")).to_be_hidden()
    duel = ada.locator('[data-testid="play-now"][data-pool="duel_30"]')
    expect(duel).to_contain_text("2 players · classic · 30 seconds a turn")
    press(ada, "duel_30")
    status = ada.get_by_test_id("play-now-status")
    expect(status).to_contain_text("Looking for players")
    expect(status).to_contain_text("ratings from about 1450 to 1550")
    expect(duel).to_have_attribute("aria-pressed", "true")
    press(bob, "duel_30")
    tables = [seat_of(page, server) for page in (ada, bob)]
    assert tables[0].table_id == tables[1].table_id
    answer = ada.context.request.get(
        f"{server.url}/api/tables/{tables[0].table_id}",
        headers={"Authorization": f"Bearer {tables[0].token}"},
    )
    view = answer.json()["view"]
    assert [player["name"] for player in view["players"]] == ["Ada", "Bob"]
    assert view["turn_timer"] == 30
    party = ada.context.request.get(f"{server.url}/api/pools").json()
    assert all(pool["ranked"] == pool["friendly"] == 0 for pool in party["pools"])


def test_guests_are_paired_with_guests_and_may_stop_looking(
    people: People, server: LiveServer
) -> None:
    gus, gil = people.new_page(), people.new_page()
    for page, name in ((gus, "Gus"), (gil, "Gil")):
        page.goto(server.url + "/")
        expect(page.get_by_test_id("play-now-intro")).to_contain_text("other guests")
        page.get_by_test_id("play-now-name").fill(name)
    press(gus, "four_60")
    expect(gus.get_by_test_id("play-now-status")).to_contain_text(
        "Nobody else is waiting for this table yet."
    )
    gus.get_by_test_id("play-now-cancel").click()
    expect(gus.get_by_test_id("play-now-status")).to_have_text("You have left the queue.")
    expect(gus.get_by_test_id("play-now-cancel")).to_be_hidden()
    press(gus, "duel_60")
    expect(gus.get_by_test_id("play-now-status")).to_contain_text("Looking for players")
    gil.keyboard.press("Tab")  # the buttons are reachable from the keyboard
    button = gil.locator('[data-testid="play-now"][data-pool="duel_60"]')
    button.focus()
    gil.keyboard.press("Enter")
    tables = [seat_of(page, server) for page in (gus, gil)]
    assert tables[0].table_id == tables[1].table_id
    answer = gus.context.request.get(
        f"{server.url}/api/tables/{tables[0].table_id}",
        headers={"Authorization": f"Bearer {tables[0].token}"},
    )
    assert [player["name"] for player in answer.json()["view"]["players"]] == ["Gus", "Gil"]
