"""A post-game review's answer: ``GET`` and ``POST /api/games/{id}/review/{seat}``."""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

from pydantic import Field

from rummykit.protocol.messages import Params, Strict

ReviewState: TypeAlias = Literal["none", "running", "done", "failed"]
"""Where a seat's review stands."""


class ReviewAnswer(Strict):
    """Where a seat's review stands."""

    state: ReviewState
    """``none`` (never asked for), ``running``, ``done`` or ``failed``."""
    done: int
    """Decisions judged so far."""
    total: int | None
    """Decisions to judge (``None`` until they are found)."""
    review: dict[str, Any] | None
    """The review once ``done``: ``rummy review --json``'s object (``seat``, ``player``,
    ``decisions`` each with ``deal``, ``action``, ``played``, ``best``, ``loss``, ``loss_ci95``,
    ``mark``, ``summary`` and ``marks``; see the README)."""
    error: str | None
    """Why it failed, in English."""
    reason: str = Field(default="", exclude_if=lambda reason: not reason)
    """Why it failed, for the page to word (``rummykit.protocol.answer_words``'s
    ``review_broke``: a worker or the store failed, ask again); absent for a record that cannot
    be reviewed, whose ``error`` is for programs (a page asks only of a finished game's
    seats)."""
    params: Params = Field(default_factory=dict, exclude_if=lambda params: not params)
    """The reason's params (``error``: the kind of failure)."""
