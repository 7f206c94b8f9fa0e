"""The post-game review: where a player's decisions cost points, judged by playouts.

``decision_points`` finds a seat's decisions in a record, ``judge`` weighs one of them from
that seat's observation only, and ``summarize`` counts the marks. ``review_record`` does all
three for ``rummy review``; the server runs ``judge`` in its worker pool, one decision at a
time, to show its progress.
"""

from rummykit.review.judge import Judgement, judge
from rummykit.review.marks import MARKS, Mark, mark_for
from rummykit.review.walk import DecisionPoint, Review, decision_points, review_record, summarize

__all__ = [
    "MARKS",
    "DecisionPoint",
    "Judgement",
    "Mark",
    "Review",
    "decision_points",
    "judge",
    "mark_for",
    "review_record",
    "summarize",
]
