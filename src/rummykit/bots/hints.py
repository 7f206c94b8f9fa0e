"""Hints: the action a good player would take now, and one sentence of why."""

from __future__ import annotations

import random
from typing import Final

from rummykit.bots.expert import ExpertBot
from rummykit.bots.master import MasterBot
from rummykit.bots.strong import Decision, StrongBot, explain
from rummykit.core.observation import Observation

HINT_LEVELS: Final = ("strong", "expert", "master")
"""The players a hint can come from: ``strong``, and the levels that search beyond it."""


def hint(observation: Observation, level: str = "strong", seed: int = 0) -> Decision:
    """What ``strong`` (or ``expert`` or ``master``, which search) would do here, and why.

    Raises ``ValueError`` when it is not the observed seat's turn.
    """
    if not observation.is_my_turn:
        raise ValueError("A hint needs the seat whose turn it is.")
    advice = StrongBot().decide(observation)
    if level == "strong":
        return advice
    if level not in HINT_LEVELS:
        raise ValueError(f"Hints come from 'strong', 'expert' or 'master', not {level!r}.")
    searcher = ExpertBot() if level == "expert" else MasterBot()
    searched = searcher.choose(observation, random.Random(seed))
    if searched == advice.action:
        return advice
    return explain(searched, observation, "searched")
