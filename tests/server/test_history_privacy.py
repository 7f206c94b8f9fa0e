"""Who sees which finished games: a player their own, everyone only where the host says so;
and a seat's token stops working a while after its game ends.

Before: ``GET /api/history`` listed every game on the server to anyone, any finished game's
record and replay were anyone's who knew its id, and a seat's token worked for good.

Each app here keeps wall-clock time on a list the test moves (``WallClock``): nothing sleeps.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.cli import main
from rummykit.core.record import replay_json
from rummykit.protocol import ErrorAnswer
from rummykit.protocol.api import MAX_HISTORY_TOKENS, NewTable
from rummykit.protocol.limits import Limits
from rummykit.protocol.messages import CloseCode
from rummykit.server import site
from rummykit.server.site import run
from rummykit.server.site.app import HISTORY_NOT_PUBLIC, NO_SEAT, create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.store.database import is_postgres_url
from rummykit.server.store.store import (
    EXPIRY_SWEEP_S,
    SCHEMA_VERSION,
    TOKEN_LIFETIME_S,
    Store,
    token_hash,
)
from rummykit.server.tables.table import new_table_settings
from services import StoreBackend
from table_client import (
    ManualClock,
    bearer,
    create_table,
    play_to_game_over,
    seat_connection,
)

pytestmark = [pytest.mark.timeout(120), pytest.mark.heavy]

README = Path(__file__).resolve().parents[2] / "README.md"
DAY = 24 * 3600.0
START = 1_700_000_000.0
"""The wall clock when each test begins (any time after 1970 will do)."""


class WallClock:
    """``time.time`` for a store: stands still until the test moves it."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@contextmanager
def serving(
    store_path: Path, wall: WallClock, *, public_history: bool = False
) -> Iterator[TestClient]:
    """An app on ``store_path`` whose tokens expire by ``wall``, for the span of a ``with``."""
    app = create_app(
        ServerConfig(
            store_path=store_path,
            accept_seeds=True,
            limits=Limits.unlimited(),
            public_history=public_history,
        ),
        sleep=ManualClock().sleep,
        now=wall,
    )
    with TestClient(app) as client:
        yield client


@pytest.fixture
def wall() -> WallClock:
    return WallClock()


@pytest.fixture
def private(store_path: Path, wall: WallClock) -> Iterator[TestClient]:
    """A server as hosted by default: each player sees their own games."""
    with serving(store_path, wall) as client:
        yield client


def finished_game(client: TestClient, name: str, seed: int) -> tuple[str, str]:
    """A two-seat game to 10 played to its end by ``name``: its id and token."""
    table_id, token = create_table(client, rules={"target": 10}, name=name, seed=seed)
    play_to_game_over(client, table_id, token)
    return table_id, token


def history_of(client: TestClient, *tokens: str) -> dict[str, Any]:
    answer = client.post("/api/history", json={"tokens": list(tokens)})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def listed(client: TestClient, *tokens: str) -> list[str]:
    return [game["id"] for game in history_of(client, *tokens)["games"]]


def socket_close_code(client: TestClient, table_id: str, token: str) -> int:
    """The code the server closes a seat's socket with."""
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        seat_connection(client, table_id, token) as seat,
    ):
        seat.recv()
    return closed.value.code


# ----- the history: each player's own games -------------------------------------------------


def test_a_player_sees_only_the_games_of_the_tokens_they_hold(
    private: TestClient, wall: WallClock
) -> None:
    ada_game, ada = finished_game(private, "Ada", seed=29)
    wall.now += 60
    bob_game, bob = finished_game(private, "Bob", seed=31)
    _, unfinished_token = create_table(private)
    assert listed(private, ada) == [ada_game]
    assert listed(private, bob) == [bob_game]
    assert listed(private, unfinished_token) == []  # a game still going on is in no history
    assert listed(private) == []
    both = history_of(private, ada, bob, unfinished_token)
    assert [game["id"] for game in both["games"]] == [bob_game, ada_game]  # newest first
    assert both["public"] is False and both["unknown"] == []
    game = both["games"][1]
    assert (
        game["players"][0] == "Ada"
    )  # and a computer player (its name chosen per table) and game["preset"] == "classic"
    assert game["finished"] >= game["created"]


