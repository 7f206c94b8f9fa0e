"""``expert``: searches by sampling what it cannot see and playing each choice out.

At each decision it draws positions consistent with its observation (the unseen cards dealt
at random to the other hands and the stock, the cards others took from the pile kept in their
hands), plays each candidate action forward in every sampled position with a quick greedy
policy, and picks the candidate with the best average result. The same samples serve every
candidate, so their comparison is fair. It stops when its time budget runs out (anytime) and
is reproducible for a given rng when run to a fixed number of samples.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from rummykit.bots.base import register
from rummykit.bots.basic import BasicBot
from rummykit.bots.equity import points_outcome
from rummykit.bots.evaluate import evaluate, live_cards
from rummykit.bots.playout import Outcome, Policy, greedy_action, playout_value
from rummykit.bots.strong import StrongBot
from rummykit.core.actions import Action, Discard, Draw, Knock, Meld
from rummykit.core.determinize import sample_position
from rummykit.core.observation import Observation
from rummykit.core.state import GameState, Phase

DEFAULT_BUDGET_MS = 200.0
"""Thinking time a decision: long enough for a few dozen playouts, short enough to feel
like a person at the table."""

PLAYOUT_TURNS = 30
"""Turns a playout goes on per seat before the hands are scored as they stand: enough for
nearly every deal to end, since who goes out and what is caught decides the points. Cut at 6
turns, the expert won 54% of 300 single deals against ``strong``; played out, 59.5% of 200."""

MAX_SAMPLES = 64
"""Samples after which the expert stops thinking: it answers in about half its time."""

SWITCH_MARGIN = 1.0
"""Standard errors by which a rival must beat the strong choice: a search on few samples
otherwise trades a good move for noise."""

ALTERNATIVE_DISCARDS = 3
"""Discards besides the strong player's choice that the search weighs."""

STALL_TURNS = 100
"""Turns after which a searcher draws as basic play does (the stock unless the top discard
completes a meld). A deal between sensible players takes about 22 turns; near an empty
stock two searchers can otherwise pass the same cards through the pile for ever, each
preferring the pile to the stock (seen between ``master`` and ``expert`` on one sample)."""


Sampler = Callable[[Observation, random.Random], GameState]
"""How the positions searched are drawn: one full position consistent with the observation."""


@register("expert")
class ExpertBot:
    """The ``expert`` computer player: its ``description`` says how it plays."""

    name = "expert"
    description = (
        "Searches: samples the hidden cards, plays each choice out, keeps the best on average."
    )
    policy: Policy = staticmethod(greedy_action)
    """How the sampled positions are played out: basic play, for every seat."""
    sampler: Sampler = staticmethod(sample_position)
    """How the positions are drawn: the unseen cards dealt uniformly."""
    outcome: Outcome = staticmethod(points_outcome)
    """How a playout is scored: the deal's points, this seat's less the others'."""
    playout_turns: int = PLAYOUT_TURNS
    """Turns a seat a playout goes on for before the hands are scored as they stand."""
    max_samples: int = MAX_SAMPLES
    """Samples after which it answers without waiting for its time to run out."""

    def __init__(self, budget_ms: float = DEFAULT_BUDGET_MS, samples: int | None = None):
        """A searcher with a time budget a decision, or a fixed sample budget.

        With ``samples`` set the clock plays no part: ``budget_ms`` is ignored, every
        decision plays out exactly that many samples, and the same rng gives the same choice
        on any machine.
        """
        if samples is not None and samples < 1:
            raise ValueError(f"The expert needs at least one sample a decision, not {samples}.")
        self.budget_ms = budget_ms
        self.samples = samples
        self._strong = StrongBot()

    def candidates(self, observation: Observation) -> list[Action]:
        """The few actions worth searching: the strong player's and its nearest rivals."""
        legal = observation.legal_actions
        first = self._strong.decide(observation).action
        found: list[Action] = [first]
        if isinstance(first, Draw):
            found.extend(action for action in legal if isinstance(action, Draw))
        else:
            discards = [action for action in legal if isinstance(action, Discard)]
            live = live_cards(observation)
            ranked = []
            for discard in discards:
                rest = list(observation.hand)
                rest.remove(discard.card)
                ranked.append((evaluate(rest, live, observation.rules).score, discard))
            ranked.sort(key=lambda entry: (entry[0], str(entry[1])))
            found.extend(action for _, action in ranked[:ALTERNATIVE_DISCARDS])
            melds = [action for action in legal if isinstance(action, Meld)]
            if melds and not isinstance(first, Meld):
                found.append(melds[-1])
            if isinstance(first, Discard | Knock):  # knock rummy: knock, or not, with it
                other: Action = Discard(first.seat, first.card)
                if isinstance(first, Discard):
                    other = Knock(first.seat, first.card)
                if other in legal:
                    found.append(other)
        unique: list[Action] = []
        for action in found:
            if action not in unique:
                unique.append(action)
        return unique

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """The candidate with the best average playout, within the time budget."""
        if observation.turn_number > STALL_TURNS and observation.phase is Phase.DRAW:
            return BasicBot().choose(observation, rng)
        candidates = self.candidates(observation)
        if len(candidates) == 1:
            return candidates[0]
        seat = observation.seat if observation.seat is not None else observation.turn
        count = len(candidates)
        # Each rival is judged by its difference to the strong choice in the same samples:
        # the luck of a sample cancels out of the difference.
        gains = [0.0] * count
        squares = [0.0] * count
        start = time.perf_counter()
        budget = self.budget_ms / 1000
        limit = self.samples if self.samples is not None else self.max_samples
        timed = self.samples is None
        done = 0
        while done < limit:
            if timed and done and time.perf_counter() >= start + budget:
                break
            position = self.sampler(observation, rng)
            values: list[float] = []
            for index, action in enumerate(candidates):
                game = position.clone()
                game.apply_unchecked(action)
                # The first sample shares the budget out; a later one is dropped if time
                # runs out half-way, so every candidate is judged on the same samples.
                stop = start + budget * (index + 1) / count if not done else start + budget
                deadline = stop if timed else _NEVER
                values.append(
                    playout_value(
                        game, seat, self.playout_turns, deadline, self.policy, self.outcome
                    )
                )
                if timed and done and time.perf_counter() >= start + budget:
                    break
            if len(values) < count:
                break
            for index in range(1, count):
                gain = values[index] - values[0]
                gains[index] += gain
                squares[index] += gain * gain
            done += 1
        return candidates[_best_index(gains, squares, done)]


_NEVER = float("inf")


def _best_index(gains: list[float], squares: list[float], samples: int) -> int:
    """The strong choice (index 0) unless a rival beats it by more than the noise."""
    best, best_gain = 0, 0.0
    for index in range(1, len(gains)):
        mean = gains[index] / samples
        spread = max(squares[index] / samples - mean * mean, 0.0) ** 0.5
        if mean > best_gain + SWITCH_MARGIN * spread / samples**0.5:
            best, best_gain = index, mean
    return best
