"""``master``: the expert's search, reading the other hands and playing them out sharper.

It searches exactly as ``expert`` does: at each decision it deals the cards it cannot see,
plays the strong player's choice and its nearest rivals out to the end of the deal in every
sample, and keeps the strong choice unless a rival beats it by more than the noise. Three
things differ:

- **Where it thinks the cards are.** The expert deals the unseen cards uniformly. The master
  weighs each deal by how well the other hands explain what their players refused from the
  pile and threw (``inferred_position``): a player who left a card lying seldom had the two
  cards it would have made a meld with.
- **How the sampled deals are played out.** The expert's playouts follow basic play, which
  throws its dearest loose card even when that card is half a pair; the master's follow
  ``sharp_action``, which keeps such partners while it has a card that belongs to nothing.
- **What a playout is worth.** The expert counts a deal's points; the master, in a
  two-player game to a target, counts its chance to win the game after the deal
  (``game_outcome``): ten points matter more to a player who needs ten than to one who
  needs ninety, and when the other player is close to the target, going out first matters
  more than what it is worth.

What was tried on the way (racing the candidates, more of them, playouts cut short and
scored by a fitted value) and what each was worth against ``expert`` is in
``benchmarks/README.md``.
"""

from __future__ import annotations

from rummykit.bots.base import register
from rummykit.bots.equity import game_outcome
from rummykit.bots.expert import ExpertBot, Sampler
from rummykit.bots.inference import inferred_position
from rummykit.bots.playout import Outcome, Policy, sharp_action

MASTER_MAX_SAMPLES = 1024
"""Samples after which the master answers. Under its 200 ms it plays out about 160 (the
engine compiled, two cores): it spends the time the expert leaves unused on more samples,
so a rival must beat the strong choice by less to be chosen (``SWITCH_MARGIN`` standard
errors of a smaller error)."""


@register("master")
class MasterBot(ExpertBot):
    """The ``master`` computer player: its ``description`` says how it plays."""

    name = "master"
    description = (
        "Searches as the expert does, in likelier positions, by sharper playouts, for the game."
    )
    policy: Policy = staticmethod(sharp_action)
    """Every seat of a sampled position plays it out keeping its partnered cards."""
    sampler: Sampler = staticmethod(inferred_position)
    """The unseen cards dealt as the other players' refusals and discards suggest."""
    outcome: Outcome = staticmethod(game_outcome)
    """A playout scored by the chance to win the game after it (points where not modelled)."""
    max_samples: int = MASTER_MAX_SAMPLES
    """It thinks for its whole time (the cap only bounds a very fast machine)."""
