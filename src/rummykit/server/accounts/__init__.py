"""Accounts, sign-ins, ratings, the leaderboard and the player pages."""

from rummykit.server.accounts.account_routes import ACCOUNT_ROUTES, AccountGate, session_account
from rummykit.server.accounts.networks import note_network
from rummykit.server.accounts.rating_routes import RATING_ROUTES

__all__ = ["ACCOUNT_ROUTES", "RATING_ROUTES", "AccountGate", "note_network", "session_account"]
