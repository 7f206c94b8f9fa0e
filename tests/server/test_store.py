"""The store: acknowledged actions are committed, tables survive a restart, finished games
are listed, downloadable and replayable, unfinished ones keep their decks to themselves.

A restart is a second ``create_app`` on the same SQLite file after the first app's lifespan
has ended (its tasks stopped, its database closed). Every app runs on a ``ManualClock`` that
nobody advances: the computer plays at pace 0 and is held back at any other pace.
"""

from __future__ import annotations

import asyncio
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit.core.cards import standard_deck
from rummykit.core.record import load_record, replay, replay_json
from rummykit.protocol.api import NewTable
from rummykit.protocol.limits import Limits
from rummykit.server.parties.lobby import IDLE_TABLE_S, SWEEP_EVERY_S, Lobby
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.store.database import lock_path
from rummykit.server.store.store import Store, token_hash
from rummykit.server.tables.table import new_table_settings, restore_table
from services import StoreBackend
from table_client import (
    WORKERS,
    ManualClock,
    SeatSocket,
    bearer,
    create_table,
    is_my_turn,
    play_to_game_over,
    play_until,
    pool_work,
    running,
    seat_connection,
    seed_where_human_starts,
    simple_choice,
    stored_record,
)

pytestmark = [pytest.mark.timeout(120), pytest.mark.heavy]


@pytest.fixture
def store_path(store_backend: StoreBackend) -> str:
    """Each test twice: its store in a SQLite file, and in a PostgreSQL database."""
    return store_backend.location


@contextmanager
def seat_at(client: TestClient, table_id: str, token: str, pace: int = 0) -> Iterator[SeatSocket]:
    """Seat 0's socket with the computer's pace set (0: it plays; more: it is held back)."""
    with seat_connection(client, table_id, token) as seat:
        seat.recv()
        seat.set_pace(pace)
        yield seat


def my_turns(count: int) -> Any:
    """A stop condition: this seat's turn, after it has acted ``count`` times."""
    turns_seen: list[tuple[int, int, int]] = []

    def stop(view: dict[str, Any]) -> bool:
        if is_my_turn(view) and view["phase"] == "draw":
            key = (view["deal"], len(view["discard"]), view["stock"])
            if not turns_seen or key != turns_seen[-1]:
                turns_seen.append(key)
        return len(turns_seen) > count and is_my_turn(view) and view["phase"] == "draw"

    return stop


def without_pace(view: dict[str, Any]) -> dict[str, Any]:
    """A view minus the computer's pace and who is there (the running table's, not the
    game's: a table rebuilt has nobody at it yet)."""
    kept = {key: value for key, value in view.items() if key not in ("pace_ms", "paused")}
    kept["players"] = [{**player, "connected": None} for player in view["players"]]
    return kept


# ----- committed before acknowledged -------------------------------------------------------


def test_acknowledged_action_is_in_the_store(client: TestClient, store_path: str) -> None:
    table_id, token = create_table(client, seed=seed_where_human_starts())
    with seat_at(client, table_id, token, pace=5000) as seat:
        view = seat.view
        assert is_my_turn(view)
        acked = seat.act("draw stock")
        # another connection to the database sees the action as soon as it is acknowledged
        deals = stored_record(store_path, table_id)["deals"]
        assert deals[-1]["actions"][-1] == "0 draw stock"
        assert acked["v"] == sum(len(deal["actions"]) for deal in deals) + len(deals)
        # and the table rebuilt from the file is where the socket says it is
        store = Store(store_path)
        try:
            rebuilt = asyncio.run(restore_table(store, table_id, WORKERS))
            assert rebuilt.version == acked["v"]
            assert without_pace(rebuilt.view(0).model_dump(mode="json")) == without_pace(acked["d"])
        finally:
            store.close()
        assert len(acked["d"]["hand"]) == len(view["hand"]) + 1


def test_computer_moves_are_stored_too(client: TestClient, store_path: str) -> None:
    table_id, token = create_table(client, seed=4)
    with seat_at(client, table_id, token) as seat:
        view = play_until(seat, my_turns(3))
    deals = stored_record(store_path, table_id)["deals"]
    actions = [text for deal in deals for text in deal["actions"]]
    assert any(text.startswith("1 ") for text in actions)
    assert any(text.startswith("0 ") for text in actions)
    assert seat.version == len(actions) + 1
    assert view["deal"] == 0


# ----- restarts ------------------------------------------------------------------------------