def test_nobody_lists_every_game_unless_the_host_says_so(private: TestClient) -> None:
    finished_game(private, "Ada", seed=29)
    answer = private.get("/api/history")
    assert answer.status_code == 403
    assert answer.json() == {"error": HISTORY_NOT_PUBLIC}


def test_history_names_the_tokens_that_hold_no_seat(private: TestClient) -> None:
    game, token = finished_game(private, "Ada", seed=29)
    found = history_of(private, "never-issued", token, token_hash(token))
    assert [each["id"] for each in found["games"]] == [game]
    # the hash the store keeps is not a token: it opens nothing
    assert found["unknown"] == ["never-issued", token_hash(token)]


def test_history_takes_at_most_200_tokens_and_says_so(private: TestClient) -> None:
    game, token = finished_game(private, "Ada", seed=29)
    most = [f"t{number}" for number in range(MAX_HISTORY_TOKENS - 1)]
    assert listed(private, *most, token) == [game]
    answer = private.post("/api/history", json={"tokens": [*most, token, "one-more"]})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(
        f"tokens: Tuple should have at most {MAX_HISTORY_TOKENS}"
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "tokens"),
        ({"tokens": "abc"}, "tokens"),
        ({"tokens": ["a b"]}, "tokens.0"),
        ({"tokens": ["x" * 65]}, "tokens.0"),
        ({"tokens": [], "all": True}, "all"),
    ],
)
def test_a_history_request_that_cannot_be_read_is_refused_with_a_sentence(
    private: TestClient, body: dict[str, Any], field: str
) -> None:
    answer = private.post("/api/history", json=body)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(f"{field}: ")


# ----- records and replays: only with a seat of the game ------------------------------------


UNSEEN = ErrorAnswer.said("game_unseen").model_dump()
"""The answer for a game the request may not see, or that does not exist: one answer."""
NOT_OVER = ErrorAnswer.said("game_not_over").model_dump()
"""The answer to a seat of a game still going on."""


@pytest.mark.parametrize("kind", ["record", "frames", "review/0"])
def test_a_record_a_replay_and_a_review_need_a_seat_of_that_game(
    private: TestClient, kind: str
) -> None:
    game, token = finished_game(private, "Ada", seed=29)
    other_game, other = finished_game(private, "Bob", seed=31)
    path = f"/api/games/{game}/{kind}"
    nowhere = private.get(f"/api/games/no-such-game/{kind}", headers=bearer(token))
    assert nowhere.status_code == 404 and nowhere.json() == UNSEEN
    # without a seat of the game the answer is the one for a game that does not exist
    for headers in ({}, bearer(other), bearer("never-issued"), bearer(token_hash(token))):
        answer = private.get(path, headers=headers)
        assert (answer.status_code, answer.text) == (404, nowhere.text), headers
    answer = private.get(path, headers=bearer(token))
    assert answer.status_code == 200
    assert private.get(f"/api/games/{other_game}/{kind}", headers=bearer(other)).status_code == 200
    if kind == "record":
        assert replay_json(answer.json())[1] == 0
    elif kind == "review/0":
        assert answer.json()["state"] == "none"
    else:
        assert (
            answer.json()["players"][0] == "Ada"
        )  # and a computer player (its name chosen per table)


@pytest.mark.parametrize("header", ["Basic YWRhOmFkYQ==", "Bearer a b", "Bearer ", "token"])
def test_an_authorization_that_is_no_bearer_token_is_refused(
    private: TestClient, header: str
) -> None:
    game, _ = finished_game(private, "Ada", seed=29)
    for path in (f"/api/games/{game}/record", "/api/games/no-such-game/record"):
        answer = private.get(path, headers={"Authorization": header})
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("Authorization: ")


def test_an_unfinished_games_record_is_refused_to_its_own_seat_as_not_over(
    private: TestClient,
) -> None:
    table_id, token = create_table(private, seed=41)
    for kind in ("record", "frames", "review/0"):
        answer = private.get(f"/api/games/{table_id}/{kind}", headers=bearer(token))
        assert (answer.status_code, answer.json()) == (409, NOT_OVER), kind
        # a stranger is not told that the game exists
        answer = private.get(f"/api/games/{table_id}/{kind}", headers=bearer("never-issued"))
        assert (answer.status_code, answer.json()) == (404, UNSEEN), kind


