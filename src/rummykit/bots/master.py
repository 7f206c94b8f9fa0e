"""``master``: the expert's search with shorter playouts scored by a fitted value, raced.

Like ``expert`` it samples positions consistent with its observation (the hidden cards dealt
at random), plays each candidate forward in every sample with basic play, and keeps the
strong player's choice unless a rival beats it by more than the noise. It differs in how it
spends its time budget:

- Its playouts stop after a couple of turns a seat and the position reached is scored by a
  value fitted to where such positions end (``rummykit.bots.deal_value``, shipped in
  ``deal_value.json`` and made by ``python -m rummykit.bots.deal_value_fit``): several times
  the samples of a playout to the end of the deal, each with less noise. Under rules the
  value was not fitted for, it plays to the end of the deal as the expert does.
- It races its candidates: every ``RACE_EVERY`` samples, one whose average trails the
  leader's by more than ``RACE_DROP`` standard errors of their paired difference is
  dropped, so the samples left go to the close contenders.
- All candidates still in the race are played on the same samples, so their differences
  are paired and the luck of a sample cancels out of them.

It searches to a time budget (``DEFAULT_BUDGET_MS``, the expert's) or to a fixed sample
count, which makes it reproducible for a given rng on any machine. What each part is worth
against ``expert`` is in ``benchmarks/README.md``.
"""

from __future__ import annotations

import random
import time

from rummykit.bots import deal_value
from rummykit.bots.base import register
from rummykit.bots.basic import BasicBot
from rummykit.bots.deal_value import DealValue
from rummykit.bots.evaluate import evaluate, live_cards
from rummykit.bots.expert import (
    ALTERNATIVE_DISCARDS,
    DEFAULT_BUDGET_MS,
    PLAYOUT_TURNS,
    greedy_action,
    playout_value,
)
from rummykit.bots.strong import StrongBot
from rummykit.core.actions import Action, Discard, Draw, Knock, LayOff, Meld
from rummykit.core.determinize import sample_position
from rummykit.core.observation import Observation
from rummykit.core.state import GameState, Phase

MAX_CANDIDATES = 5
"""Candidates at most a decision, the strong player's choice first. Screened at 100 ms
against ``expert`` (80 single deals each, benchmarks/README.md): eight candidates did no
better than five, and every extra candidate costs a playout of each sample."""

RACE_EVERY = 6
"""Samples between two cuts of the race: fewer, and a candidate is dropped on noise."""

RACE_DROP = 2.0
"""Standard errors of the paired difference by which a candidate must trail the leader to
be dropped from the race."""

SWITCH_MARGIN = 1.0
"""Standard errors by which a rival must beat the strong choice at the end, as for the
expert: at 0.5, with eight candidates, the search traded good moves for noise (39% of 200
single deals against ``expert`` at 50 ms)."""

CUT_PLAYOUTS = False
"""Whether playouts stop after the value's ``cut_turns`` and score with the fitted value
(where it fits the rules), rather than play every deal out. Off: in screens at 100 ms
against ``expert`` the cut won about as many single deals but fewer points a deal in every
run (benchmarks/README.md), and games to 100 are won on points."""

STALL_TURNS = 100
"""Turns after which the master draws as basic play does (the stock unless the top discard
completes a meld). A deal between sensible players takes about 22 turns; near an empty
stock two searchers can otherwise pass the same three cards through the pile for ever, each
preferring the pile to the stock (seen between ``master`` and ``expert`` on one sample)."""

MAX_SAMPLES = 200
"""Samples after which more thinking changes little: stop early (a race between two close
candidates would otherwise use the whole budget on a difference that hardly matters)."""


