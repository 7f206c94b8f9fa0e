"""Boathouse at the table: the stock card a take brings is named to its taker alone.

The event of a take from the pile says to everyone that the stock's top card came too; only
the taker's own words (event, log line) name it. A finished game's replay names it.
"""

from __future__ import annotations

from helpers import play, stacked_game
from rummykit.core.actions import parse_action
from rummykit.core.presets import find_preset
from rummykit.core.record import record_of
from rummykit.core.state import GameState
from rummykit.server.tables.frames import replay_frames
from rummykit.server.tables.table_words import action_said, deal_log, event_of

HANDS = ["2c 3c 4c 8s Js Td Kd Qs 5s 6d", "4h 5h 6h 7h 9c 9d 9h Kc Qd 5c"]
NAMES = ["Ann", "Bob"]


def boathouse_take() -> GameState:
    """Seat 1 takes the 8♥ from the pile; the stock's top card, the A♠, comes with it."""
    game = stacked_game(find_preset("boathouse").rules, HANDS, up="8h", stock="As Ks")
    return play(game, "1 draw discard")


def test_the_taker_is_told_which_stock_card_came_with_the_take() -> None:
    game = boathouse_take()
    event = event_of(game, parse_action("1 draw discard"), 1, NAMES)
    assert event["kind"] == "take_discard_stock_card"
    assert event["params"] == {"seat": 1, "card": "8h", "stock_card": "As"}
    assert (
        event["text"]
        == "You took the 8♥ from the discard pile and the A♠ from the top of the stock."
    )


def test_the_others_and_spectators_are_told_only_that_a_stock_card_came_too() -> None:
    game = boathouse_take()
    for viewer in (0, None):
        event = event_of(game, parse_action("1 draw discard"), viewer, NAMES)
        assert event["kind"] == "take_discard_stock"
        assert "stock_card" not in event["params"]
        assert "A♠" not in event["text"] and "As" not in str(event)
        assert event["text"].endswith(
            "took the 8♥ from the discard pile and the top card of the stock."
        )


def test_the_log_of_the_deal_keeps_the_stock_card_for_the_taker() -> None:
    game = boathouse_take()
    [said] = deal_log(game)
    assert said.seen_by(1).params["stock_card"] == "As"
    assert "stock_card" not in said.seen_by(0).params
    assert "A♠" in said.text(1, NAMES) and "A♠" not in said.text(0, NAMES)


def test_a_take_without_the_option_says_nothing_of_the_stock() -> None:
    game = stacked_game(find_preset("standard").rules, HANDS, up="8h", stock="As Ks")
    play(game, "1 draw discard")
    said = action_said(game, parse_action("1 draw discard"))
    assert said.kind == "take_discard" and said.secret is None


def test_a_finished_games_replay_names_the_stock_card() -> None:
    game = boathouse_take()
    play(game, "1 discard Kc")
    frames = replay_frames(record_of(game, find_preset("boathouse"), NAMES).to_json())["frames"]
    take = frames[1]
    assert take["kind"] == "take_discard_stock_card"
    assert take["params"]["stock_card"] == "As"
    assert take["text"] == "Bob takes the top discard and the A♠ from the top of the stock."
