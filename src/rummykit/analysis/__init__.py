"""The analysis board: a finished game's decision tried again, in a world the seat could see.

``analyse`` plays a seat's tried moves from a step of the record in a sampled world (the
unseen cards dealt afresh), the computer playing the other seats, and judges the last move as
the review does.
"""

from rummykit.analysis.board import (
    COMPUTER,
    Analysis,
    AnalysisError,
    LineMove,
    MoveRefused,
    analyse,
    sampled_world,
    step_point,
)

__all__ = [
    "COMPUTER",
    "Analysis",
    "AnalysisError",
    "LineMove",
    "MoveRefused",
    "analyse",
    "sampled_world",
    "step_point",
]
