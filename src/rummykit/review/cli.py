"""``rummy review``: where one player's decisions in a game record cost points."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rummykit.core.errors import RecordError
from rummykit.core.record import load_record
from rummykit.review.marks import MARKS, Mark
from rummykit.review.walk import (
    DEFAULT_SAMPLES,
    DecisionPoint,
    ReviewedDecision,
    ReviewError,
    decision_points,
    judge_points,
    summarize,
)
from rummykit.review.words import HOW_IT_WORKS, MARK_NAMES, mark_meaning

if TYPE_CHECKING:
    from rich.progress import Progress

    from rummykit.review.walk import Review

_EPILOG = """\
examples:
  rummy review game.json --seat 0          the marked decisions of seat 0, and a summary
  rummy review game.json --seat 1 --json   every decision judged, as JSON
  rummy review game.json --seat 0 --budget 100 --jobs 2

exit codes: 0 reviewed; 2 a record that cannot be read or replayed, or no such seat.
"""


def add_review_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``rummy review`` to the ``rummy`` command's subcommands."""
    parser = commands.add_parser(
        "review",
        help="find where one player's decisions in a game cost points",
        description="Go through one seat's decisions in a game record (each draw, meld, "
        "lay-off and discard that had a choice) and weigh each against the best choice found, "
        "judged only from what that seat could see. " + HOW_IT_WORKS,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the record (rummy-record/1), or - to read standard input")
    parser.add_argument("--seat", type=int, required=True, help="the seat to review, from 0")
    parser.add_argument("--json", action="store_true", help="print every decision as JSON")
    parser.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"deals of the hidden cards a decision is played out in (default {DEFAULT_SAMPLES}; "
        "more is slower and surer; the same number gives the same review on any machine)",
    )
    parser.add_argument(
        "--budget",
        type=float,
        metavar="MS",
        help="also stop each decision's playouts after this many milliseconds (then the review "
        "depends on the machine's speed)",
    )
    parser.add_argument(
        "--jobs", type=int, default=0, metavar="N", help="processes to use (default: one a CPU)"
    )
    parser.set_defaults(run=command_review)


def command_review(args: argparse.Namespace) -> int:
    """Run ``rummy review``; returns the exit code."""
    if args.samples < 1 or args.jobs < 0 or (args.budget is not None and args.budget <= 0):
        return _fail("--samples and --budget must be above 0, and --jobs 0 or more.")
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        record = load_record(text)
        points = decision_points(record, args.seat)
    except OSError as error:
        return _fail(f"cannot read {args.file}: {error.strerror}.")
    except RecordError as error:
        return _fail(f"{error.message} [{error.code}]")
    except ReviewError as error:
        return _fail(str(error))
    jobs = args.jobs or os.cpu_count() or 1
    try:
        judged = _judge_all(points, args.samples, args.budget, jobs)
    except KeyboardInterrupt:
        return _fail("interrupted.", 130)
    review = summarize(record, args.seat, judged)
    if args.json:
        print(json.dumps(review.to_json(), indent=2, ensure_ascii=False))
    else:
        print(_told(review))
    return 0


def decision_bar() -> Progress:
    """A progress bar of decisions on stderr (none when stderr is not a terminal).

    Each task is a stage, named by its description ("reviewing", "judging", ...).
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    errors = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions"),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
        disable=not errors.is_terminal,
    )


def _judge_all(
    points: list[DecisionPoint], samples: int, budget_ms: float | None, jobs: int
) -> list[ReviewedDecision]:
    """Judge every decision behind a progress bar on stderr, in ``jobs`` processes."""
    progress = decision_bar()
    with progress:
        task = progress.add_task("reviewing", total=len(points))
        return judge_points(
            points,
            samples,
            budget_ms,
            jobs=jobs,
            progress=lambda done, total: progress.update(task, completed=done),
        )


def _told(review: Review) -> str:
    """The review for a person: the marked decisions, the summary, and what marks mean."""
    lines = [f"Review of {review.player} (seat {review.seat}):"]
    marked = [decision for decision in review.decisions if decision.mark is not None]
    for decision in marked:
        judged = decision.judgement
        assert decision.mark is not None
        settled = ", settled within the turn" if judged.exact else ""
        lines.append(
            f"  deal {decision.deal + 1}, action {decision.action}: {MARK_NAMES[decision.mark]}."
            f" Played {judged.played}; better: {judged.best}"
            f" (about {judged.loss:.1f} ± {judged.loss_ci95:.1f} points{settled})."
        )
    if not marked:
        lines.append("  No decision is marked: nothing gave away points for sure.")
    summary = review.summary()
    counts = ", ".join(f"{summary[str(mark)]} {MARK_NAMES[mark].lower()}" for mark in Mark)
    lines.append(
        f"{summary['decisions']} decisions in {summary['deals']} deals: {counts}; about "
        f"{summary['points_lost_per_deal']} points given away a deal."
    )
    lines.extend(f"  {MARK_NAMES[mark]}: {mark_meaning(mark)}." for mark in MARKS)
    return "\n".join(lines)


def _fail(message: str, code: int = 2) -> int:
    print(f"rummy review: {message}", file=sys.stderr)
    return code