def test_table_survives_a_restart(store_path: str) -> None:
    with running(store_path) as client:
        table_id, token = create_table(client, opponents=["basic", "strong"], seed=9)
        with seat_at(client, table_id, token) as seat:
            before = play_until(seat, my_turns(4))
            version = seat.version
    with running(store_path) as client:
        answer = client.get(f"/api/tables/{table_id}", headers=bearer(token)).json()
        assert answer["version"] == version
        assert without_pace(answer["view"]) == without_pace(before)
        with seat_connection(client, table_id, token) as seat:
            first = seat.recv()
            assert first["t"] == "view" and first["v"] == version
            after = first["d"]
            for key in ("hand", "melds", "scores", "discard", "stock", "turn", "phase", "legal"):
                assert after[key] == before[key], key
            # and play goes on: to the end of this deal and into the next
            seat.set_pace(0)
            view = play_until(seat, lambda view: view["deal"] == 1 or view["game_over"])
    assert view["deal"] == 1 or view["game_over"]


def test_restart_in_the_computers_turn_goes_on(store_path: str) -> None:
    with running(store_path) as client:
        table_id, token = create_table(client, seed=9)
        with seat_at(client, table_id, token, pace=5000) as seat:
            if not is_my_turn(seat.view):
                seat.set_pace(0)
                seat.my_turn_view()
                seat.set_pace(5000)
            seat.act("draw stock")
            seat.act(simple_choice(seat.view["legal"]))
            while is_my_turn(seat.view):
                seat.act(simple_choice(seat.view["legal"]))
            stopped_at = seat.version
    with running(store_path) as client, seat_at(client, table_id, token) as seat:
        assert seat.version == stopped_at
        view = seat.my_turn_view()["d"]  # the computer plays its turn after the restart
        assert seat.version > stopped_at
        assert is_my_turn(view) or view["phase"] == "over"


def test_whole_game_across_restarts_replays(store_path: str) -> None:
    overrides = {"target": 20}
    with running(store_path) as client:
        table_id, token = create_table(client, rules=overrides, seed=31)
        with seat_at(client, table_id, token) as seat:
            play_until(seat, my_turns(5))
    for _ in range(2):
        with running(store_path) as client, seat_at(client, table_id, token) as seat:
            play_until(seat, my_turns(5))
    with running(store_path) as client:
        last = play_to_game_over(client, table_id, token)
        record = client.get(f"/api/games/{table_id}/record", headers=bearer(token)).json()
    result, code = replay_json(record)
    assert code == 0, result
    replayed = replay(load_record(record)).state
    assert replayed is not None
    assert last["scores"] == list(replayed.scores)


def test_next_deal_after_a_restart_is_not_a_repeat(store_path: str) -> None:
    """A restart must not make the table deal the same cards again."""
    with running(store_path) as client:
        table_id, token = create_table(client, rules={"target": 500}, seed=13)
        with seat_at(client, table_id, token) as seat:
            play_until(seat, lambda view: view["phase"] == "over", next_deals=False)
    with running(store_path) as client, seat_at(client, table_id, token) as seat:
        seat.send("next")
        seat.until(lambda frame: frame["t"] == "view" and frame["d"]["deal"] == 1)
    decks = [deal["deck"] for deal in stored_record(store_path, table_id)["deals"]]
    assert len(decks) == 2
    assert decks[1] != decks[0], "the second deal repeats the first deal's deck card for card"


def test_version_survives_a_restart_after_a_redeal(store_path: str) -> None:
    """Versions never go back: a client holding the old version would be stale forever."""
    with running(store_path) as client:
        table_id, token = create_table(client, seed=13)
        with seat_at(client, table_id, token) as seat:
            play_until(seat, my_turns(2))
            seat.send("redeal")
            seat.until(lambda frame: frame["t"] == "view" and frame["d"]["stock"] == 31)
            version = seat.version
            before = seat.view
    with running(store_path) as client, seat_at(client, table_id, token, pace=5000) as seat:
        assert seat.view["hand"] == before["hand"]
        assert seat.version >= version, f"version went back from {version} to {seat.version}"


# ----- redeal ------------------------------------------------------------------------------


