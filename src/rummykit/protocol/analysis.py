"""The analysis board's request and answer: ``POST /api/games/{id}/analysis``.

A seat's decision in a finished game, tried again: the moves tried are played in a world
where the cards the seat could not see are dealt afresh (``rummykit.analysis``), and the
answer shows that world as the seat sees it, never another seat's hand.
"""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import Field, StringConstraints

from rummykit.protocol.messages import CardText, MeldView, Params, Seat, Strict
from rummykit.protocol.vocabularies import DealResultName, PhaseName

MAX_ANALYSIS_MOVES: Final = 200
"""Moves one request may play from the step: more than a long deal's worth of one seat's
decisions, so a line is never cut short, while a request stays bounded (each plays its whole
line again, with the computer's searches for the other seats)."""

MoveText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
"""A move: an action of the seat in record notation (``"0 discard 7h"``), or ``computer``."""


class AnalysisRequest(Strict):
    """Try moves at one of a seat's decisions of a finished game."""

    seat: Seat
    """The seat whose decision is tried: it must be the one to act at the step."""
    deal: int = Field(ge=0, le=10_000)
    """The deal, from 0."""
    action: int = Field(ge=0, le=100_000)
    """The action's index among its deal's actions, as in ``rummy replay`` and the review:
    the position is the one just before it."""
    moves: list[MoveText] = Field(default_factory=list, max_length=MAX_ANALYSIS_MOVES)
    """The seat's moves in order, in record notation; ``computer`` lets the computer play the
    seat's turn. The other seats' turns are played by the computer between them."""


class AnalysisMove(Strict):
    """A move of the continuation since the step, any seat's."""

    action: str
    """The action in record notation."""
    taken: tuple[CardText, ...] = ()
    """The cards a draw from the discard pile took (they lay face up)."""


class AnalysisView(Strict):
    """The sampled world as the seat sees it: its own hand, and what lies face up."""

    seat: Seat
    turn: Seat
    phase: PhaseName
    """``draw``, ``play`` or ``over`` (the deal ended)."""
    hand: tuple[CardText, ...]
    """The seat's cards, sorted."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds (the others' stay face down)."""
    known: tuple[tuple[CardText, ...], ...]
    """The cards each seat took from the discard pile and still holds."""
    melds: tuple[MeldView, ...]
    discard: tuple[CardText, ...]
    """The discard pile, bottom first."""
    stock: int
    """How many cards the stock holds: never which."""
    taken: CardText | None
    """The card the seat to act took from the discard pile this turn."""
    must_play: CardText | None
    """A card taken from deep in the pile that the seat to act must still meld or lay off."""
    legal: tuple[str, ...]
    """The seat's legal moves in record notation, when it is to act."""
    scores: tuple[int, ...]
    """Each seat's total before the deal's points."""
    result: DealResultName | None
    """How the deal ended, once it has (``None`` while it goes on)."""
    deal_winner: Seat | None
    deal_points: tuple[int, ...] | None
    """What each seat scored in the deal once it ended."""


class AnalysisJudgement(Strict):
    """The seat's last move weighed against the best found, as the review weighs a decision."""

    played: str
    best: str
    value: float
    """Expected points of the deal after the move played (the seat's less the others'
    average)."""
    best_value: float
    """Expected points of the deal after the best choice found."""
    loss: float
    """Expected points the move gave away against ``best`` (0 when it is the best)."""
    loss_ci95: float
    """Half the width of ``loss``'s 95% interval."""
    samples: int
    """Deals of the unseen cards the choices were played out in."""
    exact: bool
    """Whether the values are exact (nothing left to chance), not sampled."""


class AnalysisAnswer(Strict):
    """Where the moves led in the sampled world, and the last move judged."""

    seat: Seat
    deal: int
    action: int
    moves: tuple[str, ...]
    """The seat's moves as played (a ``computer`` turn written out as its actions): send
    these, with one more or one fewer, to go on or take a move back."""
    line: tuple[AnalysisMove, ...]
    """Every move since the step, the computer's for the other seats too."""
    view: AnalysisView
    judgement: AnalysisJudgement | None
    """The seat's last move judged (``None`` with no move)."""


class AnalysisRefusal(Strict):
    """A move the rules refuse (409): the engine's code and reason, naming the cards."""

    error: str
    """The sentence, in English."""
    code: str
    """The rules' stable code (``rummykit.core.errors.ErrorCode``)."""
    reason: str
    """The finer reason, for a page to word (catalogue area ``refusals``)."""
    params: Params = Field(default_factory=dict)
    move: int
    """The refused move's index in ``moves``; the moves before it are not changed."""
