"""Weigh one decision: what each sensible choice was worth, by playouts from what the seat saw.

The judge searches as the strongest computer player (``JUDGE``) does: it deals the cards its
player could not see as that player's sampler does (weighed by what the other players refused
and threw), plays each candidate forward with its playouts, and compares every candidate with
the choice that was made in the same samples, so that the luck of a sample cancels out of the
difference. It never reads the game: only the seat's observation.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time

from rummykit.bots.expert import PLAYOUT_TURNS, playout_value
from rummykit.bots.master import MasterBot
from rummykit.core.actions import Action
from rummykit.core.observation import Observation

Z95 = 1.96
"""Standard errors either side of a mean that hold its true value 95 times in 100."""

SWITCH_MARGIN = Z95
"""Standard errors by which a rival must beat the choice made to count as better: below
that, the choice made stands as the best, so the noise of a few playouts is not counted as a
loss (with one standard error, strong play lost 10 points a deal in noise alone)."""

JUDGE = MasterBot
"""The computer player whose candidates and playouts judge a decision: the strongest."""

MIN_SAMPLES = 8
"""Samples a decision always gets, even when a time budget has run out."""


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """One choice weighed: its expected gain over the choice made, give or take ``ci95``."""

    action: Action
    gain: float
    ci95: float


@dataclasses.dataclass(frozen=True, slots=True)
class Judgement:
    """What a decision was worth against the best choice found."""

    played: Action
    best: Action
    loss: float
    """Expected points a deal given away by ``played`` against ``best`` (0 when it was best)."""
    loss_ci95: float
    """Half the width of the loss's 95% interval."""
    value: float
    """The expected points of the deal after ``played`` (the player's score less the others'
    average, positive when ahead), by the playouts."""
    options: tuple[Option, ...]
    """Every choice weighed, the one made first (its gain is 0)."""
    samples: int


def candidate_actions(observation: Observation, played: Action) -> list[Action]:
    """The choice made first, then the few the ``JUDGE`` would weigh."""
    found = [played]
    for action in JUDGE().candidates(observation):
        if action not in found:
            found.append(action)
    return found


def judge(
    observation: Observation,
    played: Action,
    *,
    samples: int,
    seed: int,
    budget_ms: float | None = None,
) -> Judgement:
    """Weigh ``played`` against the other sensible choices of the seat of ``observation``.

    Every candidate is played out in the same ``samples`` positions, drawn with
    ``random.Random(seed)``: the same observation, seed and count give the same judgement.
    With ``budget_ms`` the sampling also stops once that time is spent (after at least
    ``MIN_SAMPLES``).
    """
    if observation.seat is None or played not in observation.legal_actions:
        raise ValueError(f"{played} is not a choice of this observation's seat.")
    seat = observation.seat
    rng = random.Random(seed)
    candidates = candidate_actions(observation, played)
    count = len(candidates)
    sums = [0.0] * count
    squares = [0.0] * count
    base = 0.0
    deadline = math.inf if budget_ms is None else time.perf_counter() + budget_ms / 1000
    done = 0
    while done < samples and (done < MIN_SAMPLES or time.perf_counter() < deadline):
        position = JUDGE.sampler(observation, rng)
        values = []
        for action in candidates:
            game = position.clone()
            game.apply_unchecked(action)
            values.append(playout_value(game, seat, PLAYOUT_TURNS, policy=JUDGE.policy))
        base += values[0]
        for index in range(1, count):
            gain = values[index] - values[0]
            sums[index] += gain
            squares[index] += gain * gain
        done += 1
        if count == 1:
            break
    options = []
    for index, action in enumerate(candidates):
        mean = sums[index] / done
        spread = math.sqrt(max(squares[index] / done - mean * mean, 0.0) / max(done - 1, 1))
        options.append(Option(action, mean, Z95 * spread))
    best = options[0]
    for option in options[1:]:
        if option.gain - SWITCH_MARGIN * option.ci95 / Z95 > best.gain:
            best = option
    return Judgement(
        played=played,
        best=best.action,
        loss=best.gain,
        loss_ci95=best.ci95,
        value=base / done,
        options=tuple(options),
        samples=done,
    )
