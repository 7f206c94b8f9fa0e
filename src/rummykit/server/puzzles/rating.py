"""How an answer to a puzzle moves the player's puzzle rating and the puzzle's.

An answer is a two-sided match rated by the site's own openskill model
(``rummykit.ratings.rate``): the player wins when they find a solution, the puzzle wins
otherwise. A puzzle starts at the rating it was made with (``Puzzle.rating``, on the
displayed scale), surer than a newcomer is: its loss in the game already says how hard it is.
"""

from __future__ import annotations

from typing import Final

from rummykit.puzzles.model import Puzzle
from rummykit.ratings import Rating, rate
from rummykit.ratings.rating import DEFAULT_MU, DISPLAY_BASE, DISPLAY_SCALE

PUZZLE_SIGMA: Final = 5.0
"""A new puzzle's uncertainty, in openskill units: about 300 displayed points, where a new
player's is 500 (``DEFAULT_SIGMA``). Its starting rating comes from how much the move played
gave away, an estimate worth something, so a puzzle's first few answers move it less than a
newcomer's first games move them."""


def puzzle_start(puzzle: Puzzle) -> Rating:
    """A puzzle's rating before anyone answered it: its starting rating on openskill's scale.

    >>> from rummykit.ratings import display_value
    >>> display_value(Rating(mu=DEFAULT_MU + (1200.0 - DISPLAY_BASE) / DISPLAY_SCALE))
    1200
    """
    mu = DEFAULT_MU + (puzzle.rating - DISPLAY_BASE) / DISPLAY_SCALE
    return Rating(mu=mu, sigma=PUZZLE_SIGMA)


def rate_answer(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after an answer: the solver ranks first.

    >>> player, puzzle = rate_answer(Rating(), Rating(), solved=True)
    >>> player.mu > 25.0 > puzzle.mu
    True
    """
    after = rate([player, puzzle], [0, 1] if solved else [1, 0])
    return after[0], after[1]
