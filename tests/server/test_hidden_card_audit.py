"""The hidden-card audit: whole games over real sockets, every frame checked against the truth.

A live server (uvicorn on 127.0.0.1 in a thread) plays whole games of computer players under
random presets and seat counts (one person and one to five computer players, sometimes with
jokers or two decks); the person's seat plays ``simple_choice`` over its socket, the computer
at pace 0. The store's record, replayed, gives every hand and the stock at each version; no
frame any socket received may name a card its seat could not see at a real table, and every
view must match the truth where it is public. What the computer players are shown,
``observe(game, seat)``, is audited too: every observation the server handed its worker pool
during the game, and ``observe`` at random positions for every seat and for a spectator.

The random games take a new seed each run (shown on failure; ``benchmarks/audit.py
--game-seed S`` plays that game again); ``benchmarks/audit.py`` plays 500.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from ports import free_port
from rummykit.core.cards import Card
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState
from table_client import (
    AuditedGame,
    Frame,
    LiveServer,
    ManualClock,
    Position,
    audit_frame,
    audit_sockets,
    cards_in_text,
    check_observation,
    play_audited_game,
    position_of,
    random_table,
)

pytestmark = pytest.mark.timeout(90)

RANDOM_GAMES = 6
"""Random games a run (each a new seed): with the three chosen ones, nine whole games."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(
        tmp_path_factory.mktemp("audit") / "tables.sqlite3", free_port(), sleep=ManualClock().sleep
    )
    live.start()
    yield live
    live.stop()


def _check_played(game: AuditedGame) -> None:
    assert game.last["game_over"]
    assert len(game.last["history"]) == game.body["rules"]["deals"]
    # the seat's socket saw the game from its first view to its last; not one frame a seat:
    # a knock may end a seven-seat deal at once (a game of 6 frames, game seed 2898397229)
    assert game.frames == sum(len(frames) for _, frames in game.sockets) >= 2
    assert game.observations > 0


@pytest.mark.parametrize("game", range(RANDOM_GAMES))
def test_a_random_whole_game_over_real_sockets_shows_no_hidden_card(
    server: LiveServer, game: int
) -> None:
    seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    body = random_table(rng)
    try:
        _check_played(play_audited_game(server, body, rng))
    except AssertionError as failure:
        raise AssertionError(
            f"{failure}\nplay it again: benchmarks/audit.py --game-seed {seed} ({body})"
        ) from failure


@pytest.mark.parametrize(
    ("preset", "opponents", "rules", "tabs"),
    [
        # six seats, two decks and jokers: a card may be in two places, a joker in a meld
        ("party", ["strong", "basic", "strong", "basic", "strong"], {"decks": 2, "jokers": 2}, 2),
        ("standard", ["basic"], {"jokers": 2}, 1),
        ("practice", ["strong"], {}, 3),
        # Boathouse: a take from the pile brings a stock card named to its taker alone
        ("boathouse", ["strong", "basic"], {}, 1),
        # eight seats from two decks
        ("standard", ["basic", "strong"] * 3 + ["basic"], {"decks": 2}, 1),
    ],
)
def test_chosen_tables_over_every_socket_of_the_seat_show_no_hidden_card(
    server: LiveServer, preset: str, opponents: list[str], rules: dict[str, Any], tabs: int
) -> None:
    body = {"preset": preset, "opponents": opponents, "rules": {"deals": 2, **rules}, "seed": 11}
    game = play_audited_game(server, body, random.Random(11), tabs=tabs)
    _check_played(game)
    assert len(game.sockets) == tabs
    # every tab of the seat saw the same table, version by version (the pace, answered to
    # the tab that set it, aside)
    views = [
        {f["v"]: {**f["d"], "pace_ms": None} for f in frames if f["t"] == "view"}
        for _, frames in game.sockets
    ]
    for other in views[1:]:
        assert other == views[0]


# ----- the audit itself catches what it looks for ------------------------------------------------


