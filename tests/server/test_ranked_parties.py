"""Ranked parties: accounts only, a turn timer, no computer seats, one ranked game at a time.

Each person signs up with the same test client; their session cookie is sent by hand with
each request (the client's own jar is cleared), so one client acts for several accounts.
"""

from __future__ import annotations

import concurrent.futures
from pathlib import Path
from typing import Any, cast

import pytest
from starlette.testclient import TestClient

from party_client import (
    account,
    known_accounts,
    open_seat,
    party_socket,
    play_everyone,
    play_seat,
    post,
    ranked_party,
    started_ranked,
    wait_ready,
)
from rummykit.ratings import TRUSTED_GAMES, Pool
from rummykit.ratings.waits import FIRST_WAIT_S, STARTUP_GRACE_S
from rummykit.server.store.store import Store
from table_client import ManualClock, is_my_turn

pytestmark = pytest.mark.timeout(120)


def test_a_ranked_party_needs_a_signed_in_host_and_a_timer(app_client: TestClient) -> None:
    status, answer = ranked_party(app_client, None)
    assert (status, answer["code"]) == (409, "ranked_account")
    ada = account(app_client, "Ada")
    status, answer = ranked_party(app_client, ada, turn_timer=None)
    assert (status, answer["code"]) == (409, "ranked_timer")
    status, answer = ranked_party(app_client, ada)
    assert status == 200
    view = app_client.get(f"/api/parties/{answer['code']}").json()
    assert view["ranked"] is True and view["members"][0]["name"] == "Ada"


def test_a_ranked_party_refuses_guests_and_computers(app_client: TestClient) -> None:
    ada = account(app_client, "Ada")
    _, made = ranked_party(app_client, ada)
    code = made["code"]
    guest = post(app_client, f"/api/parties/{code}/join", {"name": "Guest"}, None)
    assert (guest.status_code, guest.json()["code"]) == (409, "ranked_account")
    with party_socket(app_client, code, made["token"]) as lobby:
        lobby.send("add_cpu", {"level": "basic"})
        assert lobby.refused()["d"]["code"] == "ranked_computer"
        lobby.send("settings", {"no_timer": True})
        assert lobby.refused()["d"]["code"] == "ranked_timer"
        lobby.send("settings", {"ranked": False})
        lobby.until_party(lambda party: not party["ranked"])
        lobby.send("add_cpu", {"level": "basic"})
        lobby.until_party(lambda party: len(party["members"]) == 2)
        lobby.send("settings", {"ranked": True})
        assert lobby.refused()["d"]["code"] == "ranked_computer"


def test_a_guest_in_the_lobby_keeps_the_party_friendly(app_client: TestClient) -> None:
    ada = account(app_client, "Ada")
    _, made = ranked_party(app_client, ada, ranked=False)
    code = made["code"]
    assert post(app_client, f"/api/parties/{code}/join", {"name": "Gus"}, None).status_code == 200
    with party_socket(app_client, code, made["token"]) as lobby:
        lobby.send("settings", {"ranked": True})
        refused = lobby.refused()["d"]
        assert refused["code"] == "ranked_account" and "Gus" in refused["message"]


def test_a_ranked_table_knows_its_accounts_and_is_not_practice(
    app_client: TestClient, store_path: Path
) -> None:
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    _, table, _ = started_ranked(app_client, people)
    settings = Store(store_path).settings(table)
    assert settings is not None
    assert settings.accounts == (1, 2) and not settings.practice and settings.turn_timer == 60


def test_the_same_account_on_another_device_takes_its_seat_back(
    app_client: TestClient,
) -> None:
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    code, table, tokens = started_ranked(app_client, people)
    again = post(app_client, f"/api/parties/{code}/join", {"name": "x"}, people[1])
    assert again.status_code == 200, again.text
    assert again.json()["member"] == 1 and again.json()["token"] != tokens[1]
    with open_seat(app_client, table, again.json()["token"]) as seat:
        assert seat.view["seat"] == 1


def test_one_ranked_game_at_a_time_per_account(app_client: TestClient) -> None:
    ada, bob, cyd = (account(app_client, name) for name in ("Ada", "Bob", "Cyd"))
    started_ranked(app_client, [ada, bob])
    _, made = ranked_party(app_client, cyd)
    code = made["code"]
    joined = post(app_client, f"/api/parties/{code}/join", {"name": "x"}, bob)
    with party_socket(app_client, code, joined.json()["token"]) as member:
        member.send("ready", {"ready": True})
        wait_ready(member)
    with party_socket(app_client, code, made["token"]) as lobby:
        lobby.send("start")
        refused = lobby.refused()["d"]
        assert refused["code"] == "ranked_busy" and "Bob" in refused["message"]
        assert refused["reason"] == "ranked_busy"
        assert refused["params"] == {"names": ["Bob"], "count": 1}


