"""Hints: the action a good player would take now, and one sentence of why."""

from __future__ import annotations

import random

from rummykit.bots.expert import ExpertBot
from rummykit.bots.strong import Decision, StrongBot, explain
from rummykit.core.observation import Observation


def hint(observation: Observation, level: str = "strong", seed: int = 0) -> Decision:
    """What ``strong`` (or ``expert``, which searches) would do here, with the reason.

    Raises ``ValueError`` when it is not the observed seat's turn.
    """
    if not observation.is_my_turn:
        raise ValueError("A hint needs the seat whose turn it is.")
    advice = StrongBot().decide(observation)
    if level == "strong":
        return advice
    if level != "expert":
        raise ValueError(f"Hints come from 'strong' or 'expert', not {level!r}.")
    searched = ExpertBot().choose(observation, random.Random(seed))
    if searched == advice.action:
        return advice
    return explain(searched, observation, "searched")