def test_redeal_throws_the_deal_away(client: TestClient, store_path: str) -> None:
    table_id, token = create_table(client, rules={"target": 25}, seed=17)
    with seat_at(client, table_id, token) as seat:
        play_until(seat, my_turns(3))
        old = stored_record(store_path, table_id)["deals"]
        assert len(old) == 1 and len(old[0]["actions"]) >= 4
        version = seat.version
        seat.send("redeal")
        fresh = seat.until(lambda frame: frame["t"] == "view" and frame["v"] > version)
        view = fresh["d"]
        assert view["deal"] == 0 and view["history"] == [] and view["scores"] == [0, 0]
        assert view["stock"] == 31 and len(view["discard"]) == 1 and view["melds"] == []
        new = stored_record(store_path, table_id)["deals"]
        assert len(new) == 1 and new[0]["deck"] != old[0]["deck"]
        assert len(new[0]["actions"]) < len(old[0]["actions"])
        # finish the game: the thrown-away deal is in no record
        last = play_until(seat, lambda view: view["game_over"])
    record = client.get(f"/api/games/{table_id}/record", headers=bearer(token)).json()
    assert len(record["deals"]) == len(last["history"])
    assert record["deals"][0]["deck"] == new[0]["deck"]
    assert all(deal["deck"] != old[0]["deck"] for deal in record["deals"])
    assert replay_json(record)[1] == 0


def test_redeal_in_a_later_deal_keeps_the_scores(client: TestClient, store_path: str) -> None:
    table_id, token = create_table(client, rules={"target": 500}, seed=19)
    with seat_at(client, table_id, token) as seat:
        ended = play_until(seat, lambda view: view["phase"] == "over", next_deals=False)
        seat.send("redeal")
        assert seat.refused()["d"]["code"] == "wrong_phase"
        seat.send("next")
        second = seat.until(lambda frame: frame["t"] == "view" and frame["d"]["deal"] == 1)["d"]
        play_until(seat, my_turns(2))
        version = seat.version
        seat.send("redeal")
        again = seat.until(lambda frame: frame["t"] == "view" and frame["v"] > version)["d"]
    assert again["deal"] == 1
    assert again["scores"] == ended["scores"] == second["scores"]
    assert again["dealer"] == second["dealer"]
    assert len(again["history"]) == 1
    deals = stored_record(store_path, table_id)["deals"]
    assert len(deals) == 2


def test_redeal_after_a_restart_deals_new_cards(store_path: str) -> None:
    with running(store_path) as client:
        table_id, token = create_table(client, seed=23)
        with seat_at(client, table_id, token) as seat:
            play_until(seat, my_turns(1))
    first_deck = stored_record(store_path, table_id)["deals"][0]["deck"]
    with running(store_path) as client, seat_at(client, table_id, token, pace=5000) as seat:
        version = seat.version
        seat.send("redeal")
        seat.until(lambda frame: frame["t"] == "view" and frame["v"] != version)
    new_deck = stored_record(store_path, table_id)["deals"][0]["deck"]
    assert new_deck != first_deck, "the redeal dealt the thrown-away deal again, card for card"


def test_redeals_around_a_restart_never_deal_a_deck_twice(store_path: str) -> None:
    """Deal, draw, redeal, draw, restart, redeal: three different decks."""
    seed = seed_where_human_starts()
    decks = []
    with running(store_path) as client:
        table_id, token = create_table(client, seed=seed)
        with seat_at(client, table_id, token, pace=5000) as seat:
            decks.append(stored_record(store_path, table_id)["deals"][0]["deck"])
            seat.act("draw stock")
            version = seat.version
            seat.send("redeal")
            seat.until(lambda frame: frame["t"] == "view" and frame["v"] > version)
            decks.append(stored_record(store_path, table_id)["deals"][0]["deck"])
            assert is_my_turn(seat.view)
            seat.act("draw stock")
    with running(store_path) as client, seat_at(client, table_id, token, pace=5000) as seat:
        version = seat.version
        seat.send("redeal")
        seat.until(lambda frame: frame["t"] == "view" and frame["v"] != version)
        decks.append(stored_record(store_path, table_id)["deals"][0]["deck"])
    assert decks[0] != decks[1]
    assert decks[2] not in decks[:2], (
        f"the redeal after the restart dealt deck {decks.index(decks[2])} again, card for card"
    )


# ----- finished games ------------------------------------------------------------------------