def test_a_ranked_game_of_two_new_accounts_is_rated_but_counts_nothing(
    app_client: TestClient, store_path: Path, clock: ManualClock
) -> None:
    """Two accounts made, joined and played from one address: the game is theirs on their
    pages, but their ratings stay the newcomer's until they have met other people."""
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    _, table, tokens = started_ranked(app_client, people)
    with (
        open_seat(app_client, table, tokens[0]) as ada,
        open_seat(app_client, table, tokens[1]) as bob,
    ):
        play_everyone({0: ada, 1: bob})
    store = Store(store_path, now=clock.time)
    rows = store.rated_games.of_game(table)
    assert [(row["account"], row["weight"]) for row in rows] == [(1, 0.0), (2, 0.0)]
    for row in rows:
        stored = store.ratings.of(row["account"], Pool.WINNER)
        assert stored is not None and stored.games == 1
        assert stored.rating.mu == row["mu_after"] == row["mu_before"] == 25
    networks = store.accounts.networks
    assert networks(1) == networks(2) == {"testclient"}  # noted at join and lobby


def test_a_ranked_game_played_to_the_end_rates_both_accounts_once(
    app_client: TestClient, store_path: Path, clock: ManualClock
) -> None:
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    known_accounts(store_path, clock, (1, 2))
    _, table, tokens = started_ranked(app_client, people)
    with (
        open_seat(app_client, table, tokens[0]) as ada,
        open_seat(app_client, table, tokens[1]) as bob,
    ):
        finals = play_everyone({0: ada, 1: bob})
    store = Store(store_path)
    rows = store.rated_games.of_game(table)
    assert [row["account"] for row in rows] == [1, 2]
    assert [row["total"] for row in rows] == finals[0]["scores"]
    for row in rows:
        stored = store.ratings.of(row["account"], Pool.WINNER)
        assert stored is not None and stored.games == TRUSTED_GAMES + 1
        assert stored.rating.mu == row["mu_after"] != row["mu_before"]
        assert row["weight"] == 1


def test_an_account_that_leaves_for_good_ranks_last_and_loses_rating(
    app_client: TestClient, store_path: Path, clock: ManualClock
) -> None:
    """Bob leaves mid-game; the computer plays his seat to the end, and however his seat
    scores, he ranks last and his rating falls, Ada's rises."""
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    known_accounts(store_path, clock, (1, 2))
    _, table, tokens = started_ranked(app_client, people)
    with (
        open_seat(app_client, table, tokens[0]) as ada,
        open_seat(app_client, table, tokens[1]) as bob,
    ):
        ada.set_pace(0)  # the computer plays Bob's seat at once, on the test's clock
        bob.send("leave")
        ada.until(lambda frame: frame["t"] == "notice" and "left the table" in frame["d"]["text"])
        final = play_seat(ada)
    assert final["game_over"] and final["players"][1]["left"]
    store = Store(store_path)
    rows = {row["account"]: row for row in store.rated_games.of_game(table)}
    assert rows[2]["rank"] > rows[1]["rank"] == 0, rows
    assert rows[2]["mu_after"] < rows[2]["mu_before"]
    assert rows[1]["mu_after"] > rows[1]["mu_before"]


def test_a_ranked_game_gives_each_player_page_its_figures(app_client: TestClient) -> None:
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    _, table, tokens = started_ranked(app_client, people)
    with (
        open_seat(app_client, table, tokens[0]) as ada,
        open_seat(app_client, table, tokens[1]) as bob,
    ):
        final = play_everyone({0: ada, 1: bob})[0]
    pages = [app_client.get(f"/api/players/{name}").json() for name in ("Ada", "Bob")]
    records = [page["pools"]["winner"] for page in pages]
    for seat, record in enumerate(records):
        assert record["deals"] == 1 and record["timeouts"] == 0
        assert record["computer_share"] == 0
        assert record["seconds_per_turn"] == 0  # nobody's clock moved: every turn took 0 s
        assert record["points_per_deal"] == final["scores"][seat]
    (deal,) = final["history"]
    outs = [record["going_out_rate"] for record in records]
    assert outs == [float(deal["winner"] == seat) for seat in (0, 1)], deal
    rummy = deal["result"] == "rummy"
    assert [record["rummies"] for record in records] == [int(rummy and o == 1) for o in outs]
    assert [page["recent"][0]["opponents"] for page in pages] == [["Bob"], ["Ada"]]
    assert pages[0]["recent"][0]["preset"] == "classic"
    app_client.cookies.clear()  # a rated game is for all to replay: no token, no account
    first = app_client.get(f"/api/games/{table}/frames")
    assert first.status_code == 200 and first.json()["players"] == ["Ada", "Bob"]
    again = app_client.get(f"/api/games/{table}/frames")
    assert again.content == first.content  # made once, in a worker, then kept
    assert list(cast(Any, app_client.app).state.lobby.replays) == [table]
    assert app_client.get(f"/api/games/{table}/record").json()["players"] == ["Ada", "Bob"]


