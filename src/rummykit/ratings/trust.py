"""Farming: a result counts only as far as the opponent is known apart from the player.

Accounts cost nothing, so the damping of repeat meetings (``repeat_weight``) alone is
bypassed by beating a fresh account each game: 36 such wins took a newcomer from 1500 to
3083. The rule, written once here:

- A result against an opponent counts for the player in the share ``trust``: the smallest of
  the opponent's rated games over ``TRUSTED_GAMES``, the distinct people it has met other than
  the player over ``TRUSTED_OPPONENTS``, and the days since its first rated game over
  ``TRUSTED_DAYS``; at most 1. People met who share one of the opponent's networks (its
  addresses) are not counted: accounts made and played from one address never vouch for each
  other. A fresh account, one that has met only the player, or one that began today, counts
  for (almost) nothing.
- Two accounts that share a network count against each other only as far as both are
  trusted apart from each other (the smaller of the two shares).
- A player's weight in a game is the mean of these shares over its opponents, so one
  newcomer at a table of regulars lowers the others' update by its share only.

The weight multiplies the repeat weight; ``rate`` scales the update by it. A newcomer is
rated fully against regulars from its first game, and regulars are not moved by newcomers.

>>> fresh = Standing()
>>> regular = Standing(games=30, opponents=frozenset(range(10, 20)), days=90.0)
>>> trust(fresh, player=1), trust(regular, player=1)
(0.0, 1.0)
>>> puppet = Standing(games=12, opponents=frozenset({1}), days=30.0)  # met only the farmer
>>> trust(puppet, player=1)
0.0
>>> trust_weight(1, (1, 2, 3), {1: fresh, 2: regular, 3: fresh})
0.5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.ratings.errors import RatingInputError

TRUSTED_GAMES: Final = 5
"""Rated games after which an opponent's results count in full: about an evening's play,
and the games a four-player newcomer needs to settle (``SETTLED_SIGMA``)."""

TRUSTED_OPPONENTS: Final = 5
"""Distinct people (other than the player, at other networks) an opponent must have met for
its results to count in full: the leaderboard's ``LEADERBOARD_OPPONENTS``. A club of four
friends who only meet each other counts 2/5 of each game."""

TRUSTED_DAYS: Final = 7.0
"""Days since an opponent's first rated game after which its results count in full. Without
it, a farmer with a few addresses has the fresh accounts play each other first (six accounts,
fifteen games, four minutes) and then farms them as if they were known (1500 to 2541 in 36
wins, ``benchmarks/rating_farming.py``); with it, that costs a week of waiting."""

NETWORK_WINDOW_DAYS: Final = 30
"""How long an account's network is remembered: addresses of home lines change over weeks,
and a farmer's fresh accounts are played the day they are made."""


@dataclass(frozen=True, slots=True)
class Standing:
    """What the store knows of an account as a game ends, before it is rated."""

    games: int = 0
    """Rated games, every pool."""
    opponents: frozenset[int] = frozenset()
    """The distinct accounts met in rated games, less those sharing one of its networks."""
    networks: frozenset[str] = frozenset()
    """The networks it was seen at within ``NETWORK_WINDOW_DAYS`` (``server.networks``)."""
    days: float = 0.0
    """Days since its first rated game (0: none yet)."""

    def __post_init__(self) -> None:
        if self.games < 0 or not self.days >= 0:
            raise RatingInputError(
                f"counts cannot be negative: {self.games} rated games, {self.days} days"
            )


def trust(opponent: Standing, player: int) -> float:
    """The share, 0 to 1, a result against ``opponent`` counts for account ``player``."""
    others = len(opponent.opponents - {player})
    return min(
        1.0,
        opponent.games / TRUSTED_GAMES,
        others / TRUSTED_OPPONENTS,
        opponent.days / TRUSTED_DAYS,
    )


def shares_network(first: Standing, second: Standing) -> bool:
    """Whether two accounts were seen at one network lately."""
    return not first.networks.isdisjoint(second.networks)


def pair_trust(player: int, opponent: int, standings: Mapping[int, Standing]) -> float:
    """The share a result between ``player`` and ``opponent`` counts for ``player``.

    Accounts absent from ``standings`` are fresh (``Standing()``).
    """
    mine, theirs = standings.get(player, Standing()), standings.get(opponent, Standing())
    share = trust(theirs, player)
    if shares_network(mine, theirs):
        share = min(share, trust(mine, opponent))
    return share


def trust_weight(player: int, accounts: Sequence[int], standings: Mapping[int, Standing]) -> float:
    """``player``'s share of a full update in a game of ``accounts``: the mean ``pair_trust``.

    Pass it, times the repeat weight, to ``rate`` as the player's weight.
    """
    opponents = [account for account in accounts if account != player]
    if not opponents:
        raise RatingInputError(f"account {player} has no opponent among {list(accounts)}")
    return sum(pair_trust(player, each, standings) for each in opponents) / len(opponents)
