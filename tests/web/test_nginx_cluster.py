"""The site as it runs on several machines: nginx in front of two processes on PostgreSQL and
Redis, and a browser playing through it while the table's owner is stopped (a deploy).

The owner's stop closes the table's socket with 4503 (MOVED) and releases its lease; the page
reconnects through nginx, which moves on from the stopped process; the other process takes
the table from the shared database and the deal goes on to its end. A reload then finds the
seat, through the process that is left. Two strangers whose pages two processes serve are
paired by quick pairing as if the site were one process.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from playwright.sync_api import expect

from ports import free_port
from redis_service import RedisService, redis_server
from table_client import LiveServer
from web.test_nginx import nginx_in_front
from web.test_party_page import seat_of
from web.test_play_now_page import press, signed_up
from web.test_table_page import start_from_lobby
from web_helpers import ClickPlayer, People

__all__ = ["redis_server"]

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]


class Site:
    """Two processes of one site and nginx in front of them."""

    def __init__(self, processes: list[LiveServer], edge: LiveServer, redis_url: str) -> None:
        self.processes = processes
        self.edge = edge
        self.redis_url = redis_url

    def owner(self, table_id: str) -> LiveServer:
        """The process that holds the table's lease now."""
        with redis.Redis.from_url(self.redis_url) as client:
            held = client.get(f"rummy:{{{table_id}}}:lease")
        assert held is not None, "nobody owns the table"
        owner = held.decode().partition(":")[2]
        [found] = [
            process
            for process in self.processes
            if process.app is not None and process.app.state.lobby.cluster.process == owner
        ]
        return found


@pytest.fixture
def site(tmp_path: Path, postgres_url: str, redis_server: RedisService) -> Iterator[Site]:
    processes = [
        LiveServer(
            tmp_path / f"unused-{number}.sqlite3",
            free_port(),
            database_url=postgres_url,
            redis_url=redis_server.url,
            trusted_proxies=("127.0.0.1",),  # as deploy/nginx.conf says to run them
        )
        for number in range(2)
    ]
    for process in processes:
        process.start()
    try:
        with nginx_in_front(tmp_path / "nginx", [process.port for process in processes]) as port:
            # the tests' JSON calls go through nginx too, as the page's do
            yield Site(processes, LiveServer(tmp_path / "unused.sqlite3", port), redis_server.url)
    finally:
        for process in processes:
            process.stop()


def test_a_deal_goes_on_through_nginx_while_the_tables_owner_is_stopped(
    page: Any, site: Site
) -> None:
    table = start_from_lobby(page, site.edge)
    table.set_pace(0)
    owner = site.owner(table.table_id)
    stopped: list[LiveServer] = []

    connection = page.get_by_test_id("connection")

    def stop_the_owner(played: int) -> None:
        if played == 3:
            owner.stop()  # as SIGTERM does: sockets closed with MOVED, the lease released
            stopped.append(owner)
            expect(connection).to_have_attribute("data-state", "bad")
            expect(connection).to_have_attribute("data-state", "ok", timeout=20_000)

    table.play_deal(ClickPlayer(table), on_turn=stop_the_owner)
    assert stopped, "the deal ended before the owner was stopped"
    assert table.view()["phase"] == "over"
    [left] = [process for process in site.processes if process is not owner]
    assert site.owner(table.table_id) is left, "the other process took the table"
    table.page.reload()
    table.wait_synced(table.view())  # the page shows the seat's hand at the deal's end
    assert table.view()["phase"] == "over"


def test_two_strangers_on_two_processes_who_press_play_now_sit_at_one_ranked_table(
    people: People, site: Site
) -> None:
    """Each browser's page is served by a process of its own (as nginx may send two strangers):
    the pool is the site's, so pressing "Play now" seats them together, and the table plays
    through either process."""
    first, second = site.processes
    ada, bob = people.new_page(), people.new_page()
    signed_up(ada, first, "Adalbert")
    signed_up(bob, second, "Bonifaz")
    press(ada, "duel_30")
    expect(ada.get_by_test_id("play-now-status")).to_contain_text("Looking for players")
    press(bob, "duel_30")
    tables = [seat_of(ada, first), seat_of(bob, second)]
    assert tables[0].table_id == tables[1].table_id
    view = tables[1].view()
    assert [player["name"] for player in view["players"]] == ["Adalbert", "Bonifaz"]
    assert view["turn_timer"] == 30
