"""Where everything lives between requests and restarts: SQLite or PostgreSQL, migrated."""

from rummykit.server.store.database import (
    DATABASE_URL_ENV,
    FileInUse,
    is_postgres_url,
    is_unavailable,
)
from rummykit.server.store.outage import handle_outages, note_outage
from rummykit.server.store.rated import DAY_S, RatedGame, waits_left
from rummykit.server.store.seat_figures import Played, SeatFigures
from rummykit.server.store.store import SESSION_LIFETIME_S, Account, Now, Store, token_hash

__all__ = [
    "DATABASE_URL_ENV",
    "DAY_S",
    "SESSION_LIFETIME_S",
    "Account",
    "FileInUse",
    "Now",
    "Played",
    "RatedGame",
    "SeatFigures",
    "Store",
    "handle_outages",
    "is_postgres_url",
    "is_unavailable",
    "note_outage",
    "token_hash",
    "waits_left",
]
