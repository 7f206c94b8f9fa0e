"""Farming: wins against accounts made for the purpose move a rating less than one normal win.

A normal win is one between two settled accounts of equal rating (``farming.normal_win``: 70
points). Each test runs on SQLite and on PostgreSQL, on a clock moved by hand.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from farming import FARMER_NETWORK, Farm, before_the_rule, farm, normal_win
from party_client import accounts_store, establish, store_rated_game
from rummykit.ratings import TRUSTED_GAMES, Pool
from rummykit.server.store.rated import RatedGame
from rummykit.server.store.store import Store
from services import StoreBackend
from table_client import ManualClock

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def store(store_backend: StoreBackend, clock: ManualClock) -> Iterator[Store]:
    store = accounts_store(store_backend.location, clock, ("Farmer",))
    yield store
    store.close()


FOUR_WAYS = {
    "four fresh accounts at the farmer's address": Farm(4),
    "four fresh accounts at four other addresses": Farm(4, shared_network=False),
    "one fresh account four times": Farm(4, per_victim=4, shared_network=False),
    "four accounts that first played each other at one address": Farm(4, victims_met=2),
    "four accounts that first played each other at four addresses": Farm(
        4, shared_network=False, victims_met=2
    ),
}


@pytest.mark.parametrize("plan", FOUR_WAYS.values(), ids=FOUR_WAYS.keys())
def test_four_wins_against_fresh_accounts_move_a_rating_less_than_one_normal_win(
    store: Store, clock: ManualClock, plan: Farm
) -> None:
    shown = farm(store, clock, plan)
    assert before_the_rule(plan)[-1] - 1500 > 3 * normal_win()  # what the rule stops
    assert len(shown) == 4 and shown[-1] - 1500 <= normal_win()
    stored = store.ratings.of(1, Pool.WINNER)
    assert stored is not None and stored.games == 4  # rated all the same: on the player page


def test_a_known_player_gains_nothing_from_beating_fresh_accounts(
    store: Store, clock: ManualClock
) -> None:
    for number in range(TRUSTED_GAMES):
        assert store.accounts.add(f"Out{number}", False, "hash") is not None
    establish(store, clock, (1,), range(2, 2 + TRUSTED_GAMES))
    before = store.ratings.of(1, Pool.WINNER)
    shown = farm(store, clock, Farm(4, shared_network=False), first=1)
    assert before is not None and shown[-1] - 1500 <= normal_win()


def test_twelve_wins_against_one_account_leave_the_farmer_where_they_began(
    store: Store, clock: ManualClock
) -> None:
    """The issue's second farm, in small: twelve wins against one account made from the
    farmer's address took the farmer to 1867; the account met no one else: nothing counts."""
    plan = Farm(12, per_victim=12)
    assert before_the_rule(plan)[-1] == 1867
    assert farm(store, clock, plan) == [1500] * 12
    assert store.accounts.networks(1) == store.accounts.networks(2) == {FARMER_NETWORK}
    weights = {row["weight"] for row in store.rated_games.of_game("f1g11")}
    assert weights == {0.0}


def test_people_who_met_others_count_in_full_though_they_share_an_address(
    store: Store, clock: ManualClock
) -> None:
    """The rule's other side: two known accounts of one household are rated in full against
    each other; a newcomer is rated in full against a known account elsewhere, not at its
    address; and the known account is not moved by the newcomer."""
    names = ("Sister", *(f"Out{number}" for number in range(2 * TRUSTED_GAMES)), "Ann", "Al")
    for name in names:
        assert store.accounts.add(name, False, "hash") is not None
    establish(store, clock, (1, 2), range(3, 3 + 2 * TRUSTED_GAMES))
    housemate, elsewhere = 3 + 2 * TRUSTED_GAMES, 4 + 2 * TRUSTED_GAMES
    for account in (1, 2, housemate):
        store.accounts.note_network(account, FARMER_NETWORK)
    store.accounts.note_network(elsewhere, "198.51.100.7")
    games = {"home": (1, 2), "housemate": (housemate, 2), "elsewhere": (elsewhere, 2)}
    for table, accounts in games.items():
        store_rated_game(store, RatedGame(table, Pool.WINNER, accounts, (80, 20), 1))
    weights = {
        table: [row["weight"] for row in store.rated_games.of_game(table)] for table in games
    }
    assert weights == {"home": [1.0, 1.0], "housemate": [0.0, 0.0], "elsewhere": [1.0, 0.0]}
