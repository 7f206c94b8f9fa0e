"""Helpers for the bot tests: random legal rules, deals played by bots, hidden cards.

Every action a bot picks is applied with the checked ``GameState.apply``, so an illegal
choice raises ``IllegalActionError`` and fails the test that played it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from helpers import random_rules
from rummykit.bots.base import Bot
from rummykit.core.cards import Card
from rummykit.core.observation import observe
from rummykit.core.state import GameState

ACTION_CAP = 3000
"""Actions after which a deal is cut short: under unlimited renewals two bots can pass the
same cards round for ever, while a normal deal takes well under 300 actions."""


def random_game(seed: int, seats: int, **fixed: Any) -> tuple[GameState, random.Random]:
    """A dealt single-deal game under random rules, and the rng that goes on from its seed."""
    rng = random.Random(seed)
    rules = random_rules(rng, seats, **fixed)
    game = GameState.new(rules, seats, dealer=rng.randrange(seats), seed=rng.randrange(2**32))
    return game, rng


def positions(
    game: GameState, bots: Sequence[Bot], rng: random.Random, cap: int = ACTION_CAP
) -> Iterator[GameState]:
    """Play the deal with ``bots`` (one a seat), yielding the game before every action.

    Each bot sees only ``observe(game, seat)``; its choice must be one of the observation's
    legal actions and is applied with the checked ``apply``. The caller must not change the
    yielded game. Stops when the deal is over or after ``cap`` actions.
    """
    for _ in range(cap):
        if game.deal_over:
            return
        yield game
        seat = game.turn
        view = observe(game, seat)
        action = bots[seat].choose(view, rng)
        assert action in view.legal_actions, f"{bots[seat].name} chose {action}, not offered"
        game.apply(action)


def play_deal(
    game: GameState, bots: Sequence[Bot], rng: random.Random, cap: int = ACTION_CAP
) -> bool:
    """Play the deal out with ``bots``; whether it ended within ``cap`` actions."""
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
