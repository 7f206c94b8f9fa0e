"""An honest table's computer players beside one client's 60 ``expert`` tables (issue 29).

The worker pool served every table first come, first served: 60 ``expert`` tables opened from
one address left an honest table's computer answering 3 times in 20 s instead of about 18.
This runs ``rummy serve`` (a process of its own, default limits and a worker a core) and:

- **flood**: from one loopback address, ``--flood`` two-seat tables against one ``expert``
  each, played at pace 0 with no thinking, table after table: the pool's queue never empties;
- **honest**: from another address, one person at a four-seat table with three ``expert``
  players at the default pace (700 ms), thinking about a second before each action, as
  ``benchmarks/load.py`` plays. Measured over ``--seconds``: the honest table's computer
  moves, and how late each came beyond its pace (p50 / p90 / max).

Each cell runs on a fresh server whose code comes from a source folder (its ``src`` is put
first on the server's ``PYTHONPATH``), so one run sets the code before a change beside the
code after it on the same machine at the same hour (a worktree of the previous commit):

    .venv/bin/python benchmarks/fair_pool.py --before /work/main --seconds 20 \\
        --json benchmarks/results/fair_pool.json

The cells: the honest table alone (this tree), then with the flood on ``--before``'s code and
on this tree's, repeated ``--repeats`` times, interleaved.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# run as a script: the repository (for benchmarks.*) and tests/ (the tests' player and server)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests"))
from benchmarks.engine import machine_info
from benchmarks.load_client import (
    PlayerSettings,
    Recorder,
    Refused,
    client_address,
    create_table,
    play_table,
)
from benchmarks.load_server import LoadServer

THIS_TREE = Path(__file__).resolve().parent.parent
FLOOD_ADDRESS = "127.66.0.1"
"""The flooding client's one address; the honest person's is another (``client_address``)."""
RAMP_S = 1.0 / 4.0
"""Between two of the flood's new tables: under the server's limit of 5 requests a second
an address (each table takes a request and a socket)."""
SETTLE_S = 5.0
"""After the flood's tables are all open, before the honest table starts."""


async def flood_table(settings: PlayerSettings, recorder: Recorder, index: int) -> None:
    """One of the flood's tables, and the next when its game ends, until cancelled."""
    rng = random.Random(index)
    while not recorder.stopping:
        try:
            table, token = await create_table(settings, FLOOD_ADDRESS)
        except (Refused, OSError, TimeoutError, ValueError) as error:
            recorder.errors[f"flood: {error}"] += 1
            await asyncio.sleep(1.0)
            continue
        recorder.tables_created += 1
        await play_table(settings, recorder, rng, table, token, FLOOD_ADDRESS)


async def honest_table(settings: PlayerSettings, recorder: Recorder) -> None:
    """The honest person's tables, one after another, until cancelled."""
    rng = random.Random(7)
    address = client_address(7)
    while not recorder.stopping:
        table, token = await create_table(settings, address)
        await play_table(settings, recorder, rng, table, token, address)


async def cell(port: int, flood: int, seconds: float) -> dict[str, Any]:
    """The honest table's figures over ``seconds``, beside ``flood`` flooding tables."""
    flooding = Recorder()
    honest = Recorder()
    flood_settings = PlayerSettings(port=port, level="expert", think_s=0.0, pace_ms=0, seats=2)
    honest_settings = PlayerSettings(port=port, level="expert", think_s=1.0, seats=4)
    tasks: list[asyncio.Task[None]] = []
    for index in range(flood):
        tasks.append(asyncio.create_task(flood_table(flood_settings, flooding, index)))
        await asyncio.sleep(RAMP_S)
    await asyncio.sleep(SETTLE_S if flood else 0.0)
    start = time.perf_counter()
    honest.window_start = flooding.window_start = start + 2.0  # the honest table's first deal
    honest.window_end = flooding.window_end = honest.window_start + seconds
    tasks.append(asyncio.create_task(honest_table(honest_settings, honest)))
    await asyncio.sleep(honest.window_end - start)
    honest.stopping = flooding.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    late = sorted(excess for _, excess in honest.step_excess)

    def quantile(share: float) -> float | None:
        return round(late[min(len(late) - 1, int(share * len(late)))] * 1000) if late else None

    return {
        "flood_tables": flood,
        "honest_computer_moves": honest.computer_moves,
        "honest_late_ms_p50": quantile(0.5),
        "honest_late_ms_p90": quantile(0.9),
        "honest_late_ms_max": round(late[-1] * 1000) if late else None,
        "flood_computer_moves": flooding.computer_moves,
        "flood_tables_created": flooding.tables_created,
        "errors": dict(flooding.errors + honest.errors),
    }


def run_cell(source: Path, flood: int, seconds: float) -> dict[str, Any]:
    with LoadServer(source=source) as server:
        found = asyncio.run(cell(server.port, flood, seconds))
        found["server_errors"] = server.error_lines()
    found["code"] = str(source)
    return found


def row(label: str, found: dict[str, Any]) -> str:
    return (
        f"| {label} | {found['flood_tables']} | {found['honest_computer_moves']} | "
        f"{found['honest_late_ms_p50']} / {found['honest_late_ms_p90']} / "
        f"{found['honest_late_ms_max']} | {found['flood_computer_moves']} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    add = parser.add_argument
    add("--before", type=Path, help="a source folder of the code before (a worktree)")
    add("--flood", type=int, default=60, help="the flooding client's expert tables")
    add("--seconds", type=float, default=20.0, help="the measured window")
    add("--repeats", type=int, default=1, help="before/after pairs, interleaved")
    add("--json", type=Path, help="write the cells here")
    args = parser.parse_args(argv)
    print(json.dumps(machine_info(None)), flush=True)
    cells: list[tuple[str, dict[str, Any]]] = []
    cells.append(("alone, this tree", run_cell(THIS_TREE, 0, args.seconds)))
    print(row(*cells[-1]), flush=True)
    for _ in range(args.repeats):
        if args.before is not None:
            cells.append(("flood, before", run_cell(args.before, args.flood, args.seconds)))
            print(row(*cells[-1]), flush=True)
        cells.append(("flood, this tree", run_cell(THIS_TREE, args.flood, args.seconds)))
        print(row(*cells[-1]), flush=True)
    print()
    print(
        f"Over {args.seconds:.0f} s: the honest table's computer moves, and how late they came "
        "beyond their 700 ms pace (ms p50 / p90 / max); the flood's computer moves meanwhile."
    )
    print("| cell | flood tables | honest computer moves | late ms p50 / p90 / max | flood moves |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, found in cells:
        print(row(label, found))
    errors = {label: found["errors"] for label, found in cells if found["errors"]}
    if errors:
        print("errors:", errors)
    if args.json is not None:
        report: dict[str, Any] = {"cells": [dict(found, cell=label) for label, found in cells]}
        report["median_honest_moves"] = {
            label: statistics.median(
                found["honest_computer_moves"] for name, found in cells if name == label
            )
            for label in {name for name, _ in cells}
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
