"""Concurrent writes to the SQLite store, side by side for several source folders.

What a busy server asks of the store: many tables' ``add_action`` at once, from the threads
``asyncio.to_thread`` lends, while pages read (``version``). Each source folder's ``Store``
runs in a process of its own (``PYTHONPATH=<source>/src``), on a fresh file in WAL with
``synchronous=FULL`` as served, and the sources take turns round by round, so the machine's
noise falls on each alike.

Per thread count: writes a second, a write's latency (p50, p99), and the latency of a read
made while the writes run.

Usage::

    .venv/bin/python benchmarks/store_writes.py --sources /tmp/before,. --threads 1,6,16
    .venv/bin/python benchmarks/store_writes.py --quick        # smoke run, a few seconds
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

TABLES: Final = 64
"""Live tables the writes spread over."""


def measure(threads: int, writes: int, folder: str) -> dict[str, Any]:
    """One run in this process: ``writes`` actions over ``threads`` threads, one reader beside."""
    from rummykit.core.cards import standard_deck
    from rummykit.protocol.settings import HumanPlayer, TableSettings
    from rummykit.server.store.store import Store

    store = Store(Path(folder) / "store.sqlite3")
    deck = standard_deck(1, 0)
    ids = [f"t{index}" for index in range(TABLES)]
    people = tuple(HumanPlayer(kind="human", name=f"P{seat}") for seat in range(2))
    for table_id in ids:
        settings = TableSettings(rules="standard", players=people, practice=False)
        store.create_table(table_id, settings, {}, (0, deck, 1))
    next_seq = dict.fromkeys(ids, 0)
    seq_lock = threading.Lock()

    def write(index: int) -> float:
        table_id = ids[index % TABLES]
        with seq_lock:
            seq = next_seq[table_id]
            next_seq[table_id] += 1
        began = time.perf_counter()
        store.add_action(table_id, 0, seq, "0 draw stock", (), seq + 1, seat=0)
        return time.perf_counter() - began

    reads: list[float] = []
    writing = threading.Event()

    def reader() -> None:
        while writing.is_set():
            began = time.perf_counter()
            store.version(ids[len(reads) % TABLES])
            reads.append(time.perf_counter() - began)

    writing.set()
    watcher = threading.Thread(target=reader)
    began = time.perf_counter()
    watcher.start()
    with ThreadPoolExecutor(threads) as pool:
        latencies = sorted(pool.map(write, range(writes)))
    elapsed = time.perf_counter() - began
    writing.clear()
    watcher.join()
    store.close()
    reads.sort()
    return {
        "writes_per_s": writes / elapsed,
        "write_p50_ms": 1000 * latencies[len(latencies) // 2],
        "write_p99_ms": 1000 * latencies[int(len(latencies) * 0.99)],
        "read_p99_ms": 1000 * reads[int(len(reads) * 0.99)] if reads else 0.0,
        "reads": len(reads),
    }


def _run_source(source: Path, threads: int, writes: int) -> dict[str, Any]:
    environment = dict(os.environ, PYTHONPATH=str(source.resolve() / "src"))
    with tempfile.TemporaryDirectory(dir=os.environ.get("STORE_WRITES_DIR")) as folder:
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(threads), str(writes), folder],
            env=environment,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    return dict(json.loads(out))


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", default=".", help="source folders, comma separated")
    parser.add_argument("--threads", default="1,6,16", help="writer thread counts")
    parser.add_argument("--writes", type=int, default=3000, help="writes per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each cell (median kept)")
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        threads, writes, folder = args.child
        print(json.dumps(measure(int(threads), int(writes), folder)))
        return 0
    if args.quick:
        args.threads, args.writes, args.rounds = "1,4", 200, 1
    sources = [Path(each) for each in args.sources.split(",")]
    counts = [int(each) for each in args.threads.split(",")]
    figures: dict[tuple[str, int], list[dict[str, Any]]] = {}
    cells = [(source, threads) for threads in counts for source in sources]
    for round_number in range(args.rounds):
        for done, (source, threads) in enumerate(cells, 1):
            print(
                f"\rround {round_number + 1}/{args.rounds}: {done}/{len(cells)}",
                end="",
                file=sys.stderr,
                flush=True,
            )
            got = _run_source(source, threads, args.writes)
            figures.setdefault((str(source), threads), []).append(got)
    print(file=sys.stderr)
    rows = []
    print("| source | threads | writes/s | write p50 ms | write p99 ms | read p99 ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for (name, threads), runs in figures.items():
        row = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        rows.append({"source": name, "threads": threads, **row})
        print(
            f"| {name} | {threads} | {row['writes_per_s']:,.0f} | {row['write_p50_ms']:.2f} "
            f"| {row['write_p99_ms']:.2f} | {row['read_p99_ms']:.2f} |"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
