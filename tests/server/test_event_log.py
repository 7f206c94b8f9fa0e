"""The "What happened" log comes from the server: a hello that asks for it gets the current
deal's story, rebuilt from the stored actions, so a reload or a restart shows the same lines;
and the stock says when it is turned over, when it runs low and when the deal is blocked."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from bot_games import positions, random_game
from rummykit.bots.random_bot import RandomBot
from rummykit.core.presets import find_preset
from rummykit.core.rules import MAX_SEATS, MIN_SEATS, Renew
from rummykit.core.state import GameState
from rummykit.server.tables.new_table import COMPUTER_NAMES
from rummykit.server.tables.table_words import DealStory, deal_log
from table_client import (
    Frame,
    SeatSocket,
    create_table,
    is_my_turn,
    running,
    seat_connection,
    seed_where_human_starts,
    simple_choice,
)

pytestmark = pytest.mark.timeout(120)


def said_lines(frames: list[Frame]) -> list[str]:
    """The sentences of the events and notices among ``frames``, in order."""
    return [frame["d"]["text"] for frame in frames if frame["t"] in ("event", "notice")]


def play_turns(seat: SeatSocket, turns: int) -> None:
    """Play ``turns`` of seat 0's turns (the computer plays at once between them), and wait
    for the next (when the table waits for us, nothing more is said)."""
    view = seat.view
    for _ in range(turns):
        if not is_my_turn(view):
            view = seat.my_turn_view()["d"]
        if view["phase"] == "over":
            return
        while is_my_turn(view):
            view = seat.act(simple_choice(view["legal"]))["d"]
    if not is_my_turn(view):
        seat.my_turn_view()


def log_of(client: TestClient, table_id: str, token: str) -> Frame:
    """The log frame a fresh page (a reload) gets after its view."""
    with seat_connection(client, table_id, token, log=True) as seat:
        assert seat.recv()["t"] == "view"
        frame = seat.recv()
        assert frame["t"] == "log", frame
        return frame


def test_a_reload_and_a_restart_show_the_same_lines(store_path: Path) -> None:
    with running(store_path) as client:
        table_id, token = create_table(
            client, seed=seed_where_human_starts(3), opponents=["basic", "basic"]
        )
        with seat_connection(client, table_id, token) as seat:
            seat.recv()
            seat.set_pace(0)
            start = len(seat.frames)
            play_turns(seat, 3)
            seen = said_lines(seat.frames[start:])
            view = seat.view
        assert len(seen) >= 6  # three of our turns and the computers' between them
        logged = log_of(client, table_id, token)
        lines = logged["d"]["lines"]
        assert lines[0]["kind"] == "deal" or lines[0]["kind"] == "deal_you"
        assert lines[0]["text"].startswith(f"Deal {view['deal'] + 1}: ")
        assert [line["text"] for line in lines[1:]] == seen
        again = log_of(client, table_id, token)
        assert again["d"] == logged["d"]  # a second reload: the same lines again
    with running(store_path) as client:  # the server restarted: rebuilt from the store
        assert log_of(client, table_id, token)["d"] == logged["d"]


def test_two_computers_of_one_level_have_different_names(store_path: Path) -> None:
    with running(store_path) as client:
        table_id, token = create_table(client, opponents=["basic", "basic", "basic"])
        with seat_connection(client, table_id, token) as seat:
            players = seat.recv()["d"]["players"]
    names = [player["name"] for player in players[1:]]
    assert len(set(names)) == 3 and set(names) <= set(COMPUTER_NAMES)
    assert [player["level"] for player in players[1:]] == ["basic"] * 3


def test_the_stock_says_it_turned_over_runs_low_and_blocks() -> None:
    game = stock_only_deal("classic", 11)
    rules = game.rules
    said = [(each.kind, dict(each.params)) for each in deal_log(game)]
    kinds = [kind for kind, _ in said]
    lows = [params["count"] for kind, params in said if kind in ("stock_low", "stock_last")]
    assert lows[:3] == [5, 3, 1]
    assert rules.renew is not Renew.NONE and f"renewed_{rules.renew.value}" in {
        kind.removesuffix("_any") for kind in kinds
    }
    assert game.deal_over and kinds[-1] in ("blocked", "blocked_collects")


def test_the_table_says_when_idle_renewals_stops_a_deal_gone_round() -> None:
    rules = find_preset("standard").rules.replace(empty_stock_choice=False, idle_renewals=2)
    game = GameState.new(rules, 2, seed=11)
    while not game.deal_over:  # nobody lays a card: draw and throw the card drawn
        seat = game.turn
        game.apply_text(f"{seat} draw stock")
        game.apply_text(f"{seat} discard {game.hands[seat][-1]}")
    said = [(each.kind, dict(each.params)) for each in deal_log(game)]
    assert [kind for kind, _ in said].count("renewed_flip_any") == 2
    assert said[-2:] == [("stalled", {"count": 2}), ("blocked", {})]
    assert ("stock_last", {"count": 1}) in said  # the last stock will not be renewed


LONG_DEAL = 400
"""Steps after which a deal counts as long, and is asked ever more sparsely."""
LONG_DEAL_GROWTH = 1.25
"""In a long deal, each ask comes this many times as many steps in as the one before."""
STORY_CAP = 600
"""Actions of random play after which the story is checked as it stands: random play may go
round for tens of thousands of actions with hands of thirty cards, whose deadwood is slow to
count, and past pytest-timeout's limit Hypothesis shrinks the "failure" for many minutes."""


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), seats=st.integers(MIN_SEATS, MAX_SEATS), every=st.integers(1, 7)
)
def test_a_kept_story_tells_what_a_replay_from_scratch_tells(
    seed: int, seats: int, every: int
) -> None:
    """``DealStory`` replays only the new actions; asked every few actions, and after a
    restore (a new game object), it says exactly what ``deal_log`` says."""
    game, rng = random_game(seed, seats)
    bots = [RandomBot() for _ in range(seats)]
    story = DealStory()
    next_long_ask = float(LONG_DEAL)
    for step, position in enumerate(positions(game, bots, rng, STORY_CAP)):
        # a long deal (random play, up to tens of thousands of actions) is asked at steps
        # growing geometrically: each ask replays the whole deal from scratch, so asking at a
        # fixed stride grows as the square of the deal's length (minutes for one example)
        if step < LONG_DEAL:
            ask = step % every == 0
        else:
            ask = step >= next_long_ask
            if ask:
                next_long_ask = step * LONG_DEAL_GROWTH
        if ask:
            assert story.update(position) == deal_log(position)
    assert story.update(game) == deal_log(game)
    restored = copy.deepcopy(game)  # as after a restart: the same deal in new objects
    assert story.update(restored) == deal_log(game)


