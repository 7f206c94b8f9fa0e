"""A puzzle: one position of a real game from one player's view, its answer, and its theme.

A puzzle is made where a player's choice cost points (a mistake or a blunder, as the review
marks it) and another choice was clearly best. It holds only what that player could see (the
``SeatView`` the table would have sent them), the choices judged with what each would have
gained against the one played, and where it came from. A set of puzzles is a JSON file,
``rummykit-puzzles/1``; the package ships a starter set (``starter_puzzles``).

Theme names as players read them live in the word catalogues, keyed by ``Theme``'s values.
"""

from __future__ import annotations

import hashlib
import json
import math
from importlib import resources
from pathlib import Path
from typing import Final, Literal

from pydantic import Field, ValidationError

# the wire's vocabulary and models, named here too
from rummykit.protocol import PuzzleId as PuzzleId
from rummykit.protocol import PuzzleOption as PuzzleOption
from rummykit.protocol import Seat, SeatView, Strict
from rummykit.protocol import Theme as Theme

FORMAT: Final = "rummykit-puzzles/1"
"""The format of a puzzle file, as its ``format`` field says."""


class PuzzleSource(Strict):
    """Where a puzzle's position comes from."""

    record: str
    """The record's name (its file's stem)."""
    deal: int
    """The deal, from 0."""
    action: int
    """The action's index among its deal's actions, as in ``rummy replay``."""
    seat: Seat
    """The seat whose choice it was."""


class Puzzle(Strict):
    """A position from one seat's view, the best choices there, and what was played."""

    id: PuzzleId
    theme: Theme
    view: SeatView
    """Everything the seat could see, as the table sent it: never a hidden card."""
    seat: Seat
    """The seat to play (the view's seat)."""
    solutions: list[str] = Field(min_length=1)
    """The best choices, each as good as the others, in the record's notation with the seat;
    each is one of the view's legal actions."""
    played: str
    """What the player chose in the game: a mistake or a blunder."""
    options: list[PuzzleOption]
    """Every choice weighed, the one played first (its gain is 0)."""
    loss: float
    """Expected points of the deal the choice played gave away against the best."""
    exact: bool
    """Whether the gains are exact (the deal is settled within the turn) rather than
    estimated by playouts."""
    rating: float
    """The puzzle's starting rating (``initial_rating``): higher is harder."""
    source: PuzzleSource


class PuzzleSet(Strict):
    """A file of puzzles."""

    format: Literal["rummykit-puzzles/1"]
    puzzles: list[Puzzle]


class PuzzleError(ValueError):
    """A puzzle file that cannot be read: not there, not JSON, or not a puzzle set."""


RATING_CENTRE: Final = 1500.0
"""Where puzzle ratings are centred, as player ratings are."""

RATING_PER_DOUBLING: Final = 150.0
"""Rating a puzzle loses each time its loss doubles: a choice that throws away twice as much
is easier to see as wrong."""

LOSS_AT_CENTRE: Final = 5.0
"""The loss of a puzzle rated at the centre before its theme's offset: the mistake mark's
line (``rummykit.review.marks.MARKS``), the least loss a puzzle has."""

THEME_OFFSETS: Final[dict[Theme, float]] = {
    Theme.GO_OUT: -100.0,
    Theme.DRAW: 0.0,
    Theme.DISCARD: 50.0,
    Theme.LAY_OFF: 100.0,
}
"""How much harder each theme starts: a way out is the most visible answer, a lay-off the
least (it is easy to forget the table's melds take cards too)."""

RATING_RANGE: Final = (800.0, 2200.0)
"""The lowest and highest starting rating, so an enormous loss or a tiny one does not put a
puzzle where no player's rating meets it."""


def initial_rating(loss: float, theme: Theme) -> float:
    """A puzzle's starting rating: ``1500 + offset(theme) - 150 * log2(loss / 5)``, bounded.

    >>> initial_rating(5.0, Theme.DRAW), initial_rating(20.0, Theme.DRAW)
    (1500.0, 1200.0)
    >>> initial_rating(10.0, Theme.GO_OUT), initial_rating(1000.0, Theme.DISCARD)
    (1250.0, 800.0)
    """
    doublings = math.log2(max(loss, 0.01) / LOSS_AT_CENTRE)
    rating = RATING_CENTRE + THEME_OFFSETS[theme] - RATING_PER_DOUBLING * doublings
    low, high = RATING_RANGE
    return round(min(max(rating, low), high), 1)


_POSITION_FIELDS: Final = (
    "preset",
    "rules",
    "seat",
    "dealer",
    "turn",
    "phase",
    "hand",
    "hand_sizes",
    "known",
    "melds",
    "discard",
    "stock",
    "taken",
    "must_play",
    "refused",
    "thrown",
    "scores",
    "legal",
)
"""What of a view makes its position: its cards and the state of play, not the table's
name, the players' names or the clock."""


def puzzle_id(view: SeatView, solutions: list[str]) -> str:
    """The 12 hex digits that name a puzzle: the same position and solutions, the same id."""
    data = view.model_dump(mode="json", include=set(_POSITION_FIELDS))
    text = json.dumps([data, sorted(solutions)], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def read_puzzles(text: str | bytes, where: str = "puzzles") -> PuzzleSet:
    """A puzzle set from its JSON text; ``PuzzleError`` naming ``where`` if it is not one."""
    try:
        return PuzzleSet.model_validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        place = ".".join(str(part) for part in first["loc"]) or "the top"
        raise PuzzleError(
            f"{where} is not a {FORMAT} file: {place}: {first['msg']} "
            f"({error.error_count()} problem(s) in all)."
        ) from None


def load_puzzles(path: str | Path) -> PuzzleSet:
    """Read a puzzle file; ``PuzzleError`` if it cannot be read or is not a puzzle set."""
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise PuzzleError(f"cannot read {path}: {error.strerror}.") from None
    return read_puzzles(text, str(path))


def dump_puzzles(puzzles: PuzzleSet) -> str:
    """A puzzle set as JSON text: one puzzle a line, so files diff well and stay small."""
    lines = ",\n  ".join(puzzle.model_dump_json() for puzzle in puzzles.puzzles)
    body = f"\n  {lines}\n" if lines else ""
    return f'{{"format": "{FORMAT}", "puzzles": [{body}]}}\n'


def write_puzzles(puzzles: PuzzleSet, path: str | Path) -> None:
    """Write a puzzle file (``dump_puzzles``'s text, UTF-8)."""
    Path(path).write_text(dump_puzzles(puzzles), encoding="utf-8")


STARTER: Final = "starter.json"
"""The starter set's file in this package (``scripts/make_starter_puzzles.py`` makes it)."""


def starter_puzzles() -> PuzzleSet:
    """The puzzles shipped with rummykit, made from games between the computer players."""
    text = resources.files("rummykit.puzzles").joinpath(STARTER).read_bytes()
    return read_puzzles(text, f"rummykit/puzzles/{STARTER}")
