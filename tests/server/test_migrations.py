"""The store's schema migrations (Alembic) on SQLite and PostgreSQL.

An empty database is made at the newest revision; a SQLite file of before the migrations is
brought up by the hand-written upgrades, stamped, and migrated on; opening a store again
changes nothing; servers starting together on one PostgreSQL database migrate it once.
"""

from __future__ import annotations

import concurrent.futures
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.server.store import legacy_sqlite, migrate
from rummykit.server.store.database import open_database
from rummykit.server.store.store import TOKEN_LIFETIME_S, Store, token_hash
from services import StoreBackend

pytestmark = pytest.mark.timeout(120)

TABLES = {"tables", "seats", "deals", "actions", "parties", "accounts", "sessions"}
TABLES |= {"ratings", "rated_games", "ranked_leaves", "reviews", "alembic_version"}
TABLES |= {"account_networks", "arenas"}


def schema(backend: StoreBackend) -> set[tuple[object, ...]]:
    """Every table's columns and every index, as the database describes them."""
    if backend.kind == "sqlite":
        return set(backend.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    columns = backend.execute(
        "SELECT table_name, column_name, data_type, is_nullable, column_default "
        "FROM information_schema.columns WHERE table_schema = 'public'"
    )
    indexes = backend.execute(
        "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'"
    )
    return set(columns) | set(indexes)


def revision(location: str) -> str | None:
    database = open_database(location)
    try:
        return migrate.current(database)
    finally:
        database.close()


def test_an_empty_database_is_made_at_the_newest_revision(store_backend: StoreBackend) -> None:
    Store(store_backend.location).close()
    assert revision(store_backend.location) == migrate.head() == "0008"
    names = {str(row[1]) for row in schema(store_backend)}
    names |= {str(row[0]) for row in schema(store_backend)}
    assert names >= TABLES | {"accounts_by_name", "seats_by_expiry", "rated_games_by_account"}


def test_opening_again_changes_nothing(store_backend: StoreBackend) -> None:
    store = Store(store_backend.location)
    assert store.accounts.add("Ada", False, "hash") is not None
    store.close()
    before = schema(store_backend)
    store = Store(store_backend.location)
    found = store.accounts.named("ADA")
    store.close()
    assert found is not None and found.name == "Ada"
    assert schema(store_backend) == before
    assert store_backend.execute("SELECT version_num FROM alembic_version") == [(migrate.head(),)]


def test_account_names_are_unique_whatever_their_case(store_backend: StoreBackend) -> None:
    store = Store(store_backend.location)
    try:
        ada = store.accounts.add("Ada", False, "hash")
        assert ada is not None and store.accounts.add("aDA", True, "hash") is None
        bob = store.accounts.add("Bob", True, "hash")  # numbered by the database (PostgreSQL's
        assert bob is not None and bob.id > ada.id and bob.bot  # sequence skips a refused one)
    finally:
        store.close()


def test_a_sqlite_file_of_before_the_migrations_is_stamped_and_migrated(tmp_path: Path) -> None:
    path = tmp_path / "v7.sqlite3"
    with sqlite3.connect(path, isolation_level=None) as db:  # made by the last hand-written code
        legacy_sqlite.upgrade_to_7(db, token_hash, TOKEN_LIFETIME_S)
        db.execute(
            "INSERT INTO accounts (name, kind, password, created) VALUES ('Ada', 'person', 'h', 0)"
        )
    store = Store(path)
    try:
        assert store.accounts.add("ADA", False, "hash") is None  # COLLATE NOCASE, and the index
        assert store.accounts.named("ada") is not None
    finally:
        store.close()
    backend = StoreBackend("sqlite", str(path))
    assert revision(str(path)) == migrate.head()
    assert ("index", "accounts_by_name") in {row[:2] for row in schema(backend)}
    assert backend.execute("PRAGMA user_version") == [(legacy_sqlite.LEGACY_VERSION,)]


def test_an_older_sqlite_file_takes_the_hand_written_upgrades_first(tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite3"
    with sqlite3.connect(path) as db:  # version 3: no parties, one seat per token, no accounts
        db.execute(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, "
            "updated REAL NOT NULL, settings TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0, "
            "summary TEXT, version INTEGER NOT NULL DEFAULT 0, deadline REAL)"
        )
        db.execute(
            "CREATE TABLE seats (token TEXT PRIMARY KEY, table_id TEXT NOT NULL, "
            "seat INTEGER NOT NULL, expires REAL)"
        )
        db.execute("INSERT INTO seats VALUES (?, 't', 0, NULL)", (token_hash("tok"),))
        db.execute("PRAGMA user_version = 3")
    Store(path).close()
    store = Store(path)  # and again: nothing left to do
    try:
        assert store.seat_of("t", "tok") == 0
        assert store.accounts.add("Ada", False, "h") is not None
    finally:
        store.close()
    assert revision(str(path)) == migrate.head()


OPEN_A_STORE = (
    "import sys; from rummykit.server.store.store import Store; Store(sys.argv[1]).close()"
)


def test_servers_starting_together_migrate_once(postgres_url: str) -> None:
    # three processes open the empty database at once: one makes it, the others wait for it
    starting = [
        subprocess.Popen([sys.executable, "-c", OPEN_A_STORE, postgres_url], stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    for process in starting:
        _, errors = process.communicate(timeout=60)
        assert process.returncode == 0, errors.decode()
    with concurrent.futures.ThreadPoolExecutor(3) as pool:  # and threads of one process
        stores = list(pool.map(lambda _: Store(postgres_url), range(3)))
    for store in stores:
        store.close()
    assert revision(postgres_url) == migrate.head()
