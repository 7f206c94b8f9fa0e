"""The judge of one decision, and the marks: on positions of random games and rules.

A judgement is reproducible from the observation and the seed, never calls the choice made a
loss, keeps the choice made when nothing beats it by more than the noise, and marks only a
loss it is sure of. Both directions of each mark's threshold are tested.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rummykit.bots.play import play_deal
from rummykit.bots.random_bot import RandomBot
from rummykit.core.actions import Action
from rummykit.core.observation import Observation
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState
from rummykit.review.judge import judge
from rummykit.review.marks import MARKS, Mark, mark_for

pytestmark = pytest.mark.timeout(120)


def position(seed: int, actions: int, preset: str = "classic") -> tuple[Observation, Action]:
    """A seat to act with a choice, after ``actions`` random actions: its view and a choice."""
    rng = random.Random(seed)
    game = GameState(find_preset(preset).rules, 2 + seed % 3, dealer=0, seed=seed)
    game.start_deal(seed=seed)
    bots = [RandomBot()] * game.seat_count
    found = None
    for index, choice in enumerate(play_deal(game, bots, [rng] * game.seat_count)):
        if len(choice.observation.legal_actions) > 1:
            found = choice.observation, choice.action  # the last choice, if the deal ends early
            if index >= actions:
                break
    assert found is not None, "the deal ended before any choice"
    return found


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    actions=st.integers(0, 20),
    preset=st.sampled_from(["classic", "standard", "knock", "500", "boathouse"]),
)
@example(seed=83, actions=18, preset="500")  # one sensible choice only: one sample
def test_a_judgement_weighs_legal_choices_and_never_calls_the_best_a_loss(
    seed: int, actions: int, preset: str
) -> None:
    observation, played = position(seed, actions, preset)
    judged = judge(observation, played, samples=4, seed=seed)
    assert judged.played == played == judged.options[0].action
    assert judged.options[0].gain == 0 and judged.options[0].ci95 == 0
    assert {option.action for option in judged.options} <= set(observation.legal_actions)
    assert judged.best in {option.action for option in judged.options}
    assert judged.loss >= 0 and judged.loss_ci95 >= 0
    # a choice with no other to weigh it against is not played out more than once
    assert judged.samples == (4 if len(judged.options) > 1 else 1)
    if judged.best == played:
        assert judged.loss == 0
    else:  # a rival is better only by more than its 95% interval
        assert judged.loss > judged.loss_ci95
    assert judge(observation, played, samples=4, seed=seed) == judged  # reproducible


def test_a_choice_that_is_not_legal_is_refused() -> None:
    observation, played = position(3, 4)
    someone_else = dataclasses.replace(played, seat=(played.seat + 1) % observation.seat_count)
    with pytest.raises(ValueError, match="is not a choice"):
        judge(observation, someone_else, samples=1, seed=0)
    with pytest.raises(ValueError, match="is not a choice"):
        judge(observe_spectator(observation), played, samples=1, seed=0)


def observe_spectator(observation: Observation) -> Observation:
    """The same moment as a spectator sees it (no seat, no hand)."""
    return dataclasses.replace(observation, seat=None, hand=(), legal_actions=())


def test_a_time_budget_still_weighs_every_choice_a_few_times() -> None:
    observation, played = position(5, 6)
    judged = judge(observation, played, samples=1000, seed=1, budget_ms=0.001)
    assert 8 <= judged.samples < 1000  # MIN_SAMPLES, then the budget stops it


@pytest.mark.parametrize("mark", list(Mark))
def test_each_mark_starts_at_its_threshold_and_counts_only_the_sure_loss(mark: Mark) -> None:
    least = MARKS[mark]
    assert mark_for(least, 0.0) is mark
    assert mark_for(least + 3.0, 3.0) is mark  # the low end of the interval decides
    below = mark_for(least - 0.01, 0.0)
    assert below is not mark and (below is None or MARKS[below] < least)
    assert mark_for(least + 3.0, 3.01) is not mark


def test_no_mark_for_a_loss_within_its_noise() -> None:
    assert mark_for(0.0, 0.0) is None
    assert mark_for(50.0, 49.0) is None
