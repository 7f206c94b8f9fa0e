"""A challenge between two people in real browsers: from a player's page to a table.

Ada and Bob are signed in, each in a browser context of their own. Ada opens Bob's page and
challenges him to a ranked game; wherever Bob is (the lobby), a bar shows the challenge with
its terms, and Accept takes both to one table. A declined challenge is said to Ada; one she
withdraws leaves Bob's bar.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from table_client import LiveServer
from web.test_party_page import seat_of, serving
from web.test_play_now_page import signed_up
from web_helpers import People

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def server(tmp_path: Path, people: People) -> Iterator[LiveServer]:
    with serving(tmp_path, people=people) as live:
        yield live


def challenge(page: Page, server: LiveServer, name: str, *, ranked: bool) -> None:
    """From ``name``'s page: the default rules, 60 s a turn, ranked or not."""
    page.goto(f"{server.url}/#/player/{name}")
    expect(page.get_by_test_id("challenge")).to_contain_text(f"Challenge {name}")
    page.get_by_test_id("challenge-timer").select_option("60")
    if ranked:
        page.get_by_test_id("challenge-ranked").check()
    page.get_by_test_id("challenge-button").click()
    expect(page.get_by_test_id("challenge-status")).to_contain_text(
        f"Your challenge is with {name}"
    )


def test_a_challenge_from_a_player_page_starts_a_table(people: People, server: LiveServer) -> None:
    ada, bob = people.new_page(), people.new_page()
    signed_up(ada, server, "Ada")
    signed_up(bob, server, "Bob")
    challenge(ada, server, "Bob", ranked=True)
    card = bob.get_by_test_id("incoming-challenge")
    expect(card).to_contain_text("Ada challenges you:")
    expect(card.get_by_test_id("incoming-terms")).to_have_text(
        "standard · 60 seconds a turn · ranked"
    )
    expect(card.get_by_test_id("incoming-left")).to_contain_text("to answer")
    card.get_by_test_id("accept-challenge").click()
    tables = [seat_of(page, server) for page in (ada, bob)]
    assert tables[0].table_id == tables[1].table_id
    expect(bob.get_by_test_id("challenges-bar")).to_be_hidden()
    answer = ada.context.request.get(
        f"{server.url}/api/tables/{tables[0].table_id}",
        headers={"Authorization": f"Bearer {tables[0].token}"},
    )
    view = answer.json()["view"]
    assert [player["name"] for player in view["players"]] == ["Ada", "Bob"]
    assert view["turn_timer"] == 60
    ada.goto(f"{server.url}/#/player/Bob")  # Bob's table page keeps his inbox open
    expect(ada.get_by_test_id("player-online")).to_have_text("Online")


def test_a_challenge_declined_or_withdrawn(people: People, server: LiveServer) -> None:
    ada, bob = people.new_page(), people.new_page()
    signed_up(ada, server, "Ada")
    signed_up(bob, server, "Bob")
    challenge(ada, server, "Bob", ranked=False)
    card = bob.get_by_test_id("incoming-challenge")
    expect(card.get_by_test_id("incoming-terms")).to_have_text(
        "standard · 60 seconds a turn · friendly"
    )
    card.get_by_test_id("decline-challenge").click()
    expect(ada.get_by_test_id("challenge-error")).to_have_text("Bob declined your challenge.")
    expect(bob.get_by_test_id("challenges-bar")).to_be_hidden()
    ada.get_by_test_id("challenge-button").click()
    expect(bob.get_by_test_id("incoming-challenge")).to_have_count(1)
    ada.get_by_test_id("challenge-withdraw").click()
    expect(ada.get_by_test_id("challenge-status")).to_have_text("You withdrew your challenge.")
    expect(bob.get_by_test_id("incoming-challenge")).to_have_count(0)
    expect(ada.get_by_test_id("challenge-button")).to_be_enabled()
