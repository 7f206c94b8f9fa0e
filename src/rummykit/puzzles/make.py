"""Find puzzles in game records: the decisions that cost points where one answer stood out.

Every seat's decisions in every record are judged as the post-game review judges them
(``rummykit.review``: playouts from what that seat could see, never the hidden cards). A
decision becomes a puzzle when:

1. its mark is a mistake or a blunder (``MARKS``: the sure part of its loss is 5 points a
   deal or more);
2. one choice, or a few within ``TIE_MARGIN`` of each other (the solutions), is clearly
   best: the best's gain, less its 95% half-width, beats the gain of every other choice
   weighed, the one played included;
3. a deeper search (``verify_samples`` samples, from another seed, weighing every legal
   action rather than the judge's few candidates) finds them among its solutions, clearly
   best against every other legal action, and still marks the choice played a mistake or
   worse; its solutions are the puzzle's (so an equally good choice the first search did not
   weigh is an answer too, never graded wrong);
4. it has a theme (``classify``): a best choice that melds without going out asks nothing a
   theme names, and is left out.

The puzzle's position is the view the table would have sent the seat (``seat_view``), so it
holds no card the seat could not see, and its judged figures are the deeper search's. The
same records and sample counts give the same puzzles, in the same order, on any machine and
with any number of processes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Final

from rummykit.core.actions import (
    Action,
    Discard,
    Knock,
    LayOff,
    parse_action,
)
from rummykit.core.kinds import Phase
from rummykit.core.record import GameRecord
from rummykit.core.state import GameState
from rummykit.protocol import HumanPlayer, seat_view
from rummykit.puzzles.model import (
    FORMAT,
    Puzzle,
    PuzzleOption,
    PuzzleSet,
    PuzzleSource,
    Theme,
    initial_rating,
    puzzle_id,
)
from rummykit.review.judge import Judgement
from rummykit.review.marks import Mark
from rummykit.review.settled import goes_out_after
from rummykit.review.walk import (
    DecisionPoint,
    ReviewedDecision,
    decision_points,
    judge_points,
    position_at,
)

DEFAULT_SAMPLES: Final = 32
"""Samples a decision is first judged with: the review's own default."""

DEFAULT_VERIFY_SAMPLES: Final = 128
"""Samples the deeper search of a kept decision takes: four times the first, so that its
intervals are about half as wide."""

TIE_MARGIN: Final = 1.0
"""Points a deal within which a choice counts as good as the best: a solution too. Less than
a point a deal is below what the playouts tell apart at these sample counts, and no player
could be asked to see it."""

VERIFY_DEAL_SHIFT: Final = 1_000_003
"""How far the deeper search moves a decision's deal number to draw another seed: the
review's seed comes from the decision's place in the record (``DecisionPoint.seed``), and
no record holds this many deals, so the seed is one no first search uses."""

PUZZLE_MARKS: Final = frozenset({Mark.MISTAKE, Mark.BLUNDER})
"""The marks a decision needs to become a puzzle."""

PUZZLE_TABLE: Final = "puzzle"
"""The table name of every puzzle's view (the id never depends on it)."""

Progress = Callable[[str, int, int], None]
"""Told ``(stage, done, total)`` as decisions are judged: ``judging``, then ``verifying``."""


@dataclasses.dataclass(frozen=True, slots=True)
class NamedRecord:
    """A record and the name its puzzles cite (its file's stem)."""

    name: str
    record: GameRecord


@dataclasses.dataclass(frozen=True, slots=True)
class _Found:
    """A decision that passed the first search: where it is and its solutions."""

    record: int
    point: DecisionPoint
    solutions: frozenset[str]


def make_puzzles(
    records: Sequence[NamedRecord],
    *,
    samples: int = DEFAULT_SAMPLES,
    verify_samples: int = DEFAULT_VERIFY_SAMPLES,
    jobs: int = 1,
    progress: Progress | None = None,
) -> PuzzleSet:
    """The puzzles found in ``records`` (see the module's description), in record order.

    ``jobs`` > 1 judges in that many processes; the puzzles are the same. ``ReviewError``
    when a record does not replay.
    """
    if samples < 1 or verify_samples < 1 or jobs < 1:
        raise ValueError(
            f"samples, verify_samples and jobs must be at least 1, not {samples}, "
            f"{verify_samples} and {jobs}."
        )
    told = progress or (lambda stage, done, total: None)
    points = [
        (index, point)
        for index, named in enumerate(records)
        for seat in range(len(named.record.players))
        for point in decision_points(named.record, seat)
    ]
    judged = _judge_all([point for _, point in points], samples, jobs, "judging", told)
    found = [
        _Found(index, point, solutions)
        for (index, point), decision in zip(points, judged, strict=True)
        if (solutions := solutions_of(decision)) is not None
    ]
    deeper = [_reseeded(item.point) for item in found]
    verified = _judge_all(deeper, verify_samples, jobs, "verifying", told, every_choice=True)
    puzzles: dict[str, Puzzle] = {}
    for item, decision in zip(found, verified, strict=True):
        solutions = solutions_of(decision)
        if solutions is None or not item.solutions <= solutions:
            continue  # the deeper search does not agree: not a puzzle to ask
        puzzle = _puzzle(records[item.record], item.point, decision)
        if puzzle is not None:
            puzzles.setdefault(puzzle.id, puzzle)
    return PuzzleSet(format=FORMAT, puzzles=list(puzzles.values()))


