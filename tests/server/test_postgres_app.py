"""The whole app on PostgreSQL, and one process per SQLite file.

On PostgreSQL (``ServerConfig(database_url=...)``): a table and a ranked party's game play to
their end over sockets; the stored log replays to the scores the players saw, and the ranked
game's ratings are stored and shown. On SQLite: a second server process on a file already
served is refused with a clear error, and so is a second app in this process.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from party_client import account, open_seat, play_everyone, started_ranked
from ports import free_port
from rummykit.core.record import load_record, replay
from rummykit.protocol.limits import Limits
from rummykit.ratings import Pool
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.store.database import FileInUse
from rummykit.server.store.store import Store
from server_process import ServerProcess
from table_client import WORKERS, ManualClock, bearer, create_table, play_to_game_over

pytestmark = pytest.mark.timeout(180)


def test_a_table_and_a_ranked_game_play_to_the_end_on_postgresql(
    postgres_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    unused = tmp_path / "not-used.sqlite3"
    app = create_app(
        ServerConfig(
            store_path=unused,
            database_url=postgres_url,
            accept_seeds=True,
            limits=Limits.unlimited(),
        ),
        sleep=clock.sleep,
        now=clock.time,
        clock=clock.time,
        workers=WORKERS,
    )
    with TestClient(app) as client:
        table_id, token = create_table(client, rules={"target": 20}, seed=29)
        last = play_to_game_over(client, table_id, token)
        record = client.get(f"/api/games/{table_id}/record", headers=bearer(token)).json()
        people = [account(client, name) for name in ("Ada", "Bob")]
        _, ranked, tokens = started_ranked(client, people)
        with (
            open_seat(client, ranked, tokens[0]) as first,
            open_seat(client, ranked, tokens[1]) as second,
        ):
            ends = play_everyone({0: first, 1: second})
        board = client.get("/api/leaderboard?pool=winner&all=1").json()
    assert not unused.exists()
    store = Store(postgres_url)
    try:
        stored = store.deals(table_id)
        rated = store.rated_games.of_game(ranked)
        ratings = [store.ratings.of(row["account"], Pool(row["pool"])) for row in rated]
    finally:
        store.close()
    # the stored log is the game the seat played: it replays to the scores it saw
    assert [deal["actions"] for deal in stored] == [deal["actions"] for deal in record["deals"]]
    state = replay(load_record({**record, "deals": stored})).state
    assert state is not None and state.game_over and list(state.scores) == last["scores"]
    # the ranked game was rated once, each account's rating is the one its row says
    assert [row["seat"] for row in rated] == [0, 1]
    assert ends[0]["scores"] == ends[1]["scores"]
    for row, rating in zip(rated, ratings, strict=True):
        assert rating is not None and rating.games == 1
        assert rating.rating.mu == row["mu_after"]
        assert rating.rating.sigma == row["sigma_after"]
        # two new accounts of one address: rated, but counted nothing (``ratings.trust``)
        assert row["weight"] == 0 and row["sigma_after"] == row["sigma_before"]
    assert {entry["name"] for entry in board} == {"Ada", "Bob"}


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    with ServerProcess(path, free_port(), tmp_path / "first.log") as first:
        first.start()
        command = [sys.executable, "-m", "rummykit", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(free_port()), "--store", str(path)]
        second = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert second.returncode == 1, second.stdout + second.stderr
        assert f"another rummykit server is already using {path}" in second.stderr
        with pytest.raises(FileInUse):  # nor an app in this process
            create_app(ServerConfig(store_path=path), workers=WORKERS)
        assert first.process is not None and first.process.poll() is None  # still serving
    # once the first has stopped, the file is free
    create_app(ServerConfig(store_path=path), workers=WORKERS).state.lobby.store.close()
