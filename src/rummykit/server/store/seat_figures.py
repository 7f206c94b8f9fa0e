"""A player's figures in one finished game, from the game's stored actions and its deals.

The store keeps, with each action, the seat that played it, who played it (the person, the
computer, or the computer because the person's time ran out) and when it was committed. From
those and the deals' outcomes come the figures a player page adds up: deals, points, deals
gone out, rummies, turns, the turns the computer played and the timeouts, and the time the
person took over their own turns.

A turn is a seat's run of consecutive actions in a deal. It started when the action before
it was committed (or the deal was dealt) and ended with its last action. It is a timeout when
the timer ran out during it; else the computer's when the computer played its last action;
else the person's. Only the person's turns count towards the time a turn.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from rummykit.core.deal import DealResult, DealSummary


class Played(enum.StrEnum):
    """Who played an action at a person's seat."""

    PERSON = "person"
    COMPUTER = "computer"
    """A computer player's seat, or the computer standing in for a person who is away."""
    TIMEOUT = "timeout"
    """The computer, because the person's time for the turn ran out."""


@dataclasses.dataclass(frozen=True, slots=True)
class StoredAction:
    """What the store keeps of an action besides its text."""

    deal: int
    seat: int | None
    """``None`` for an action stored before seats were kept (schema version 6)."""
    by: Played | None
    at: float | None


@dataclasses.dataclass(frozen=True, slots=True)
class SeatFigures:
    """One seat's figures in one game (or, added up, in many)."""

    deals: int = 0
    """Deals played to their end."""
    points: int = 0
    """Points the seat scored over those deals."""
    outs: int = 0
    """Deals the seat went out in (rummies included)."""
    rummies: int = 0
    turns: int = 0
    computer_turns: int = 0
    """Turns the computer played, timeouts included."""
    timeouts: int = 0
    timed_turns: int = 0
    """The person's own turns whose length is known."""
    seconds: float = 0.0
    """The person's time over ``timed_turns``."""

    def __add__(self, other: SeatFigures) -> SeatFigures:
        return SeatFigures(
            *(
                getattr(self, field.name) + getattr(other, field.name)
                for field in dataclasses.fields(self)
            )
        )

    def to_json(self) -> dict[str, Any]:
        """The figures as the store keeps them."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> SeatFigures:
        """Figures kept by ``to_json`` (``None``, from a game rated before they were kept: 0)."""
        if not data:
            return cls()
        names = {field.name for field in dataclasses.fields(cls)}
        return cls(**{name: value for name, value in data.items() if name in names})

    def mostly_computer(self) -> bool:
        """Whether the computer played most of the seat's turns."""
        return 2 * self.computer_turns > self.turns


def seat_figures(
    seats: int,
    summaries: Sequence[DealSummary],
    dealt_at: Mapping[int, float | None],
    actions: Sequence[StoredAction],
) -> list[SeatFigures]:
    """Each seat's figures from the deals' outcomes and the stored actions, in deal order.

    ``dealt_at`` maps each deal's number to when it was dealt (``None``: not known).
    """
    counts = [dict.fromkeys(_COUNTED, 0) for _ in range(seats)]
    seconds = [0.0] * seats
    for summary in summaries:
        if summary.points is None:
            continue
        for seat in range(seats):
            counts[seat]["deals"] += 1
            counts[seat]["points"] += summary.points[seat]
        if summary.winner is not None:
            counts[summary.winner]["outs"] += 1
            counts[summary.winner]["rummies"] += summary.result is DealResult.RUMMY
    for deal, in_deal in itertools.groupby(actions, key=lambda action: action.deal):
        started = dealt_at.get(deal)
        for seat, in_turn in itertools.groupby(in_deal, key=lambda action: action.seat):
            turn = list(in_turn)
            ended = turn[-1].at
            if seat is not None and 0 <= seat < seats:
                took = _turn(counts[seat], turn)
                if took and started is not None and ended is not None and ended >= started:
                    counts[seat]["timed_turns"] += 1
                    seconds[seat] += ended - started
            started = ended
    return [
        SeatFigures(**count, seconds=spent) for count, spent in zip(counts, seconds, strict=True)
    ]


_COUNTED = (
    "deals",
    "points",
    "outs",
    "rummies",
    "turns",
    "computer_turns",
    "timeouts",
    "timed_turns",
)


def _turn(count: dict[str, int], turn: Sequence[StoredAction]) -> bool:
    """Count one turn; whether the person played it (its time then counts)."""
    count["turns"] += 1
    if any(action.by is Played.TIMEOUT for action in turn):
        count["timeouts"] += 1
        count["computer_turns"] += 1
        return False
    if turn[-1].by is Played.COMPUTER:
        count["computer_turns"] += 1
        return False
    return turn[-1].by is Played.PERSON
