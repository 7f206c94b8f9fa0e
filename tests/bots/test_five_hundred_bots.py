"""500 Rum: ``strong`` values meld points (deep takes that make melds, laying at once) and
beats ``basic`` in a small duplicate match."""

from __future__ import annotations

import random

from helpers import play, stacked_game
from rummykit.bots import BasicBot, StrongBot
from rummykit.core.actions import Discard, Draw, DrawSource, Meld
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState
from rummykit.tournament.config import SimConfig
from rummykit.tournament.play import run_sim

FIVE_HUNDRED = find_preset("500").rules


def deep_pile() -> GameState:
    """The pile is 5♣ Q♦ (top last); seat 0, holding 2♣ 3♣ 4♣ and Q♣ Q♠, is to draw.

    Ten cards each (``hand_size`` 10), the position this was written with.
    """
    game = stacked_game(
        FIVE_HUNDRED.replace(hand_size=10),
        ["2c 3c 4c 8s Js Td Qc Qs 5d 6d", "Ah 7h 9h 9c 9d Kc Kd Kh 4s 6s"],
        up="5c",
        stock="Qd",
    )
    return play(game, "1 draw stock", "1 discard Qd")


def test_strong_takes_deep_when_the_cards_make_melds_and_basic_does_not() -> None:
    game = deep_pile()
    decision = StrongBot().decide(observe(game, 0))
    assert decision.action == Draw(0, DrawSource.DISCARD, 2), decision.reason
    assert decision.kind == "take_makes"
    basic = BasicBot().choose(observe(game, 0), random.Random(0))
    assert basic == Draw(0, DrawSource.DISCARD) or basic == Draw(0, DrawSource.STOCK)
    assert basic != Draw(0, DrawSource.DISCARD, 2)


def test_strong_lays_its_melds_at_once_for_their_points() -> None:
    game = play(deep_pile(), "0 draw discard 2")
    laid = []
    while game.turn == 0 and not game.deal_over:
        action = StrongBot().decide(observe(game, 0)).action
        game.apply(action)
        if isinstance(action, Meld):
            laid.append(sorted(str(card) for card in action.cards))
        if isinstance(action, Discard):
            break
    assert ["2c", "3c", "4c", "5c"] in laid
    assert ["Qc", "Qd", "Qs"] in laid
    assert game.table_points[0] == 14 + 30


def test_strong_beats_basic_in_a_small_duplicate_match_of_500() -> None:
    config = SimConfig.from_options(["strong", "basic"], games=10, preset="500", seed=13)
    result = run_sim(config)
    strong, basic = result.positions
    assert strong.bot == "strong" and basic.bot == "basic"
    assert strong.games_won > basic.games_won
    assert strong.points_per_deal > basic.points_per_deal
