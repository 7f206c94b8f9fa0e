"""``master``: the expert's search, with sharper playouts.

It searches exactly as ``expert`` does: at each decision it deals the cards it cannot see
at random, plays the strong player's choice and its nearest rivals out to the end of the
deal in every sample, and keeps the strong choice unless a rival beats it by more than the
noise. The one difference is how the sampled deals are played out. The expert's playouts
follow basic play, which throws its dearest loose card even when that card is half a pair;
the master's follow ``sharp_action``, which keeps such partners while it has a card that
belongs to nothing. Its playouts look more like the deals good players play, so the value
of each choice is judged better, at the same cost a playout.

What was tried on the way (racing the candidates, more of them, playouts cut short and
scored by a fitted value) and what each was worth against ``expert`` is in
``benchmarks/README.md``.
"""

from __future__ import annotations

from rummykit.bots.base import register
from rummykit.bots.expert import ExpertBot, Policy, sharp_action


@register("master")
class MasterBot(ExpertBot):
    """Searches as the expert does, judging each choice by sharper playouts."""

    name = "master"
    policy: Policy = staticmethod(sharp_action)
    """Every seat of a sampled position plays it out keeping its partnered cards."""
