"""Parties: people who play one table after another; the lobby that finds them."""

from rummykit.server.parties.bot_routes import BOT_ROUTES
from rummykit.server.parties.finished import Unseen, finished_game
from rummykit.server.parties.lobby import Lobby
from rummykit.server.parties.party import Party, PartyError, checked_rules
from rummykit.server.parties.party_routes import PARTY_ROUTES, lobby_of
from rummykit.server.parties.ranked_checks import HostRating, stored_ratings

__all__ = [
    "BOT_ROUTES",
    "PARTY_ROUTES",
    "HostRating",
    "Lobby",
    "Party",
    "PartyError",
    "Unseen",
    "checked_rules",
    "finished_game",
    "lobby_of",
    "stored_ratings",
]
