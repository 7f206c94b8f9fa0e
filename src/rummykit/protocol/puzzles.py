"""Puzzles on the site: ``/api/puzzles/...``'s answers and the body of an answer to one.

A puzzle is shown without what would give it away (its solutions, the move played in the
game, the choices weighed); those come back once the player has answered
(``PuzzleVerdict``). Ratings are the displayed numbers (1500 for a newcomer, as games'
ratings are shown).
"""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import Field, StringConstraints

from rummykit.protocol.messages import Params, Seat, SeatView, Strict
from rummykit.protocol.vocabularies import Theme

PuzzleId = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{12}$")]
"""A puzzle's id: 12 hex digits of a hash of its position and solutions (``puzzle_id``)."""


class PuzzleOption(Strict):
    """One choice the judge weighed, against the one played."""

    action: str
    """The choice, in the record's notation with the seat (``0 discard 7h``)."""
    gain: float
    """Expected points of the deal it would have brought more than the one played."""
    ci95: float
    """Half the width of ``gain``'s 95% interval (0 where the gain is exact)."""


MAX_PUZZLE_ACTION_CHARS: Final = 200
"""The longest action an answer may send: a meld of a whole hand in record notation is
under 100 characters."""

PuzzleAction = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_PUZZLE_ACTION_CHARS),
]
"""An action of the puzzle's seat in record notation, with the seat (``"1 discard 7h"``)."""


class PuzzleShown(Strict):
    """A puzzle to solve: the position as its seat saw it, and how hard it is."""

    id: PuzzleId
    theme: Theme
    seat: Seat
    """The seat to play."""
    view: SeatView
    """The seat's own view: its hand, what lies face up, its legal actions."""
    rating: int
    """The puzzle's rating now (higher is harder)."""
    date: str | None = Field(default=None, exclude_if=lambda date: date is None)
    """The UTC date (``YYYY-MM-DD``) whose daily puzzle it is; absent otherwise."""


class PuzzleAnswerAsked(Strict):
    """The body of ``POST /api/puzzles/{id}/answer``: the action chosen."""

    action: PuzzleAction


class PuzzleRatingChange(Strict):
    """A signed-in player's puzzle rating and the puzzle's, around an answer."""

    counted: bool
    """Whether this answer moved them: only a player's first answer to a puzzle does."""
    before: int
    after: int
    provisional: bool
    """Whether the player's rating after is not settled yet (shown with "?")."""
    puzzle_before: int
    puzzle_after: int


class PlayerPuzzles(Strict):
    """``GET /api/players/{name}/puzzles``: an account's puzzle rating, for their page."""

    name: str
    rating: int | None
    """The displayed puzzle rating (null: no puzzle answered yet)."""
    provisional: bool
    """Whether the rating is not settled yet (shown with "?")."""
    answered: int
    """Puzzles answered (each counted once: the first answer)."""


class PuzzleVerdict(Strict):
    """The answer to ``POST /api/puzzles/{id}/answer``: right or not, and why."""

    id: PuzzleId
    action: str
    """The action answered, in record notation with the seat."""
    correct: bool
    solutions: list[str]
    """The best choices, each as good as the others."""
    played: str
    """What the player chose in the game the puzzle comes from."""
    options: list[PuzzleOption]
    """Every choice weighed, with what it would have gained against the one played."""
    loss: float
    """Expected points of the deal the move played gave away against the best."""
    exact: bool
    """Whether the figures are exact rather than estimated by playouts."""
    rating: PuzzleRatingChange | None
    """The ratings around the answer, for a signed-in player; ``None`` for a guest."""


class PuzzleRefusal(Strict):
    """An action the puzzle's position does not allow (409): the engine's code and reason."""

    error: str
    """The sentence, in English."""
    code: str
    """The rules' stable code (``rummykit.core.errors.ErrorCode``)."""
    reason: str
    """The finer reason, for a page to word (catalogue area ``refusals``)."""
    params: Params = Field(default_factory=dict)


class ThemeCount(Strict):
    """A theme and how many puzzles have it."""

    theme: Theme
    count: int


class PuzzleThemes(Strict):
    """The answer to ``GET /api/puzzles/themes``: every theme with puzzles, and how many."""

    themes: list[ThemeCount]
