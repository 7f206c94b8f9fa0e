"""How much a result counts against new accounts and between accounts of one network."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rummykit.ratings import (
    TRUSTED_DAYS,
    TRUSTED_GAMES,
    TRUSTED_OPPONENTS,
    Rating,
    Standing,
    pair_trust,
    rate,
    trust,
    trust_weight,
)

REGULAR = Standing(40, frozenset(range(100, 120)), frozenset({"b"}), days=90.0)
"""An account that has met twenty people at other networks since three months."""


def test_a_fresh_opponent_counts_nothing_and_a_known_one_in_full() -> None:
    assert trust(Standing(), player=1) == 0
    assert trust(REGULAR, player=1) == 1
    people = frozenset(range(2, 2 + TRUSTED_OPPONENTS))
    at_the_thresholds = Standing(TRUSTED_GAMES, people, days=TRUSTED_DAYS)
    assert trust(at_the_thresholds, player=1) == 1
    assert trust(Standing(TRUSTED_GAMES, people, days=0.5), player=1) == 0.5 / TRUSTED_DAYS


def test_an_opponent_known_only_to_the_player_counts_nothing() -> None:
    puppet = Standing(games=50, opponents=frozenset({1}), days=30.0)
    assert trust(puppet, player=1) == 0
    assert trust(puppet, player=2) == 1 / TRUSTED_OPPONENTS  # to anyone else: one person met


@given(
    games=st.integers(0, 3 * TRUSTED_GAMES),
    people=st.integers(0, 3 * TRUSTED_OPPONENTS),
    days=st.floats(0.0, 3 * TRUSTED_DAYS),
)
def test_an_opponent_counts_in_proportion_to_its_games_people_and_days_up_to_one(
    games: int, people: int, days: float
) -> None:
    opponent = Standing(games, frozenset(range(10, 10 + people)), days=days)
    expected = min(1.0, games / TRUSTED_GAMES, people / TRUSTED_OPPONENTS, days / TRUSTED_DAYS)
    assert trust(opponent, player=1) == expected
    more_games = Standing(games + 1, opponent.opponents, days=days)
    more_people = Standing(games, opponent.opponents | {99}, days=days)
    later = Standing(games, opponent.opponents, days=days + 1)
    for more in (more_games, more_people, later):
        assert trust(opponent, 1) <= trust(more, 1)


def test_accounts_of_one_network_count_as_far_as_both_are_known() -> None:
    known = Standing(9, frozenset(range(10, 20)), frozenset({"home"}), days=30.0)
    half = Standing(9, frozenset({10, 11}), frozenset({"home"}), days=30.0)
    elsewhere = Standing(9, frozenset({10, 11}), frozenset({"away"}), days=30.0)
    standings = {1: known, 2: half, 3: elsewhere}
    shared = 2 / TRUSTED_OPPONENTS
    assert pair_trust(1, 2, standings) == pair_trust(2, 1, standings) == shared
    assert pair_trust(1, 3, standings) == shared and pair_trust(3, 1, standings) == 1
    both_known = {1: known, 2: Standing(9, frozenset(range(30, 40)), frozenset({"home"}), 30.0)}
    assert pair_trust(1, 2, both_known) == 1  # a family that meets others counts in full


def test_a_newcomer_at_a_table_of_regulars_lowers_their_update_by_its_share() -> None:
    standings = {1: REGULAR, 2: REGULAR, 3: REGULAR}  # account 4: a newcomer
    table = (1, 2, 3, 4)
    assert trust_weight(1, table, standings) == 2 / 3
    assert trust_weight(4, table, standings) == 1  # rated in full from its first game


def test_a_newcomer_moves_against_regulars_and_regulars_do_not_move_against_it() -> None:
    standings = {1: REGULAR}
    weights = [trust_weight(account, (1, 2), standings) for account in (1, 2)]
    regular, newcomer = rate([Rating(30.0, 3.0), Rating()], [1, 0], weights)
    assert regular == Rating(30.0, 3.0) and newcomer.mu > 25
