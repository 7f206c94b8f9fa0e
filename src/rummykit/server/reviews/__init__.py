"""Post-game reviews, computed once on the worker pool and kept with the game."""

from rummykit.server.reviews.review_routes import REVIEW_ROUTES
from rummykit.server.reviews.reviews import Reviews

__all__ = ["REVIEW_ROUTES", "Reviews"]
