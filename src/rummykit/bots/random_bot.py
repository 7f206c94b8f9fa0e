"""``random``: a uniformly random legal action (a baseline, not an opponent)."""

from __future__ import annotations

import random

from rummykit.bots.base import register
from rummykit.core.actions import Action
from rummykit.core.observation import Observation


@register("random")
class RandomBot:
    """The ``random`` computer player: its ``description`` says how it plays."""

    name = "random"
    description = "Picks any legal action with equal chance."

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(observation.legal_actions)
