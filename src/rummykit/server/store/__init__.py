"""Where everything lives between requests and restarts: SQLite or PostgreSQL, migrated."""

from rummykit.server.store.accounts import SESSION_LIFETIME_S, Account
from rummykit.server.store.common import Now, token_hash
from rummykit.server.store.database import (
    DATABASE_URL_ENV,
    Database,
    FileInUse,
    Session,
    is_postgres_url,
    is_unavailable,
)
from rummykit.server.store.outage import handle_outages, note_outage
from rummykit.server.store.rated import DAY_S, RatedGame, current_rating, waits_left
from rummykit.server.store.ratings import PoolRating
from rummykit.server.store.seat_figures import Played, SeatFigures
from rummykit.server.store.store import Store, StoredGame

__all__ = [
    "DATABASE_URL_ENV",
    "DAY_S",
    "SESSION_LIFETIME_S",
    "Account",
    "Database",
    "FileInUse",
    "Now",
    "Played",
    "PoolRating",
    "RatedGame",
    "SeatFigures",
    "Session",
    "Store",
    "StoredGame",
    "current_rating",
    "handle_outages",
    "is_postgres_url",
    "is_unavailable",
    "note_outage",
    "token_hash",
    "waits_left",
]