# ----- a public history: the host's choice --------------------------------------------------


def test_a_public_history_lists_and_serves_every_game_to_anyone(
    store_path: Path, wall: WallClock
) -> None:
    with serving(store_path, wall, public_history=True) as client:
        ada_game, ada = finished_game(client, "Ada", seed=29)
        wall.now += 60
        bob_game, _ = finished_game(client, "Bob", seed=31)
        create_table(client)
        everyone = client.get("/api/history").json()
        assert [game["id"] for game in everyone["games"]] == [bob_game, ada_game]
        assert everyone["public"] is True
        # the page asks with its tokens, and gets everyone's games too
        assert listed(client, ada) == [bob_game, ada_game]
        assert listed(client) == [bob_game, ada_game]
        for kind in ("record", "frames"):
            assert client.get(f"/api/games/{ada_game}/{kind}").status_code == 200
        assert client.get("/api/games/no-such-game/record").status_code == 404


# ----- seat tokens expire a while after their game ends -------------------------------------


def test_a_token_works_after_its_game_until_its_lifetime_is_over(
    private: TestClient, wall: WallClock, store_path: Path
) -> None:
    game, token = finished_game(private, "Ada", seed=29)
    ended = wall.now
    wall.now = ended + TOKEN_LIFETIME_S - 1
    # to the end of its lifetime: the final view, the socket, the history, record and replay
    view = private.get(f"/api/tables/{game}", headers=bearer(token))
    assert view.status_code == 200 and view.json()["view"]["game_over"]
    assert listed(private, token) == [game]
    for kind in ("record", "frames"):
        assert private.get(f"/api/games/{game}/{kind}", headers=bearer(token)).status_code == 200
    wall.now = ended + TOKEN_LIFETIME_S
    # then it is a token never issued
    view = private.get(f"/api/tables/{game}", headers=bearer(token))
    assert view.status_code == 404 and view.json() == {"error": NO_SEAT}
    assert socket_close_code(private, game, token) == CloseCode.NO_SEAT
    for kind in ("record", "frames"):
        answer = private.get(f"/api/games/{game}/{kind}", headers=bearer(token))
        assert answer.status_code == 404 and answer.json() == UNSEEN
    assert history_of(private, token) == {"games": [], "public": False, "unknown": [token]}
    # and the store has let it go
    with sqlite3.connect(store_path) as db:
        assert db.execute("SELECT count(*) FROM seats").fetchone()[0] == 0


def test_the_token_of_a_game_still_going_on_does_not_expire(
    private: TestClient, wall: WallClock
) -> None:
    table_id, token = create_table(private)
    wall.now += 10 * TOKEN_LIFETIME_S
    assert private.get(f"/api/tables/{table_id}", headers=bearer(token)).status_code == 200
    assert history_of(private, token)["unknown"] == []


def test_a_finished_games_token_sees_the_final_view_and_can_no_longer_act(
    private: TestClient,
) -> None:
    game, token = finished_game(private, "Ada", seed=29)
    with seat_connection(private, game, token) as seat:
        assert seat.recv()["d"]["game_over"]
        seat.send("act", {"action": "draw stock"})
        assert seat.refused()["d"]["code"] == "game_over"  # the game is over, not just its deal
        seat.send("next")
        assert seat.refused()["d"]["code"] == "game_over"


def test_expired_seats_are_swept_from_the_store(
    store_backend: StoreBackend, wall: WallClock
) -> None:
    store = Store(store_backend.location, now=wall)
    settings = new_table_settings(NewTable(preset="classic"))
    for table_id in ("over", "going-on"):
        store.create_table(table_id, settings, {0: f"{table_id}-token"})
    store.add_action("over", 0, 0, "1 draw stock", [], 1, finished={"winner": 1})
    wall.now += TOKEN_LIFETIME_S + EXPIRY_SWEEP_S
    # asking about another seat sweeps: the expired one goes, though nobody asked for it
    assert store.seat_of("going-on", "going-on-token") == 0
    assert _seats(store.path) == {token_hash("going-on-token"): None}
    store.close()


