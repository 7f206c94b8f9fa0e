"""Ratings in the store: written with the finished mark, exactly once, and migrated into v5 files.

Each test runs on SQLite and on PostgreSQL (``store_backend``). The store runs on a clock moved
by hand; a "crash" between the rating and the commit is a trigger that aborts the transaction
halfway through the rated rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from party_client import accounts_store, establish
from rummykit.protocol.settings import HumanPlayer, TableSettings
from rummykit.ratings import DEFAULT_SIGMA, TRUSTED_GAMES, Pool, Rating
from rummykit.server.store.rated import DAY_S, RatedGame
from rummykit.server.store.store import SCHEMA_VERSION, Store
from services import StoreBackend
from table_client import ManualClock

pytestmark = pytest.mark.timeout(60)


def two_seat_table(store: Store, table_id: str) -> None:
    people = (HumanPlayer(kind="human", name="Ada"), HumanPlayer(kind="human", name="Bob"))
    store.create_table(
        table_id, TableSettings(rules="standard", players=people, practice=False), {}
    )


def game(table_id: str = "t1", deals: int = 1, **kw: object) -> RatedGame:
    fields: dict[str, object] = {
        "pool": Pool.WINNER,
        "accounts": (1, 2),
        "totals": (120, 40),
        "deals_completed": deals,
        **kw,
    }
    return RatedGame(table_id, **fields)  # type: ignore[arg-type]


def finish(store: Store, rated: RatedGame) -> None:
    store.add_action(rated.table_id, 0, 0, "d", [], 1, finished={"scores": []}, rated=rated)


OUTSIDERS = tuple(f"Out{number}" for number in range(3 * TRUSTED_GAMES))
"""Accounts 4 on: the people Ada, Bob and Cy met before (``establish``)."""


@pytest.fixture
def store(store_backend: StoreBackend, clock: ManualClock) -> Iterator[Store]:
    """Ada, Bob and Cy (accounts 1 to 3), each known from games against the outsiders: their
    results count in full against each other, and their ratings are the newcomer's."""
    store = accounts_store(store_backend.location, clock, ("Ada", "Bob", "Cy", *OUTSIDERS))
    establish(store, clock, (1, 2, 3), range(4, 4 + len(OUTSIDERS)))
    yield store
    store.close()


CRASH_TRIGGER = {
    "sqlite": (
        "CREATE TRIGGER crash BEFORE INSERT ON rated_games WHEN NEW.seat = 1 "
        "BEGIN SELECT RAISE(ABORT, 'crash'); END",
    ),
    "postgresql": (
        "CREATE FUNCTION crash() RETURNS trigger LANGUAGE plpgsql AS "
        "'BEGIN IF NEW.seat = 1 THEN RAISE EXCEPTION ''crash''; END IF; RETURN NEW; END'",
        "CREATE TRIGGER crash BEFORE INSERT ON rated_games FOR EACH ROW EXECUTE FUNCTION crash()",
    ),
}
"""A trigger that aborts the transaction at the second rated row, as a crash would."""


def mus(store: Store, pool: Pool = Pool.WINNER) -> list[float | None]:
    ratings = [store.ratings.of(account, pool) for account in (1, 2, 3)]
    return [None if found is None else found.rating.mu for found in ratings]


def test_the_finishing_action_rates_the_game_once(store: Store) -> None:
    two_seat_table(store, "t1")
    finish(store, game())
    ada, bob, cy = mus(store)
    assert ada is not None and bob is not None and ada > 25 > bob and cy == 25
    rows = store.rated_games.of_game("t1")
    assert [(row["account"], row["rank"], row["total"]) for row in rows] == [
        (1, 0, 120),
        (2, 1, 40),
    ]
    assert rows[0]["mu_before"] == 25 and rows[0]["mu_after"] == ada
    before = mus(store)
    assert store.rated_games.rate(game()) is False  # finishing it again changes nothing
    assert mus(store) == before and len(store.rated_games.of_game("t1")) == 2
    assert store.ratings.of(1, Pool.WINNER) is not None
    assert store.ratings.of(1, Pool.PENALTY) is None


def test_a_second_row_for_a_game_and_account_is_refused_by_the_key(
    store: Store, store_backend: StoreBackend
) -> None:
    two_seat_table(store, "t1")
    finish(store, game())
    with pytest.raises((sqlite3.IntegrityError, psycopg.IntegrityError)):
        store_backend.execute(
            "INSERT INTO rated_games SELECT * FROM rated_games WHERE table_id = 't1' AND seat = 0"
        )


