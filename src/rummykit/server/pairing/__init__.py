"""Quick pairing: players who press "Play now" are seated with others of a close rating."""

from rummykit.server.pairing.pairing_routes import PAIRING_ROUTES
from rummykit.server.pairing.quick_pairing import QuickPairing

__all__ = ["PAIRING_ROUTES", "QuickPairing"]
