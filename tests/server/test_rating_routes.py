"""The leaderboard and player pages over HTTP, on stores filled by rated games.

One test plays a ranked game over sockets; the others fill the store the way a ranked table's
finishing action does (``store_rated_game``), many games on a clock moved by hand, to reach
the leaderboard's thresholds.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from party_client import (
    account,
    accounts_store,
    open_seat,
    play_club,
    play_everyone,
    started_ranked,
    store_rated_game,
)
from rummykit.protocol.limits import Limits
from rummykit.ratings import (
    LEADERBOARD_GAMES,
    LEADERBOARD_IDLE_DAYS,
    LEADERBOARD_OPPONENTS,
    REPEAT_WINDOW_DAYS,
    TRUSTED_GAMES,
    TRUSTED_OPPONENTS,
    Pool,
    display_value,
)
from rummykit.server.accounts.rating_routes import RECENT_GAMES
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig
from rummykit.server.store.rated import DAY_S, RatedGame
from rummykit.server.store.store import Store
from table_client import WORKERS, ManualClock

pytestmark = pytest.mark.timeout(120)

NAMES = tuple(f"P{number:02}" for number in range(12))
"""A club of twelve accounts; the last is a program's."""

CLUB_GAMES = 90
"""Four-player games, one a day: 20 to 37 each, against all 11 others, every rating settled.

A club of six playing each other daily does not settle in 20 games: the repeat weights
(``repeat_weight``) shrink each update, so the tests use a club of twelve."""


