"""The reviews of finished games, one per seat, each kept as its JSON."""

from __future__ import annotations

import json
from typing import Any

from rummykit.server.store.common import Now
from rummykit.server.store.database import Database


class Reviews:
    """The ``reviews`` table.

    A review is a document (``rummy review --json``'s), not a row: it is kept and given back
    as that JSON, whose shape ``rummykit.review`` owns.
    """

    def __init__(self, db: Database, now: Now) -> None:
        """Over ``db``, stamping with ``now``."""
        self._db = db
        self._now = now

    def get(self, table_id: str, seat: int) -> dict[str, Any] | None:
        """The stored review of a finished game's seat, if made."""
        with self._db.read() as db:
            row = db.execute(
                "SELECT review FROM reviews WHERE table_id = ? AND seat = ?", (table_id, seat)
            ).fetchone()
        return json.loads(row[0]) if row else None

    def save(self, table_id: str, seat: int, review: dict[str, Any]) -> None:
        """Keep a finished game's review of ``seat``.

        A second one of the same seat is ignored: reviews are reproducible, so both are alike.
        """
        with self._db.transaction() as db:
            db.execute(
                "INSERT INTO reviews (table_id, seat, review, created) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (table_id, seat) DO NOTHING",
                (table_id, seat, json.dumps(review), self._now()),
            )
