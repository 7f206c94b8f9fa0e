"""Where tables live between requests and restarts: SQLite, an append-only log per table.

A table is its settings, its deals (dealer, deck, seed) and its actions in order; it is
rebuilt by replaying them as a game record. An action is committed before it is
acknowledged, so an acknowledged action survives a crash.

A seat's token is kept only as its SHA-256 (a token is 24 random bytes: no table of guesses
reaches it), and the database, its folder and its journal are the owner's alone: whoever
reads the file cannot take anyone's seat.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rummykit.core.cards import Card, parse_cards
from rummykit.server.settings import TableSettings

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    settings TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    summary TEXT,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    token TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS deals (
    table_id TEXT NOT NULL REFERENCES tables(id),
    deal INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    deck TEXT NOT NULL,
    seed INTEGER NOT NULL,
    PRIMARY KEY (table_id, deal)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    deal INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    reshuffles TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (table_id, deal, seq)
);
"""


SCHEMA_VERSION = 1
"""1: seat tokens stored as their SHA-256 (version 0 kept them in clear)."""

OWNER_ONLY_FILE = 0o600
OWNER_ONLY_FOLDER = 0o700


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _private_file(path: Path) -> None:
    """Create ``path`` readable by its owner only, or make it so.

    SQLite gives its journal files the database file's mode, so they are private too.
    """
    path.parent.mkdir(mode=OWNER_ONLY_FOLDER, parents=True, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, OWNER_ONLY_FILE))
    path.chmod(OWNER_ONLY_FILE)


class Store:
    """The SQLite store (WAL), safe to share between threads."""

    def __init__(self, path: Path | str) -> None:
        """Open (and create if needed) the database at ``path`` (``:memory:`` for tests)."""
        if str(path) != ":memory:":
            _private_file(Path(path))
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._upgrade()

    def _upgrade(self) -> None:
        """Bring a database of an earlier version up to ``SCHEMA_VERSION``."""
        with self._transaction() as db:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            if version < 1:  # hash the tokens kept in clear
                for (token,) in db.execute("SELECT token FROM seats").fetchall():
                    db.execute(
                        "UPDATE seats SET token = ? WHERE token = ?", (token_hash(token), token)
                    )
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def create_table(self, table_id: str, settings: TableSettings, tokens: dict[int, str]) -> None:
        """Store a new table with its settings and the tokens of its human seats."""
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, created, updated, settings) VALUES (?, ?, ?, ?)",
                (table_id, now, now, settings.model_dump_json()),
            )
            for seat, token in tokens.items():
                db.execute(
                    "INSERT INTO seats (token, table_id, seat) VALUES (?, ?, ?)",
                    (token_hash(token), table_id, seat),
                )

    def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat a token holds at a table, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT seat FROM seats WHERE token = ? AND table_id = ?",
                (token_hash(token), table_id),
            ).fetchone()
        return int(row[0]) if row else None

    def add_deal(
        self,
        table_id: str,
        deal: int,
        dealer: int,
        deck: Sequence[Card],
        seed: int,
        version: int = 0,
    ) -> None:
        """Record a new deal and the table's version once it is dealt.

        A thrown-away deal of the same number is replaced.
        """
        with self._transaction() as db:
            db.execute("DELETE FROM actions WHERE table_id = ? AND deal = ?", (table_id, deal))
            db.execute(
                "INSERT OR REPLACE INTO deals (table_id, deal, dealer, deck, seed) "
                "VALUES (?, ?, ?, ?, ?)",
                (table_id, deal, dealer, " ".join(str(card) for card in deck), seed),
            )
            db.execute(
                "UPDATE tables SET updated = ?, version = ? WHERE id = ?",
                (time.time(), version, table_id),
            )

    def add_action(
        self,
        table_id: str,
        deal: int,
        seq: int,
        text: str,
        reshuffles: Sequence[Sequence[Card]],
        version: int = 0,
        finished: dict[str, Any] | None = None,
    ) -> None:
        """Append one action, any stock it shuffled, and the table's version after it.

        ``finished`` is the summary of the game when this action ends it: the game is then
        marked over in the same transaction, so a crash can never keep a finished game out of
        the history. Committed when this returns.
        """
        with self._transaction() as db:
            shuffled = json.dumps([[str(card) for card in order] for order in reshuffles])
            db.execute(
                "INSERT INTO actions (table_id, deal, seq, text, reshuffles) "
                "VALUES (?, ?, ?, ?, ?)",
                (table_id, deal, seq, text, shuffled),
            )
            db.execute(
                "UPDATE tables SET updated = ?, version = ? WHERE id = ?",
                (time.time(), version, table_id),
            )
            if finished is not None:
                db.execute(
                    "UPDATE tables SET finished = 1, summary = ? WHERE id = ?",
                    (json.dumps(finished), table_id),
                )

    def version(self, table_id: str) -> int:
        """The table's version as last stored (0 for an unknown table)."""
        with self._lock:
            row = self._db.execute(
                "SELECT version FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        return int(row[0]) if row else 0

    def save_settings(self, table_id: str, settings: TableSettings) -> None:
        """Replace a table's settings (the pace changed, say): a restart starts from these."""
        with self._transaction() as db:
            db.execute(
                "UPDATE tables SET settings = ?, updated = ? WHERE id = ?",
                (settings.model_dump_json(), time.time(), table_id),
            )

    def settings(self, table_id: str) -> TableSettings | None:
        """A table's settings, or ``None`` if there is no such table."""
        with self._lock:
            row = self._db.execute(
                "SELECT settings FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        return TableSettings.model_validate_json(row[0]) if row else None

    def deals(self, table_id: str) -> list[dict[str, Any]]:
        """A table's deals in order, each with its actions and reshuffles (record shape)."""
        with self._lock:
            deal_rows = self._db.execute(
                "SELECT deal, dealer, deck, seed FROM deals WHERE table_id = ? ORDER BY deal",
                (table_id,),
            ).fetchall()
            action_rows = self._db.execute(
                "SELECT deal, text, reshuffles FROM actions WHERE table_id = ? ORDER BY deal, seq",
                (table_id,),
            ).fetchall()
        deals: list[dict[str, Any]] = []
        by_number: dict[int, dict[str, Any]] = {}
        for number, dealer, deck, seed in deal_rows:
            entry = {
                "dealer": dealer,
                "deck": [str(card) for card in parse_cards(deck.split())],
                "actions": [],
                "reshuffles": [],
                "seed": seed,
            }
            by_number[number] = entry
            deals.append(entry)
        for number, text, reshuffles in action_rows:
            entry = by_number[number]
            entry["actions"].append(text)
            entry["reshuffles"].extend(json.loads(reshuffles))
        return deals

    def history(self, limit: int = 100) -> list[dict[str, Any]]:
        """Finished games, newest first: id, when, and the summary."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, updated, summary FROM tables WHERE finished = 1 "
                "ORDER BY updated DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [
            {"id": row[0], "created": row[1], "finished": row[2], **json.loads(row[3] or "{}")}
            for row in rows
        ]