def test_a_crash_between_the_rating_and_the_commit_rates_once_on_replay(
    store: Store, store_backend: StoreBackend
) -> None:
    two_seat_table(store, "t1")
    for statement in CRASH_TRIGGER[store_backend.kind]:  # the process dies at the second row
        store_backend.execute(statement)
    before, finished = mus(store), len(store.history())
    with pytest.raises((sqlite3.IntegrityError, psycopg.Error), match="crash"):
        finish(store, game())
    assert mus(store) == before and store.rated_games.of_game("t1") == []
    assert store.deals("t1") == [] and len(store.history()) == finished  # nothing of it kept
    drop = {"sqlite": "DROP TRIGGER crash", "postgresql": "DROP TRIGGER crash ON rated_games"}
    store_backend.execute(drop[store_backend.kind])
    finish(store, game())  # the table replays the finishing action
    assert len(store.rated_games.of_game("t1")) == 2 and len(store.history()) == finished + 1
    after = mus(store)
    assert store.rated_games.rate(game()) is False and mus(store) == after


def test_a_game_shorter_than_one_deal_is_not_rated(store: Store) -> None:
    two_seat_table(store, "t1")
    before, finished = mus(store), len(store.history())
    finish(store, game(deals=0))
    assert mus(store) == before and store.rated_games.of_game("t1") == []
    assert len(store.history()) == finished + 1  # finished all the same


def test_a_leaver_ranks_last_whatever_their_total(store: Store) -> None:
    two_seat_table(store, "t1")
    finish(store, game(accounts=(1, 2, 3), totals=(150, 20, 90), left=frozenset({0})))
    assert [row["rank"] for row in store.rated_games.of_game("t1")] == [2, 1, 0]
    ada, _, cy = mus(store)
    assert ada is not None and cy is not None and ada < 25 < cy


def test_penalty_scoring_rates_its_own_pool_lowest_first(store: Store) -> None:
    two_seat_table(store, "t1")
    winner = mus(store)
    finish(store, game(pool=Pool.PENALTY, totals=(120, 40)))
    assert mus(store) == winner
    ada, bob = (store.ratings.of(account, Pool.PENALTY) for account in (1, 2))
    assert ada is not None and bob is not None and ada.rating.mu < 25 < bob.rating.mu


def test_the_same_pair_again_counts_half(store: Store, clock: ManualClock) -> None:
    for number in (1, 2, 3):
        two_seat_table(store, f"t{number}")
        finish(store, game(f"t{number}"))
        clock.advance(60)
    weights = [store.rated_games.of_game(f"t{number}")[0]["weight"] for number in (1, 2, 3)]
    assert weights == [1.0, 0.5, 1 / 3]
    stored = store.ratings.of(1, Pool.WINNER)
    assert stored is not None and stored.games == TRUSTED_GAMES + 3


def test_an_idle_rating_drifts_before_the_update(store: Store, clock: ManualClock) -> None:
    two_seat_table(store, "t1")
    finish(store, game("t1"))
    first = store.rated_games.of_game("t1")[0]
    clock.advance(90 * DAY_S)
    two_seat_table(store, "t2")
    finish(store, game("t2"))
    second = store.rated_games.of_game("t2")[0]
    assert second["mu_before"] == first["mu_after"]
    assert first["sigma_after"] < second["sigma_before"] <= DEFAULT_SIGMA
    assert second["weight"] == 1.0  # the first meeting is out of the repeat window


def test_a_version_5_store_gains_ratings_and_keeps_its_accounts(
    tmp_path: Path, clock: ManualClock
) -> None:
    path = tmp_path / "v5.sqlite3"
    accounts_store(path, clock, ("Ada", "Bob")).close()
    with sqlite3.connect(path) as db:  # as version 5 wrote it: no ratings
        db.execute("DROP TABLE rated_games")
        db.execute("DROP TABLE ratings")
        db.execute("PRAGMA user_version = 5")
    store = Store(path, now=clock.time)
    found = store.accounts.named("bob")
    assert found is not None and found.id == 2
    two_seat_table(store, "t1")
    finish(store, game())
    assert store.ratings.of(2, Pool.WINNER) is not None
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert {"ratings", "rated_games", "rated_games_by_account", "accounts"} <= names
    assert Rating() == Rating(25.0, DEFAULT_SIGMA)