@pytest.fixture(scope="module")
def played(server: LiveServer) -> AuditedGame:
    """One two-seat game with jokers, audited clean, for the checks below to forge."""
    body = {"preset": "classic", "opponents": ["basic"], "rules": {"deals": 1, "jokers": 2}}
    return play_audited_game(server, {**body, "seed": 5}, random.Random(5))


def _a_view_in_play(game: AuditedGame) -> tuple[Frame, Position]:
    frames = game.sockets[0][1]
    view = next(f for f in frames if f["t"] == "view" and f["d"]["phase"] != "over")
    return view, game.truth[view["v"]]


def _hidden_card(position: Position) -> str:
    return sorted(set(position.hands[1]) - set(position.known[1]) - set(position.hands[0]))[0]


def test_the_audit_catches_another_seats_card_or_a_stock_card_anywhere(
    played: AuditedGame,
) -> None:
    view, position = _a_view_in_play(played)
    for secret in (_hidden_card(position), position.stock[0], position.stock[-1]):
        for text in (secret, Card.parse(secret).symbol, f"psst {secret}!"):
            forged = {**view, "d": {**view["d"], "topics": [text]}}
            with pytest.raises(AssertionError, match="hidden cards"):
                audit_frame(forged, position, 0)


def test_the_audit_catches_the_card_another_seat_drew_from_the_stock(
    played: AuditedGame,
) -> None:
    frames = played.sockets[0][1]
    drawn = next(
        f
        for f in frames
        if f["t"] == "event" and f["d"]["seat"] == 1 and "stock" in f["d"]["action"]
    )
    position = played.truth[drawn["v"]]
    card = Card.parse(_hidden_card(position)).symbol
    forged = {**drawn, "d": {**drawn["d"], "card": None, "text": f"Basic drew {card}."}}
    with pytest.raises(AssertionError):
        audit_frame(forged, position, 0)


def test_the_audit_catches_a_hand_shown_before_the_deal_is_over(played: AuditedGame) -> None:
    view, position = _a_view_in_play(played)
    hands = [list(hand) for hand in position.hands]
    result = {"result": None, "winner": None, "points": [0, 0], "hands": hands, "values": [0, 0]}
    with pytest.raises(AssertionError):
        audit_frame({**view, "d": {**view["d"], "deal_result": result}}, position, 0)


def test_a_jokers_stand_in_names_the_joker_not_the_card_it_stands_for() -> None:
    # a meld "5h X=6h 7h" lays the joker; the 6h may be in anyone's hand or the stock
    assert cards_in_text("meld 5h X=6h 7h") == {"5h", "X", "7h"}
    assert cards_in_text("laid 5♥ 🃏(6♥) 7♥.") == {"5h", "X", "7h"}
    assert cards_in_text("Basic drew 🃏 and 10♥; Xavier, 6 hearts") == {"X", "Th"}


def test_every_socket_is_audited_as_its_own_seat_or_as_a_spectator(played: AuditedGame) -> None:
    # a spectator (issue 9) sees no hand: seat 0's views would give its hand away
    frames = played.sockets[0][1]
    with pytest.raises(AssertionError):
        audit_sockets([(0, frames), (None, frames)], played.truth)


def test_the_audit_of_a_computer_players_view_catches_a_hidden_card() -> None:
    game = GameState.new(find_preset("classic").rules, seats=3, seed=4)
    position = position_of(game)
    for seat in (0, 1, 2, None):
        check_observation(observe(game, seat), position)
    honest = observe(game, 0)
    for forged in (
        dataclasses.replace(honest, known_cards=((), (game.hands[1][0],), ())),
        dataclasses.replace(honest, discard_pile=(*honest.discard_pile, game.stock[0])),
        dataclasses.replace(honest, hand=(*honest.hand, game.hands[2][0])),
    ):
        with pytest.raises(AssertionError):
            check_observation(forged, position)
