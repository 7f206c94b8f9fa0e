"""An arena in real browsers: eight simulated players and two people, for the arena's length.

The server's clock is the tests' ``ManualClock``: the arena starts and ends when the test
moves it. Eight simulated players (accounts of their own, over the arena's socket and their
tables' sockets, playing ``simple_choice``) and two people in browser contexts of their own
join a one-minute arena of one-deal games. At the start everyone is seated; the people's
pages go to their tables; their seats are played (over a second socket of each seat, as
another tab of theirs would), and each table page offers the way back to the arena, whose
standings have moved, live. At the end the page names the winner, the first of the
standings.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from websockets.sync.client import ClientConnection, connect

from party_client import PASSWORD, play_seat
from rummykit.protocol import ARENA_SERVER_MESSAGES, SESSION_COOKIE
from table_client import LiveServer, LiveSocket, ManualClock, SeatSocket
from web.test_party_page import serving
from web.test_play_now_page import signed_up
from web_helpers import People

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

SIMULATED = 8


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(tmp_path: Path, people: People, clock: ManualClock) -> Iterator[LiveServer]:
    with serving(tmp_path, clock, people=people) as live:
        yield live


def session_of(server: LiveServer, name: str) -> str:
    """A new account's session token (its cookie's value)."""
    body = json.dumps({"name": name, "password": PASSWORD, "bot": False}).encode()
    request = urllib.request.Request(
        f"{server.url}/api/accounts", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        cookie = answer.headers["set-cookie"]
    return str(cookie.split(f"{SESSION_COOKIE}=", 1)[1].split(";", 1)[0])


def play_table(server: LiveServer, table: str, token: str) -> dict[str, Any]:
    """Play a seat to the game's end over a socket of its own; the last view."""
    with server.seat_socket(table, token) as connection:
        seat = SeatSocket(LiveSocket(connection, timeout=60))
        seat.until(lambda frame: frame["t"] == "view")
        return play_seat(seat)  # several act at one table: a stale refusal is no fault


def arena_socket(server: LiveServer, arena: str, name: str) -> ClientConnection:
    """The arena's socket for a new account ``name`` (a context manager, as it is opened)."""
    address = f"ws://127.0.0.1:{server.port}/ws/arena/{arena}"
    headers = {"Cookie": f"{SESSION_COOKIE}={session_of(server, name)}"}
    return connect(address, additional_headers=headers)


class Simulated:
    """A player over the arena's socket: joins, and plays each table it is seated at."""

    def __init__(self, server: LiveServer, socket: ClientConnection) -> None:
        """Over ``socket``, the arena's, opened with the player's session."""
        self.server = server
        self.socket = socket
        self.games = 0

    def run(self) -> None:
        """Join, then play every seat given until the socket is closed (``stop``)."""
        self.socket.send(json.dumps({"t": "hello", "v": 0, "d": {}}))
        self.socket.send(json.dumps({"t": "join", "v": 0, "d": {}}))
        for text in self.socket:  # ends when ``stop`` closes it: no polling
            message = ARENA_SERVER_MESSAGES.validate_json(text)
            if message.t == "paired":
                play_table(self.server, message.d.table, message.d.token)
                self.games += 1

    def stop(self) -> None:
        """Leave: the socket closes, and ``run`` ends."""
        self.socket.close()


def test_an_arena_runs_its_length_with_live_standings(
    people: People, server: LiveServer, clock: ManualClock
) -> None:
    ada, bob = people.new_page(), people.new_page()
    signed_up(ada, server, "Ada")
    signed_up(bob, server, "Bob")
    made = ada.context.request.post(
        f"{server.url}/api/arenas",
        data={"name": "Quick one", "minutes": 1, "starts_in_min": 1, "rules": {"deals": 1}},
        headers={"Origin": server.url},
    )
    assert made.ok, made.text()
    arena = made.json()["id"]
    for page in (ada, bob):
        page.goto(f"{server.url}/")
        page.get_by_test_id("arenas-link").click()
        page.locator(f'[data-testid="arena-line"][data-id="{arena}"] a').click()
        expect(page.get_by_test_id("arena-heading")).to_have_text("Quick one")
        expect(page.get_by_test_id("arena-when")).to_contain_text("Starts in 1:00")
        page.get_by_test_id("arena-join").click()
        expect(page.get_by_test_id("arena-status")).to_contain_text("keep this page open")
    with contextlib.ExitStack() as sockets, concurrent.futures.ThreadPoolExecutor(16) as pool:
        bots = [
            Simulated(server, sockets.enter_context(arena_socket(server, arena, f"Sim{n}")))
            for n in range(SIMULATED)
        ]
        running = [pool.submit(bot.run) for bot in bots]
        expect(ada.get_by_test_id("arena-row")).to_have_count(SIMULATED + 2)  # live
        clock.advance_once_sleeping(60)  # the start: ten free players, five tables
        seats = []
        for page in (ada, bob):
            page.wait_for_url("**/#/table/*")
            table = page.url.split("#/table/", 1)[1]
            token = page.evaluate("id => localStorage.getItem('rummykit.seat.' + id)", table)
            seats.append(pool.submit(play_table, server, table, token))
        for seat in seats:
            seat.result(timeout=120)
        for page in (ada, bob):
            page.get_by_test_id("back-to-arena").click()
            expect(page.get_by_test_id("arena-heading")).to_have_text("Quick one")
        games = ada.get_by_test_id("arena-standings")
        expect(games).to_contain_text("Ada")
        points = ada.get_by_test_id("arena-points")
        expect(points.first).not_to_have_text("0")  # someone scored: the standings moved
        clock.advance_once_sleeping(60)  # the end: no table is made any more
        for bot in bots:
            bot.stop()
        for run in running:
            run.result(timeout=120)
    when = bob.get_by_test_id("arena-when")
    expect(when).to_contain_text("Finished:")
    first = bob.get_by_test_id("arena-row").first.get_attribute("data-name")
    expect(when).to_have_text(f"Finished: {first} won")
    assert sum(bot.games for bot in bots) >= SIMULATED
