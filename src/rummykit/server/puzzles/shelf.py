"""The puzzles a site serves, held in memory: by id, by theme, the day's, one near a rating.

The set is small (the starter set has a few dozen; a few thousand would still be a few
megabytes), read once, and never changed while the site runs; only the ratings move, and
those live in the store.
"""

from __future__ import annotations

import collections
import datetime
import hashlib
import random
from collections.abc import Collection, Mapping
from typing import Final

from rummykit.core.actions import Action, parse_action
from rummykit.core.determinize import sample_position
from rummykit.protocol import observation_of
from rummykit.puzzles.model import Puzzle, PuzzleSet, Theme, starter_puzzles
from rummykit.ratings import Rating, display_value
from rummykit.server.puzzles.rating import puzzle_start

NEAR_CHOICES: Final = 5
"""A signed-in player's next puzzle is drawn among the few whose ratings are nearest theirs:
always the nearest would serve the same puzzles in the same order, and five keeps every one
within a narrow band while the set is small."""

REFUSAL_SEED: Final = 0
"""The seed of the world an illegal action is checked in. Whether an action is legal depends
only on what the seat sees (its hand, the piles, the melds), so any world gives the same
refusal; a fixed one gives the same sentence every time."""


class PuzzleShelf:
    """A puzzle set, looked up by id and theme."""

    def __init__(self, puzzles: PuzzleSet) -> None:
        """Over ``puzzles`` (in their order, which the day's puzzle counts in)."""
        self.puzzles: tuple[Puzzle, ...] = tuple(puzzles.puzzles)
        self.by_id: dict[str, Puzzle] = {puzzle.id: puzzle for puzzle in self.puzzles}

    @classmethod
    def starter(cls) -> PuzzleShelf:
        """The set shipped with rummykit."""
        return cls(starter_puzzles())

    def theme_counts(self) -> dict[Theme, int]:
        """How many puzzles each theme has (themes with none left out), in ``Theme``'s order."""
        counts = collections.Counter(puzzle.theme for puzzle in self.puzzles)
        return {theme: counts[theme] for theme in Theme if counts[theme]}

    def of_theme(self, theme: Theme | None) -> list[Puzzle]:
        """The puzzles of ``theme`` (every one for ``None``)."""
        return [puzzle for puzzle in self.puzzles if theme is None or puzzle.theme is theme]

    def daily(self, date: datetime.date) -> Puzzle | None:
        """The puzzle of a UTC date: the same for everyone that day (``None``: no puzzles).

        Drawn by a hash of the date rather than by counting days, so that neighbouring days
        do not walk through the set in its file's order.
        """
        if not self.puzzles:
            return None
        digest = hashlib.sha256(date.isoformat().encode("ascii")).digest()
        return self.puzzles[int.from_bytes(digest[:8], "big") % len(self.puzzles)]

    def pick(
        self,
        theme: Theme | None,
        rng: random.Random,
        player: Rating | None = None,
        rated: Mapping[str, Rating] | None = None,
        answered: Collection[str] = (),
    ) -> Puzzle | None:
        """A puzzle of ``theme`` (``None``: any); ``None`` when the theme has none.

        For a guest (no ``player``), any of them. For a player, one of the ``NEAR_CHOICES``
        whose ratings (``rated``, else their start) are nearest the player's, leaving out
        the ones ``answered`` unless nothing else is left.
        """
        found = self.of_theme(theme)
        if not found:
            return None
        if player is None:
            return rng.choice(found)
        fresh = [puzzle for puzzle in found if puzzle.id not in answered] or found
        ratings = rated or {}
        target = display_value(player)

        def distance(puzzle: Puzzle) -> int:
            return abs(display_value(ratings.get(puzzle.id) or puzzle_start(puzzle)) - target)

        nearest = sorted(fresh, key=lambda puzzle: (distance(puzzle), puzzle.id))
        return rng.choice(nearest[:NEAR_CHOICES])


def is_solution(puzzle: Puzzle, action: Action) -> bool:
    """Whether ``action`` is one of the puzzle's solutions."""
    return any(parse_action(solution) == action for solution in puzzle.solutions)


def checked_action(puzzle: Puzzle, text: str) -> Action:
    """``text`` read as an action that is legal in the puzzle's position.

    ``InvalidActionError`` when it cannot be read, ``IllegalActionError`` (the engine's
    code, reason and sentence) when the rules refuse it there. Blocks a little (it may deal a
    world to ask the engine why): run it off the event loop.
    """
    action = parse_action(text)
    observation = observation_of(puzzle.view)
    if action in observation.legal_actions:
        return action
    sample_position(observation, random.Random(REFUSAL_SEED)).check(action)
    return action