@register("master")
class MasterBot:
    """Searches as the expert does, racing its candidates so the samples go to the close ones."""

    name = "master"

    def __init__(self, budget_ms: float = DEFAULT_BUDGET_MS, samples: int | None = None):
        """A searcher with a time budget a decision, or a fixed sample budget.

        With ``samples`` set the clock plays no part: ``budget_ms`` is ignored, every
        decision plays out exactly that many samples (fewer candidates as the race goes on),
        and the same rng gives the same choice on any machine.
        """
        if samples is not None and samples < 1:
            raise ValueError(f"The master needs at least one sample a decision, not {samples}.")
        self.budget_ms = budget_ms
        self.samples = samples
        self._strong = StrongBot()

    def candidates(self, observation: Observation) -> list[Action]:
        """The actions worth searching: the strong player's first, then its rivals."""
        legal = observation.legal_actions
        first = self._strong.decide(observation).action
        found: list[Action] = [first]
        if isinstance(first, Draw):
            found.extend(action for action in legal if isinstance(action, Draw))
        else:
            live = live_cards(observation)
            ranked = []
            for action in legal:
                if isinstance(action, Discard | Knock):
                    rest = list(observation.hand)
                    rest.remove(action.card)
                    ranked.append((evaluate(rest, live, observation.rules).score, action))
            ranked.sort(key=lambda entry: (entry[0], str(entry[1])))
            # The best discards first, as the expert weighs them, then the melds and lay-offs
            # the strong player did not choose, then the other discards, while room is left.
            found.extend(action for _, action in ranked[:ALTERNATIVE_DISCARDS])
            found.extend(action for action in legal if isinstance(action, Meld | LayOff))
            found.extend(action for _, action in ranked[ALTERNATIVE_DISCARDS:])
        unique: list[Action] = []
        for action in found:
            if action not in unique:
                unique.append(action)
        return unique[:MAX_CANDIDATES]

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """The candidate with the best average playout, within the budget."""
        if observation.turn_number > STALL_TURNS and observation.phase is Phase.DRAW:
            return BasicBot().choose(observation, rng)
        candidates = self.candidates(observation)
        if len(candidates) == 1:
            return candidates[0]
        seat = observation.seat if observation.seat is not None else observation.turn
        timed = self.samples is None
        start = time.perf_counter()
        end = start + self.budget_ms / 1000 if timed else _NEVER
        limit = self.samples if self.samples is not None else MAX_SAMPLES
        race = _Race(len(candidates))
        value = deal_value.shipped_value() if CUT_PLAYOUTS else None
        if value is not None and not value.fits(observation.rules, observation.seat_count):
            value = None
        while race.samples < limit:
            if timed and race.samples and time.perf_counter() >= end:
                break
            position = sample_position(observation, rng)
            alive = race.alive
            values: list[float] = []
            for order, index in enumerate(alive):
                game = position.clone()
                game.apply_unchecked(candidates[index])
                # The first sample shares the budget out; a later one is dropped if time
                # runs out half-way, so every candidate is judged on the same samples.
                stop = end
                if timed and not race.samples:
                    stop = start + (end - start) * (order + 1) / len(alive)
                values.append(_playout(game, seat, stop, value))
                if timed and race.samples and time.perf_counter() >= end:
                    break
            if len(values) < len(alive):
                break
            race.add(values)
            if race.samples % RACE_EVERY == 0:
                race.cut()
        return candidates[race.best()]


_NEVER = float("inf")


def _playout(game: GameState, seat: int, deadline: float, value: DealValue | None) -> float:
    """Play ``game`` out with basic play and score it for ``seat``.

    Without ``value``, to the end of the deal as the expert does; with it, for
    ``value.cut_turns`` turns a seat, and the position reached is scored by ``value``.
    """
    if value is None:
        return playout_value(game, seat, PLAYOUT_TURNS, deadline)
    limit = game.turn_number + value.cut_turns * game.seat_count
    while not game.deal_over and game.turn_number <= limit:
        if time.perf_counter() >= deadline:
            break
        game.apply_unchecked(greedy_action(game))
    if game.deal_over:
        return playout_value(game, seat, 0)
    return value.value(game, seat)


class _Race:
    """Playout values of candidates on shared samples, and the cuts between them."""

    def __init__(self, count: int) -> None:
        self.alive = list(range(count))
        self.values: list[list[float]] = [[] for _ in range(count)]
        self.samples = 0

    def add(self, values: list[float]) -> None:
        """One sample's values, one for each candidate still in the race, in its order."""
        for index, value in zip(self.alive, values, strict=True):
            self.values[index].append(value)
        self.samples += 1

    def cut(self) -> None:
        """Drop every candidate that trails the leader beyond the noise."""
        self.alive = race_candidates(self.values, self.alive)

    def best(self) -> int:
        """The strong choice (index 0) unless a rival in the race beats it beyond the noise."""
        if not self.samples:
            return 0
        leader = _leader(self.values, self.alive)
        if leader == 0:
            return 0
        mean, error = paired_difference(self.values[leader], self.values[0])
        return leader if mean > SWITCH_MARGIN * error else 0


def paired_difference(first: list[float], second: list[float]) -> tuple[float, float]:
    """The mean of ``first`` less ``second`` on the samples both have, and its standard error.

    Both lists start at the race's first sample; a candidate dropped since has the first
    samples only, so the pair is compared on those.
    """
    count = min(len(first), len(second))
    if not count:
        return 0.0, 0.0
    differences = [a - b for a, b in zip(first[:count], second[:count], strict=True)]
    mean = sum(differences) / count
    spread = max(sum(d * d for d in differences) / count - mean * mean, 0.0) ** 0.5
    return mean, spread / count**0.5


def race_candidates(values: list[list[float]], alive: list[int]) -> list[int]:
    """The candidates of ``alive`` that stay in the race, in order.

    ``values[index]`` holds candidate ``index``'s playout values, sample by sample. A
    candidate is dropped when the leader (the best average) beats it by more than
    ``RACE_DROP`` standard errors of their paired difference; the strong choice, index 0,
    is never dropped.
    """
    leader = _leader(values, alive)
    kept = []
    for index in alive:
        mean, error = paired_difference(values[leader], values[index])
        # The strong choice (index 0) stays: a rival must still beat it by the switch margin
        # at the end, and a cut on a handful of samples would otherwise skip that test.
        if index in (0, leader) or mean <= RACE_DROP * error:
            kept.append(index)
    return kept


def _leader(values: list[list[float]], alive: list[int]) -> int:
    """The candidate of ``alive`` with the best average (the first of equals)."""
    return max(alive, key=lambda index: (_mean(values[index]), -index))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("-inf")
