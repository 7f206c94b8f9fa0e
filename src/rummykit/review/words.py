"""The review's words in English: the marks, what they mean, and the summary.

The command line prints them, and the browser's English catalogue of the ``review`` area is
generated from ``catalogue`` (``python -m rummykit.web_catalogues``).
"""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.review.marks import MARKS, Mark

MARK_NAMES: Mapping[Mark, str] = {
    Mark.INACCURACY: "Inaccuracy",
    Mark.MISTAKE: "Mistake",
    Mark.BLUNDER: "Blunder",
}

MARK_MEANINGS: Mapping[Mark, str] = {
    Mark.INACCURACY: "a choice that gave away at least {points} points of the deal",
    Mark.MISTAKE: "a choice that gave away at least {points} points: a clear error",
    Mark.BLUNDER: "a choice that gave away at least {points} points: the deal turned on it",
}

HOW_IT_WORKS = (
    "Each decision is judged from what the player could see at that moment, never from the "
    "cards hidden from them. The cards they could not see are dealt out many times over, "
    "each time as the other players' passed-over and thrown cards make likely, and every "
    "sensible choice is played to the end of the deal each time. A loss is the "
    "points the choice gave away against the best one found, on average; a decision is marked only "
    "when even the low end of its 95% range passes the mark's threshold, so bad luck alone "
    "never earns a mark. A choice that goes out, or hands the next player a certain way out, "
    "leaves nothing to play: it is counted as the deal would end, not played out, and a "
    "chance to go out that was passed up is marked by the full points it cost."
)


def mark_meaning(mark: Mark) -> str:
    """What a mark means, with its threshold filled in."""
    return MARK_MEANINGS[mark].format(points=f"{MARKS[mark]:g}")


def catalogue() -> dict[str, str]:
    """The English words of the browser's ``review`` area.

    Every key starts with ``review.``: a page's catalogue is one namespace, whose keys start
    with their area (the Node test of the catalogues checks it).
    """
    words = {"review.how_it_works": HOW_IT_WORKS}
    for mark in Mark:
        words[f"review.mark.{mark}"] = MARK_NAMES[mark]
        words[f"review.meaning.{mark}"] = MARK_MEANINGS[mark]
    return words
