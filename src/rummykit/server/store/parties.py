"""The parties, each kept as its JSON."""

from __future__ import annotations

import dataclasses

from rummykit.server.store.common import Now
from rummykit.server.store.database import Database


@dataclasses.dataclass(frozen=True, slots=True)
class StoredParty:
    """A party as the store keeps it."""

    party: str
    """The party's JSON (``parties.party.PartyRecord``)."""
    updated: float
    """When it last changed (seconds since the epoch)."""


class Parties:
    """The ``parties`` table."""

    def __init__(self, db: Database, now: Now) -> None:
        """Over ``db``, stamping with ``now``."""
        self._db = db
        self._now = now

    def save(self, code: str, party: str, *, new: bool = False) -> bool:
        """Keep a party (its JSON); with ``new``, only if no party has that code yet.

        Whether it was kept (a new party's code may already be taken).
        """
        now = self._now()
        with self._db.transaction() as db:
            if new:
                taken = db.execute(
                    "INSERT INTO parties (code, created, updated, party) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (code, now, now, party),
                )
                return taken.rowcount == 1
            db.execute(
                "UPDATE parties SET party = ?, updated = ? WHERE code = ?", (party, now, code)
            )
            return True

    def get(self, code: str) -> StoredParty | None:
        """A party as kept, or ``None``."""
        with self._db.read() as db:
            row = db.execute(
                "SELECT party, updated FROM parties WHERE code = ?", (code,)
            ).fetchone()
        return StoredParty(str(row[0]), float(row[1])) if row else None
