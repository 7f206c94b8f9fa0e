"""How much a decision must cost before the review marks it, and with which mark.

A loss is the expected points, for the deal, that a decision gave away against the best
choice found (the difference between the player's score and the others' average, as the
playouts count it). The review marks only what it is sure of: a decision is marked by the
lower end of its loss's 95% interval, so the noise of a few playouts is never called a
mistake.
"""

from __future__ import annotations

import enum
from typing import Final


class Mark(enum.StrEnum):
    """What a costly decision is called, from the least to the most costly."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


MARKS: Final[dict[Mark, float]] = {
    Mark.INACCURACY: 2.0,
    Mark.MISTAKE: 5.0,
    Mark.BLUNDER: 12.0,
}
"""The least sure loss, in expected points a deal, of each mark (the review JSON carries it,
and the page explains the marks with these figures)."""


def mark_for(loss: float, ci95: float) -> Mark | None:
    """The mark of a decision that lost ``loss`` points, give or take ``ci95``."""
    sure = loss - ci95
    found = None
    for mark, least in MARKS.items():
        if sure >= least:
            found = mark
    return found
