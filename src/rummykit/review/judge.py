"""Weigh one decision: what each sensible choice was worth, by playouts from what the seat saw.

The judge searches as the strongest computer player (``JUDGE``) does: it deals the cards its
player could not see as that player's sampler does (weighed by what the other players refused
and threw), plays each candidate forward with its playouts, and compares every candidate with
the choice that was made in the same samples, so that the luck of a sample cancels out of the
difference. It never reads the game: only the seat's observation.

A choice whose outcome is settled within the turn (going out, or a discard the next player is
certain to go out on: ``settled``) is not played out by a policy: in each sample its best
going out is searched and counted, so its difference with the choice made carries no noise
of play, only what the hidden hands would have counted.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Iterable

from rummykit.bots.expert import PLAYOUT_TURNS
from rummykit.bots.master import MasterBot
from rummykit.bots.playout import playout_value
from rummykit.core.actions import Action
from rummykit.core.observation import Observation
from rummykit.review.settled import settled_values

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
    exact: bool = False
    """Whether the outcome of ``best`` or of ``played`` (when they differ) is settled within
    the turn: a way to go out, or a discard the next player certainly goes out on. Its play is
    certain, so a mark is given on the loss itself, with nothing taken off for noise."""


def candidate_actions(
    observation: Observation,
    played: Action,
    settled: Iterable[Action] = (),
    every_choice: bool = False,
) -> list[Action]:
    """The choice made first, the few the ``JUDGE`` would weigh, then the ``settled`` ones.

    With ``every_choice``, every legal action of the seat instead of the ``JUDGE``'s few.
    """
    found = [played]
    weighed = observation.legal_actions if every_choice else JUDGE().candidates(observation)
    for action in [*weighed, *settled]:
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
    every_choice: bool = False,
) -> Judgement:
    """Weigh ``played`` against the other sensible choices of the seat of ``observation``.

    Every candidate is played out in the same ``samples`` positions, drawn with
    ``random.Random(seed)``: the same observation, seed and count give the same judgement.
    With ``budget_ms`` the sampling also stops once that time is spent (after at least
    ``MIN_SAMPLES``). With ``every_choice`` every legal action is weighed, not only the
    ``JUDGE``'s candidates (slower: for a search that must miss no equal choice).
    """
    if observation.seat is None or played not in observation.legal_actions:
        raise ValueError(f"{played} is not a choice of this observation's seat.")
    seat = observation.seat
    rng = random.Random(seed)
    position = JUDGE.sampler(observation, rng)
    # settled or not is the same in every sample (it rests on seen cards only): ask the first
    settled = list(settled_values(position, seat))
    candidates = candidate_actions(observation, played, settled, every_choice)
    count = len(candidates)
    sums = [0.0] * count
    squares = [0.0] * count
    base = 0.0
    deadline = math.inf if budget_ms is None else time.perf_counter() + budget_ms / 1000
    done = 0
    while done < samples and (done < MIN_SAMPLES or time.perf_counter() < deadline):
        if done:
            position = JUDGE.sampler(observation, rng)
        counted = settled_values(position, seat, settled) if settled else {}
        values = []
        for action in candidates:
            value = counted.get(action)
            if value is None:
                game = position.clone()
                game.apply_unchecked(action)
                value = playout_value(game, seat, PLAYOUT_TURNS, policy=JUDGE.policy)
            values.append(value)
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
        exact=best.action in settled or (best.action != played and played in settled),
    )
