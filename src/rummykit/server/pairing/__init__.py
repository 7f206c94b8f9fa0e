"""Finding a game: quick pairing by rating, and challenges between people."""

from rummykit.server.pairing.challenges import Challenges
from rummykit.server.pairing.inbox_routes import INBOX_ROUTES
from rummykit.server.pairing.pairing_routes import PAIRING_ROUTES
from rummykit.server.pairing.quick_pairing import QuickPairing

__all__ = ["INBOX_ROUTES", "PAIRING_ROUTES", "Challenges", "QuickPairing"]
