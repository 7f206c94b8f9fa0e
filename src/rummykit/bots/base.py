"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from rummykit.core.actions import Action
from rummykit.core.observation import Observation


class Bot(Protocol):
    """A computer player: given a seat's observation and a random source, it picks an action.

    A bot sees only the observation, never the game. For a given ``rng`` state and sample
    budget it always makes the same choice: a bot that searches to the clock (``expert`` by
    default) depends on the machine's speed too, so it takes a fixed number of samples
    instead where a run must be reproducible (``ExpertBot(samples=N)``).
    """

    name: str
    description: str
    """One sentence for players: how it plays (``rummy bots`` lists it). A class attribute, not
    the docstring: the compiled build (mypyc) keeps no docstrings."""

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """One of ``observation.legal_actions``."""
        ...


BOTS: dict[str, Callable[[], Bot]] = {}
"""Bot factories by name; filled by the bot modules."""


def register(name: str) -> Callable[[Callable[[], Bot]], Callable[[], Bot]]:
    """A decorator that registers a bot factory under ``name``."""

    def add(factory: Callable[[], Bot]) -> Callable[[], Bot]:
        BOTS[name] = factory
        return factory

    return add


def make_bot(name: str) -> Bot:
    """A new bot of the given name; ``KeyError`` with the choices if there is none."""
    try:
        return BOTS[name]()
    except KeyError:
        raise KeyError(f"Unknown bot {name!r}: choose one of {', '.join(sorted(BOTS))}.") from None
