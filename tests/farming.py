"""Rating farming through the store: a newcomer beats accounts made for the purpose.

Shared by ``tests/server/test_rating_farming.py`` and ``benchmarks/rating_farming.py``. Every
game is a two-player winner-scoring game the farmer (account 1) wins, ``GAME_S`` apart on the
store's clock, rated as a ranked table rates it (``store_rated_game``). The victims are fresh
accounts, each noted at a network (``Store.note_network``): the farmer's own, or one each.

``before_the_rule`` replays the same games with the update as it was before
``rummykit.ratings.trust``: the repeat weight alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from party_client import store_rated_game
from rummykit.ratings import SETTLED_SIGMA, Pool, Rating, display_value, rate, repeat_weight
from rummykit.server.store.rated import RatedGame
from rummykit.server.store.store import Store
from table_client import ManualClock

GAME_S = 15.0
"""Seconds between two farmed games: 36 in 9 minutes, as the probe played them."""

FARMER_NETWORK = "203.0.113.1"
"""The farmer's address."""


@dataclass(frozen=True)
class Farm:
    """A way to farm: how many wins, against how many fresh accounts, from where."""

    wins: int
    per_victim: int = 1
    """Wins against each fresh account (12: twelve wins against one)."""
    shared_network: bool = True
    """The victims join from the farmer's address (else each from one of its own)."""
    victims_met: int = 0
    """Games each victim plays against each other victim first (their own network's, or
    distinct ones), before losing to the farmer."""
    wait_days: float = 0.0
    """Days the farmer waits after those games, before farming."""

    @property
    def victims(self) -> int:
        """How many fresh accounts the farm makes."""
        return -(-self.wins // self.per_victim)


def normal_win() -> int:
    """The displayed points one win moves a rating between two settled accounts of equal
    rating (mu 25, sigma ``SETTLED_SIGMA``): the yardstick of the farming tests."""
    winner, _ = rate([Rating(25.0, SETTLED_SIGMA)] * 2, [0, 1])
    return display_value(winner) - display_value(Rating(25.0, SETTLED_SIGMA))


def farm(store: Store, clock: ManualClock, plan: Farm, first: int = 1) -> list[int]:
    """Play ``plan`` in ``store`` with the farmer as account ``first`` and the victims made
    after it: the farmer's displayed rating after each won game (1500 before)."""
    farmer = first
    store.accounts.note_network(farmer, FARMER_NETWORK)
    victims = []
    for number in range(plan.victims):
        made = store.accounts.add(f"Fresh{first}x{number}", False, "hash")
        assert made is not None
        network = FARMER_NETWORK if plan.shared_network else f"198.51.100.{number % 250}"
        store.accounts.note_network(made.id, network)
        victims.append(made.id)
    for round_number in range(plan.victims_met):
        _round_robin(store, clock, victims, f"f{first}r{round_number}")
    clock.advance(plan.wait_days * 24 * 3600.0)
    shown = []
    for number in range(plan.wins):
        clock.advance(GAME_S)
        victim = victims[number // plan.per_victim]
        game = RatedGame(f"f{first}g{number}", Pool.WINNER, (farmer, victim), (100, 0), 1)
        store_rated_game(store, game)
        stored = store.ratings.of(farmer, Pool.WINNER)
        assert stored is not None
        shown.append(display_value(stored.rating))
    return shown


def _round_robin(store: Store, clock: ManualClock, accounts: Sequence[int], name: str) -> None:
    for index, first in enumerate(accounts):
        for second in accounts[index + 1 :]:
            clock.advance(GAME_S)
            game = RatedGame(f"{name}-{first}-{second}", Pool.WINNER, (first, second), (60, 40), 1)
            store_rated_game(store, game)


def before_the_rule(plan: Farm) -> list[int]:
    """The farmer's displayed rating after each win of ``plan`` under the repeat weight alone
    (the rule before ``ratings.trust``), the victims fresh (``victims_met`` is not played)."""
    farmer, victims = Rating(), [Rating()] * plan.victims
    shown = []
    for number in range(plan.wins):
        victim = number // plan.per_victim
        weight = repeat_weight(number % plan.per_victim)  # earlier meetings of the pair
        farmer, victims[victim] = rate([farmer, victims[victim]], [0, 1], [weight, weight])
        shown.append(display_value(farmer))
    return shown