@pytest.fixture
def finished(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    """A finished two-seat game: its id, token and last view."""
    table_id, token = create_table(client, rules={"target": 20}, name="Ada", seed=29)
    return table_id, token, play_to_game_over(client, table_id, token)


def test_history_lists_a_finished_game(client: TestClient, finished: Any) -> None:
    table_id, token, last = finished
    unfinished, unfinished_token = create_table(client)
    history = {"tokens": [token, unfinished_token]}
    games = client.post("/api/history", json=history).json()["games"]
    ids = [game["id"] for game in games]
    assert table_id in ids and unfinished not in ids
    game = games[ids.index(table_id)]
    assert game["players"][0] == "Ada"  # and a computer player (its name chosen per table)
    assert game["scores"] == last["scores"]
    assert game["winner"] == last["winner"]
    assert game["deals"] == len(last["history"])
    assert game["preset"] == "classic"
    assert game["finished"] >= game["created"]


def test_record_of_a_finished_game_replays(client: TestClient, finished: Any) -> None:
    table_id, token, last = finished
    answer = client.get(f"/api/games/{table_id}/record", headers=bearer(token))
    assert answer.status_code == 200
    assert "attachment" in answer.headers.get("content-disposition", "")
    record = answer.json()
    assert record["format"] == "rummy-record/1"
    assert record["players"][0] == "Ada"  # and a computer player (its name chosen per table)
    result, code = replay_json(record)
    assert code == 0, result
    state = replay(load_record(record)).state
    assert state is not None and state.game_over
    assert list(state.scores) == last["scores"]
    assert state.winner == last["winner"]


def test_frames_one_per_action_and_one_per_deal(client: TestClient, finished: Any) -> None:
    table_id, token, last = finished
    record = client.get(f"/api/games/{table_id}/record", headers=bearer(token)).json()
    replayed = client.get(f"/api/games/{table_id}/frames", headers=bearer(token)).json()
    actions = sum(len(deal["actions"]) for deal in record["deals"])
    assert len(replayed["frames"]) == actions + len(record["deals"])
    assert replayed["players"][0] == "Ada"  # and a computer player (its name chosen per table)
    assert replayed["frames"][0]["text"].startswith("Deal 1")
    assert all(frame["text"].strip() for frame in replayed["frames"])
    assert replayed["frames"][-1]["scores"] == last["scores"]
    deal_starts = [frame for frame in replayed["frames"] if frame["text"].startswith("Deal ")]
    assert len(deal_starts) == len(record["deals"])


def test_finished_game_is_kept_across_a_restart(store_path: str) -> None:
    with running(store_path) as client:
        table_id, token = create_table(client, rules={"target": 10}, seed=37)
        last = play_to_game_over(client, table_id, token)
    with running(store_path) as client:
        history = client.post("/api/history", json={"tokens": [token]}).json()
        assert table_id in [game["id"] for game in history["games"]]
        record = client.get(f"/api/games/{table_id}/record", headers=bearer(token)).json()
        assert replay_json(record)[1] == 0
        view = client.get(f"/api/tables/{table_id}", headers=bearer(token)).json()["view"]
        assert view["game_over"] and view["scores"] == last["scores"]


def test_record_of_an_unfinished_game_is_refused(client: TestClient) -> None:
    table_id, token = create_table(client, seed=41)
    for path in (f"/api/games/{table_id}/record", f"/api/games/{table_id}/frames"):
        answer = client.get(path, headers=bearer(token))
        assert answer.status_code == 409  # not over yet: its own seat is told so
        assert "deck" not in answer.text and "actions" not in answer.text
    with seat_at(client, table_id, token) as seat:
        play_until(seat, my_turns(2))
    for kind in ("record", "frames"):
        assert client.get(f"/api/games/{table_id}/{kind}", headers=bearer(token)).status_code == 409


def test_record_of_an_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/api/games/nothing/record").status_code == 404
    assert client.get("/api/games/nothing/frames").status_code == 404


def test_the_last_action_and_the_finished_mark_are_written_together(store_path: str) -> None:
    # They were two transactions: a crash between them kept a finished game out of the
    # history. Now a write that fails part way leaves neither.
    store = Store(store_path)
    store.create_table("t", new_table_settings(NewTable(preset="classic")), {0: "token"})
    store.add_deal("t", 0, 0, standard_deck(), seed=1, version=1)
    with pytest.raises(TypeError):
        store.add_action("t", 0, 0, "1 draw stock", [], 2, finished={"winner": object()})
    assert store.deals("t")[0]["actions"] == []
    assert store.history() == []
    store.add_action("t", 0, 0, "1 draw stock", [], 2, finished={"winner": 1})
    assert store.deals("t")[0]["actions"] == ["1 draw stock"]
    assert [game.summary["winner"] for game in store.history()] == [1]
    store.close()


def test_the_computers_pace_survives_a_restart(store_path: str) -> None:
    # A pace set to 0 came back as the default 700 ms after a restart.
    with running(store_path) as client:
        table_id, token = create_table(client, seed=9)
        with seat_at(client, table_id, token) as seat:
            seat.set_pace(0)
    with running(store_path) as client:
        answer = client.get(f"/api/tables/{table_id}", headers=bearer(token)).json()
        assert answer["view"]["pace_ms"] == 0


def test_seat_tokens_are_kept_only_as_hashes(
    client: TestClient, store_backend: StoreBackend
) -> None:
    table_id, token = create_table(client)
    kept = [row[0] for row in store_backend.execute("SELECT token FROM seats")]
    assert kept == [token_hash(token)] and token not in kept
    if store_backend.kind == "sqlite":  # nowhere in the file either
        assert token.encode() not in Path(store_backend.location).read_bytes()
    assert client.get(f"/api/tables/{table_id}", headers=bearer(token)).status_code == 200
    assert client.get(f"/api/tables/{table_id}", headers=bearer(kept[0])).status_code == 404


def test_the_database_and_its_folder_are_the_owners_alone(tmp_path: Path) -> None:
    store_path = tmp_path / "tables.sqlite3"
    with running(store_path) as client:
        create_table(client)
        assert stat.S_IMODE(store_path.stat().st_mode) == 0o600
        beside = [*store_path.parent.glob(store_path.name + "-*"), lock_path(store_path)]
        for journal in beside:
            assert stat.S_IMODE(journal.stat().st_mode) == 0o600, journal
    folder = store_path.parent / "new" / "data"
    Store(folder / "tables.sqlite3").close()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_tokens_kept_in_clear_by_an_earlier_version_are_hashed_and_still_work(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as db:  # as version 0 wrote it
        db.execute("PRAGMA user_version = 0")
        db.execute("INSERT INTO seats (token, table_id, seat) VALUES ('old-token', 't', 0)")
    store = Store(path)
    assert store.seat_of("t", "old-token") == 0
    store.close()
    with sqlite3.connect(path) as db:
        assert [row[0] for row in db.execute("SELECT token FROM seats")] == [
            token_hash("old-token")
        ]


def test_idle_tables_leave_memory_and_come_back_from_the_store(
    store_path: str, clock: ManualClock
) -> None:
    # Every table used to stay in memory for good (about 79 KB each).
    now = [0.0]
    app = create_app(
        ServerConfig(store_path=store_path, accept_seeds=True, limits=Limits.unlimited()),
        sleep=clock.sleep,
        clock=lambda: now[0],
        workers=WORKERS,
    )
    lobby: Lobby = app.state.lobby
    with TestClient(app) as client:
        left, left_token = create_table(client, seed=3)
        before = client.get(f"/api/tables/{left}", headers=bearer(left_token)).json()
        watched, watched_token = create_table(client, seed=4)
        with seat_connection(client, watched, watched_token) as seat:
            seat.recv()
            now[0] += IDLE_TABLE_S + SWEEP_EVERY_S
            fresh, _ = create_table(client)  # a new table makes the lobby sweep
            assert set(lobby.tables) == {watched, fresh}  # the watched one stays
        after = client.get(f"/api/tables/{left}", headers=bearer(left_token)).json()
        assert after == before  # rebuilt from the store as it was
        assert left in lobby.tables


def test_a_table_asked_for_recently_is_not_let_go(store_path: str, clock: ManualClock) -> None:
    now = [0.0]
    app = create_app(
        ServerConfig(store_path=store_path, limits=Limits.unlimited()),
        sleep=clock.sleep,
        clock=lambda: now[0],
        workers=WORKERS,
    )
    lobby: Lobby = app.state.lobby
    with TestClient(app) as client:
        table_id, token = create_table(client)
        now[0] += IDLE_TABLE_S - 1
        client.get(f"/api/tables/{table_id}", headers=bearer(token))
        now[0] += SWEEP_EVERY_S
        create_table(client)
        assert table_id in lobby.tables


def test_a_redeal_replays_the_game_in_a_worker_process(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each redeal replays the whole game; on the event loop, 100 of them froze every table.
    table_id, token = create_table(client, rules={"target": 500}, seed=19)
    with seat_at(client, table_id, token) as seat:
        play_until(seat, lambda view: view["phase"] == "over", next_deals=False)
        seat.send("next")
        seat.until(lambda frame: frame["t"] == "view" and frame["d"]["deal"] == 1)
        version = seat.version
        given = pool_work(monkeypatch)
        seat.send("redeal")
        seat.until(lambda frame: frame["t"] == "view" and frame["v"] > version)
    assert given.count("rebuild_game") == 1


def test_a_table_is_restored_in_a_worker_process(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Restoring replays the whole game: on the event loop it would stall every table.
    with running(store_path) as client:
        table_id, token = create_table(client, seed=9)
        with seat_at(client, table_id, token) as seat:
            seat.act("draw stock")  # one action at least, so that there is a game to replay
    given = pool_work(monkeypatch)
    with running(store_path) as client:
        assert client.get(f"/api/tables/{table_id}", headers=bearer(token)).status_code == 200
        assert client.get(f"/api/tables/{table_id}", headers=bearer(token)).status_code == 200
    assert given == ["rebuild_game"]  # once, in a worker
