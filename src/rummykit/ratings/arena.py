"""An arena's scoring: points by place at each game, doubled on a run of wins.

A game won alone is worth ``WIN_POINTS``; a first place shared, or a place in the top half of
the table, ``PLACE_POINTS``; any other place nothing. A player who won their last
``RUN_FOR_FIRE`` games in a row is on a run ("on fire"): their next win counts double, and so
on until a game they do not win alone. Standings rank points first, then fewer games (the
same points in fewer games is better play), then the name.

>>> score = ArenaScore()
>>> for rank in (1, 1, 1, 2):
...     score = score.after_game(rank, tied=False, seats=2)
>>> score.points, score.games, score.wins, score.run, score.on_fire
(8, 4, 3, 0, False)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Final, TypeVar

WIN_POINTS: Final = 2
"""A game won alone."""

PLACE_POINTS: Final = 1
"""A first place shared, or a place in the top half of the table."""

RUN_FOR_FIRE: Final = 2
"""Wins in a row after which each win counts double."""


@dataclasses.dataclass(frozen=True, slots=True)
class ArenaScore:
    """One player's arena so far."""

    points: int = 0
    games: int = 0
    wins: int = 0
    run: int = 0
    """Games won alone in a row, up to now."""

    @property
    def on_fire(self) -> bool:
        """Whether the next win counts double."""
        return self.run >= RUN_FOR_FIRE

    def points_for(self, rank: int, *, tied: bool, seats: int) -> int:
        """What a game ending at ``rank`` (1 first; ``tied``: shared) is worth now."""
        if rank == 1 and not tied:
            return WIN_POINTS * (2 if self.on_fire else 1)
        if rank == 1 or rank <= seats // 2:
            return PLACE_POINTS
        return 0

    def after_game(self, rank: int, *, tied: bool, seats: int) -> ArenaScore:
        """The score after a game ending at ``rank`` of ``seats``."""
        won = rank == 1 and not tied
        return ArenaScore(
            points=self.points + self.points_for(rank, tied=tied, seats=seats),
            games=self.games + 1,
            wins=self.wins + won,
            run=self.run + 1 if won else 0,
        )


Key = TypeVar("Key")


def standings(scores: Iterable[tuple[Key, str, ArenaScore]]) -> list[tuple[Key, str, ArenaScore]]:
    """The players best first: points, then fewer games, then name (any case)."""
    return sorted(scores, key=lambda each: (-each[2].points, each[2].games, each[1].casefold()))
