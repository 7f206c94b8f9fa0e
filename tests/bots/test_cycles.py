"""A computer player breaks a deal gone round: once the stock has been renewed with nothing
laid since, it throws a card it has not thrown in the deal before (``rummykit.bots.cycles``).

It reads this from its observation alone (``idle_renewals_used`` and its own ``thrown``),
and stays a function of observation and seed.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from helpers import stacked_game
from rummykit.bots import make_bot
from rummykit.bots.cycles import repeated_cards
from rummykit.core.actions import Discard
from rummykit.core.cards import parse_cards
from rummykit.core.observation import Observation, observe
from rummykit.core.presets import find_preset
from rummykit.core.rules import Renew, Rules

HANDS = ["2c 3d 4h 5s 7c 8d 9h Js Qc Kd", "Ac As Ad 5h 6h 7h 9c 9d 9s Kh"]
"""Seat 1 has laid nothing yet; seat 0 holds loose cards only, the king of diamonds dearest."""


def seat_zero_to_discard() -> Observation:
    rules = Rules(renew=Renew.FLIP, renewals=None, empty_stock_choice=False)
    game = stacked_game(rules, HANDS, "2h", stock="Qs 3c", dealer=1)
    game.apply_text("0 draw stock")  # the queen of spades
    return observe(game, 0)


def came_round(observation: Observation, thrown: str, idle: int) -> Observation:
    """The same position, as if seat 0 had thrown ``thrown`` and the stock come round."""
    earlier = (tuple(parse_cards(thrown.split())), *observation.thrown[1:])
    return dataclasses.replace(
        observation, thrown=earlier, renewals_used=idle, idle_renewals_used=idle
    )


def thrown_card(bot: str, observation: Observation) -> str:
    action = make_bot(bot).choose(observation, random.Random(0))
    assert isinstance(action, Discard)
    return str(action.card)


def test_repeated_cards_are_none_until_the_stock_comes_round_with_nothing_laid() -> None:
    thrown = tuple(parse_cards(["Kc", "9d"]))
    standard = find_preset("standard").rules
    assert repeated_cards(standard, 1, 0, thrown) == frozenset()
    assert repeated_cards(standard, 1, 1, thrown) == frozenset(thrown)
    assert repeated_cards(standard, 5, 3, thrown) == frozenset(thrown)


def test_no_cycle_to_break_where_the_pile_is_not_turned_over_again() -> None:
    thrown = tuple(parse_cards(["Kc", "9d"]))
    assert repeated_cards(find_preset("classic").rules, 1, 1, thrown) == frozenset()
    assert repeated_cards(find_preset("party").rules, 2, 2, thrown) == frozenset()  # shuffled


@pytest.mark.parametrize("bot", ["basic", "strong"])
def test_a_bot_throws_the_card_it_would_throw_before_the_stock_comes_round(bot: str) -> None:
    plain = thrown_card(bot, seat_zero_to_discard())
    assert thrown_card(bot, came_round(seat_zero_to_discard(), plain, idle=0)) == plain


@pytest.mark.parametrize("bot", ["basic", "strong"])
def test_a_bot_changes_its_discard_when_the_same_card_would_go_round_again(bot: str) -> None:
    observation = seat_zero_to_discard()
    plain = thrown_card(bot, observation)
    changed = thrown_card(bot, came_round(observation, plain, idle=1))
    assert changed != plain
    assert changed in {str(card) for card in observation.hand}


@pytest.mark.parametrize("bot", ["basic", "strong"])
def test_a_bot_throws_a_repeated_card_only_when_it_holds_no_other(bot: str) -> None:
    observation = seat_zero_to_discard()
    every = " ".join(str(card) for card in observation.hand)
    assert thrown_card(bot, came_round(observation, every, idle=2)) == thrown_card(bot, observation)


@pytest.mark.parametrize("bot", ["basic", "strong"])
def test_breaking_a_cycle_stays_a_function_of_the_observation(bot: str) -> None:
    observation = came_round(seat_zero_to_discard(), "Kd Qs", idle=1)
    assert len({thrown_card(bot, observation) for _ in range(3)}) == 1
