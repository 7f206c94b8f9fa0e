"""Rated results for tests and the ratings benchmark: one adjacent pair, ahead or tied."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from rummykit.ratings import Rating


@dataclass(frozen=True)
class TiedResult:
    """A game's ratings and the three results around one tie between adjacent finishers."""

    ratings: tuple[Rating, ...]
    first_ahead: tuple[int, ...]
    """Ranks where the first of the pair finishes just ahead of the second."""
    second_ahead: tuple[int, ...]
    """The same ranks with the pair swapped."""
    tied: tuple[int, ...]
    """The same ranks with the pair sharing the better place."""


def around_tie(ratings: Sequence[Rating], order: Sequence[int], place: int) -> TiedResult:
    """The results where seats ``order`` finish in that order, around the pair at ``place``."""
    first, second = order[place], order[place + 1]
    ahead = [0] * len(order)
    for position, seat in enumerate(order):
        ahead[seat] = position
    swapped = list(ahead)
    swapped[first], swapped[second] = ahead[second], ahead[first]
    tied = list(ahead)
    tied[second] = tied[first]
    return TiedResult(tuple(ratings), tuple(ahead), tuple(swapped), tuple(tied))


ratings = st.builds(
    Rating,
    mu=st.floats(min_value=0.0, max_value=50.0),
    sigma=st.floats(min_value=0.5, max_value=25.0 / 3.0),
)


@st.composite
def tied_results(draw: st.DrawFn, max_players: int = 6) -> TiedResult:
    """2 to ``max_players`` players in a random order, around one adjacent pair."""
    players = draw(st.integers(min_value=2, max_value=max_players))
    game = draw(st.lists(ratings, min_size=players, max_size=players))
    order = draw(st.permutations(range(players)))
    place = draw(st.integers(min_value=0, max_value=players - 2))
    return around_tie(game, order, place)