def stock_only_deal(preset: str, seed: int) -> GameState:
    """A two-seat deal of ``preset`` played from the stock only, throwing the first discard
    listed, to its end (blocked)."""
    game = GameState.new(find_preset(preset).rules, 2, seed=seed)
    steps = 0
    while not game.deal_over and steps < 1000:
        steps += 1
        if game.phase.value == "draw":
            game.apply_text(f"{game.turn} draw stock")
        else:
            legal = [str(action) for action in game.legal_actions()]
            game.apply_text(next(text for text in legal if " discard " in text))
    return game


@pytest.mark.parametrize(
    ("preset", "told_with"),
    [
        # the pile is turned over as the turn passes to a seat with an empty stock: after
        # the discard that ended the turn (issue 27: it was told before it)
        ("classic", "discard"),
        # the seat may take the discard instead: the pile is turned over by its draw from
        # the empty stock, before the card is drawn
        ("standard", "draw_stock"),
    ],
)
def test_a_renewal_is_told_where_it_happened(preset: str, told_with: str) -> None:
    kinds = [each.kind for each in deal_log(stock_only_deal(preset, seed=11))]
    renewals = [i for i, kind in enumerate(kinds) if kind.startswith("renewed_")]
    assert renewals, kinds
    for i in renewals:
        if told_with == "discard":
            assert kinds[i - 1] == "discard", kinds[i - 3 : i + 3]
        else:
            assert kinds[i + 1] == "draw_stock", kinds[i - 3 : i + 3]


def stall(seat: SeatSocket) -> None:
    """Play seat 0 without ever melding (draw from the stock, throw the last card) until the
    deal is over. The computer (at pace 0) plays between."""
    while True:
        view = seat.view
        if not (view["phase"] == "over" or is_my_turn(view)):
            view = seat.my_turn_view()["d"]
        if view["phase"] == "over":
            return
        view = seat.act("draw stock")["d"]
        if view["phase"] == "over":
            return
        seat.act([action for action in view["legal"] if action.startswith("discard")][-1])


def test_the_live_table_tells_the_renewal_after_the_discard_as_its_log_does(
    store_path: Path,
) -> None:
    with running(store_path) as client:
        # six seats of six cards: under this seed the five computers do not go out before
        # the stock runs out (tests/web/test_stock_notices_page.py plays the same deal)
        table_id, token = create_table(
            client,
            seed=seed_where_human_starts(6),
            opponents=["basic"] * 5,
            rules={"renew": "flip", "renewals": 1},
        )
        with seat_connection(client, table_id, token) as seat:
            seat.recv()
            seat.set_pace(0)
            stall(seat)
        said = [frame["d"] for frame in seat.frames if frame["t"] in ("event", "notice")]
        kinds = [each["kind"] for each in said]
        at = kinds.index("renewed_flip")
        assert kinds[at - 1] == "discard", kinds[at - 3 : at + 3]
        logged = log_of(client, table_id, token)["d"]["lines"]
        # a reload's log tells them in the same order (then the deal's result)
        assert [line["text"] for line in logged[1 : 1 + len(said)]] == [
            each["text"] for each in said
        ]
