"""A finished game's short link and share answer, and the seat the history gives each game."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from party_client import account, open_seat, play_everyone, started_ranked
from rummykit.protocol import Limits, ShareAnswer
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import WORKERS, ManualClock, create_table, play_to_game_over

pytestmark = pytest.mark.timeout(60)


def shared(client: TestClient, table_id: str) -> bool:
    answer = client.get(f"/api/games/{table_id}/share")
    assert answer.status_code == 200
    return ShareAnswer.model_validate_json(answer.text).public


def test_a_short_link_opens_the_replay_viewer(app_client: TestClient) -> None:
    answer = app_client.get("/g/abcDEF_-12", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/#/replay/abcDEF_-12"
    assert app_client.get("/g/no%20such", follow_redirects=False).status_code == 404


def test_only_a_rated_game_is_shared_on_a_private_history(app_client: TestClient) -> None:
    table_id, token = create_table(app_client, rules={"target": 10}, name="Ann", seed=3)
    play_to_game_over(app_client, table_id, token)
    assert not shared(app_client, table_id) and not shared(app_client, "nosuchgame")
    found = app_client.post("/api/history", json={"tokens": [token]}).json()["games"]
    assert [(game["id"], game["seat"]) for game in found] == [(table_id, 0)]
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    _, rated, tokens = started_ranked(app_client, people)
    with (
        open_seat(app_client, rated, tokens[0]) as ada,
        open_seat(app_client, rated, tokens[1]) as bob,
    ):
        play_everyone({0: ada, 1: bob})
    assert shared(app_client, rated)
    seats = app_client.post("/api/history", json={"tokens": [tokens[1]]}).json()["games"]
    assert [game["seat"] for game in seats] == [1]


def test_every_game_is_shared_where_the_history_is_public(tmp_path: Path) -> None:
    config = ServerConfig(
        store_path=tmp_path / "t.sqlite3",
        accept_seeds=True,
        public_history=True,
        limits=Limits.unlimited(),
    )
    with TestClient(create_app(config, sleep=ManualClock().sleep, workers=WORKERS)) as client:
        table_id, token = create_table(client, rules={"target": 10}, name="Ann", seed=3)
        play_to_game_over(client, table_id, token)
        assert shared(client, table_id) and not shared(client, "nosuchgame")
        listed = client.get("/api/history").json()["games"]
        assert [game.get("seat") for game in listed] == [None]  # nobody's seat: everyone's list
        mine = client.post("/api/history", json={"tokens": [token]}).json()["games"]
        assert [game["seat"] for game in mine] == [0]  # your own keeps your seat
