"""Every bot plays Boathouse, and two-deck tables of every size, with legal actions only.

Single-deal games under the ``boathouse`` preset with two decks (so that seven and eight seats
may sit), and under random rules with two decks and deep takes without a duty, at every seat
count from 2 to 8. Each choice must be among the observation's legal actions and is applied
with the checked ``apply`` (``bot_games.play_deal_checked``).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot_games import play_deal_checked, positions, random_game
from rummykit.bots import ExpertBot, MasterBot, make_bot
from rummykit.bots.base import Bot
from rummykit.bots.play import DEAL_ACTION_CAP
from rummykit.bots.strong import stock_card_cost
from rummykit.core.deal import DealResult
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.rules import MAX_SEATS, MIN_SEATS
from rummykit.core.state import GameState, Phase

pytestmark = pytest.mark.heavy

SEAT_COUNTS = tuple(range(MIN_SEATS, MAX_SEATS + 1))
GAMES_PER_SEAT_COUNT = 4
"""A few games at each of the seven seat counts: the random-rules games of test_legal_play
cover the rule combinations; these cover Boathouse's own and the big two-deck tables."""

BOTS = ("random", "basic", "strong", "expert", "master")


class ShortSightedExpert(ExpertBot):
    """The expert with short playouts: under whole-hand melding with deep takes free, a
    two-deck hand may grow past thirty cards while nobody goes out, and each playout step
    then weighs every split of it; full-length playouts would take minutes a game."""

    playout_turns = 4


def bot_named(name: str) -> Bot:
    """The bot; a searcher with a fixed, small sample budget so that the run is repeatable."""
    if name == "expert":
        return ShortSightedExpert(samples=2)
    if name == "master":
        return MasterBot(samples=1)
    return make_bot(name)


def boathouse_game(seed: int, seats: int) -> GameState:
    rules = find_preset("boathouse").rules.replace(decks=2, deals=1)
    return GameState.new(rules, seats, dealer=seed % seats, seed=seed)


def check_ends(game: GameState, bots: list[Bot], rng: random.Random) -> None:
    ended = play_deal_checked(game, bots, rng, cap=DEAL_ACTION_CAP)
    if ended:
        assert game.game_over
        last = game.summaries[-1]
        if last.result in (DealResult.OUT, DealResult.RUMMY):  # not a knock's winner
            assert last.winner is not None and not game.hands[last.winner]


@pytest.mark.parametrize("seats", SEAT_COUNTS)
@pytest.mark.parametrize("name", BOTS)
def test_bot_plays_boathouse_with_two_decks_legally(name: str, seats: int) -> None:
    ended = 0
    for number in range(GAMES_PER_SEAT_COUNT):
        game = boathouse_game(100 * seats + number, seats)
        bots = [make_bot("strong")] * seats
        bots[number % seats] = bot_named(name)
        check_ends(game, bots, random.Random(number))
        ended += game.deal_over
    assert ended >= GAMES_PER_SEAT_COUNT - 1, "nearly every Boathouse deal ends within the cap"


@pytest.mark.parametrize("seats", SEAT_COUNTS)
@pytest.mark.parametrize("name", BOTS)
def test_bot_plays_free_deep_takes_with_two_decks_legally(name: str, seats: int) -> None:
    for number in range(GAMES_PER_SEAT_COUNT):
        game, rng = random_game(
            seed=7000 + 100 * seats + number,
            seats=seats,
            decks=2,
            discard_take="any",
            deep_take_must_use=False,
        )
        bots = [make_bot("strong")] * seats
        bots[number % seats] = bot_named(name)
        check_ends(game, bots, rng)


def test_a_bots_take_from_the_pile_in_boathouse_brings_the_stock_card_too() -> None:
    # ``basic`` takes a discard that completes a meld: somewhere in these deals it does, and
    # the turn then holds the stock's top card as well (seen between its actions).
    brought = 0
    for seed in range(20):
        game = boathouse_game(seed, 3)
        bots = [make_bot("basic")] * 3
        for position in positions(game, bots, random.Random(seed)):
            extra = position.deal.stock_extra
            if extra is not None:
                assert position.phase is Phase.PLAY  # a take's stock card is told of in its turn
                brought += 1
        if brought:
            break
    assert brought


def test_strong_counts_the_unseen_stock_card_of_a_boathouse_take_against_it() -> None:
    # The expected cost is the average cost of a card not yet seen: about 6.5 points in a
    # fresh one-deck deal (aces 1, faces 10); nothing without the rule.
    boathouse = GameState.new(find_preset("boathouse").rules, 3, seed=5)
    view = observe(boathouse, boathouse.turn)
    cost = stock_card_cost(view)
    assert 5.0 < cost < 8.0
    standard = GameState.new(find_preset("standard").rules, 3, seed=5)
    assert stock_card_cost(observe(standard, standard.turn)) == 0.0
    assert stock_card_cost(dataclasses.replace(view, stock_count=0)) == 0.0