def solutions_of(decision: ReviewedDecision) -> frozenset[str] | None:
    """The best choices of a judged decision, if it makes a puzzle; else ``None``.

    ``None`` unless the decision is marked a mistake or a blunder and its best choices (those
    within ``TIE_MARGIN`` of the top gain) are clearly better than every other choice weighed.
    """
    if decision.mark not in PUZZLE_MARKS:
        return None
    options = decision.judgement.options
    top = max(option.gain for option in options)
    best = [option for option in options if option.gain >= top - TIE_MARGIN]
    rest = [option for option in options if option.gain < top - TIE_MARGIN]
    surest = min(option.gain - option.ci95 for option in best)
    if not rest or any(option.gain >= surest for option in rest):
        return None  # the choice played is always among the rest (its gain is 0)
    return frozenset(str(option.action) for option in best)


def _reseeded(point: DecisionPoint) -> DecisionPoint:
    """The decision as the deeper search takes it: another seed, nothing else changed."""
    return dataclasses.replace(point, deal=point.deal + VERIFY_DEAL_SHIFT)


def _judge_all(
    points: list[DecisionPoint],
    samples: int,
    jobs: int,
    stage: str,
    told: Progress,
    every_choice: bool = False,
) -> list[ReviewedDecision]:
    """Every decision judged, in order, in ``jobs`` processes, told as ``stage``."""
    return judge_points(
        points,
        samples,
        jobs=jobs,
        every_choice=every_choice,
        progress=lambda done, total: told(stage, done, total),
    )


def _puzzle(named: NamedRecord, point: DecisionPoint, decision: ReviewedDecision) -> Puzzle | None:
    """The puzzle of a verified decision, or ``None`` when no theme fits it."""
    judged = decision.judgement
    solutions = sorted(solutions_of(decision) or (), key=_by_gain(judged))
    seat = point.observation.seat
    assert seat is not None  # a decision is always a seat's
    game = position_at(named.record, point.deal, point.action)
    theme = classify(game, seat, [parse_action(text) for text in solutions])
    if theme is None:
        return None
    names = tuple(
        HumanPlayer(kind="human", name=f"Player {other + 1}")
        for other in range(len(named.record.players))
    )
    view = seat_view(
        game,
        seat,
        names,
        table_id=PUZZLE_TABLE,
        preset=named.record.preset.name,
        practice=False,
        pace_ms=0,
    )
    top = max(option.gain for option in judged.options)
    return Puzzle(
        id=puzzle_id(view, solutions),
        theme=theme,
        view=view,
        seat=seat,
        solutions=solutions,
        played=str(point.played),
        options=[
            PuzzleOption(
                action=str(option.action), gain=round(option.gain, 2), ci95=round(option.ci95, 2)
            )
            for option in judged.options
        ],
        loss=round(top, 2),
        exact=judged.exact,
        rating=initial_rating(top, theme),
        source=PuzzleSource(record=named.name, deal=point.deal, action=point.action, seat=seat),
    )


def _by_gain(judged: Judgement) -> Callable[[str], tuple[float, str]]:
    """Sorts solutions best first, then by their text (equal gains in a fixed order)."""
    gains = {str(option.action): option.gain for option in judged.options}
    return lambda text: (-gains[text], text)


def classify(game: GameState, seat: int, solutions: Sequence[Action]) -> Theme | None:
    """The theme of a puzzle whose best choices in ``game`` are ``solutions``, best first.

    ``go_out`` when a solution is a knock, or ends the deal in the rest of the turn by the
    seat's own melds, lay-offs and discard (searched on the true game, but never past a draw
    from the stock: the rest of the turn then uses only cards the seat sees). Else ``draw`` in
    the draw phase, ``lay_off`` or ``discard`` by the best solution's kind; ``None`` for a
    meld that does not go out.
    """
    if any(isinstance(action, Knock) or goes_out_after(game, seat, action) for action in solutions):
        return Theme.GO_OUT
    if game.phase is Phase.DRAW:
        return Theme.DRAW
    best = solutions[0]
    if isinstance(best, LayOff):
        return Theme.LAY_OFF
    if isinstance(best, Discard):
        return Theme.DISCARD
    return None
