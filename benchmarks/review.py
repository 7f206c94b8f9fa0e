"""How long a post-game review takes: decisions a second, and a whole game's review.

It reviews seat 0 of recorded games (the golden records of ``tests/records``, whole games to
the preset's target between ``basic`` players, and the review tests' deal between ``strong``
players) at several sample counts, in one process and in two, and reports for each the
decisions judged, the seconds, decisions a second, and the marks found. Two processes is
what ``rummy review --jobs 2`` does; the server judges one decision at a time (one process).

    .venv/bin/python benchmarks/review.py --json benchmarks/results/review.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.engine import machine_info, render

from rummykit.core.record import load_record
from rummykit.review.walk import decision_points, judge_point

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "records"
GAMES = ["classic.json", "standard.json", "review_mistakes.json"]


def review_time(name: str, samples: int, jobs: int) -> dict[str, Any]:
    """Review seat 0 of a record: the figures of one row."""
    record = load_record((RECORDS / name).read_text())
    started = time.perf_counter()
    points = decision_points(record, 0)
    if jobs == 1:
        judged = [judge_point(point, samples, None) for point in points]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            judged = list(
                pool.map(judge_point, points, [samples] * len(points), [None] * len(points))
            )
    seconds = time.perf_counter() - started
    marks = sum(decision.mark is not None for decision in judged)
    return {
        "record": name,
        "deals": len(record.deals),
        "samples": samples,
        "jobs": jobs,
        "decisions": len(points),
        "seconds": round(seconds, 2),
        "decisions_per_s": round(len(points) / seconds, 2),
        "seconds_per_deal": round(seconds / len(record.deals), 2),
        "marked": marks,
    }


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", default="8,32", help="sample counts, comma-separated")
    parser.add_argument("--jobs", default="1,2", help="process counts, comma-separated")
    parser.add_argument("--games", default=",".join(GAMES), help="records in tests/records")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    rows = []
    for name in args.games.split(","):
        for samples in (int(value) for value in args.samples.split(",")):
            for jobs in (int(value) for value in args.jobs.split(",")):
                rows.append(review_time(name, samples, jobs))
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    headers = ["record", "deals", "samples", "jobs", "decisions", "s", "decisions/s", "s/deal"]
    keys = ["record", "deals", "samples", "jobs", "decisions", "seconds", "decisions_per_s"]
    render(
        "Review time",
        headers,
        [[str(row[key]) for key in keys] + [str(row["seconds_per_deal"])] for row in rows],
    )
    if args.json:
        args.json.write_text(json.dumps({"machine": machine_info(None), "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
