"""Parties: people who play one table after another; the lobby that finds them."""

from rummykit.server.parties.bot_routes import BOT_ROUTES
from rummykit.server.parties.finished import Unseen, finished_game
from rummykit.server.parties.lobby import Lobby
from rummykit.server.parties.open_table_routes import OPEN_TABLE_ROUTES
from rummykit.server.parties.open_tables import stored_ratings
from rummykit.server.parties.party import PartyError, checked_rules
from rummykit.server.parties.party_routes import PARTY_ROUTES, lobby_of

__all__ = [
    "BOT_ROUTES",
    "OPEN_TABLE_ROUTES",
    "PARTY_ROUTES",
    "Lobby",
    "PartyError",
    "Unseen",
    "checked_rules",
    "finished_game",
    "lobby_of",
    "stored_ratings",
]