def test_expired_seats_are_swept_when_the_store_opens(
    store_backend: StoreBackend, wall: WallClock
) -> None:
    path = store_backend.location
    store = Store(path, now=wall)
    store.create_table("over", new_table_settings(NewTable(preset="classic")), {0: "token"})
    store.add_action("over", 0, 0, "1 draw stock", [], 1, finished={"winner": 1})
    store.close()
    assert _seats(path) == {token_hash("token"): START + TOKEN_LIFETIME_S}
    wall.now += TOKEN_LIFETIME_S
    Store(path, now=wall).close()
    assert _seats(path) == {}


def _seats(location: Path | str) -> dict[str, float | None]:
    """The seats' tokens and when they expire, on SQLite or PostgreSQL."""
    kind = "postgresql" if is_postgres_url(str(location)) else "sqlite"
    return dict(StoreBackend(kind, str(location)).execute("SELECT token, expires FROM seats"))


def test_a_database_of_version_1_learns_when_its_tokens_expire(
    tmp_path: Path, wall: WallClock
) -> None:
    path = tmp_path / "old.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as db:  # as version 1 wrote it: no expiry
        db.execute("DROP INDEX seats_by_expiry")
        db.execute("ALTER TABLE seats DROP COLUMN expires")
        db.execute("PRAGMA user_version = 1")
        ended = {"long-ago": START - TOKEN_LIFETIME_S - DAY, "last-week": START - 7 * DAY}
        for table_id, when in [*ended.items(), ("going-on", START - 90 * DAY)]:
            finished = table_id in ended
            db.execute(
                "INSERT INTO tables (id, created, updated, settings, finished) "
                "VALUES (?, ?, ?, '{}', ?)",
                (table_id, when - DAY, when, int(finished)),
            )
            db.execute(
                "INSERT INTO seats (token, table_id, seat) VALUES (?, ?, 0)",
                (token_hash(f"{table_id}-token"), table_id),
            )
    store = Store(path, now=wall)
    # a game over for longer than a token's lifetime: its token is gone on opening
    assert _seats(path) == {
        token_hash("last-week-token"): ended["last-week"] + TOKEN_LIFETIME_S,
        token_hash("going-on-token"): None,
    }
    assert store.seat_of("long-ago", "long-ago-token") is None
    assert store.seat_of("last-week", "last-week-token") == 0
    assert store.seat_of("going-on", "going-on-token") == 0
    wall.now = ended["last-week"] + TOKEN_LIFETIME_S
    assert store.seat_of("last-week", "last-week-token") is None
    assert store.seat_of("going-on", "going-on-token") == 0
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7


# ----- the commands -------------------------------------------------------------------------


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What ``rummy play`` and ``rummy serve`` would serve with, instead of serving."""
    calls: list[dict[str, Any]] = []

    def serve(host: str, port: int, config: ServerConfig, open_browser: bool, **_: Any) -> None:
        calls.append({"host": host, "public_history": config.public_history})

    monkeypatch.setattr(site, "serve", serve)
    return calls


def test_rummy_serve_keeps_the_history_private_unless_asked(
    served: list[dict[str, Any]], tmp_path: Path
) -> None:
    store = str(tmp_path / "tables.sqlite3")
    assert main(["serve", "--store", store]) == 0
    assert main(["serve", "--store", store, "--public-history"]) == 0
    assert [call["public_history"] for call in served] == [False, True]


def test_rummy_play_shows_the_one_player_every_game(
    served: list[dict[str, Any]], tmp_path: Path
) -> None:
    # a new port each run is a new origin with empty storage: the page holds no old tokens,
    # and every game in the file is this person's own
    assert main(["play", "--no-browser", "--store", str(tmp_path / "tables.sqlite3")]) == 0
    assert served == [{"host": "127.0.0.1", "public_history": True}]


def test_serve_passes_the_hosts_choice_to_the_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    apps: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, **_: apps.append(server.config.app))
    for public in (False, True):
        config = ServerConfig(store_path=tmp_path / "tables.sqlite3", public_history=public)
        run.serve("127.0.0.1", 1, config, False)
    assert [app.state.public_history for app in apps] == [False, True]


def test_the_help_and_the_readme_say_how_long_a_token_lasts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    days = f"{TOKEN_LIFETIME_S / DAY:.0f} days after"
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--public-history" in help_text
    assert f"for {days} a game ends" in help_text
    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert "--public-history" in readme
    assert f"for {days} it ends (`rummykit.server.store.store.TOKEN_LIFETIME_S`)" in readme
