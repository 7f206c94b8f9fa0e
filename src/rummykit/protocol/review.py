"""A post-game review's answer: ``GET`` and ``POST /api/games/{id}/review/{seat}``."""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

from rummykit.protocol.messages import Strict

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
    """Why it failed, for the player."""
