"""Arenas over HTTP and their sockets: made, joined, run for their time, scored, kept.

The arena's clock is the tests' ``ManualClock`` (the app's wall clock and its sleep): it
starts, pairs and ends only when a test moves the clock.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from finding_sockets import ArenaSocket, Watch, arena_page, new_arena, play_round, standing
from party_client import account, known_accounts
from rummykit.protocol import ArenaList, ArenaView
from rummykit.ratings.arena import PLACE_POINTS, WIN_POINTS
from rummykit.server.pairing import arenas
from table_client import ManualClock, clocked_app

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def watch(app_client: TestClient) -> Watch:
    def opened(
        arena: str, who: dict[str, str] | None
    ) -> contextlib.AbstractContextManager[ArenaSocket]:
        return arena_page(app_client, arena, who)

    return opened


def test_an_arena_is_made_by_a_signed_in_player_and_listed(app_client: TestClient) -> None:
    assert new_arena(app_client, None).json()["reason"] == "arena_sign_in"
    ada = account(app_client, "Ada")
    refused = new_arena(app_client, ada, seats=4, preset="practice")
    assert refused.status_code == 409 and refused.json()["reason"] == "arena_seats"
    made = new_arena(app_client, ada)
    assert made.status_code == 200, made.text
    view = ArenaView.model_validate_json(made.text)
    assert (view.state, view.starts_in_s, view.ends_in_s, view.creator) == (
        "upcoming",
        60,
        660,
        "Ada",
    )
    listed = ArenaList.model_validate_json(app_client.get("/api/arenas").text)
    assert [arena.id for arena in listed.arenas] == [view.id]
    assert new_arena(app_client, ada, name="Saturday").status_code == 200
    crowded = new_arena(app_client, ada, name="Sunday")  # two to come at once, no more
    assert crowded.status_code == 409 and crowded.json()["reason"] == "arena_limit"
    assert app_client.get("/api/arenas/nope").status_code == 404


def test_an_arena_pairs_the_free_scores_the_games_and_crowns_the_first(
    app_client: TestClient, store_path: Path, clock: ManualClock, watch: Watch
) -> None:
    names = ["Ada", "Bob", "Cyd", "Dee"]
    people = [account(app_client, name) for name in names]
    known_accounts(store_path, clock, (1, 2, 3, 4))
    arena = new_arena(app_client, people[0]).json()["id"]
    with contextlib.ExitStack() as stack:
        pages = [stack.enter_context(watch(arena, who)) for who in people]
        for page in pages:
            page.send("join")
        pages[0].until_view(lambda view: len(view["standings"]) == 4)
        clock.advance_once_sleeping(60)  # the start: everyone free is seated
        seats = [page.until(lambda frame: frame["t"] == "paired")["d"] for page in pages]
        play_round(app_client, seats)
        view = pages[0].until_view(lambda view: view["games"] == 2)
        points = [line["points"] for line in view["standings"]]
        # a game won alone is worth WIN_POINTS to its winner, a tie PLACE_POINTS to each
        assert sum(points) == 2 * WIN_POINTS and set(points) <= {0, PLACE_POINTS, WIN_POINTS}
        assert not any(line["playing"] for line in view["standings"])
        clock.advance_once_sleeping(1)  # the next round: free again, paired again
        again = [page.until(lambda frame: frame["t"] == "paired")["d"] for page in pages]
        clock.advance_once_sleeping(600)  # the end: no table is made any more
        ended = pages[1].until_view(lambda view: view["state"] == "finished")
        assert ended["ends_in_s"] == 0 and sum(line["playing"] for line in ended["standings"]) == 4
        play_round(app_client, again)  # games still going when it ended count
        final = pages[1].until_view(lambda view: view["games"] == 4)
    assert final["winner"] in names and final["winner"] == final["standings"][0]["name"]
    winner = app_client.get(f"/api/players/{final['winner']}").json()
    assert winner["arenas_won"] == [{"id": arena, "name": "Friday"}]
    assert all(
        app_client.get(f"/api/players/{name}").json()["arenas_won"] == []
        for name in names
        if name != final["winner"]
    )


@pytest.mark.parametrize("in_thread", [False, True])
def test_a_paused_or_absent_player_is_not_paired(
    app_client: TestClient,
    clock: ManualClock,
    watch: Watch,
    monkeypatch: pytest.MonkeyPatch,
    in_thread: bool,
) -> None:
    if in_thread:  # as a crowd is paired: off the event loop
        monkeypatch.setattr(arenas, "INLINE_SEEKERS", 1)
    ada, bob, cy = (account(app_client, name) for name in ("Ada", "Bob", "Cyd"))
    arena = new_arena(app_client, ada, starts_in_min=0).json()["id"]
    with watch(arena, ada) as first, watch(arena, bob) as second:
        first.send("join")
        second.send("join")
        second.send("pause")
        view = first.until_view(lambda view: standing(view, "Bob").get("paused", False))
        assert not standing(view, "Ada")["paused"]
        with watch(arena, cy) as third:
            third.send("join")
            clock.advance_once_sleeping(1)
            assert first.until(lambda frame: frame["t"] == "paired")["d"]["ranked"]
            third.until(lambda frame: frame["t"] == "paired")
        second.until_view(lambda view: standing(view, "Cyd").get("playing", False))
        assert second.view["me"] == "Bob"
        assert not [frame for frame in second.frames if frame["t"] == "paired"]  # paused


def test_a_player_the_computer_stood_in_for_ranks_last_and_is_paired_no_more(
    app_client: TestClient, clock: ManualClock, watch: Watch, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat the computer played for the most part (its player never came, or left) ranks
    last for its rating whatever its total: the arena scores the rating's places, not the
    totals'; and that player is paused until they join again."""
    ada, bob = account(app_client, "Ada"), account(app_client, "Bob")
    arena = new_arena(app_client, ada, starts_in_min=0).json()["id"]
    store = app_client.app.state.arenas._store  # type: ignore[attr-defined]
    rated = store.rated_games.of_game
    demoted: list[int] = []

    def winner_demoted(table_id: str) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = rated(table_id)
        assert len(rows) == 2, "an arena's game of a whole deal is rated"
        winner = min(rows, key=lambda row: row["rank"])
        demoted.append(winner["account"])
        # as if the computer had played the winner's seat: it ranks below the other
        away = json.dumps({"turns": 10, "computer_turns": 9})
        return [
            row | ({"rank": 1, "figures": away} if row is winner else {"rank": 0}) for row in rows
        ]

    monkeypatch.setattr(store.rated_games, "of_game", winner_demoted)
    with watch(arena, ada) as first, watch(arena, bob) as second:
        for page in (first, second):
            page.send("join")
        first.until_view(lambda view: len(view["standings"]) == 2)
        clock.advance_once_sleeping(1)
        seats = [page.until(lambda frame: frame["t"] == "paired")["d"] for page in (first, second)]
        play_round(app_client, seats)
        view = first.until_view(lambda view: view["games"] == 1)
        points = {line["name"]: line["points"] for line in view["standings"]}
        [loser] = [name for name in points if store.accounts.named(name).id in demoted]
        [winner] = [name for name in points if name != loser]
        assert (points[winner], points[loser]) == (WIN_POINTS, 0)
        # paused (a paused player is never paired: test_a_paused_or_absent_player_is_not_paired)
        # though the page is open, until they join again
        assert standing(view, loser)["paused"] and not standing(view, winner)["paused"]
        page = {"Ada": first, "Bob": second}[loser]
        page.send("join")
        page.until_view(lambda view: not standing(view, loser)["paused"])


def test_an_arena_outlives_a_restart(store_path: Path, clock: ManualClock) -> None:
    with TestClient(clocked_app(store_path, clock)) as client:
        ada = account(client, "Ada")
        arena = new_arena(client, ada).json()["id"]
        client.cookies.clear()
        with client.websocket_connect(f"/ws/arena/{arena}", headers=ada) as websocket:
            websocket.send_text(json.dumps({"t": "hello", "v": 0, "d": {}}))
            websocket.receive_text()
            websocket.send_text(json.dumps({"t": "join", "v": 0, "d": {}}))
            websocket.receive_text()
    with TestClient(clocked_app(store_path, clock)) as client:
        view = client.get(f"/api/arenas/{arena}").json()
        assert [line["name"] for line in view["standings"]] == ["Ada"]
        assert view["state"] == "upcoming"
