"""``rummy ratings`` against a live server (uvicorn, a thread) whose store holds rated games.

The store is filled before the server starts (``play_club``), on a clock the server shares.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from party_client import accounts_store, play_club
from ports import free_port
from rummykit.cli import main
from rummykit.ratings import LEADERBOARD_IDLE_DAYS
from rummykit.server.store.rated import DAY_S
from table_client import LiveServer, ManualClock

pytestmark = pytest.mark.timeout(60)

NAMES = tuple(f"P{number:02}" for number in range(12))


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(tmp_path: Path, clock: ManualClock) -> Iterator[LiveServer]:
    path = tmp_path / "server.sqlite3"
    store = accounts_store(path, clock, NAMES, bots={"P11"})
    play_club(store, clock, len(NAMES), 90)
    store.close()
    live = LiveServer(path, free_port(), now=clock.time)
    live.start()
    try:
        yield live
    finally:
        live.stop()


def ratings(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["ratings", *args]) == 0
    return capsys.readouterr().out


def test_json_is_the_leaderboard_as_the_server_gives_it(
    server: LiveServer, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = json.loads(ratings(capsys, "--server", server.url, "--json"))
    with urllib.request.urlopen(f"{server.url}/api/leaderboard?pool=winner") as answer:
        assert printed == json.loads(answer.read())
    assert sorted(entry["name"] for entry in printed) == list(NAMES)
    assert set(printed[0]) == {
        "name",
        "rating",
        "mu",
        "sigma",
        "games",
        "provisional",
        "bot",
        "online",
    }
    assert json.loads(ratings(capsys, "--server", server.url, "--pool", "penalty", "--json")) == []


def test_the_table_marks_bots_and_provisional_ratings(
    server: LiveServer, clock: ManualClock, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ratings(capsys, "--server", server.url).splitlines()
    assert lines[0].split() == ["#", "NAME", "RATING", "GAMES"] and len(lines) == 13
    bot = next(line for line in lines if "P11" in line)
    assert "P11 [BOT]" in bot and "?" not in bot
    clock.now += (LEADERBOARD_IDLE_DAYS + 1) * DAY_S
    assert "Nobody is on the winner leaderboard yet" in ratings(capsys, "--server", server.url)
    clock.now += 200 * DAY_S  # long idle: every rating drifts back to provisional
    everyone = ratings(capsys, "--server", server.url, "--all").splitlines()
    assert len(everyone) == 13 and all(line.split()[-2].endswith("?") for line in everyone[1:])


def test_an_unreachable_server_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings", "--server", f"http://127.0.0.1:{free_port()}"]) == 1
    assert capsys.readouterr().err.startswith("rummy ratings: Cannot reach the server")
