"""The hand-written upgrades of SQLite files made before the migrations (versions 0 to 7).

Frozen: a file's ``PRAGMA user_version`` says how far these went, and a file below 7 is
brought to 7 here before Alembic takes over from its first revision (``migrations/``), which
is this same version 7. New changes to the schema are Alembic revisions, never code here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Final

LEGACY_VERSION: Final = 7
"""1: seat tokens stored as their SHA-256 (version 0 kept them in clear).
2: each seat has the time its token stops working (``expires``; none while its game goes on).
3: each table has the deadline of the turn being timed (``deadline``; none when no turn is).
4: parties; a token may hold a seat at several tables (a party member's, at each of its
games), so a seat is keyed by its token and its table.
5: accounts and their sessions.
6: ratings and rated games.
7: who played each action, at which seat and when, and when each deal was dealt (the
player pages' figures); each rated game's figures; ranked games left early.
"""

_SEATS = """
CREATE TABLE IF NOT EXISTS seats (
    token TEXT NOT NULL,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    expires REAL,
    PRIMARY KEY (token, table_id)
)"""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    settings TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    summary TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    deadline REAL
);
CREATE TABLE IF NOT EXISTS deals (
    table_id TEXT NOT NULL REFERENCES tables(id),
    deal INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    deck TEXT NOT NULL,
    seed INTEGER NOT NULL,
    at REAL,
    PRIMARY KEY (table_id, deal)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    deal INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    reshuffles TEXT NOT NULL DEFAULT '[]',
    seat INTEGER,
    by TEXT,
    at REAL,
    PRIMARY KEY (table_id, deal, seq)
);
CREATE TABLE IF NOT EXISTS parties (
    code TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    party TEXT NOT NULL
);
"""

_ACCOUNTS = """
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL COLLATE NOCASE UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
    password TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id),
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires);
"""

_RATINGS = """
CREATE TABLE IF NOT EXISTS ratings (
    account INTEGER NOT NULL REFERENCES accounts(id),
    pool TEXT NOT NULL CHECK (pool IN ('winner', 'penalty')),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    last_played REAL NOT NULL,
    PRIMARY KEY (account, pool)
);
CREATE TABLE IF NOT EXISTS rated_games (
    table_id TEXT NOT NULL REFERENCES tables(id),
    account INTEGER NOT NULL REFERENCES accounts(id),
    pool TEXT NOT NULL CHECK (pool IN ('winner', 'penalty')),
    seat INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    total INTEGER NOT NULL,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after REAL NOT NULL,
    sigma_after REAL NOT NULL,
    weight REAL NOT NULL,
    at REAL NOT NULL,
    figures TEXT,
    PRIMARY KEY (table_id, account)
);
CREATE INDEX IF NOT EXISTS rated_games_by_account ON rated_games (account, at);
"""

_RANKED_LEAVES = """
CREATE TABLE IF NOT EXISTS ranked_leaves (
    account INTEGER NOT NULL REFERENCES accounts(id),
    table_id TEXT NOT NULL REFERENCES tables(id),
    at REAL NOT NULL,
    PRIMARY KEY (account, table_id)
);
"""

_V7_COLUMNS: Final = (
    ("deals", "at", "REAL"),
    ("actions", "seat", "INTEGER"),
    ("actions", "by", "TEXT"),
    ("actions", "at", "REAL"),
    ("rated_games", "figures", "TEXT"),
)
"""The columns version 7 adds to the tables of earlier files."""


def is_legacy_file(db: sqlite3.Connection) -> bool:
    """Whether the file was made before the migrations and is below version 7.

    An empty file is not: the migrations make it from nothing.
    """
    made = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tables'")
    if made.fetchone() is None:
        return False
    return int(db.execute("PRAGMA user_version").fetchone()[0]) < LEGACY_VERSION


def upgrade_to_7(
    db: sqlite3.Connection, token_hash: Callable[[str], str], token_lifetime_s: float
) -> None:
    """Bring a file of an earlier version up to version 7, in one transaction.

    ``token_hash`` is what the store keeps of a token; finished games' tokens expire
    ``token_lifetime_s`` after their end.
    """
    db.executescript(_SCHEMA)
    db.execute(_SEATS)
    db.execute("BEGIN IMMEDIATE")
    try:
        _upgrade(db, token_hash, token_lifetime_s)
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _upgrade(
    db: sqlite3.Connection, token_hash: Callable[[str], str], token_lifetime_s: float
) -> None:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version < 1:  # hash the tokens kept in clear
        for (token,) in db.execute("SELECT token FROM seats").fetchall():
            db.execute("UPDATE seats SET token = ? WHERE token = ?", (token_hash(token), token))
    if version < 2:  # tokens expire: those of games already over, from their end
        columns = {row[1] for row in db.execute("PRAGMA table_info(seats)")}
        if "expires" not in columns:  # a new file was made with it
            db.execute("ALTER TABLE seats ADD COLUMN expires REAL")
        db.execute(
            "UPDATE seats SET expires = "
            "(SELECT updated FROM tables WHERE tables.id = seats.table_id) + ? "
            "WHERE table_id IN (SELECT id FROM tables WHERE finished = 1)",
            (token_lifetime_s,),
        )
    if version < 3:  # turn timers: no table made before had one running
        columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
        if "deadline" not in columns:  # a new file was made with it
            db.execute("ALTER TABLE tables ADD COLUMN deadline REAL")
    if version < 4:  # one token, a seat at each table of a party
        _upgrade_to_4(db)
    if version < 5:  # accounts: none before
        _execute_script(db, _ACCOUNTS)
    if version < 6:  # ratings: none before
        _execute_script(db, _RATINGS)
    if version < 7:  # who played each action; figures; leaves
        _upgrade_to_7(db)
    db.execute("CREATE INDEX IF NOT EXISTS seats_by_expiry ON seats (expires)")
    db.execute(f"PRAGMA user_version = {LEGACY_VERSION}")


def _upgrade_to_4(db: sqlite3.Connection) -> None:
    """Key each seat by its token and its table (it was the token alone)."""
    keys = [row[1] for row in db.execute("PRAGMA table_info(seats)") if row[5]]
    if keys == ["token"]:  # a file of an earlier version: rebuild the table
        db.execute("ALTER TABLE seats RENAME TO seats_v3")
        db.execute(_SEATS)
        db.execute(
            "INSERT INTO seats (token, table_id, seat, expires) "
            "SELECT token, table_id, seat, expires FROM seats_v3"
        )
        db.execute("DROP TABLE seats_v3")


def _upgrade_to_7(db: sqlite3.Connection) -> None:
    """Add version 7's columns where a file lacks them, and its table of leaves."""
    for table, column, kind in _V7_COLUMNS:
        if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    _execute_script(db, _RANKED_LEAVES)


def _execute_script(db: sqlite3.Connection, script: str) -> None:
    """Run each statement of ``script`` in the open transaction (``executescript`` commits)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)
