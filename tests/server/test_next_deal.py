"""Between deals a party waits for its people; a turn's clock waits for its person's page.

Everything runs on the app's ``ManualClock`` (its pace, its timers, its graces and its wall
clock): the countdown to the next deal and the turn timer pass only when a test advances it,
and no test sleeps. The people play their seats one after the other on their own sockets
(``play_deal``), so every view of every seat is seen in order.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from starlette.testclient import TestClient

from party_client import open_seat, started_party
from rummykit.server.store.store import Store
from rummykit.server.tables.next_deal import NEXT_DEAL_WAIT_S
from rummykit.server.tables.turn_keeper import DROP_GRACE_S, RESTART_GRACE_S
from table_client import (
    Frame,
    ManualClock,
    SeatSocket,
    bearer,
    clocked_app,
    create_table,
    seat_connection,
    simple_choice,
)

pytestmark = pytest.mark.timeout(60)

TWO_DEALS: Final[dict[str, Any]] = {"deals": 2, "renewals": 1}
"""A game of two deals, each of which ends (the stock is turned over once at most)."""

TIMER: Final = 30


def last_view(seat: SeatSocket) -> Frame:
    """The last view frame the seat received."""
    return next(frame for frame in reversed(seat.frames) if frame["t"] == "view")


def view_at(seat: SeatSocket, version: int) -> dict[str, Any]:
    """The seat's view once it has one of ``version`` or later."""
    if last_view(seat)["v"] < version:
        seat.until(lambda frame: frame["t"] == "view" and frame["v"] >= version)
    return seat.view


def settled(seat: SeatSocket) -> dict[str, Any]:
    """A round trip through the table's queue (the pace it has): everything queued before
    has been carried out; the view that answers it."""
    frame = seat.set_pace(seat.view["pace_ms"])
    return dict(frame["d"])


def play_deal(seats: dict[int, SeatSocket]) -> dict[str, Any]:
    """The people play (the simple choice) until the deal is over; the last view."""
    any_seat = next(iter(seats.values()))
    for _ in range(2000):
        view = any_seat.view
        if view["phase"] == "over":
            return view
        acted = seats[view["turn"]].act(simple_choice(seats[view["turn"]].view["legal"]))
        for seat in seats.values():
            view_at(seat, acted["v"])
    raise AssertionError("the deal did not end")


def press_next(seat: SeatSocket) -> None:
    """Press "next deal" on the last view the seat has."""
    seat.send("next", version=last_view(seat)["v"])


def waiting_view(seat: SeatSocket, ready: list[int]) -> dict[str, Any]:
    """The seat's next view that shows exactly ``ready`` pressed."""
    frame = seat.until(lambda frame: frame["t"] == "view" and frame["d"]["next_ready"] == ready)
    return dict(frame["d"])


@contextlib.contextmanager
def party_at_table(
    client: TestClient, names: list[str], rules: dict[str, Any] | None = None, **settings: Any
) -> Iterator[tuple[str, list[str], dict[int, SeatSocket]]]:
    """A party of these people at its table, each with a page open: table, tokens, seats.

    The rules are ``TWO_DEALS`` unless ``rules``; ``settings`` go to the party.
    """
    rules = TWO_DEALS if rules is None else rules
    _code, table, tokens = started_party(client, names, rules=rules, **settings)
    with contextlib.ExitStack() as stack:
        seats = {
            seat: stack.enter_context(open_seat(client, table, token))
            for seat, token in enumerate(tokens)
        }
        settled(seats[0])
        for seat in seats.values():
            view_at(seat, last_view(seats[0])["v"])
        yield table, tokens, seats


