"""Make the starter puzzles shipped in the package (``src/rummykit/puzzles/starter.json``).

    python scripts/make_starter_puzzles.py            # about 3 minutes on two cores
    python scripts/make_starter_puzzles.py --jobs 8   # the same file, sooner

Plays seeded games between the computer players (``MATCHES``: the basic player against the
strong one, whose errors make most puzzles, under the classic and the knock rules), writes
their records to a scratch folder, and runs ``make_puzzles`` on them. Everything follows from
the seeds, so a rerun writes the same file on any machine and with any ``--jobs``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from rummykit.core.record import load_record
from rummykit.puzzles.make import NamedRecord, make_puzzles
from rummykit.puzzles.model import FORMAT, Puzzle, PuzzleSet, write_puzzles
from rummykit.tournament.config import SimConfig
from rummykit.tournament.play import run_sim

ROOT = Path(__file__).resolve().parent.parent
STARTER = ROOT / "src" / "rummykit" / "puzzles" / "starter.json"


@dataclasses.dataclass(frozen=True)
class Match:
    """Games between computer players whose records the puzzles come from."""

    bots: tuple[str, ...]
    preset: str
    games: int
    deals: int
    """Deals a game: a few, so that the games spread over many deck orders."""
    seed: int


MATCHES = (
    Match(("basic", "strong"), "classic", games=32, deals=3, seed=33),
    Match(("basic", "strong"), "knock", games=36, deals=3, seed=34),
    Match(("random", "basic"), "classic", games=6, deals=2, seed=35),
)
"""The games played. The basic player makes most of the puzzles' errors against the strong
one (about one puzzle in four games); a few games of the random player against the basic one
add the plainer errors of a beginner, most of them at the draw."""

SAMPLES = 24
"""Samples of each decision's first search."""

VERIFY_SAMPLES = 96
"""Samples of a kept decision's deeper search: four times the first."""

MAX_PER_THEME = 15
"""Puzzles kept at most of each theme: the first found, in record order, so that every lesson
has puzzles of its own theme (going out is found far more often than the others) and the file
stays small (each puzzle is about 4 KB, the view's rules and history included)."""


def _balanced(puzzles: list[Puzzle]) -> list[Puzzle]:
    """The first ``MAX_PER_THEME`` puzzles of each theme, in their order."""
    taken: Counter[str] = Counter()
    kept = []
    for puzzle in puzzles:
        if taken[puzzle.theme] < MAX_PER_THEME:
            taken[puzzle.theme] += 1
            kept.append(puzzle)
    return kept


def main() -> int:
    """Play the matches, make the puzzles, write the file; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes to use (default 2)")
    parser.add_argument("--out", type=Path, default=STARTER, help="the file to write")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        records = play_matches(Path(scratch), args.jobs)
    print(f"{len(records)} games played in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    found = make_puzzles(
        records,
        samples=SAMPLES,
        verify_samples=VERIFY_SAMPLES,
        jobs=args.jobs,
        progress=_told,
    )
    kept = PuzzleSet(format=FORMAT, puzzles=_balanced(found.puzzles))
    write_puzzles(kept, args.out)
    themes = Counter(str(puzzle.theme) for puzzle in kept.puzzles)
    print(
        f"{len(kept.puzzles)} puzzles ({dict(sorted(themes.items()))}) written to {args.out} "
        f"in {time.perf_counter() - started:.0f} s",
        file=sys.stderr,
    )
    return 0


def play_matches(folder: Path, jobs: int) -> list[NamedRecord]:
    """Play every match, its records in ``folder``; the records, in a fixed order."""
    records: list[NamedRecord] = []
    for number, match in enumerate(MATCHES):
        where = folder / f"match{number}"
        config = SimConfig.from_options(
            match.bots,
            games=match.games,
            preset=match.preset,
            rules={"deals": str(match.deals)},
            seed=match.seed,
            records=where,
        )
        run_sim(config, jobs)
        for path in sorted(where.glob("*.json")):
            name = f"{match.preset}-{path.stem}"
            records.append(NamedRecord(name, load_record(path.read_text("utf-8"))))
    return records


def _told(stage: str, done: int, total: int) -> None:
    if done == total or done % 100 == 0:
        print(f"{stage}: {done}/{total} decisions", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