def board(client: TestClient, query: str = "") -> Any:
    answer = client.get(f"/api/leaderboard{query}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def page(client: TestClient, name: str) -> Any:
    answer = client.get(f"/api/players/{name}")
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.fixture
def league(tmp_path: Path, clock: ManualClock) -> Store:
    """The club's games, seeded: the lower an account's number, the better its totals."""
    store = accounts_store(tmp_path / "league.sqlite3", clock, NAMES, bots={NAMES[-1]})
    play_club(store, clock, len(NAMES), CLUB_GAMES)
    return store


@pytest.fixture
def league_client(league: Store, clock: ManualClock) -> Iterator[TestClient]:
    app = create_app(
        ServerConfig(store_path=league.path, limits=Limits.unlimited()),
        now=clock.time,
        workers=WORKERS,
    )
    with TestClient(app) as client:
        yield client


def test_the_board_lists_settled_regulars_best_first(
    league_client: TestClient, clock: ManualClock
) -> None:
    entries = board(league_client, "?pool=winner")
    assert sorted(entry["name"] for entry in entries) == list(NAMES)
    assert all(entry["games"] >= LEADERBOARD_GAMES for entry in entries)
    assert not any(entry["provisional"] for entry in entries)
    assert [entry["bot"] for entry in entries].count(True) == 1
    assert next(entry for entry in entries if entry["bot"])["name"] == NAMES[-1]
    mus = [entry["mu"] for entry in entries]
    assert mus == sorted(mus, reverse=True) and entries[0]["rating"] > 1500 > entries[-1]["rating"]
    assert all(entry["rating"] == round(1500 + 60 * (entry["mu"] - 25)) for entry in entries)
    assert board(league_client) == entries  # the winner pool by default
    assert board(league_client, "?pool=penalty&all=1") == []
    clock.now += (LEADERBOARD_IDLE_DAYS + 1) * DAY_S  # nobody played for over two weeks
    assert board(league_client, "?pool=winner") == []
    everyone = board(league_client, "?pool=winner&all=1")
    assert [entry["name"] for entry in everyone] == [entry["name"] for entry in entries]
    for now, then in zip(everyone, entries, strict=True):
        assert now["mu"] == then["mu"] and now["sigma"] > then["sigma"]


def test_a_pair_playing_only_each_other_stays_off_the_board(
    tmp_path: Path, clock: ManualClock
) -> None:
    store = accounts_store(tmp_path / "pair.sqlite3", clock, ("Ada", "Bob"))
    for number in range(2 * LEADERBOARD_GAMES):
        clock.now += 8 * DAY_S  # past the repeat window: every game counts fully
        totals = (10, 30) if number % 3 else (30, 10)  # Ada wins two in three
        store_rated_game(store, RatedGame(f"t{number}", Pool.PENALTY, (1, 2), totals, 1))
    app = create_app(
        ServerConfig(store_path=store.path, limits=Limits.unlimited()),
        now=clock.time,
        workers=WORKERS,
    )
    with TestClient(app) as client:
        assert board(client, "?pool=penalty") == []
        everyone = board(client, "?pool=penalty&all=1")
        assert [entry["name"] for entry in everyone] == ["Ada", "Bob"]
        assert all(entry["games"] == 2 * LEADERBOARD_GAMES for entry in everyone)


def test_a_player_page_counts_wins_draws_losses_and_places(
    league_client: TestClient, league: Store
) -> None:
    first, bot = page(league_client, "p00"), page(league_client, NAMES[-1])  # any case
    assert (first["name"], first["bot"], bot["bot"]) == ("P00", False, True)
    assert set(first["pools"]) == {"winner"}
    winner = first["pools"]["winner"]
    rows = league.rated_games.of_account(1)
    assert winner["games"] == len(rows) == winner["wins"] + winner["draws"] + winner["losses"]
    assert winner["wins"] == sum(1 for row in rows if row["rank"] == 0)  # no ties here
    assert winner["average_place"] == sum(row["rank"] + 1 for row in rows) / len(rows)
    assert winner["average_place"] < bot["pools"]["winner"]["average_place"]
    stored = league.ratings.of(1, Pool.WINNER)
    assert stored is not None and winner["rating"] == display_value(stored.rating)
    history = winner["history"]
    assert [point["table"] for point in history] == [row["table_id"] for row in rows]
    assert history[-1]["rating"] == winner["rating"]
    recent = first["recent"]
    assert len(recent) == RECENT_GAMES and recent[0]["table"] == history[-1]["table"]
    assert all(game["seats"] == 4 and game["pool"] == "winner" for game in recent)
    assert recent[0]["rating_after"] == winner["rating"]
    assert [game["rating_after"] for game in recent[1:]] == [
        point["rating"] for point in reversed(history[-RECENT_GAMES:-1])
    ]
    assert all(len(game["opponents"]) == 3 for game in recent)


def test_a_player_page_adds_up_the_figures_of_its_games(
    league_client: TestClient, league: Store
) -> None:
    """Each club game is one deal, gone out of by its best total, that scores the totals."""
    rows = league.rated_games.of_account(1)
    winner = page(league_client, "P00")["pools"]["winner"]
    assert winner["deals"] == len(rows)
    assert winner["going_out_rate"] == round(winner["wins"] / len(rows), 4)
    assert winner["points_per_deal"] == round(sum(row["total"] for row in rows) / len(rows), 4)
    assert (winner["rummies"], winner["timeouts"], winner["computer_share"]) == (0, 0, 0)
    assert winner["seconds_per_turn"] == 0  # the club's clock stands still during a game


def test_a_tie_for_first_is_a_draw(tmp_path: Path, clock: ManualClock) -> None:
    store = accounts_store(tmp_path / "tie.sqlite3", clock, ("Ada", "Bob", "Cyd"))
    store_rated_game(store, RatedGame("t0", Pool.WINNER, (1, 2, 3), (50, 50, 10), 1))
    store_rated_game(store, RatedGame("t1", Pool.WINNER, (1, 2, 3), (10, 50, 60), 1))
    app = create_app(
        ServerConfig(store_path=store.path, limits=Limits.unlimited()),
        now=clock.time,
        workers=WORKERS,
    )
    with TestClient(app) as client:
        ada = page(client, "Ada")["pools"]["winner"]
        assert (ada["wins"], ada["draws"], ada["losses"], ada["average_place"]) == (0, 1, 1, 2.0)
        cyd = page(client, "Cyd")
        assert cyd["pools"]["winner"]["wins"] == 1
        assert [game["rank"] for game in cyd["recent"]] == [0, 2]
        assert [game["tied"] for game in cyd["recent"]] == [False, False]
        bob = page(client, "Bob")
        assert bob["pools"]["winner"]["draws"] == 1
        assert [(game["rank"], game["tied"]) for game in bob["recent"]] == [(1, False), (0, True)]


def test_the_thresholds_are_the_ratings_constants(league_client: TestClient) -> None:
    answer = league_client.get("/api/leaderboard/thresholds")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "min_games": LEADERBOARD_GAMES,
        "min_opponents": LEADERBOARD_OPPONENTS,
        "idle_days": LEADERBOARD_IDLE_DAYS,
        "trusted_games": TRUSTED_GAMES,
        "trusted_opponents": TRUSTED_OPPONENTS,
        "repeat_days": REPEAT_WINDOW_DAYS,
    }


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/leaderboard?pool=poker", 400),
        ("/api/leaderboard?pool=winner&pool=penalty", 400),
        ("/api/leaderboard?all=yes", 400),
        ("/api/leaderboard?limit=5", 400),
        ("/api/leaderboard/thresholds?pool=winner", 400),
        ("/api/players/Nobody", 404),
        ("/api/players/a", 404),
        ("/api/players/" + "x" * 300, 404),
        ("/api/players/Ada?x=1", 400),
    ],
)
def test_bounded_queries_and_unknown_players_are_refused(
    league_client: TestClient, path: str, status: int
) -> None:
    answer = league_client.get(path)
    assert answer.status_code == status and "error" in answer.json()


def test_a_ranked_game_over_sockets_shows_on_the_pages(app_client: TestClient) -> None:
    """Two new accounts: the game is on both pages, counted for nothing (they have met no one
    else), so both stay at 1500 and the page says the game's weight."""
    people = [account(app_client, name) for name in ("Ada", "Bob")]
    _, table, tokens = started_ranked(app_client, people)
    assert board(app_client, "?all=1") == []
    with (
        open_seat(app_client, table, tokens[0]) as ada,
        open_seat(app_client, table, tokens[1]) as bob,
    ):
        play_everyone({0: ada, 1: bob})
    assert board(app_client) == []  # one game: provisional, off the board
    everyone = board(app_client, "?all=1")
    assert {entry["name"] for entry in everyone} == {"Ada", "Bob"}
    assert all(entry["provisional"] and entry["games"] == 1 for entry in everyone)
    assert all(entry["rating"] == 1500 for entry in everyone)
    for name in ("Ada", "Bob"):
        shown = page(app_client, name)
        assert [game["table"] for game in shown["recent"]] == [table]
        winner = shown["pools"]["winner"]
        assert winner["games"] == 1 and winner["history"][0]["table"] == table
        assert shown["recent"][0]["rating_before"] == 1500 == shown["recent"][0]["rating_after"]
        assert shown["recent"][0]["weight"] == 0
