"""Walk a game record for one seat's decisions, judge each, and sum up what they cost."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rummykit.core.actions import Action, parse_action
from rummykit.core.observation import Observation, observe
from rummykit.core.record import GameRecord, replay
from rummykit.core.state import GameState
from rummykit.review.judge import Judgement, judge
from rummykit.review.marks import MARKS, Mark, mark_for

DEFAULT_SAMPLES = 32
"""Samples a decision by default: enough to tell a thrown meld from noise (a loss's interval
is then a few points wide), at about a quarter of a second a decision on our machines."""

SEED_BASE = 0x5EED
"""Where each decision's samples start. A decision's seed comes from where it stands in the
record (deal, action, seat), never from a card its player could not see."""


class ReviewError(ValueError):
    """A record that cannot be reviewed: it does not replay, or has no such seat."""


@dataclasses.dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A choice a seat made with more than one legal action: where, what it saw, what it did."""

    deal: int
    action: int
    """The action's index among its deal's actions, as in ``rummy replay``."""
    observation: Observation
    played: Action

    @property
    def seed(self) -> int:
        """The seed of this decision's samples."""
        return SEED_BASE + (self.deal * 10_007 + self.action) * 16 + (self.observation.seat or 0)


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """A decision with its judgement and mark."""

    deal: int
    action: int
    judgement: Judgement
    mark: Mark | None

    def to_json(self) -> dict[str, Any]:
        """The decision as ``rummy review --json`` prints it."""
        judged = self.judgement
        return {
            "deal": self.deal,
            "action": self.action,
            "played": str(judged.played),
            "best": str(judged.best),
            "loss": round(judged.loss, 2),
            "loss_ci95": round(judged.loss_ci95, 2),
            "mark": None if self.mark is None else str(self.mark),
            "value": round(judged.value, 2),
            "samples": judged.samples,
            "exact": judged.exact,
            "options": [
                {
                    "action": str(option.action),
                    "gain": round(option.gain, 2),
                    "ci95": round(option.ci95, 2),
                }
                for option in judged.options
            ],
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Review:
    """One seat's decisions in a game, judged, and what they add up to."""

    seat: int
    player: str
    deals: int
    decisions: tuple[ReviewedDecision, ...]

    def summary(self) -> dict[str, Any]:
        """How many decisions of each mark, and the points they gave away."""
        counts = {str(mark): 0 for mark in MARKS}
        for decision in self.decisions:
            if decision.mark is not None:
                counts[str(decision.mark)] += 1
        lost = sum(decision.judgement.loss for decision in self.decisions)
        return {
            "decisions": len(self.decisions),
            **counts,
            "deals": self.deals,
            "points_lost": round(lost, 1),
            "points_lost_per_deal": round(lost / self.deals, 1) if self.deals else 0.0,
        }

    def to_json(self) -> dict[str, Any]:
        """The review as ``rummy review --json`` prints it, and as the server stores it."""
        return {
            "seat": self.seat,
            "player": self.player,
            "decisions": [decision.to_json() for decision in self.decisions],
            "summary": self.summary(),
            "marks": {str(mark): least for mark, least in MARKS.items()},
        }


def decision_points(record: GameRecord, seat: int) -> list[DecisionPoint]:
    """Every decision ``seat`` made in ``record`` that had more than one legal choice.

    ``ReviewError`` when the record does not replay to its end or has no such seat.
    """
    if not 0 <= seat < len(record.players):
        raise ReviewError(
            f"The game has no seat {seat}: its seats are 0 to {len(record.players) - 1}."
        )
    checked = replay(record)
    if checked.error is not None:
        raise ReviewError(f"The record does not replay: {checked.error.message}")
    return list(_points(record, seat))


def _points(record: GameRecord, seat: int) -> Iterator[DecisionPoint]:
    game = GameState(record.rules, len(record.players), record.deals[0].dealer)
    for deal_index, deal in enumerate(record.deals):
        game.start_deal(deal.deck, reshuffles=deal.reshuffles, seed=deal.seed)
        for action_index, text in enumerate(deal.actions):
            action = parse_action(text)
            if action.seat == seat:
                observation = observe(game, seat)
                if len(observation.legal_actions) > 1:
                    yield DecisionPoint(deal_index, action_index, observation, action)
            game.apply(action)


def position_at(record: GameRecord, deal: int, action: int) -> GameState:
    """The game of ``record`` just before action ``action`` of deal ``deal`` (both from 0).

    ``ReviewError`` when the record has no such action.
    """
    if not 0 <= deal < len(record.deals) or not 0 <= action < len(record.deals[deal].actions):
        raise ReviewError(f"The record has no action {action} in deal {deal}.")
    game = GameState(record.rules, len(record.players), record.deals[0].dealer)
    for number, played in enumerate(record.deals[: deal + 1]):
        game.start_deal(played.deck, reshuffles=played.reshuffles, seed=played.seed)
        for text in played.actions if number < deal else played.actions[:action]:
            game.apply(parse_action(text))
    return game


def judge_point(
    point: DecisionPoint, samples: int, budget_ms: float | None, every_choice: bool = False
) -> ReviewedDecision:
    """One decision judged and marked (what a worker process runs); ``judge``'s arguments."""
    judged = judge(
        point.observation,
        point.played,
        samples=samples,
        seed=point.seed,
        budget_ms=budget_ms,
        every_choice=every_choice,
    )
    # a settled side (a chance to go out, a certain feed) is marked on the loss itself
    sure_by = 0.0 if judged.exact else judged.loss_ci95
    return ReviewedDecision(point.deal, point.action, judged, mark_for(judged.loss, sure_by))


def judge_points(
    points: Sequence[DecisionPoint],
    samples: int,
    budget_ms: float | None = None,
    *,
    jobs: int = 1,
    every_choice: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> list[ReviewedDecision]:
    """Every decision judged, in order, in ``jobs`` processes; ``progress(done, total)``.

    The judgements are the same in one process and in several (each has its own seed).
    ``every_choice`` weighs every legal action of each (``judge``).
    """
    told = progress or (lambda done, total: None)
    total = len(points)
    told(0, total)
    if jobs == 1 or total < 2:
        judged = []
        for point in points:
            judged.append(judge_point(point, samples, budget_ms, every_choice))
            told(len(judged), total)
        return judged
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(judge_point, point, samples, budget_ms, every_choice) for point in points
        ]
        for done, future in enumerate(futures, 1):
            future.result()
            told(done, total)
        return [future.result() for future in futures]


def summarize(record: GameRecord, seat: int, decisions: list[ReviewedDecision]) -> Review:
    """The review of ``seat`` made of its judged ``decisions``."""
    return Review(seat, record.players[seat], len(record.deals), tuple(decisions))


def review_record(
    record: GameRecord,
    seat: int,
    *,
    samples: int = DEFAULT_SAMPLES,
    budget_ms: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``seat``'s decisions in ``record``; ``progress(done, total)`` after each."""
    points = decision_points(record, seat)
    judged = []
    for index, point in enumerate(points):
        judged.append(judge_point(point, samples, budget_ms))
        if progress is not None:
            progress(index + 1, len(points))
    return summarize(record, seat, judged)
