"""Helpers for the bot tests: random legal rules, deals played by bots, hidden cards.

Deals are played by the game loop of ``rummykit.bots.play``: every action a bot picks is
applied with the checked ``GameState.apply``, so an illegal choice raises
``IllegalActionError`` and fails the test that played it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from helpers import random_rules
from rummykit.bots.base import Bot
from rummykit.bots.play import DEAL_ACTION_CAP, play_deal
from rummykit.core.cards import Card
from rummykit.core.state import GameState


def random_game(seed: int, seats: int, **fixed: Any) -> tuple[GameState, random.Random]:
    """A dealt single-deal game under random rules, and the rng that goes on from its seed."""
    rng = random.Random(seed)
    rules = random_rules(rng, seats, **fixed)
    game = GameState.new(rules, seats, dealer=rng.randrange(seats), seed=rng.randrange(2**32))
    return game, rng


def positions(
    game: GameState, bots: Sequence[Bot], rng: random.Random, cap: int = DEAL_ACTION_CAP
) -> Iterator[GameState]:
    """Play the deal with ``bots`` (one a seat, sharing ``rng``), yielding the game before
    every action.

    The deal is played by ``rummykit.bots.play.play_deal``; on top of its checked ``apply``,
    each choice must be one of the observation's legal actions (the same action in other
    notation would pass ``apply``). The caller must not change the yielded game.
    """
    for choice in play_deal(game, bots, [rng] * len(bots), cap):
        offered = choice.observation.legal_actions
        assert choice.action in offered, f"{bots[choice.seat].name} chose {choice.action}"
        yield game


def play_deal_checked(
    game: GameState, bots: Sequence[Bot], rng: random.Random, cap: int = DEAL_ACTION_CAP
) -> bool:
    """Play the deal out as ``positions`` does; whether it ended within ``cap`` actions."""
    for _ in positions(game, bots, rng, cap):
        pass
    return game.deal_over


def hidden_from(game: GameState, seat: int) -> Counter[Card]:
    """The cards ``seat`` cannot see now: the stock, and what the others hold unseen."""
    hidden = Counter(game.stock)
    for other, hand in enumerate(game.hands):
        if other != seat:
            hidden.update(Counter(hand) - Counter(game.known[other]))
    return hidden


def reshuffle_hidden(game: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``game`` with the cards ``seat`` cannot see dealt out again at random.

    The other hands keep their sizes and the cards they took from the pile; the stock keeps
    its size. For ``seat`` the two positions are indistinguishable.
    """
    copy = game.clone()
    pool = sorted(hidden_from(game, seat).elements())
    rng.shuffle(pool)
    for other, hand in enumerate(game.hands):
        if other == seat:
            continue
        kept = list(game.known[other])
        missing = len(hand) - len(kept)
        copy.hands[other] = kept + pool[:missing]
        del pool[:missing]
    copy.deal.stock = pool
    return copy