@pytest.fixture
def app_client(store_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """The app with one clock for the pace, the timers, the graces and the wall."""
    clock.advance(1000)  # a wall clock well past 0: deadlines are plain sums
    with TestClient(clocked_app(store_path, clock)) as client:
        yield client


# ----- the next deal waits for the people --------------------------------------------------


def test_the_next_deal_waits_until_every_person_has_pressed(
    app_client: TestClient, clock: ManualClock
) -> None:
    with party_at_table(app_client, ["Ann", "Bob", "Cy"]) as (_, _, seats):
        over = play_deal(seats)
        assert over["deal"] == 0 and not over["game_over"]
        assert (over["next_ready"], over["next_waiting"], over["next_deadline"]) == ([], [], None)
        version = last_view(seats[0])["v"]
        press_next(seats[0])
        for seat in seats.values():  # everyone sees who is ready, who reads, and the countdown
            view = waiting_view(seat, [0])
            assert view["phase"] == "over" and view["deal"] == 0
            assert view["next_waiting"] == [1, 2]
            assert view["next_deadline"] == clock.time() + NEXT_DEAL_WAIT_S
            assert view["server_now"] == clock.time()
            assert last_view(seat)["v"] == version  # nothing was dealt
        clock.advance(5)
        press_next(seats[2])
        view = waiting_view(seats[1], [0, 2])
        assert view["next_waiting"] == [1]
        assert view["next_deadline"] == clock.time() - 5 + NEXT_DEAL_WAIT_S  # from the first
        assert settled(seats[1])["phase"] == "over"  # Bob still reads: no deal
        press_next(seats[1])
        for seat in seats.values():
            dealt = view_at(seat, version + 1)
            assert dealt["deal"] == 1 and dealt["phase"] == "draw"
            assert (dealt["next_ready"], dealt["next_waiting"]) == ([], [])
            assert dealt["next_deadline"] is None


def test_the_countdown_deals_for_those_still_reading_and_a_late_expiry_is_ignored(
    app_client: TestClient, store_path: Path, clock: ManualClock
) -> None:
    with party_at_table(app_client, ["Ann", "Bob", "Cy"]) as (table, _, seats):
        play_deal(seats)
        version = last_view(seats[0])["v"]
        press_next(seats[1])
        due = waiting_view(seats[0], [1])["next_deadline"]
        assert due == clock.time() + NEXT_DEAL_WAIT_S
        assert Store(store_path).deadline(table) == due  # stored: a restart keeps it
        clock.advance(NEXT_DEAL_WAIT_S - 1)
        assert settled(seats[0])["phase"] == "over"  # a second to go: still the summary
        assert last_view(seats[0])["v"] == version
        clock.advance(1)
        dealt = view_at(seats[0], version + 1)
        assert dealt["deal"] == 1 and dealt["phase"] == "draw"
        played = seats[dealt["turn"]]
        view_at(played, version + 1)
        played.act(simple_choice(played.view["legal"]))
        clock.advance(NEXT_DEAL_WAIT_S)  # nothing left of the countdown
        after = settled(seats[0])
        assert after["deal"] == 1 and last_view(seats[0])["v"] == version + 2


def test_someone_who_is_away_or_closes_the_page_does_not_hold_the_table(
    app_client: TestClient, clock: ManualClock
) -> None:
    with party_at_table(app_client, ["Ann", "Bob", "Cy"]) as (table, tokens, seats):
        play_deal(seats)
        version = last_view(seats[0])["v"]
        seats[2].ws.close()  # Cy is away: nobody waits for Cy
        seats[0].until(lambda f: f["t"] == "view" and not f["d"]["players"][2]["connected"])
        press_next(seats[0])
        assert waiting_view(seats[1], [0])["next_waiting"] == [1]
        # Bob closes the page while still reading: nobody with a page open reads any more
        seats[1].ws.close()
        dealt = view_at(seats[0], version + 1)
        assert dealt["deal"] == 1 and dealt["phase"] == "draw"
        # Cy comes back to the new deal
        with open_seat(app_client, table, tokens[2]) as cy:
            assert cy.view["deal"] == 1 and cy.view["phase"] == "draw"
    assert clock.time() == 1000  # no time passed: no countdown dealt it


def test_one_person_with_the_others_away_deals_at_once(app_client: TestClient) -> None:
    with party_at_table(app_client, ["Ann", "Bob"]) as (_, _, seats):
        play_deal(seats)
        version = last_view(seats[0])["v"]
        seats[1].ws.close()
        seats[0].until(lambda f: f["t"] == "view" and not f["d"]["players"][1]["connected"])
        press_next(seats[0])
        assert view_at(seats[0], version + 1)["deal"] == 1


def test_a_table_against_the_computer_deals_at_once_and_shows_no_wait(
    app_client: TestClient,
) -> None:
    table_id, token = create_table(app_client, rules=TWO_DEALS, opponents=["basic"])
    with seat_connection(app_client, table_id, token) as seat:
        seat.recv()
        seat.set_pace(0)
        while seat.view["phase"] != "over":
            if seat.view["turn"] == seat.view["seat"]:
                seat.act(simple_choice(seat.view["legal"]))
            else:
                seat.my_turn_view()
        over = seat.view
        assert (over["next_ready"], over["next_waiting"], over["next_deadline"]) == ([], [], None)
        version = last_view(seat)["v"]
        press_next(seat)
        assert view_at(seat, version + 1)["deal"] == 1


def test_a_press_sent_again_after_a_drop_is_noted_once(app_client: TestClient) -> None:
    with party_at_table(app_client, ["Ann", "Bob"]) as (_, _, seats):
        play_deal(seats)
        version = last_view(seats[0])["v"]
        envelope = f'{{"t": "next", "v": {version}, "n": 1, "d": {{}}}}'
        seats[0].send_raw(envelope)
        waiting_view(seats[1], [0])
        seats[0].send_raw(envelope)  # the same intent again: answered with the view
        again = seats[0].until(lambda frame: frame["t"] in ("view", "refused"))
        assert again["t"] == "view" and again["v"] == version
        assert again["d"]["next_ready"] == [0] and again["d"]["phase"] == "over"


def test_a_restart_between_deals_keeps_the_countdown_with_the_grace(
    store_path: Path, clock: ManualClock
) -> None:
    clock.advance(1000)
    with (
        TestClient(clocked_app(store_path, clock)) as client,
        party_at_table(client, ["Ann", "Bob"]) as (table, tokens, seats),
    ):
        play_deal(seats)
        version = last_view(seats[0])["v"]
        press_next(seats[0])
        due = waiting_view(seats[1], [0])["next_deadline"]
        # Ann's page closes first: Bob still reads, so nothing is dealt before the stop
        seats[0].ws.close()
        seats[1].until(lambda f: f["t"] == "view" and not f["d"]["players"][0]["connected"])
        assert seats[1].view["phase"] == "over"
    clock.advance(NEXT_DEAL_WAIT_S - 5)  # the server is down; 5 s were left
    with (
        TestClient(clocked_app(store_path, clock)) as client,
        open_seat(client, table, tokens[0]) as ann,
        open_seat(client, table, tokens[1]),
    ):
        view = settled(ann)
        assert view["phase"] == "over" and view["next_ready"] == []  # presses are not kept
        assert view["next_deadline"] == clock.time() + RESTART_GRACE_S > due
        assert view["next_waiting"] == [0, 1]
        assert Store(store_path).deadline(table) == view["next_deadline"]
        clock.advance(RESTART_GRACE_S)
        assert view_at(ann, version + 1)["deal"] == 1


# ----- a turn's clock starts when its person has the deal -------------------------------------


def test_a_first_turn_waits_for_its_persons_page_then_gets_the_whole_time(
    app_client: TestClient, store_path: Path, clock: ManualClock
) -> None:
    _code, table, tokens = started_party(app_client, ["Ann", "Bob"], turn_timer=TIMER)
    first = table_view(app_client, table, tokens[0])["turn"]  # a look that is no page
    other = 1 - first
    with open_seat(app_client, table, tokens[other]) as waiting:
        assert waiting.view["deadline"] is None  # the first player has not seen the table
        assert Store(store_path).deadline(table) is None
        clock.advance(12)  # the friend reads the old summary; no clock runs
        settled(waiting)
        with open_seat(app_client, table, tokens[first]) as late:
            assert late.view["deadline"] == clock.time() + TIMER  # the whole turn time
            assert late.view["server_now"] == clock.time()
            seen = waiting.until(lambda f: f["t"] == "view" and f["d"]["deadline"] is not None)
            # the others see the same clock: the deadline of whoever's turn it is
            assert seen["d"]["deadline"] == late.view["deadline"]
            assert Store(store_path).deadline(table) == clock.time() + TIMER


def test_a_first_turn_clock_waits_past_a_restart_too(store_path: Path, clock: ManualClock) -> None:
    with TestClient(clocked_app(store_path, clock)) as client:
        _code, table, tokens = started_party(client, ["Ann", "Bob"], turn_timer=TIMER)
        first = table_view(client, table, tokens[0])["turn"]
    clock.advance(100)
    with (
        TestClient(clocked_app(store_path, clock)) as client,
        open_seat(client, table, tokens[1 - first]) as other,
    ):
        assert other.view["deadline"] is None
        assert not [frame for frame in other.frames if frame["t"] == "notice"]  # no grace
        with open_seat(client, table, tokens[first]) as late:
            assert late.view["deadline"] == clock.time() + TIMER


def test_a_person_who_never_comes_is_played_for_after_the_away_grace(
    app_client: TestClient, clock: ManualClock
) -> None:
    _code, table, tokens = started_party(app_client, ["Ann", "Bob"], turn_timer=TIMER)
    first = table_view(app_client, table, tokens[0])["turn"]  # a look that is no page
    with open_seat(app_client, table, tokens[1 - first]) as here:
        here.set_pace(0)
        clock.advance(DROP_GRACE_S + 1)
        said = here.until(lambda frame: frame["t"] == "notice")["d"]
        assert said["kind"] == "standing_in" and said["seat"] == first


def test_a_reader_with_the_page_open_when_the_countdown_deals_is_timed_from_the_deal(
    app_client: TestClient, clock: ManualClock
) -> None:
    with party_at_table(app_client, ["Ann", "Bob"], turn_timer=TIMER) as (_, _, seats):
        over = play_deal(seats)
        version = last_view(seats[0])["v"]
        starter = (over["dealer"] + 2) % 2  # the next dealer's left: the next deal's first
        stayer = 1 - starter
        # the starter still reads when the countdown deals: their page gets the deal then
        press_next(seats[stayer])
        waiting_view(seats[starter], [stayer])
        clock.advance(NEXT_DEAL_WAIT_S)
        dealt = view_at(seats[starter], version + 1)
        assert dealt["turn"] == starter and dealt["deadline"] == clock.time() + TIMER


def test_a_rematch_starts_the_first_players_clock_when_they_arrive(
    app_client: TestClient, clock: ManualClock
) -> None:
    one_deal = {"deals": 1, "renewals": 1}
    with party_at_table(app_client, ["Ann", "Bob"], one_deal, turn_timer=TIMER) as (
        _,
        tokens,
        seats,
    ):
        assert play_deal(seats)["game_over"]
        seats[0].send("rematch")
        rematch = seats[0].until(lambda frame: frame["t"] == "rematch")["d"]["table"]
    first = table_view(app_client, rematch, tokens[0])["turn"]  # a look that is no page
    with open_seat(app_client, rematch, tokens[1 - first]) as early:
        assert early.view["deadline"] is None
        clock.advance(15)  # the first player still reads the last game's summary
        settled(early)
        with open_seat(app_client, rematch, tokens[first]) as late:
            assert late.view["turn"] == first and late.view["deal"] == 0
            assert late.view["deadline"] == clock.time() + TIMER


def test_one_away_when_the_next_deal_is_dealt_gets_the_whole_time_on_return(
    app_client: TestClient, clock: ManualClock
) -> None:
    with party_at_table(app_client, ["Ann", "Bob"], turn_timer=TIMER) as (table, tokens, seats):
        over = play_deal(seats)
        version = last_view(seats[0])["v"]
        starter = (over["dealer"] + 2) % 2  # the next dealer's left: the next deal's first
        stayer = 1 - starter
        seats[starter].ws.close()
        seats[stayer].until(
            lambda f: f["t"] == "view" and not f["d"]["players"][starter]["connected"]
        )
        press_next(seats[stayer])  # alone with a page open: dealt at once
        dealt = view_at(seats[stayer], version + 1)
        assert dealt["turn"] == starter and dealt["deadline"] is None
        clock.advance(DROP_GRACE_S - 5)  # back before the away grace: the whole turn
        with open_seat(app_client, table, tokens[starter]) as back:
            assert back.view["deadline"] == clock.time() + TIMER


def table_view(client: TestClient, table: str, token: str) -> dict[str, Any]:
    """The seat's view over HTTP (``GET /api/tables/{id}``)."""
    answer = client.get(f"/api/tables/{table}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()["view"]
    return view
