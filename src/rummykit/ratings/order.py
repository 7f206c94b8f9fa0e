"""The final order of a finished game: who ranks where, for the rating update.

>>> final_order([120, 85, 120, 40], lower_wins=False)
(0, 2, 0, 3)
>>> final_order([12, 30, 12], lower_wins=True, left={0})
(2, 1, 0)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rummykit.ratings.errors import RatingInputError


def final_order(
    totals: Sequence[int],
    lower_wins: bool,
    left: Collection[int] = (),
    computer_majority: Collection[int] = (),
) -> tuple[int, ...]:
    """Each seat's rank (0 best) from the final totals; equal totals tie.

    Ranks are competition ranks: two seats tied for first are both 0 and the next is 2, so a
    rank is also the number of seats that did better. Winner scoring ranks the highest total
    first (``lower_wins=False``), penalty scoring the lowest (``lower_wins=True``). A seat that
    ``left`` the game, or that the computer played for most of its turns
    (``computer_majority``), ranks below every other seat whatever its total; several such
    seats tie for last.
    """
    seats = range(len(totals))
    demoted = set(left) | set(computer_majority)
    strangers = sorted(seat for seat in demoted if seat not in seats)
    if strangers:
        raise RatingInputError(f"no seat {strangers} among {len(totals)} seats")
    sign = 1 if lower_wins else -1
    keys = {seat: sign * totals[seat] for seat in seats if seat not in demoted}
    ranks = [len(keys)] * len(totals)
    for seat, key in keys.items():
        ranks[seat] = sum(1 for other in keys.values() if other < key)
    return tuple(ranks)
