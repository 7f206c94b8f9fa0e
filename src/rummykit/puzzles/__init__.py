"""Puzzles made from real games: where a player's choice cost points, seen as they saw it.

A puzzle is a position from that player's view, with the choices that were best there.

``model`` holds the puzzle and the file of them (``rummykit-puzzles/1``) and the starter set
shipped with the package; ``make`` finds puzzles in game records by the post-game review's
judge (``rummy puzzles make``). The models need pydantic (``rummykit[client]``): this package
imports them only when asked, so ``rummy --help`` loads none of it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummykit.puzzles.model import (
        Puzzle,
        PuzzleError,
        PuzzleOption,
        PuzzleSet,
        PuzzleSource,
        Theme,
        dump_puzzles,
        load_puzzles,
        starter_puzzles,
        write_puzzles,
    )

__all__ = [
    "Puzzle",
    "PuzzleError",
    "PuzzleOption",
    "PuzzleSet",
    "PuzzleSource",
    "Theme",
    "dump_puzzles",
    "load_puzzles",
    "starter_puzzles",
    "write_puzzles",
]


def __getattr__(name: str) -> object:
    if name in __all__:
        value = vars(importlib.import_module(f"{__name__}.model"))[name]
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
