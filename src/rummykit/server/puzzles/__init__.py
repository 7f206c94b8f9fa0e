"""Puzzles on the site: one to solve, the day's, and a rating that moves with each answer."""

from rummykit.server.puzzles.puzzle_routes import PUZZLE_ROUTES, shelf_of
from rummykit.server.puzzles.shelf import PuzzleShelf

__all__ = ["PUZZLE_ROUTES", "PuzzleShelf", "shelf_of"]
