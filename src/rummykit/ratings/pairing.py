"""Quick pairing: who sits with whom, among the players waiting in one pool.

Each waiting player accepts opponents within a range of their own rating that widens the
longer they wait: ``START_RANGE`` displayed points either side at first, ``WIDEN_PER_S``
more each second, and anyone at all once they have waited ``ANYONE_AFTER_S``. A table is made
when ``seats`` players each find all the others within their range. The longest waiting
player is seated first, with the closest group in rating that takes them.

>>> players = [Seeker("ann", 1500, since=0), Seeker("bob", 1530, since=2)]
>>> [[each.key for each in table] for table in tables_to_make(players, 2, now=2)]
[['ann', 'bob']]
>>> far = [Seeker("ann", 1500, since=0), Seeker("cy", 1900, since=0)]
>>> tables_to_make(far, 2, now=5), len(tables_to_make(far, 2, now=ANYONE_AFTER_S))
([], 1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence
from typing import Final, Generic, TypeVar

START_RANGE: Final = 100.0
"""Displayed rating points either side a player accepts at first: a table of near equals
(about the difference one settled rating's uncertainty makes)."""

WIDEN_PER_S: Final = 20.0
"""How much wider the range grows each second of waiting: 500 points after 20 s."""

ANYONE_AFTER_S: Final = 30.0
"""After this long anyone will do: a table with a wide spread beats no table at all."""

Key = TypeVar("Key", bound=Hashable)


@dataclasses.dataclass(frozen=True, slots=True)
class Seeker(Generic[Key]):
    """A player waiting in a pool."""

    key: Key
    """Who it is (the pool's own reference)."""
    rating: float
    """The displayed rating in the pool's games."""
    since: float
    """When they began waiting (seconds, the pool's clock)."""


def rating_range(waited_s: float) -> float | None:
    """The rating points either side a player who has waited ``waited_s`` accepts.

    ``None``: anyone.
    """
    if waited_s >= ANYONE_AFTER_S:
        return None
    return START_RANGE + WIDEN_PER_S * max(0.0, waited_s)


def _accepts(seeker: Seeker[Key], group: Sequence[Seeker[Key]], now: float) -> bool:
    reach = rating_range(now - seeker.since)
    return reach is None or all(abs(each.rating - seeker.rating) <= reach for each in group)


def tables_to_make(
    seekers: Sequence[Seeker[Key]], seats: int, now: float
) -> list[tuple[Seeker[Key], ...]]:
    """The tables of ``seats`` players to make at time ``now``, from those waiting.

    The longest waiting player is seated first, in the group of players next to them in
    rating with the smallest spread that everyone in it accepts; then the next player left.
    Ties in spread go to the group that has waited longest in all.
    """
    if seats < 2:
        raise ValueError(f"a table needs two seats at least, not {seats}")
    by_rating = sorted(seekers, key=lambda each: (each.rating, each.since))
    made: list[tuple[Seeker[Key], ...]] = []
    while True:  # a table made brings players next to each other: look again
        before = len(made)
        for first in sorted(by_rating, key=lambda each: each.since):
            if first in by_rating and len(by_rating) >= seats:
                start = _closest_group(by_rating, by_rating.index(first), seats, now)
                if start is not None:
                    made.append(tuple(by_rating[start : start + seats]))
                    del by_rating[start : start + seats]
        if len(made) == before:
            return made


def _closest_group(by_rating: list[Seeker[Key]], where: int, seats: int, now: float) -> int | None:
    """The start of the best group holding the player at ``where`` (``None``: none fits).

    A group is ``seats`` players next to each other in rating that all accept; the best has
    the smallest spread.
    """
    best: tuple[float, float, int] | None = None
    for start in range(max(0, where - seats + 1), min(where, len(by_rating) - seats) + 1):
        group = by_rating[start : start + seats]
        if all(_accepts(each, group, now) for each in group):
            ranked = (group[-1].rating - group[0].rating, sum(each.since for each in group), start)
            if best is None or ranked < best:
                best = ranked
    return None if best is None else best[2]
