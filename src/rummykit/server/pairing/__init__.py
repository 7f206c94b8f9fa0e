"""Finding a game: open tables, quick pairing by rating, challenges between people, arenas."""

from rummykit.server.pairing.arena_routes import ARENA_ROUTES
from rummykit.server.pairing.arenas import Arenas
from rummykit.server.pairing.challenges import Challenges
from rummykit.server.pairing.inbox_routes import INBOX_ROUTES
from rummykit.server.pairing.open_table_routes import OPEN_TABLE_ROUTES
from rummykit.server.pairing.open_tables import OpenTablesBoard
from rummykit.server.pairing.pairing_routes import PAIRING_ROUTES
from rummykit.server.pairing.quick_pairing import QuickPairing

__all__ = [
    "ARENA_ROUTES",
    "INBOX_ROUTES",
    "OPEN_TABLE_ROUTES",
    "PAIRING_ROUTES",
    "Arenas",
    "Challenges",
    "OpenTablesBoard",
    "QuickPairing",
]
