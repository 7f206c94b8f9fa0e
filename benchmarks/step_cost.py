"""What one step of a live table costs the serving thread: CPU time, not wall time.

Issue 29: the load figure regressed about threefold (round-trip p99 at 250 ``strong`` tables
146-200 ms, against 14 ms in issue 8), and the loop was said to spend about 1.6 ms a step
(0.65 ms before). On a machine shared with other sessions a round trip mostly measures the
neighbours; the CPU time of the serving thread (``time.thread_time``) a step does not.

A step is what the table's task does for each action: ``Table._play`` (apply on a copy, store
it, announce it to each page) with one page open on the person's seat, whose frames are made
into JSON as the socket's outbox does. The moves are random legal ones (seeded), a new table
when a deal ends. Each source folder runs in a process of its own with its ``src`` first on
``PYTHONPATH``, so the code before a change (a worktree of the previous commit) and after it
run side by side, interleaved, ``--repeats`` times:

    .venv/bin/python benchmarks/step_cost.py --sources /work/main,. --steps 3000 --repeats 5

The store writes go to a temporary SQLite file in worker threads (their time is not the
serving thread's); the computer's decisions are not made here (they are a worker's).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

STEP = r"""
import asyncio, inspect, json, random, sys, tempfile, time
from pathlib import Path
from rummykit.server.tables.table import deal_new_table
from rummykit.protocol.api import NewTable
try:
    from rummykit.server.tables.new_table import new_table_settings
except ImportError:  # before it had a module of its own
    from rummykit.server.tables.table import new_table_settings
from rummykit.server.store.store import Store
from rummykit.server.tables.table import Table
from rummykit.server.runtime.workers import WorkerPool

async def measure(steps, seats, seed):
    rng = random.Random(seed)
    folder = tempfile.mkdtemp(prefix="rummy-step-")
    store = Store(Path(folder) / "tables.sqlite3")
    pool = WorkerPool(1)  # never started: the moves are chosen here
    sent = [0, 0]

    async def page(message):
        sent[0] += len(message.model_dump_json())
        sent[1] += 1

    cpu = 0.0
    done = 0
    table = None
    while done < steps:
        if table is None or table.game.deal_over or table.game.game_over:
            opponents = ("basic",) * (seats - 1)
            settings = new_table_settings(NewTable(opponents=opponents, seed=rng.randrange(10**6)))
            made = deal_new_table(store, settings, pool)
            table, _ = await made if inspect.isawaitable(made) else made  # sync before
            table.listeners[0] = {page}
        action = rng.choice(list(table.game.legal_actions()))
        start = time.thread_time()
        await table.play(action)
        cpu += time.thread_time() - start
        done += 1
    store.close()
    return {"cpu_us_a_step": 1e6 * cpu / steps, "bytes_a_step": sent[0] / steps,
            "frames_a_step": sent[1] / steps}

steps, seats, seed = map(int, sys.argv[1:4])
print(json.dumps(asyncio.run(measure(steps, seats, seed))))
"""


def run(source: Path, steps: int, seats: int, seed: int) -> dict[str, float]:
    """One measurement with the code of ``source`` (its ``src``), in a process of its own."""
    environment = dict(os.environ, PYTHONPATH=str(source.resolve() / "src"))
    answer = subprocess.run(
        [sys.executable, "-c", STEP, str(steps), str(seats), str(seed)],
        env=environment,
        capture_output=True,
        text=True,
    )
    if answer.returncode != 0:
        raise RuntimeError(f"the measurement with {source} failed:\n{answer.stderr}")
    found: dict[str, float] = json.loads(answer.stdout.strip().splitlines()[-1])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    add = parser.add_argument
    add("--sources", default=".", help="source folders, comma-separated (before,after)")
    add("--steps", type=int, default=3000, help="steps a measurement")
    add("--seats", type=int, default=2, help="seats a table")
    add("--repeats", type=int, default=5, help="measurements a source, interleaved")
    add("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    sources = [Path(part) for part in args.sources.split(",") if part]
    found: dict[str, list[dict[str, float]]] = {str(source): [] for source in sources}
    for repeat in range(args.repeats):
        for source in sources if repeat % 2 == 0 else sources[::-1]:
            found[str(source)].append(run(source, args.steps, args.seats, repeat))
    print(f"{args.steps} steps of {args.seats}-seat tables, one page; {args.repeats} repeats")
    print("| code | serving-thread CPU µs a step, median (min-max) | bytes a step | ratio |")
    print("| --- | ---: | ---: | ---: |")
    first: float | None = None
    summary: dict[str, dict[str, object]] = {}
    for name, runs in found.items():
        costs = [each["cpu_us_a_step"] for each in runs]
        median = statistics.median(costs)
        first = median if first is None else first
        summary[name] = {"median_cpu_us_a_step": median, "runs": runs}
        print(
            f"| {Path(name).resolve().name} | {median:,.0f} ({min(costs):,.0f}-"
            f"{max(costs):,.0f}) | {runs[0]['bytes_a_step']:,.0f} | {median / first:.2f} |"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
