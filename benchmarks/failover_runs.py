"""Issue 29's failover scenario, many times: does every program finish when a process dies?

Starts a throwaway PostgreSQL and Redis (as the tests do: ``tests/services.py``,
``tests/redis_service.py``). Each run makes a fresh database, empties Redis, and runs
``tests/failover_scenario.py`` once: two ``rummy serve`` processes, ``rummy party new`` on the
first and two ``rummy join`` on the second (each program given both addresses), the first
SIGKILLed at a moment of the party's life. The moments are cycled over the runs. A run is
*finished* when all three programs exited 0 and their records are equal; *hung* when a program
was still running at ``--budget`` seconds. The logs of every run that did not finish are kept.

    .venv/bin/python benchmarks/failover_runs.py --runs 40
    .venv/bin/python benchmarks/failover_runs.py --runs 20 --moments lobby,started
    .venv/bin/python benchmarks/failover_runs.py --runs 20 --moments delay:0.5,delay:2,delay:8
    .venv/bin/python benchmarks/failover_runs.py --runs 6 --json results.json --keep runs/
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg
import redis
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

# run as a script: tests/ holds the scenario and the throwaway servers
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from failover_scenario import MOMENTS, Outcome, run_once
from redis_service import RedisProcess
from services import database_url, local_postgres


def _fresh_database(server_url: str, run: int) -> str:
    name = f"failover_{run}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    return database_url(server_url, name)


def _drop_database(server_url: str, url: str) -> None:
    name = url.rsplit("/", 1)[-1]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _summary(outcomes: list[Outcome]) -> dict[str, dict[str, Any]]:
    by_moment: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        by_moment.setdefault(outcome.moment, []).append(outcome)
    rows: dict[str, dict[str, Any]] = {}
    for moment, runs in [*by_moment.items(), ("all", outcomes)]:
        times = [run.seconds for run in runs if run.ok]
        rows[moment] = {
            "runs": len(runs),
            "finished": sum(run.ok for run in runs),
            "hung": sum(bool(run.hung) for run in runs),
            "failed": sum(bool(run.failed) and not run.hung for run in runs),
            "killed": sum(run.killed for run in runs),
            "median_s": round(statistics.median(times), 1) if times else None,
            "max_s": round(max(times), 1) if times else None,
        }
    return rows


def _table(rows: dict[str, dict[str, Any]]) -> Table:
    table = Table(title="Failover runs: the first process SIGKILLed")
    for column in ("moment", "runs", "finished", "hung", "failed", "killed", "median s", "max s"):
        table.add_column(column, justify="left" if column == "moment" else "right")
    for moment, row in rows.items():
        table.add_row(
            moment,
            *(str(row[key]) for key in ("runs", "finished", "hung", "failed", "killed")),
            *("-" if row[key] is None else f"{row[key]:.1f}" for key in ("median_s", "max_s")),
        )
    return table


def main(argv: list[str] | None = None) -> int:
    """Run the scenario ``--runs`` times; 0 when every run finished, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=len(MOMENTS) * 4)
    parser.add_argument(
        "--moments",
        default=",".join(MOMENTS),
        help=f"comma-separated, cycled over the runs: {', '.join(MOMENTS)}, or delay:SECONDS",
    )
    parser.add_argument("--budget", type=float, default=120.0, help="seconds a run may take")
    parser.add_argument("--json", type=Path, help="write the runs and the table here")
    parser.add_argument("--keep", type=Path, help="keep every run's logs here (default: failed)")
    options = parser.parse_args(argv)
    moments = [moment.strip() for moment in options.moments.split(",") if moment.strip()]
    console = Console()
    outcomes: list[Outcome] = []
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="failover-")))
        server_url, _ = stack.enter_context(local_postgres())
        redis_process = RedisProcess(folder)
        redis_process.start()
        stack.callback(redis_process.stop)
        keep = options.keep or Path(tempfile.mkdtemp(prefix="failover-kept-"))
        progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
        )
        with progress:
            task = progress.add_task("runs", total=options.runs)
            for run in range(options.runs):
                moment = moments[run % len(moments)]
                progress.update(task, description=f"run {run + 1}: {moment}")
                with redis.Redis.from_url(redis_process.url) as admin:
                    admin.flushall()
                url = _fresh_database(server_url, run)
                place = folder / f"run-{run + 1:03d}-{moment.replace(':', '_')}"
                try:
                    outcome = run_once(
                        moment, place, url, redis_process.url, budget_s=options.budget
                    )
                finally:
                    _drop_database(server_url, url)
                outcomes.append(outcome)
                if not outcome.ok or options.keep is not None:
                    shutil.copytree(place, keep / place.name, dirs_exist_ok=True)
                if not outcome.ok:
                    progress.console.print(
                        f"run {run + 1} ({moment}): hung {outcome.hung}, failed "
                        f"{outcome.failed}, records equal {outcome.records_equal}; logs in "
                        f"{keep / place.name}"
                    )
                shutil.rmtree(place, ignore_errors=True)
                progress.advance(task)
    rows = _summary(outcomes)
    console.print(_table(rows))
    if options.json is not None:
        report = {
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "runs": [
                {
                    "moment": outcome.moment,
                    "seconds": round(outcome.seconds, 2),
                    "finished": outcome.finished,
                    "failed": outcome.failed,
                    "hung": outcome.hung,
                    "records_equal": outcome.records_equal,
                    "killed": outcome.killed,
                }
                for outcome in outcomes
            ],
            "summary": rows,
        }
        options.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if all(outcome.ok for outcome in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
