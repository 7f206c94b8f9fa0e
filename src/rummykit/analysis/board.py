"""The analysis board: try a move at one of a seat's decisions, and play on from there.

A finished game's record holds every card, but a seat never saw them all. The board rebuilds
the position at a step of the record, keeps only what the seat to act could see there (its
``Observation``), and deals the cards it could not see afresh, as the review's judge deals
them (``JUDGE.sampler``), with a seed taken from where the step stands. Every move tried is
played in that sampled world: the cards the record hid stay out of it, and a card drawn from
the stock is one the sampling put there. The other seats are played by the computer, from
their own view of the sampled world, with a fixed number of samples so that the same moves
always give the same position.

The seat's last move is judged as the review judges a decision (``judge``), from the seat's
observation before it, so a tried move and a played one are weighed alike.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Final

from rummykit.bots.expert import ExpertBot
from rummykit.core.actions import Action, Draw, DrawSource, parse_action
from rummykit.core.cards import Card
from rummykit.core.errors import IllegalActionError, InvalidActionError
from rummykit.core.observation import Observation, observe
from rummykit.core.record import GameRecord
from rummykit.core.refusals import refuse
from rummykit.core.state import GameState
from rummykit.review import DecisionPoint, Judgement, judge
from rummykit.review.judge import JUDGE
from rummykit.review.walk import ReviewError, position_at

COMPUTER: Final = "computer"
"""A move that lets the computer play the seat's turn (to the end of its turn) for it."""

COMPUTER_SAMPLES: Final = 12
"""Samples the computer searches a decision of the sampled world with: a fixed count, so the
same moves give the same continuation on any machine, and few, so a long line stays quick to
play again (each request plays the whole line from the step)."""

WORLD_SALT: Final = 0xB0A2D
"""Mixed into a step's seed for the sampled world, so the world is not drawn from the same
numbers as the judge's first sample."""


class AnalysisError(ValueError):
    """A step the board cannot start from: no such deal or action, or not the seat's turn.

    ``reason`` says which (``no_such_step``, ``not_seat_decision``).
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class MoveRefused(ValueError):
    """A move the rules refuse in the sampled world: the engine's code, reason and params.

    ``index`` is the move's place in the list sent; ``str`` the engine's English sentence,
    naming the cards.
    """

    def __init__(
        self, index: int, code: str, reason: str, params: dict[str, Any], message: str
    ) -> None:
        super().__init__(message)
        self.index = index
        self.code = code
        self.reason = reason
        self.params = params
        self.message = message

    @classmethod
    def of(cls, error: IllegalActionError | InvalidActionError, index: int) -> MoveRefused:
        """The refusal of move ``index`` by the engine's ``error``."""
        return cls(index, str(error.code), error.reason, dict(error.params), error.message)

    def __reduce__(self) -> tuple[Any, ...]:
        # a worker process sends it back pickled: rebuilt from all its fields
        return (type(self), (self.index, self.code, self.reason, self.params, self.message))


@dataclasses.dataclass(frozen=True, slots=True)
class LineMove:
    """A move of the sampled continuation: the action, and the cards it took from the pile."""

    action: Action
    taken: tuple[Card, ...]
    """The discard pile's cards a draw from it took (they lay face up); empty otherwise."""


@dataclasses.dataclass(frozen=True, slots=True)
class Analysis:
    """Where the moves led: the seat's view there, the line played, and the last move judged."""

    seat: int
    view: Observation
    """The seat's view of the sampled world after the moves (never another seat's hand)."""
    moves: tuple[Action, ...]
    """The seat's moves as played, a ``computer`` turn written out as its actions."""
    line: tuple[LineMove, ...]
    """Every move since the step, the computer's for the other seats too, in order."""
    judgement: Judgement | None
    """The seat's last move judged from its view before it (``None``: no move yet)."""
    judged_at: int
    """The deal's action index of the judged move (the step's action for the first)."""


def step_point(record: GameRecord, seat: int, deal: int, action: int) -> DecisionPoint:
    """The seat's decision at the step: its observation there, and what it played.

    ``AnalysisError`` when the step is not the seat's to play.
    """
    try:
        game = position_at(record, deal, action)
    except ReviewError as error:
        raise AnalysisError("no_such_step", str(error)) from None
    played = parse_action(record.deals[deal].actions[action])
    if played.seat != seat or not 0 <= seat < game.seat_count:
        raise AnalysisError(
            "not_seat_decision",
            f"Action {action} of deal {deal} is seat {played.seat}'s, not seat {seat}'s.",
        )
    return DecisionPoint(deal, action, observe(game, seat), played)


def sampled_world(point: DecisionPoint) -> GameState:
    """The world the board plays in: the unseen cards dealt from the step's seed alone."""
    return JUDGE.sampler(point.observation, random.Random(point.seed ^ WORLD_SALT))


def _taken(game: GameState, action: Action) -> tuple[Card, ...]:
    if isinstance(action, Draw) and action.source is DrawSource.DISCARD:
        return tuple(game.discard_pile[-action.depth :])
    return ()


def analyse(point: DecisionPoint, moves: list[str], samples: int) -> Analysis:
    """Play ``moves`` (the seat's, in record notation, or ``COMPUTER``) from the step.

    Whenever another seat is to act, the computer plays it. A move the rules refuse (or that
    cannot be read, or comes after the deal's end) raises ``MoveRefused``; the seat's last
    move is judged with ``samples``.
    """
    seat = point.observation.seat
    assert seat is not None
    world = sampled_world(point)
    computer = ExpertBot(samples=COMPUTER_SAMPLES)
    line: list[LineMove] = []
    played: list[Action] = []
    last: tuple[Observation, Action, int] | None = None

    def play(action: Action) -> None:
        line.append(LineMove(action, _taken(world, action)))
        world.apply(action)

    def computer_plays(who: int) -> Action:
        rng = random.Random(point.seed * 1_000 + len(line))
        return computer.choose(observe(world, who), rng)

    def others_play() -> None:
        while not world.deal_over and world.turn != seat:
            play(computer_plays(world.turn))

    for index, text in enumerate(moves):
        if world.deal_over:
            raise MoveRefused.of(refuse("deal_over"), index)
        if text == COMPUTER:
            while not world.deal_over and world.turn == seat:
                action = computer_plays(seat)
                last = (observe(world, seat), action, point.action + len(line))
                played.append(action)
                play(action)
        else:
            try:
                action = parse_action(text)
                world.check(action)
            except (IllegalActionError, InvalidActionError) as error:
                raise MoveRefused.of(error, index) from None
            before = point.observation if not line else observe(world, seat)
            last = (before, action, point.action + len(line))
            played.append(action)
            play(action)
        others_play()
    judged = None
    judged_at = point.action
    if last is not None:
        before, action, judged_at = last
        seed = dataclasses.replace(point, action=judged_at).seed
        judged = judge(before, action, samples=samples, seed=seed)
    return Analysis(
        seat=seat,
        view=observe(world, seat),
        moves=tuple(played),
        line=tuple(line),
        judgement=judged,
        judged_at=judged_at,
    )
