"""The arenas, each kept as its JSON."""

from __future__ import annotations

from rummykit.server.store.common import Now
from rummykit.server.store.database import Database

RECENT_FINISHED = 20
"""Finished arenas ``recent`` lists (the newest)."""


class Arenas:
    """The ``arenas`` table."""

    def __init__(self, db: Database, now: Now) -> None:
        """Over ``db``, stamping with ``now``."""
        self._db = db
        self._now = now

    def save(
        self, arena_id: str, arena: str, *, name: str, finished: bool, winner: str | None = None
    ) -> None:
        """Keep an arena (its JSON, its name, whether and by whom it was won), new or changed."""
        now = self._now()
        with self._db.transaction() as db:
            db.execute(
                "INSERT INTO arenas (id, created, updated, finished, name, winner, arena) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET updated = excluded.updated, "
                "finished = excluded.finished, winner = excluded.winner, arena = excluded.arena",
                (arena_id, now, now, finished, name, winner, arena),
            )

    def won_by(self, player: str) -> list[tuple[str, str]]:
        """The arenas ``player`` won (as their name is written), newest first: id and name."""
        with self._db.read() as db:
            rows = db.execute(
                "SELECT id, name FROM arenas WHERE winner = ? AND finished = TRUE "
                "ORDER BY created DESC LIMIT ?",
                (player, RECENT_FINISHED),
            ).fetchall()
        return [(str(row[0]), str(row[1])) for row in rows]

    def get(self, arena_id: str) -> str | None:
        """An arena's JSON, or ``None``."""
        with self._db.read() as db:
            row = db.execute("SELECT arena FROM arenas WHERE id = ?", (arena_id,)).fetchone()
        return str(row[0]) if row else None

    def unfinished(self) -> list[str]:
        """Every arena not finished yet, oldest first."""
        with self._db.read() as db:
            rows = db.execute(
                "SELECT arena FROM arenas WHERE finished = FALSE ORDER BY created, id"
            ).fetchall()
        return [str(row[0]) for row in rows]

    def recent(self) -> list[str]:
        """The newest finished arenas, newest first."""
        with self._db.read() as db:
            rows = db.execute(
                "SELECT arena FROM arenas WHERE finished = TRUE "
                "ORDER BY created DESC, id DESC LIMIT ?",
                (RECENT_FINISHED,),
            ).fetchall()
        return [str(row[0]) for row in rows]
