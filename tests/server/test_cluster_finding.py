"""Finding a game on a site of two processes: one PostgreSQL database, one Redis.

Each "process" is an app of its own in the test (its own event loop, Redis connections and
database pool), as `rummy serve --database-url --redis-url` makes them, and both run on one
``ManualClock``: a second of waiting passes for both when the test moves it. The pages of one
person are connected to one process, another person's to the other; everything a page of one
process does must reach the pages of the other, as if the site were one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cluster_sites import process
from finding_sockets import (
    arena_page,
    codes,
    inbox_page,
    lobby,
    new_arena,
    pairing,
    play_round,
    waiting,
)
from party_client import account, join_party, new_party, open_seat, party_socket
from redis_service import RedisService, redis_server
from rummykit.server.cluster import Post
from rummykit.server.pairing.challenges import TICK_S as INBOX_TICK_S
from rummykit.server.pairing.open_tables import SHARED_EVERY_S
from rummykit.server.pairing.quick_pairing import ENTRY_S, TICK_S, QuickPairing
from table_client import ManualClock

__all__ = ["redis_server"]

pytestmark = [pytest.mark.timeout(120), pytest.mark.heavy]


@pytest.fixture
def two(
    tmp_path: Path, postgres_url: str, redis_server: RedisService, clock: ManualClock
) -> Iterator[tuple[TestClient, TestClient]]:
    """Two processes of one site."""
    with (
        process(tmp_path, postgres_url, redis_server, clock) as first,
        process(tmp_path, postgres_url, redis_server, clock) as second,
    ):
        yield first, second


def test_two_strangers_on_two_processes_are_seated_together_ranked(
    two: tuple[TestClient, TestClient],
) -> None:
    first, second = two
    ann, bob = account(first, "Annabel"), account(second, "Bartholomew")
    with pairing(first, ann) as ann_page, pairing(second, bob) as bob_page:
        assert ann_page.seek("duel_30")["d"]["waiting"] == 1
        assert waiting(second)["duel_30"] == (1, 0)  # the other process counts her
        bob_page.send_seek("duel_30")  # the second process's round finds them both
        bob_seat = bob_page.paired()
        ann_seat = ann_page.paired()  # sent by post: her process is nudged, no round waited
    assert ann_seat["table"] == bob_seat["table"] and ann_seat["ranked"] and bob_seat["ranked"]
    assert ann_seat["token"] != bob_seat["token"]
    assert waiting(first)["duel_30"] == waiting(second)["duel_30"] == (0, 0)
    with (
        open_seat(first, ann_seat["table"], ann_seat["token"]) as ann_table,
        open_seat(second, bob_seat["table"], bob_seat["token"]) as bob_table,
    ):
        assert {ann_table.view["seat"], bob_table.view["seat"]} == {0, 1}
        names = [player["name"] for player in ann_table.view["players"]]
        assert sorted(names) == ["Annabel", "Bartholomew"]


def test_one_account_waits_in_one_place_across_the_processes(
    two: tuple[TestClient, TestClient],
) -> None:
    first, second = two
    ann = account(first, "Annegret")
    with pairing(first, ann) as here, pairing(second, ann) as there:
        assert here.seek("four_60")["t"] == "seeking"
        refused = there.seek("duel_30")
        assert refused["t"] == "refused" and refused["d"]["code"] == "already_seeking"


def test_guests_on_both_processes_fill_a_four_seat_table(
    two: tuple[TestClient, TestClient], clock: ManualClock
) -> None:
    first, second = two
    clients = [first, second, first, second]
    post: Post = second.app.state.post  # type: ignore[attr-defined]
    post._bus = None  # the second's nudges are lost: the first finds its seats at its round
    with (
        pairing(first) as one,
        pairing(second) as two_,
        pairing(first) as three,
        pairing(second) as four,
    ):
        pages = [one, two_, three, four]
        for index, page in enumerate(pages[:3]):
            assert page.seek("four_30", f"Guest{index}")["t"] == "seeking"
        assert waiting(first)["four_30"] == (0, 3)
        four.send_seek("four_30", "Guest3")
        here = [two_.paired(), four.paired()]  # seated by the process their pages are on
        clock.advance_once_sleeping(TICK_S)
        seats = [one.paired(), three.paired(), *here]
    assert len({seat["table"] for seat in seats}) == 1
    assert len({seat["token"] for seat in seats}) == 4
    with open_seat(clients[0], seats[0]["table"], seats[0]["token"]) as table:
        assert len(table.view["players"]) == 4


def test_a_process_that_stops_takes_its_players_off_the_queues(
    tmp_path: Path, postgres_url: str, redis_server: RedisService, clock: ManualClock
) -> None:
    with process(tmp_path, postgres_url, redis_server, clock) as staying:
        with (
            process(tmp_path, postgres_url, redis_server, clock) as leaving,
            pairing(leaving) as page,
        ):
            page.seek("duel_60", "Gus")
            assert waiting(staying)["duel_60"] == (0, 1)
        assert waiting(staying)["duel_60"] == (0, 0)  # the stop took Gus off at once
        # a process that dies says nothing: its players stand only until ENTRY_S has passed
        with process(tmp_path, postgres_url, redis_server, clock) as dying:
            pairing_of_dying: QuickPairing = dying.app.state.pairing  # type: ignore[attr-defined]
            with pairing(dying) as page:
                page.seek("duel_60", "Dora")
                pairing_of_dying._mine.clear()  # as if it died: it never writes again
                assert waiting(staying)["duel_60"] == (0, 1)
                clock.advance(ENTRY_S)
                assert waiting(staying)["duel_60"] == (0, 0)


def test_an_arena_with_players_on_both_processes_seats_each_once_and_scores_every_game(
    two: tuple[TestClient, TestClient], clock: ManualClock
) -> None:
    """Both processes run the arena's rounds; each round's changes are made one at a time on
    the arena read again, so nobody is seated twice, and the standings reach every page."""
    first, second = two
    names = ["Adelaide", "Bernadette", "Cordelia", "Dorothea"]
    clients = [first, first, second, second]
    people = [account(client, name) for client, name in zip(clients, names, strict=True)]
    arena = new_arena(first, people[0], starts_in_min=0).json()["id"]

    def rounds_until(condition: Callable[[dict[str, Any]], bool]) -> None:
        """A round of both processes at a time until the stored arena meets ``condition``."""
        for _ in range(200):
            clock.advance_once_asleep(1, count=2)
            if condition(first.get(f"/api/arenas/{arena}").json()):
                clock.advance_once_asleep(1, count=2)  # every page told, seats collected
                return
        raise AssertionError("the arena never got there")

    with contextlib.ExitStack() as stack:
        pages = [
            stack.enter_context(arena_page(client, arena, who))
            for client, who in zip(clients, people, strict=True)
        ]
        for page, name in zip(pages, names, strict=True):
            page.send("join")
            page.until_view(lambda view, name=name: view["me"] == name)  # type: ignore[misc]
        rounds_until(lambda stored: all(line["playing"] for line in stored["standings"]))
        seats = [page.until(lambda frame: frame["t"] == "paired")["d"] for page in pages]
        assert len({seat["table"] for seat in seats}) == 2  # two tables of two
        assert len({seat["token"] for seat in seats}) == 4  # nobody seated twice
        play_round(first, seats)
        rounds_until(lambda stored: stored["games"] == 2)
        for page in pages:
            view = page.until_view(lambda view: view["games"] == 2)
            assert sum(line["games"] for line in view["standings"]) == 4
    for client in (first, second):
        stored = client.get(f"/api/arenas/{arena}").json()
        assert stored["games"] == 2 and len(stored["standings"]) == 4


def test_a_party_listed_on_one_process_shows_in_the_lobbies_of_the_other_and_leaves_them(
    two: tuple[TestClient, TestClient], clock: ManualClock
) -> None:
    first, second = two
    code, host = new_party(first, "Ann", listed=True)
    with lobby(first) as near, lobby(second) as far, party_socket(first, code, host) as ann:
        near.until(lambda tables: codes(tables) == [code])
        clock.advance_once_asleep(SHARED_EVERY_S, count=2)  # each process's sharing round
        line = far.until(lambda tables: bool(tables))[0]
        assert line["code"] == code and line["host"] == "Ann" and line["seats_taken"] == 1
        join_party(second, code, "Bob")  # a seat taken through the other process
        near.until(lambda tables: bool(tables) and tables[0]["seats_taken"] == 2)
        clock.advance_once_asleep(SHARED_EVERY_S, count=2)
        far.until(lambda tables: bool(tables) and tables[0]["seats_taken"] == 2)
        ann.send("settings", {"listed": False})
        near.until(lambda tables: tables == [])
        clock.advance_once_asleep(SHARED_EVERY_S, count=2)
        far.until(lambda tables: tables == [])
        assert listed_at(first) == listed_at(second) == []


def test_a_party_whose_people_all_closed_it_leaves_the_other_process_s_lobby(
    two: tuple[TestClient, TestClient], clock: ManualClock
) -> None:
    """Closing the page runs its cleanup to its end (the socket's task is cancelled as the
    test client leaves it): the line is taken off Redis, not renewed for good."""
    first, second = two
    code, host = new_party(first, "Dora", listed=True)
    with lobby(second) as far:
        with lobby(first) as near, party_socket(first, code, host):
            near.until(lambda tables: codes(tables) == [code])
            clock.advance_once_asleep(SHARED_EVERY_S, count=2)
            far.until(lambda tables: codes(tables) == [code])
        for _ in range(1000):  # until the first process has run the page's cleanup
            if listed_at(first) == []:
                break
        assert listed_at(first) == []
        clock.advance_once_asleep(SHARED_EVERY_S, count=1)  # the second's round
        far.until(lambda tables: tables == [])
    assert listed_at(second) == []


def test_the_open_tables_of_a_process_that_stops_leave_the_list_at_once(
    tmp_path: Path, postgres_url: str, redis_server: RedisService, clock: ManualClock
) -> None:
    with (
        process(tmp_path, postgres_url, redis_server, clock) as staying,
        lobby(staying) as here,
    ):
        with process(tmp_path, postgres_url, redis_server, clock) as leaving:
            code, host = new_party(leaving, "Cy", listed=True)
            with lobby(leaving) as there, party_socket(leaving, code, host):
                there.until(lambda tables: codes(tables) == [code])
                clock.advance_once_asleep(SHARED_EVERY_S, count=2)
                here.until(lambda tables: codes(tables) == [code])
        # the stop took Cy's line off the board: the next round here finds it gone
        clock.advance_once_asleep(SHARED_EVERY_S, count=1)
        here.until(lambda tables: tables == [])
        assert listed_at(staying) == []


def listed_at(client: TestClient) -> list[str]:
    """The codes ``GET /api/open-tables`` lists at this process."""
    return codes(client.get("/api/open-tables").json()["tables"])


def test_a_challenge_reaches_a_person_on_the_other_process_and_accepted_seats_both(
    two: tuple[TestClient, TestClient],
) -> None:
    """Nothing here moves the clock: a page's messages from the other process come at once
    (left as letters, their process nudged on the bus)."""
    first, second = two
    ann, bob = account(first, "Annika"), account(second, "Bertram")
    assert not first.get("/api/players/Bertram").json()["online"]
    with inbox_page(first, ann) as ann_page, inbox_page(second, bob) as bob_page:
        assert first.get("/api/players/Bertram").json()["online"]  # his page is the other's
        ann_page.challenge("Bertram", preset="classic", turn_timer=30, ranked=True)
        sent = ann_page.data_of("challenge_sent")
        challenged = bob_page.data_of("challenged")
        assert challenged["id"] == sent["id"] and challenged["by"] == "Annika"
        bob_page.send("accept", {"id": sent["id"]})
        bob_seat = bob_page.data_of("paired")
        assert ann_page.data_of("challenge_gone") == {"id": sent["id"], "reason": "accepted"}
        ann_seat = ann_page.data_of("paired")
    assert ann_seat["table"] == bob_seat["table"] and ann_seat["ranked"]
    with open_seat(second, ann_seat["table"], ann_seat["token"]) as table:
        assert [player["name"] for player in table.view["players"]] == ["Annika", "Bertram"]


def test_a_challenge_across_processes_is_declined_or_closed_when_its_person_leaves(
    two: tuple[TestClient, TestClient],
) -> None:
    first, second = two
    ann, bob = account(first, "Annalise"), account(second, "Bertrand")
    with inbox_page(first, ann) as ann_page:
        ann_page.challenge("Bertrand", preset="classic")
        assert ann_page.refused()["reason"] == "player_offline"  # no inbox of his anywhere
        with inbox_page(second, bob) as bob_page:
            ann_page.challenge("Bertrand", preset="classic")
            first_id = ann_page.data_of("challenge_sent")["id"]
            bob_page.data_of("challenged")
            bob_page.send("decline", {"id": first_id})
            assert ann_page.data_of("challenge_gone")["reason"] == "declined"
            assert ann_page.refused()["reason"] == "challenge_declined"
            ann_page.challenge("Bertrand", preset="classic")
            second_id = ann_page.data_of("challenge_sent")["id"]
            assert bob_page.data_of("challenged")["id"] == second_id
        # his only page closed (on the other process): her challenge closes
        assert ann_page.data_of("challenge_gone") == {"id": second_id, "reason": "offline"}
        assert ann_page.refused()["reason"] == "player_offline"


def test_letters_lost_on_the_bus_are_delivered_at_the_next_round(
    two: tuple[TestClient, TestClient], clock: ManualClock
) -> None:
    first, second = two
    ann, bob = account(first, "Annemarie"), account(second, "Benedikt")
    post: Post = second.app.state.post  # type: ignore[attr-defined]
    post._bus = None  # its nudges are lost from now on
    with inbox_page(first, ann) as ann_page, inbox_page(second, bob) as bob_page:
        bob_page.challenge("Annemarie", preset="classic")
        sent = bob_page.data_of("challenge_sent")
        clock.advance_once_asleep(INBOX_TICK_S, count=2)  # first's round empties her box
        assert ann_page.data_of("challenged")["id"] == sent["id"]
