"""The idle time after which a table leaves memory can be shortened (the memory benchmark)."""

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit import cli
from rummykit.protocol.limits import Limits
from rummykit.server import site
from rummykit.server.parties.lobby import IDLE_TABLE_S, Lobby
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from table_client import ManualClock, create_table

pytestmark = pytest.mark.timeout(60)


def test_a_shorter_idle_time_lets_a_table_go_after_that_time_and_not_before(
    store_path: Path, clock: ManualClock
) -> None:
    now = [0.0]
    app = create_app(
        ServerConfig(store_path=store_path, limits=Limits.unlimited(), idle_table_s=5.0),
        sleep=clock.sleep,
        clock=lambda: now[0],
    )
    lobby: Lobby = app.state.lobby
    with TestClient(app) as client:
        old, _ = create_table(client)
        assert old in lobby.tables
        now[0] += 3.0
        recent, _ = create_table(client)
        now[0] += 2.0  # a sweep comes as often as the idle time, when shorter than 30 s
        fresh, _ = create_table(client)
        assert set(lobby.tables) == {recent, fresh}  # idle 5 s goes, idle 2 s stays


def test_the_idle_time_defaults_to_ten_minutes(store_path: Path) -> None:
    app = create_app(ServerConfig(store_path=store_path))
    assert app.state.lobby.idle_table_s == IDLE_TABLE_S == 600.0


def test_rummy_serve_passes_its_idle_table_seconds_to_the_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    served: dict[str, Any] = {}

    def fake_serve(host: str, port: int, config: ServerConfig, *args: Any, **kwargs: Any) -> None:
        served["idle_table_s"] = config.idle_table_s

    monkeypatch.setattr(site, "serve", fake_serve)
    store = str(tmp_path / "t.sqlite3")
    assert cli.main(["serve", "--store", store, "--idle-table-seconds", "30"]) == 0
    assert served["idle_table_s"] == 30.0
    assert cli.main(["serve", "--store", store]) == 0
    assert served["idle_table_s"] is None  # the app's default


@pytest.mark.parametrize("seconds", ["0", "-5", "nan", "inf", "soon"])
def test_rummy_serve_refuses_an_idle_time_that_is_not_a_positive_number(
    seconds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["serve", "--idle-table-seconds", seconds])
    assert exit_info.value.code == 2
    assert "--idle-table-seconds" in capsys.readouterr().err
