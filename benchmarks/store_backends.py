"""The store on SQLite and on PostgreSQL, side by side: what each write and read costs.

Three operations, each timed one call at a time (``time.perf_counter``) through the public
``Store`` methods the server calls, on both databases in the same run, interleaved in rounds
(SQLite, PostgreSQL, SQLite, ...) so that the machine's noise falls on both alike:

- ``append``: ``add_action`` on a live table (one transaction: the action, the table's
  version). This is the cost of every acknowledged move.
- ``deals``: ``deals(table)`` of a table of ``DEALS`` deals with ``ACTIONS_PER_DEAL`` actions
  each (what a restore or a record reads).
- ``finish``: the finishing ``add_action`` of a two-account ranked game, which marks it over
  and rates it in the same transaction (reads ratings and the game's actions, writes two
  rated rows and two ratings).

SQLite is a file in a temporary folder (WAL, ``synchronous=FULL``, as served). PostgreSQL is
``--database-url`` (a database the run may fill; it creates its tables) or, by default, a
throwaway server started as the tests start theirs (``tests/services.py``: loopback,
``fsync`` off, so its figures leave out the disk flush that SQLite's include; see the README).

Usage::

    .venv/bin/python benchmarks/store_backends.py --json benchmarks/results/store_backends.json
    .venv/bin/python benchmarks/store_backends.py --quick          # smoke run, a few seconds
    .venv/bin/python benchmarks/store_backends.py --database-url postgresql://u@host/db
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from rummykit.core.cards import standard_deck
from rummykit.core.deal import DealResult, DealSummary
from rummykit.protocol.settings import HumanPlayer, TableSettings
from rummykit.ratings import Pool
from rummykit.server.store.rated import RatedGame
from rummykit.server.store.seat_figures import Played
from rummykit.server.store.store import Store

# run as a script: tests/ holds the throwaway PostgreSQL the tests use
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from services import local_postgres

BACKENDS: Final = ("sqlite", "postgresql")
DEALS: Final = 4
ACTIONS_PER_DEAL: Final = 60
"""A table read back: about a long game's worth of actions (240)."""

ACTION: Final = "0 draw stock"
DECK: Final = standard_deck()


@dataclass
class Timings:
    """Seconds per call, by operation."""

    calls: dict[str, list[float]] = field(default_factory=dict)

    def add(self, operation: str, seconds: float) -> None:
        self.calls.setdefault(operation, []).append(seconds)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` 0.99 for p99)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def timed(timings: Timings, operation: str, call: Callable[[], object]) -> None:
    start = time.perf_counter()
    call()
    timings.add(operation, time.perf_counter() - start)


class Bench:
    """One store and the tables made on it so far."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.prefix = secrets.token_hex(4)  # a database given may hold an earlier run's
        self.tables = 0
        self.live = self.new_table()
        self.seq = 0
        self.read_table = self.new_table()
        for deal in range(DEALS):
            if deal:
                store.add_deal(self.read_table, deal, 0, DECK, seed=deal)
            for seq in range(ACTIONS_PER_DEAL):
                store.add_action(self.read_table, deal, seq, ACTION, [], seat=0, by=Played.PERSON)
        first = store.accounts.add(f"Ada-{self.prefix}", False, "-")
        second = store.accounts.add(f"Bob-{self.prefix}", False, "-")
        assert first is not None and second is not None
        self.accounts = (first.id, second.id)

    def new_table(self, players: int = 2) -> str:
        self.tables += 1
        table_id = f"{self.prefix}-{self.tables}"
        people = tuple(HumanPlayer(kind="human", name=f"P{seat}") for seat in range(players))
        settings = TableSettings(rules="standard", players=people, practice=False)
        self.store.create_table(table_id, settings, {}, (0, DECK, 1))
        return table_id

    def round(self, timings: Timings, appends: int, reads: int, finishes: int) -> None:
        for _ in range(appends):
            self.seq += 1
            timed(
                timings,
                "append",
                lambda: self.store.add_action(
                    self.live, 0, self.seq, ACTION, [], self.seq + 1, seat=0, by=Played.PERSON
                ),
            )
        for _ in range(reads):
            timed(timings, "deals", lambda: self.store.deals(self.read_table))
        for _ in range(finishes):
            self.finish(timings)

    def finish(self, timings: Timings) -> None:
        table_id = self.new_table()
        for seat in range(2):
            self.store.add_action(table_id, 0, seat, ACTION, [], seat + 2, seat=seat)
        out = DealSummary(0, DealResult.OUT, 0, (60, 20))
        rated = RatedGame(table_id, Pool.WINNER, self.accounts, (60, 20), 1, deals=(out,))
        summary = {"players": ["P0", "P1"], "scores": [60, 20]}
        timed(
            timings,
            "finish",
            lambda: self.store.add_action(
                table_id, 0, 2, ACTION, [], 4, finished=summary, rated=rated, seat=0
            ),
        )
        assert self.store.rated_games.was_rated(table_id)


@contextlib.contextmanager
def postgres(url: str | None) -> Iterator[str]:
    if url:
        yield url
        return
    with local_postgres() as (server, _):
        yield server


def run(url: str | None, rounds: int, appends: int, reads: int, finishes: int) -> dict[str, Any]:
    timings = {backend: Timings() for backend in BACKENDS}
    with tempfile.TemporaryDirectory() as folder, postgres(url) as pg_url:
        stores = {"sqlite": Store(Path(folder) / "bench.sqlite3"), "postgresql": Store(pg_url)}
        try:
            benches = {backend: Bench(store) for backend, store in stores.items()}
            for backend in BACKENDS:  # warm-up, untimed
                benches[backend].round(Timings(), 20, 5, 2)
            for _ in range(rounds):
                for backend in BACKENDS:
                    benches[backend].round(timings[backend], appends, reads, finishes)
        finally:
            for store in stores.values():
                store.close()
    return {
        backend: {
            operation: {
                "calls": len(values),
                "p50_ms": round(percentile(values, 0.5) * 1000, 3),
                "p99_ms": round(percentile(values, 0.99) * 1000, 3),
            }
            for operation, values in timing.calls.items()
        }
        for backend, timing in timings.items()
    }


def machine() -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return {
        "nproc": os.cpu_count() or 1,
        "python": platform.python_version(),
        "commit": commit or "unknown",
        "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def table(figures: dict[str, Any]) -> str:
    lines = [
        "| operation | SQLite p50 | SQLite p99 | PostgreSQL p50 | PostgreSQL p99 | calls each |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for operation in figures["sqlite"]:
        cells = [
            f"{figures[backend][operation][key]:.2f} ms"
            for backend in BACKENDS
            for key in ("p50_ms", "p99_ms")
        ]
        calls = figures["sqlite"][operation]["calls"]
        lines.append(f"| {operation} | {' | '.join(cells)} | {calls} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="a PostgreSQL database to use (default: its own)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: a few calls each")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    rounds, appends, reads, finishes = (2, 5, 2, 2) if args.quick else (20, 100, 20, 10)
    figures = run(args.database_url, rounds, appends, reads, finishes)
    report = {
        "machine": machine(),
        "config": {"quick": args.quick, "rounds": rounds, "deals": DEALS},
        "figures": figures,
    }
    print(table(figures))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
