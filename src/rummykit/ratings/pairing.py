"""Quick pairing: who sits with whom, among the players waiting in one pool.

Each waiting player has a range around their rating that widens the longer they wait:
``START_RANGE`` displayed points either side at first, ``WIDEN_PER_S`` more each second, and
no bounds at all once they have waited ``ANYONE_AFTER_S``. Two players fit when their ranges
meet; a table is made of ``seats`` players who all fit each other. The longest waiting player
is seated first, with the closest group in rating that fits.

Ranges that meet, rather than each player's range holding the other, keep the far ends of
the ratings from waiting for ever: a player who waited long reaches the newcomers, who
have just come and would not reach them (``benchmarks/pairing.py``: at 60 arrivals a minute
the longest wait for two seats went from 218 s to 32 s).

>>> players = [Seeker("ann", 1500, since=0), Seeker("bob", 1530, since=2)]
>>> [[each.key for each in table] for table in tables_to_make(players, 2, now=2)]
[['ann', 'bob']]
>>> far = [Seeker("ann", 1500, since=0), Seeker("cy", 1900, since=0)]
>>> tables_to_make(far, 2, now=5), len(tables_to_make(far, 2, now=ANYONE_AFTER_S))
([], 1)
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Hashable, Sequence
from typing import Final, Generic, TypeVar

START_RANGE: Final = 50.0
"""Displayed rating points either side of a player's rating at first: two newcomers meet up
to 100 points apart."""

WIDEN_PER_S: Final = 10.0
"""How much wider the range grows each second of waiting: 250 points either side after 20 s."""

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


def _fits(group: Sequence[Seeker[Key]], now: float) -> bool:
    """Whether every two players of ``group`` have ranges that meet."""
    reaches = [rating_range(now - each.since) for each in group]
    pairs = itertools.combinations(zip(group, reaches, strict=True), 2)
    return all(
        one_reach is None
        or other_reach is None
        or abs(one.rating - other.rating) <= one_reach + other_reach
        for (one, one_reach), (other, other_reach) in pairs
    )


def tables_to_make(
    seekers: Sequence[Seeker[Key]], seats: int, now: float
) -> list[tuple[Seeker[Key], ...]]:
    """The tables of ``seats`` players to make at time ``now``, from those waiting.

    The longest waiting player is seated first, in the group of players next to them in
    rating with the smallest spread that fits; then the next player left, and so on, again
    until no table is made (a table made brings players next to each other). Ties in spread
    go to the group that has waited longest in all, then to the lower ratings. Each table's
    players are in rating order. Time: a few passes of ``seats`` squared for each player.
    """
    if seats < 2:
        raise ValueError(f"a table needs two seats at least, not {seats}")
    by_rating = sorted(seekers, key=lambda each: (each.rating, each.since))
    count = len(by_rating)
    before = list(range(-1, count - 1))  # the players still waiting, as a linked list
    after = list(range(1, count + 1))
    waiting = [True] * count
    by_wait = sorted(range(count), key=lambda index: by_rating[index].since)
    made: list[tuple[Seeker[Key], ...]] = []
    left = count
    changed = True
    while changed and left >= seats:
        changed = False
        for index in by_wait:
            if not waiting[index] or left < seats:
                continue
            group = _closest_group(by_rating, before, after, index, seats, now)
            if group is None:
                continue
            for member in group:
                waiting[member] = False
                lower, higher = before[member], after[member]
                if lower >= 0:
                    after[lower] = higher
                if higher < count:
                    before[higher] = lower
            made.append(tuple(by_rating[member] for member in group))
            left -= seats
            changed = True
    return made


def _closest_group(
    by_rating: Sequence[Seeker[Key]],
    before: list[int],
    after: list[int],
    index: int,
    seats: int,
    now: float,
) -> list[int] | None:
    """The best group holding the player at ``index`` (``None``: none fits).

    A group is ``seats`` players still waiting, next to each other in rating, that fits; the
    best has the smallest spread.
    """
    lower: list[int] = []
    at = before[index]
    while at >= 0 and len(lower) < seats - 1:
        lower.append(at)
        at = before[at]
    higher: list[int] = []
    at = after[index]
    while at < len(by_rating) and len(higher) < seats - 1:
        higher.append(at)
        at = after[at]
    row = [*reversed(lower), index, *higher]  # every window of ``seats`` holds ``index``
    best: tuple[float, float, int] | None = None
    for start in range(len(row) - seats + 1):
        group = [by_rating[member] for member in row[start : start + seats]]
        if _fits(group, now):
            key = (group[-1].rating - group[0].rating, sum(each.since for each in group), start)
            if best is None or key < best:
                best = key
    return None if best is None else row[best[2] : best[2] + seats]
