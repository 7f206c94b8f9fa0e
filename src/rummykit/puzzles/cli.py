"""``rummy puzzles make`` and ``rummy puzzles show``: puzzles from game records, and a list.

The parsers import nothing of the puzzles themselves: their models need pydantic, which a
bare install lacks, and ``rummy --help`` must run without it (the commands import them).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummykit.puzzles.make import NamedRecord
    from rummykit.puzzles.model import PuzzleSet

_MAKE_EPILOG = """\
examples:
  rummy puzzles make game.json --out puzzles.json
                                  the puzzles of one game
  rummy puzzles make records/ more.json --out puzzles.json --jobs 2
                                  every record in a folder (its .json files), and one more
  rummy puzzles make records/ --out quick.json --samples 16 --verify-samples 64
                                  a quicker, less sure search

exit codes: 0 made (perhaps no puzzle); 2 a record that cannot be read or replayed, or a bad
option; 130 stopped with Ctrl+C.
"""

_SHOW_EPILOG = """\
examples:
  rummy puzzles show puzzles.json     one line a puzzle: id, theme, rating, loss, solution

exit codes: 0 shown; 2 a file that cannot be read or is not a puzzle file.
"""

_HOW = (
    "A puzzle is a decision where a player's choice cost points for sure (a mistake or a "
    "blunder, as `rummy review` marks them) and one answer, or a few equally good ones, "
    "stood clearly above the rest. Each decision is judged from what that player could "
    "see, then judged again with a deeper search from other deals of the unseen cards; "
    "only the puzzles both searches agree on are kept. The same records and counts give "
    "the same puzzles."
)


def add_puzzles_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``rummy puzzles`` (``make`` and ``show``) to the ``rummy`` command's subcommands."""
    from rummykit.review.walk import DEFAULT_SAMPLES

    parser = commands.add_parser(
        "puzzles",
        help="make puzzles from the mistakes in game records",
        description="Make puzzles from game records, or list a puzzle file. " + _HOW,
    )
    actions = parser.add_subparsers(dest="puzzles_command", metavar="ACTION", required=True)
    make = actions.add_parser(
        "make",
        help="find the puzzles in game records and write them to a file",
        description="Judge every decision of every seat in the records and keep the "
        "puzzles. " + _HOW,
        epilog=_MAKE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    make.add_argument(
        "records", nargs="+", metavar="RECORD", help="a record (rummy-record/1) or a folder of them"
    )
    make.add_argument("--out", required=True, metavar="FILE", help="the puzzle file to write")
    make.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"deals of the hidden cards each decision is first played out in (default "
        f"{DEFAULT_SAMPLES})",
    )
    make.add_argument(
        "--verify-samples",
        type=int,
        metavar="N",
        help="deals of the hidden cards the deeper search of a puzzle takes (default: four "
        "times --samples)",
    )
    make.add_argument(
        "--jobs", type=int, default=0, metavar="N", help="processes to use (default: one a CPU)"
    )
    make.set_defaults(run=command_make)
    show = actions.add_parser(
        "show",
        help="list the puzzles of a file",
        description="List a puzzle file (rummykit-puzzles/1): a line a puzzle.",
        epilog=_SHOW_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    show.add_argument("file", help="the puzzle file")
    show.set_defaults(run=command_show)


class _BadInput(Exception):
    """A record the command cannot use: the message says which and why."""


def command_make(args: argparse.Namespace) -> int:
    """Run ``rummy puzzles make``; returns the exit code."""
    from rummykit.puzzles.model import write_puzzles

    verify = args.verify_samples if args.verify_samples is not None else 4 * args.samples
    if args.samples < 1 or verify < 1 or args.jobs < 0:
        return _fail("--samples and --verify-samples must be above 0, and --jobs 0 or more.")
    try:
        records = read_records([Path(path) for path in args.records])
    except _BadInput as error:
        return _fail(str(error))
    if not records:
        return _fail("no record found in " + ", ".join(args.records) + ".")
    jobs = args.jobs or os.cpu_count() or 1
    try:
        puzzles = _make_with_progress(records, args.samples, verify, jobs)
    except _BadInput as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        return _fail("interrupted.", 130)
    try:
        write_puzzles(puzzles, args.out)
    except OSError as error:
        return _fail(f"cannot write {args.out}: {error.strerror}.")
    themes = Counter(str(puzzle.theme) for puzzle in puzzles.puzzles)
    counts = ", ".join(f"{count} {theme}" for theme, count in sorted(themes.items()))
    print(
        f"{len(puzzles.puzzles)} puzzles from {len(records)} records"
        + (f" ({counts})" if counts else "")
        + f", written to {args.out}."
    )
    return 0


def read_records(paths: list[Path]) -> list[NamedRecord]:
    """The records named, a folder's ``.json`` files in name order; ``_BadInput`` if one is bad.

    A file named is read as a record whatever it holds; in a folder, the JSON files that do
    not say they are records (``format``) are passed over, so a folder of records may hold
    other files too.
    """
    from rummykit.core.errors import RecordError
    from rummykit.core.record import FORMAT, load_record
    from rummykit.puzzles.make import NamedRecord

    found: list[NamedRecord] = []
    for path in paths:
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        for file in files:
            try:
                text = file.read_text("utf-8")
            except OSError as error:
                raise _BadInput(f"cannot read {file}: {error.strerror}.") from None
            except UnicodeDecodeError:
                raise _BadInput(f"{file} is not a text file.") from None
            if path.is_dir() and not _says_record(text, FORMAT):
                continue
            try:
                found.append(NamedRecord(file.stem, load_record(text)))
            except RecordError as error:
                raise _BadInput(f"{file}: {error.message} [{error.code}]") from None
    return found


def _says_record(text: str, format_name: str) -> bool:
    """Whether JSON text is an object whose ``format`` is the record's."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("format") == format_name


def _make_with_progress(
    records: list[NamedRecord], samples: int, verify_samples: int, jobs: int
) -> PuzzleSet:
    """``make_puzzles`` behind a progress bar on stderr (a bar a stage)."""
    from rich.progress import TaskID

    from rummykit.puzzles.make import make_puzzles
    from rummykit.review.cli import decision_bar
    from rummykit.review.walk import ReviewError

    progress = decision_bar()
    tasks: dict[str, TaskID] = {}

    def told(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = progress.add_task(stage, total=total)
        progress.update(tasks[stage], completed=done)

    with progress:
        try:
            return make_puzzles(
                records, samples=samples, verify_samples=verify_samples, jobs=jobs, progress=told
            )
        except ReviewError as error:
            raise _BadInput(str(error)) from None


def command_show(args: argparse.Namespace) -> int:
    """Run ``rummy puzzles show``; returns the exit code."""
    from rummykit.puzzles.model import PuzzleError, load_puzzles

    try:
        puzzles = load_puzzles(args.file)
    except PuzzleError as error:
        return _fail(str(error), command="show")
    rows = [("id", "theme", "rating", "loss", "solution")]
    for puzzle in puzzles.puzzles:
        solution = puzzle.solutions[0] + (
            f" (+{len(puzzle.solutions) - 1} more)" if len(puzzle.solutions) > 1 else ""
        )
        rows.append(
            (puzzle.id, puzzle.theme, f"{puzzle.rating:.0f}", f"{puzzle.loss:.1f}", solution)
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
    print(f"{len(puzzles.puzzles)} puzzles.")
    return 0


def _fail(message: str, code: int = 2, *, command: str = "make") -> int:
    print(f"rummy puzzles {command}: {message}", file=sys.stderr)
    return code
