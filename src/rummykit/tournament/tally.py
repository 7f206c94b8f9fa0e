"""The running tallies of a tournament: what each position did, summed over games and sets.

Plain data that a worker process sends back to the parent: counts and arrays, no game.
"""

from __future__ import annotations

import dataclasses
from array import array
from typing import Any


@dataclasses.dataclass(slots=True)
class PositionTally:
    """What one position (one bot as given) did over some games."""

    games_won: int = 0
    deals_won: int = 0
    """Deals it ended by going out, rummy included."""
    rummies: int = 0
    """Deals it ended by going rummy."""
    points: int = 0
    """Points it scored in completed deals."""
    deal_points: array[int] = dataclasses.field(default_factory=lambda: array("q"))
    """Its points in every completed deal, in play order."""
    decision_seconds: array[float] = dataclasses.field(default_factory=lambda: array("d"))
    """How long each of its ``choose`` calls took."""

    def add(self, other: PositionTally) -> None:
        """Count ``other``'s games in too."""
        self.games_won += other.games_won
        self.deals_won += other.deals_won
        self.rummies += other.rummies
        self.points += other.points
        self.deal_points.extend(other.deal_points)
        self.decision_seconds.extend(other.decision_seconds)


@dataclasses.dataclass(slots=True)
class SetTally:
    """What happened in the games of one or more duplicate sets; plain data, picklable."""

    positions: list[PositionTally]
    games: int = 0
    ties: int = 0
    """Games that ended with no single winner."""
    cut_games: int = 0
    """Games ended early by a cut deal (their completed deals still count)."""
    deals: int = 0
    """Completed deals (cut deals not included)."""
    cut_deals: int = 0
    blocked_deals: int = 0
    turns: int = 0
    """Turns of the completed deals (a turn: one seat's draw to its discard)."""
    actions: int = 0
    """Actions of the completed deals."""
    set_points_per_deal: list[list[float]] = dataclasses.field(default_factory=list)
    """For each set with a completed deal, each position's mean points per deal in it."""

    @staticmethod
    def empty(seat_count: int) -> SetTally:
        """Nothing played yet."""
        return SetTally([PositionTally() for _ in range(seat_count)])

    def add(self, other: SetTally) -> None:
        """Count ``other``'s games in too."""
        for mine, theirs in zip(self.positions, other.positions, strict=True):
            mine.add(theirs)
        self.games += other.games
        self.ties += other.ties
        self.cut_games += other.cut_games
        self.deals += other.deals
        self.cut_deals += other.cut_deals
        self.blocked_deals += other.blocked_deals
        self.turns += other.turns
        self.actions += other.actions
        self.set_points_per_deal.extend(other.set_points_per_deal)


def tally_to_json(tally: SetTally) -> dict[str, object]:
    """``tally`` as JSON-ready values (``tally_from_json`` reads them back)."""
    data = dataclasses.asdict(tally)
    for position in data["positions"]:
        position["deal_points"] = list(position["deal_points"])
        position["decision_seconds"] = list(position["decision_seconds"])
    return data


def tally_from_json(data: dict[str, Any]) -> SetTally:
    """The tally ``tally_to_json`` wrote."""
    positions = [
        PositionTally(
            games_won=int(position["games_won"]),
            deals_won=int(position["deals_won"]),
            rummies=int(position["rummies"]),
            points=int(position["points"]),
            deal_points=array("q", (int(value) for value in position["deal_points"])),
            decision_seconds=array("d", (float(value) for value in position["decision_seconds"])),
        )
        for position in data["positions"]
    ]
    counts = {
        field.name: int(data[field.name])
        for field in dataclasses.fields(SetTally)
        if field.name not in ("positions", "set_points_per_deal")
    }
    per_deal = [[float(value) for value in row] for row in data["set_points_per_deal"]]
    return SetTally(positions, **counts, set_points_per_deal=per_deal)
