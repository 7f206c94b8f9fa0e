"""The deal value ``master`` scores its cut playouts with: shipped, reproducible, fair.

The weights are fitted by ``rummykit.bots.deal_value_fit`` and shipped in
``deal_value.json``; nothing is downloaded. The fit is deterministic for its seed, and the
value is zero-sum between two seats (what one gains, the other loses).
"""

from __future__ import annotations

import random

from bot_games import positions
from rummykit.bots import make_bot
from rummykit.bots.deal_value import FEATURE_NAMES, DealValue, features, shipped_value
from rummykit.bots.deal_value_fit import collect, least_squares
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState


def test_the_shipped_value_loads_and_fits_classic_at_two_seats_only() -> None:
    value = shipped_value()
    assert len(value.weights) == len(FEATURE_NAMES)
    classic = find_preset("classic").rules
    assert value.fits(classic, 2)
    assert not value.fits(classic, 3)
    assert not value.fits(find_preset("standard").rules, 2)
    assert not value.fits(find_preset("500").rules, 2)


def test_the_value_round_trips_through_its_json() -> None:
    value = shipped_value()
    assert DealValue.from_json(value.to_json()) == value


def test_what_one_seat_is_worth_the_other_loses() -> None:
    """At two seats, the value of a position for one seat is minus its value for the other
    (the fit sees every position from both sides)."""
    value = shipped_value()
    rules = find_preset("classic").rules
    game = GameState.new(rules, 2, seed=8)
    bots = [make_bot("strong")] * 2
    for number, position in enumerate(positions(game, bots, random.Random(8))):
        if number % 5:
            continue
        assert abs(value.value(position, 0) + value.value(position, 1)) < 1e-6
        assert len(features(position, 0)) == len(FEATURE_NAMES)


def test_the_fit_gives_the_same_weights_for_the_same_seed() -> None:
    first = least_squares([row for deal in collect(2, seed=5, every=10) for row in deal])
    again = least_squares([row for deal in collect(2, seed=5, every=10) for row in deal])
    assert first == again
    assert len(first) == len(FEATURE_NAMES)
