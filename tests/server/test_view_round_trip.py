"""A view carries exactly the observation it is made from.

``seat_view`` makes a viewer's view from ``observe``; ``observation_of`` reads the view back.
A program at the table gives its bot what this reads, so it must be exactly what the server's
own computer players get: every position of random games, for every seat and a spectator.
(That a view holds nothing more, no hidden card, is the hidden-card audit's part.)
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot_games import positions, random_game
from rummykit.bots.basic import BasicBot
from rummykit.bots.random_bot import RandomBot
from rummykit.core.deal import DealResult
from rummykit.core.observation import observe
from rummykit.core.rules import MAX_SEATS, MIN_SEATS
from rummykit.core.state import GameState
from rummykit.protocol.messages import SeatView
from rummykit.protocol.settings import HumanPlayer
from rummykit.protocol.views import observation_of, seat_view

pytestmark = pytest.mark.timeout(120)
ROUND_TRIP_CAP = 600
"""Actions of play after which a deal's views stop being checked: past it, random play grows
hands of thirty cards whose legal melds are slow to list, and nothing new is shown."""


def _view(game: GameState, seat: int | None) -> SeatView:
    players = tuple(HumanPlayer(kind="human", name=f"P{n}") for n in range(game.seat_count))
    view = seat_view(game, seat, players, table_id="t", preset="classic", practice=False,
                     pace_ms=0)  # fmt: skip
    # what goes over the wire: JSON, read back as the model
    return SeatView.model_validate_json(view.model_dump_json())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(MIN_SEATS, MAX_SEATS))
def test_every_view_reads_back_as_the_observation_it_was_made_from(seed: int, seats: int) -> None:
    game, rng = random_game(seed, seats)
    bots = [RandomBot() if seat % 2 else BasicBot() for seat in range(seats)]
    checked = 0
    for position in positions(game, bots, rng, ROUND_TRIP_CAP):
        for seat in [*range(seats), None]:
            assert observation_of(_view(position, seat)) == observe(position, seat)
            checked += 1
    for seat in [*range(seats), None]:  # the deal over (every hand shown) or the cap reached
        assert observation_of(_view(game, seat)) == observe(game, seat)
    if game.logs[-1].actions:
        assert checked > seats
    else:  # every card dealt, none left to draw and no renewal: blocked before the first turn
        assert game.deal.result is DealResult.BLOCKED and game.deal.stock == []