def test_a_player_whose_time_always_runs_out_ranks_last_with_every_turn_a_timeout(
    app_client: TestClient, clock: ManualClock, store_path: Path
) -> None:
    """Bob keeps his page open and never acts: each of his turns runs out and the computer
    plays it. The computer played most of his turns, so he ranks last; his page counts them.
    (Two new accounts: the game counts nothing, so only the rank says it.)"""
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    _, table, tokens = started_ranked(app_client, people)
    with (
        open_seat(app_client, table, tokens[0]) as ada,
        open_seat(app_client, table, tokens[1]) as bob,
        concurrent.futures.ThreadPoolExecutor(1) as pool,
    ):
        playing = pool.submit(play_seat, ada)
        view = bob.view
        while not view["game_over"]:
            if is_my_turn(view) and view["phase"] == "draw":
                clock.advance(61)  # past the minute of a ranked turn
            view = bob.until(lambda frame: frame["t"] == "view")["d"]
        playing.result(timeout=60)
    rows = {row["seat"]: row for row in Store(store_path).rated_games.of_game(table)}
    assert rows[1]["rank"] == 1 and rows[0]["rank"] == 0
    bob_record = app_client.get("/api/players/Bob").json()["pools"]["winner"]
    assert bob_record["computer_share"] == 1 and bob_record["timeouts"] >= 1
    assert bob_record["seconds_per_turn"] is None  # he played no turn himself
    ada_record = app_client.get("/api/players/Ada").json()["pools"]["winner"]
    assert ada_record["timeouts"] == 0 and ada_record["computer_share"] == 0


def test_a_program_account_is_marked_in_the_party_and_at_the_table(
    app_client: TestClient,
) -> None:
    people = [account(app_client, "Ada"), account(app_client, "Robo", bot=True)]
    code, table, tokens = started_ranked(app_client, people)
    members = app_client.get(f"/api/parties/{code}").json()["members"]
    assert [member["program"] for member in members] == [False, True]
    with open_seat(app_client, table, tokens[0]) as ada:
        assert [player["program"] for player in ada.view["players"]] == [False, True]


def _leave_early(client: TestClient, people: list[dict[str, str]]) -> None:
    """A ranked game of these two accounts that the second leaves early, played out."""
    _, table, tokens = started_ranked(client, people)
    with (
        open_seat(client, table, tokens[0]) as first,
        open_seat(client, table, tokens[1]) as leaver,
    ):
        first.set_pace(0)
        leaver.send("leave")
        first.until(lambda frame: frame["t"] == "notice" and "left the table" in frame["d"]["text"])
        play_seat(first)


def test_leaving_ranked_games_early_makes_the_next_one_wait(
    app_client: TestClient, clock: ManualClock
) -> None:
    """The first leave of the day is forgiven; the second costs five minutes."""
    clock.advance(STARTUP_GRACE_S)  # past the server start's grace
    ada, bob, cyd = (account(app_client, name) for name in ("Ada", "Bob", "Cyd"))
    _leave_early(app_client, [ada, bob])
    _, made = ranked_party(app_client, cyd)
    joined = post(app_client, f"/api/parties/{made['code']}/join", {"name": "x"}, bob)
    assert joined.status_code == 200, joined.text  # one leave: no wait
    _leave_early(app_client, [ada, bob])
    _, made = ranked_party(app_client, cyd)
    refused = post(app_client, f"/api/parties/{made['code']}/join", {"name": "x"}, bob)
    assert refused.status_code == 409
    assert refused.json()["code"] == "ranked_wait"
    assert refused.json()["reason"] == "ranked_wait"
    assert refused.json()["error"] == (
        "After leaving ranked games early, there is a wait before the next one: about 5 minutes."
    )
    assert refused.json()["params"] == {"names": ["Bob"], "seconds": FIRST_WAIT_S, "count": 5}
    friendly = post(app_client, "/api/parties", {"name": "x"}, bob)
    assert friendly.status_code == 200  # friendly games never wait
    clock.advance(FIRST_WAIT_S)
    joined = post(app_client, f"/api/parties/{made['code']}/join", {"name": "x"}, bob)
    assert joined.status_code == 200, joined.text


def test_no_one_waits_in_the_first_minutes_after_a_server_start(app_client: TestClient) -> None:
    ada, bob, cyd = (account(app_client, name) for name in ("Ada", "Bob", "Cyd"))
    for _ in range(3):
        _leave_early(app_client, [ada, bob])
    _, made = ranked_party(app_client, cyd)
    joined = post(app_client, f"/api/parties/{made['code']}/join", {"name": "x"}, bob)
    assert joined.status_code == 200, joined.text
