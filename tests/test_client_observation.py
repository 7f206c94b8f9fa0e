"""The client's observation, rebuilt from the table's views and events, is the seat's own.

Whole games under random rules and seat counts, played by bots: at every position each seat's
``DealTrack``, fed the view and event frames the table would send it, must give exactly
``observe(game, seat)``. From a view alone (a client that missed the deal's beginning) every
field the view carries must still be exact, and the legal actions listed must be the game's,
both ways: each listed action is legal, and each legal action is listed.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from bot_games import random_game
from rummykit.bots import make_bot
from rummykit.bots.play import play_deal
from rummykit.client.observation import DealTrack, observation_from_view, view_rules
from rummykit.core.actions import Action
from rummykit.core.observation import Observation, observe
from rummykit.core.state import GameState
from rummykit.server.protocol import Event, SeatView
from rummykit.server.settings import BotPlayer, Player
from rummykit.server.views import seat_view

ESTIMATED = frozenset(
    {
        "turn_number",
        "has_laid",
        "first_meld_turns",
        "refused",
        "must_play",
        "melds_this_turn",
        "played_this_turn",
    }
)
"""The fields a view does not carry: followed from the events, estimated without them."""

LEVELS = ("random", "basic", "strong")


def _players(seats: int) -> tuple[Player, ...]:
    return tuple(BotPlayer(kind="bot", name=f"P{seat}", level="basic") for seat in range(seats))


def _view(game: GameState, seat: int) -> SeatView:
    players = _players(game.seat_count)
    return seat_view(game, seat, players, table_id="t", preset="classic", practice=False, pace_ms=0)


def _event(action: Action) -> Event:
    return Event(seat=action.seat, action=str(action).split(" ", 1)[1], card=None, text="")


def _frames(seed: int) -> Iterator[tuple[GameState, int, Action | None]]:
    """A game of random rules and seats played by bots over up to three deals: the game after
    each change, its version, and the action that made it (``None``: a new deal)."""
    rng = random.Random(seed)
    seats = rng.randint(2, 6)
    game, play_rng = random_game(seed, seats, deals=3)
    bots = [make_bot(rng.choice(LEVELS)) for _ in range(seats)]
    version = 1
    yield game, version, None
    while True:
        previous: Action | None = None
        # play_deal yields each choice before applying it: the game then shows the last one
        for choice in play_deal(game, bots, [play_rng] * seats, cap=400):
            if previous is not None:
                version += 1
                yield game, version, previous
            previous = choice.action
        if previous is not None:
            version += 1
            yield game, version, previous
        if not game.deal_over or game.game_over:
            return
        game.start_deal()
        version += 1
        yield game, version, None


def _compare(got: Observation, want: Observation, skip: frozenset[str] = frozenset()) -> None:
    for field in dataclasses.fields(Observation):
        if field.name in skip:
            continue
        assert getattr(got, field.name) == getattr(want, field.name), field.name


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", range(12))
def test_followed_observation_is_the_seats_own(seed: int) -> None:
    tracks: list[DealTrack] | None = None
    for game, version, action in _frames(seed):
        if tracks is None:
            tracks = [DealTrack() for _ in range(game.seat_count)]
        for seat, track in enumerate(tracks):
            if action is not None:
                track.on_event(version, _event(action))
            track.on_view(version, _view(game, seat))
            assert track.exact
            _compare(track.observation(), observe(game, seat))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", range(12, 20))
def test_a_view_alone_gives_every_field_it_carries_and_the_legal_actions(seed: int) -> None:
    for game, _, _ in _frames(seed):
        for seat in range(game.seat_count):
            view = _view(game, seat)
            want = observe(game, seat)
            got = observation_from_view(view)
            _compare(got, want, skip=ESTIMATED)
            if seat == game.turn and not game.deal_over:
                legal = game.legal_actions()
                assert all(action in legal for action in got.legal_actions)  # listed: legal
                assert all(action in got.legal_actions for action in legal)  # legal: listed
                assert len(got.legal_actions) == legal.count()
            else:
                assert got.legal_actions == ()


@pytest.mark.timeout(60)
def test_a_client_that_missed_actions_estimates_until_the_next_deal() -> None:
    track = DealTrack()
    deals_seen: set[int] = set()
    for number, (game, version, action) in enumerate(_frames(21)):
        if number < 40:
            continue  # it came in the middle of the first deal
        if action is not None and track.last is not None:
            track.on_event(version, _event(action))
        track.on_view(version, _view(game, 0))
        assert track.exact == (game.deal_number > 0)
        skip = frozenset() if track.exact else ESTIMATED
        _compare(track.observation(), observe(game, 0), skip=skip)
        deals_seen.add(game.deal_number)
    assert deals_seen == {0, 1, 2}


def test_the_rules_of_a_view_are_the_tables() -> None:
    game, _ = random_game(5, 3)
    view = seat_view(
        game, 0, _players(3), table_id="t", preset="classic", practice=False, pace_ms=0
    )
    assert view_rules(view).to_mapping() == game.rules.to_mapping()
