"""A post-game review's answer: ``GET`` and ``POST /api/games/{id}/review/{seat}``."""

from __future__ import annotations

from typing import Literal, TypeAlias

from pydantic import Field

from rummykit.protocol.messages import Params, Strict
from rummykit.protocol.vocabularies import MarkName

ReviewState: TypeAlias = Literal["none", "running", "done", "failed"]
"""Where a seat's review stands."""


class ReviewOption(Strict):
    """One legal choice at a decision, against the best found."""

    action: str
    """The choice, in the record's notation."""
    gain: float
    """Expected points of the deal it would have brought, against the best found."""
    ci95: float
    """Half the width of ``gain``'s 95% interval."""


class ReviewDecision(Strict):
    """One judged decision of the seat (``rummy review --json``'s ``decisions``)."""

    deal: int
    """The deal, from 0."""
    action: int
    """The action's index among its deal's actions, as in ``rummy replay``."""
    played: str
    """What the seat did."""
    best: str
    """The best choice found."""
    loss: float
    """Expected points the choice gave away against ``best``."""
    loss_ci95: float
    """Half the width of ``loss``'s 95% interval."""
    mark: MarkName | None
    """The mark the sure part of the loss earns (all of it when ``exact``), if any."""
    value: float
    """The expected points of the best choice."""
    samples: int
    """Deals of the unseen cards sampled."""
    exact: bool = False
    """Whether the outcome of the best choice, or of a worse choice made, was settled within
    the turn (a way to go out, or a discard the next player certainly goes out on): its play
    is certain, so the mark is given on ``loss`` itself. ``loss_ci95`` is then what the
    hidden hands' count leaves open (0 when it does not matter, as when both choices go out
    and differ only in what the player lays down)."""
    options: list[ReviewOption]
    """Every legal choice, judged."""


class ReviewSummary(Strict):
    """What the seat's decisions add up to.

    One count a mark (``tests/protocol`` holds them against ``Mark``), and the points given
    away.
    """

    decisions: int
    inaccuracy: int
    mistake: int
    blunder: int
    deals: int
    points_lost: float
    points_lost_per_deal: float


class SeatReview(Strict):
    """A seat's review, as ``rummy review --json`` prints it and the server stores it."""

    seat: int
    player: str
    decisions: list[ReviewDecision]
    summary: ReviewSummary
    marks: dict[MarkName, float]
    """The least sure loss of each mark, in expected points a deal."""


class ReviewAnswer(Strict):
    """Where a seat's review stands."""

    state: ReviewState
    """``none`` (never asked for), ``running``, ``done`` or ``failed``."""
    done: int
    """Decisions judged so far."""
    total: int | None
    """Decisions to judge (``None`` until they are found)."""
    review: SeatReview | None
    """The review once ``done``: ``rummy review --json``'s object."""
    error: str | None
    """Why it failed, in English."""
    reason: str = Field(default="", exclude_if=lambda reason: not reason)
    """Why it failed, for the page to word (``rummykit.protocol.answer_words``'s
    ``review_broke``: a worker or the store failed, ask again); absent for a record that cannot
    be reviewed, whose ``error`` is for programs (a page asks only of a finished game's
    seats)."""
    params: Params = Field(default_factory=dict, exclude_if=lambda params: not params)
    """The reason's params (``error``: the kind of failure)."""
