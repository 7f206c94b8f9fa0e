"""The closed vocabularies of a deal: where a turn stands, how a deal ended, kinds of meld.

They live apart from the modules that use them because those are compiled (mypyc), and a
compiled module replaces an enum's docstring, which the protocol's schema shows to readers.
"""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    """Where the seat to act stands in its turn."""

    DRAW = "draw"
    """It must draw."""
    PLAY = "play"
    """It has drawn, and may meld, lay off and must discard."""
    OVER = "over"
    """The deal has ended."""


class DealResult(enum.StrEnum):
    """How a deal ended."""

    OUT = "out"
    """A seat emptied its hand."""
    RUMMY = "rummy"
    """A seat went out in one turn with nothing laid on an earlier turn of the deal."""
    BLOCKED = "blocked"
    """The stock ran out for good."""
    KNOCK = "knock"
    """Knock rummy: a seat knocked and had the lowest deadwood."""
    UNDERCUT = "undercut"
    """Knock rummy: a seat knocked and another matched or beat its deadwood."""


class MeldKind(enum.StrEnum):
    """The two kinds of meld."""

    SET = "set"
    """Three or four cards of one rank, each of a different suit."""
    RUN = "run"
    """Three or more cards of one suit in sequence."""
