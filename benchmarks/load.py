"""N live four-seat tables through the server on loopback: round trips, server CPU and memory.

The server runs as its own process (``rummy serve`` on 127.0.0.1, a fresh store each run), so
its CPU and memory are its own; this process drives it with one asyncio ``websockets`` client
per simulated person (``load_client``), each alone with three computer players of one level at
their default pace (700 ms, what people see), thinking about a second before each action.
Tables are created gradually, warmed up, then measured for a window.

    # the matrix: each cell on a fresh server
    .venv/bin/python benchmarks/load.py --tables 50,100,250,500 --levels basic,strong,expert \\
        --seconds 60 --json benchmarks/results/load.json
    # a soak at one load: memory and p99 minute by minute
    .venv/bin/python benchmarks/load.py --soak 600 --tables 250 --levels strong \\
        --json benchmarks/results/load-soak.json --plot benchmarks/results/load-soak.png
    # memory after 10,000 tables have come and gone
    .venv/bin/python benchmarks/load.py --churn 10000 --levels basic \\
        --json benchmarks/results/load-churn.json
    # one process on SQLite against two on PostgreSQL and Redis, cell by cell
    .venv/bin/python benchmarks/load.py --compare --tables 250,500,750 --levels strong \\
        --json benchmarks/results/load-cluster.json

With ``--processes 2`` (or ``--compare``) the site is two ``rummy serve`` processes sharing a
throwaway PostgreSQL and Redis (``ClusterServers``); each player makes its tables on one and
opens its sockets on one, in turn, so half the sockets are relayed to the table's owner.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

# run as a script: the repository (for benchmarks.*) and tests/ (the tests' player and server)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests"))
from benchmarks.engine import machine_info, render
from benchmarks.load_client import PlayerSettings, Recorder, churn_table, player, watch_loop
from benchmarks.load_report import (
    CELL_HEADERS,
    cell_row,
    memory,
    minutes,
    plot_soak,
    setup_name,
    summarize,
    trend,
)
from benchmarks.load_server import ClusterServers, LoadServer, Sample, Site

from rummykit.protocol.facts import BOT_LEVELS

GOAL_P99_MS = 50.0
"""The round trip a site must keep at p99 to be said to hold its tables (issues 8 and 12)."""
GRACE_S = 5.0
"""After the window, time for the actions sent in it to be answered before they are counted
as unanswered (with the time they waited so far)."""
MakePlayer = Callable[[int, PlayerSettings, Recorder], Coroutine[Any, Any, None]]
"""Plays table ``index`` (its people, table after table) until cancelled: ``player``."""
PROGRESS_EVERY_S = 10.0
"""A progress line this often when the output is not a terminal (a log file)."""


class Progress:
    """One status line on stderr: rewritten in place on a terminal, else every 10 s."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def say(self, text: str, *, force: bool = False) -> None:
        now = time.monotonic()
        if self.tty:
            print(f"\r\033[K{text}", end="", file=sys.stderr, flush=True)
        elif force or now - self.last >= PROGRESS_EVERY_S:
            print(text, file=sys.stderr, flush=True)
            self.last = now

    def done(self) -> None:
        if self.tty:
            print(file=sys.stderr)


def _status(label: str, recorder: Recorder, server: Site) -> str:
    reading = server.sample()
    return (
        f"{label}: {recorder.tables_open} tables open, {len(recorder.round_trips):,} actions "
        f"timed, RSS {reading.rss_kb / 1024:.0f} MB, errors {sum(recorder.errors.values())}"
    )


def _cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


async def _wait(seconds: float, tick: Callable[[], None]) -> None:
    """Sleep ``seconds``, calling ``tick`` about every second."""
    deadline = time.perf_counter() + seconds
    while (left := deadline - time.perf_counter()) > 0:
        await asyncio.sleep(min(1.0, left))
        tick()


STOP_S = 30.0
"""Time for the players to leave once cancelled, before they are counted as stuck."""


async def _stop(recorder: Recorder, tasks: list[asyncio.Task[None]]) -> None:
    """Cancel every player and wait for them (a bounded while: a stuck one is reported)."""
    recorder.stopping = True
    for task in tasks:
        task.cancel()
    _, stuck = await asyncio.wait(tasks, timeout=STOP_S)
    if stuck:
        recorder.errors["players that did not stop when cancelled"] += len(stuck)


async def drive(
    server: Site,
    settings: PlayerSettings,
    tables: int,
    args: argparse.Namespace,
    progress: Progress,
    seconds: float,
    slice_s: float | None = None,
    *,
    make_player: MakePlayer = player,
    recorder: Recorder | None = None,
) -> tuple[dict[str, Any], list[Any]]:
    """``tables`` players against ``server``: ramp up, warm up, measure ``seconds``.

    With ``slice_s`` the window is also cut in slices (the soak's minutes). ``make_player``
    plays each table (the parties benchmark passes its parties'); ``recorder`` keeps what
    they saw (pass one to read its window afterwards).
    """
    recorder = Recorder() if recorder is None else recorder
    label = f"{tables} tables, {settings.level}"
    watcher = asyncio.create_task(watch_loop(recorder))
    players: list[asyncio.Task[None]] = []
    for index in range(tables):
        players.append(asyncio.create_task(make_player(index, settings, recorder)))
        await asyncio.sleep(1 / args.ramp_rate)
        progress.say(f"{label}: ramping up, {index + 1}/{tables} players")
    await _wait(
        args.warmup, lambda: progress.say(_status(f"{label}: warming up", recorder, server))
    )
    load_average = os.getloadavg()
    recorder.window_start = time.perf_counter()
    first, cpu_before = server.sample(), _cpu_seconds()
    readings: list[tuple[float, Sample]] = [(recorder.window_start, first)]

    def tick() -> None:
        now = time.perf_counter()
        # a reading at each slice's end (ticks come about every second: a little early is fine)
        if slice_s is not None and now >= recorder.window_start + slice_s * len(readings) - 0.25:
            readings.append((now, server.sample()))
        done = now - recorder.window_start
        progress.say(_status(f"{label}: measuring {done:.0f}/{seconds:.0f} s", recorder, server))

    await _wait(seconds, tick)
    recorder.window_end = time.perf_counter()
    last, cpu_after = server.sample(), _cpu_seconds()
    if slice_s is not None and recorder.window_end - readings[-1][0] > slice_s / 2:
        readings.append((recorder.window_end, last))
    grace_end = time.perf_counter() + GRACE_S  # for the window's last actions to be answered
    while time.perf_counter() < grace_end and any(
        map(recorder.in_window, recorder.in_flight.values())
    ):
        await asyncio.sleep(0.1)
    now = time.perf_counter()
    unanswered = [now - sent for sent in recorder.in_flight.values() if recorder.in_window(sent)]
    await _stop(recorder, [*players, watcher])
    progress.done()
    result = summarize(recorder, first, last, cpu_after - cpu_before, unanswered)
    result["server_log_error_lines"] = server.error_lines()
    result["load_average_before_window"] = [round(value, 2) for value in load_average]
    slices = minutes(recorder, readings) if slice_s is not None else []
    return result, slices


def _settings(server: Site, level: str, args: argparse.Namespace) -> PlayerSettings:
    site = server.ports if len(server.ports) > 1 else ()
    return PlayerSettings(
        port=server.port,
        level=level,
        think_s=args.think,
        pace_ms=args.pace,
        site=site,
        seats=args.seats,
    )


def _site(
    args: argparse.Namespace, processes: int, source: Path | None = None, name: str = "run"
) -> LoadServer | ClusterServers:
    """One process on SQLite, or ``processes`` on a shared PostgreSQL and Redis.

    ``source``: the source folder the one process runs (a worktree of an earlier commit);
    ``name``: the run's name for its profile, with ``--profile``.
    """
    if processes == 1:
        profile = None if args.profile is None else args.profile / f"{name}.prof"
        if profile is not None:
            args.profile.mkdir(parents=True, exist_ok=True)
        return LoadServer(keep_logs=args.logs, source=source, profile=profile)
    return ClusterServers(processes, keep_logs=args.logs)


def _config(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "processes": [1, 2] if args.compare else [args.processes],
        "think_s": args.think,
        "pace_ms": args.pace or 700,
        "warmup_s": args.warmup,
        "ramp_tables_per_s": args.ramp_rate,
        "seats": args.seats,
        "preset": "classic",
        "sources": [str(source) for source in args.sources if source is not None],
    }


def run_matrix(args: argparse.Namespace, report: dict[str, Any]) -> None:
    progress = Progress()
    sites = (1, 2) if args.compare else (args.processes,)
    setups = [(processes, source) for processes in sites for source in args.sources]
    cells = [(level, tables) for level in args.levels for tables in args.tables]
    runs = [
        # side by side, and which setup goes first alternates: neither always meets the
        # machine fresher than the other
        (level, tables, processes, source)
        for number, (level, tables) in enumerate(cells)
        for processes, source in (setups if number % 2 == 0 else setups[::-1])
    ]
    for number, (level, tables, processes, source) in enumerate(runs, start=1):
        setup = {"processes": processes, "source": str(source) if source else None}
        name = setup_name(setup)
        progress.say(f"run {number}/{len(runs)}: {tables} tables, {level}, {name}", force=True)
        with _site(args, processes, source, f"{number}-{tables}-{level}") as server:
            settings = _settings(server, level, args)
            result, _ = asyncio.run(drive(server, settings, tables, args, progress, args.seconds))
        report["runs"].append({"tables": tables, "level": level, **setup, **result})
        _save(args, report)
    rows = [cell_row(result) for result in report["runs"]]
    render(
        f"Round trips over {args.seconds:.0f} s (ms); step+ = a computer step beyond its pace "
        "(ms); CPU in % of one core; err/ref = errors (and unanswered) / refusals",
        CELL_HEADERS,
        rows,
    )
    report["holds"] = holds(report["runs"])
    _save(args, report)
    for line in capacity_lines(report["holds"]):
        print(line)


def holds(runs: list[dict[str, Any]]) -> dict[str, dict[str, int | None]]:
    """By level and site: the most tables measured with round trip p99 within the goal (and
    with no errors), and the fewest measured beyond it."""
    found: dict[str, dict[str, int | None]] = {}
    for run in runs:
        key = f"{run['level']}, {setup_name(run)}"
        entry = found.setdefault(key, {"held": None, "not_held": None})
        p99 = run["round_trip_ms"]["p99"]
        ok = p99 is not None and p99 <= GOAL_P99_MS and not run["errors"] and not run["unanswered"]
        slot, better = ("held", max) if ok else ("not_held", min)
        current = entry[slot]
        entry[slot] = run["tables"] if current is None else better(current, run["tables"])
    return found


def capacity_lines(found: dict[str, dict[str, int | None]]) -> list[str]:
    """``holds`` in words, one line a level and site."""
    lines = []
    for key, entry in found.items():
        held = "none measured" if entry["held"] is None else f"{entry['held']} tables"
        beyond = "" if entry["not_held"] is None else f"; not {entry['not_held']}"
        lines.append(f"{key}: held at p99 <= {GOAL_P99_MS:.0f} ms: {held}{beyond}")
    return lines


def run_soak(args: argparse.Namespace, report: dict[str, Any]) -> None:
    level, tables = args.levels[0], args.tables[0]
    with _site(args, args.processes) as server:
        settings = _settings(server, level, args)
        result, slices = asyncio.run(
            drive(server, settings, tables, args, Progress(), args.soak, args.slice)
        )
    report["soak"] = {
        "tables": tables,
        "level": level,
        "processes": args.processes,
        "slice_s": args.slice,
        **result,
        "slices": slices,
        "trend": trend(slices),
    }
    _save(args, report)
    render(
        f"Soak: {tables} tables, {level}, {args.soak:.0f} s in slices of {args.slice:.0f} s",
        ("slice", "actions", "p50 ms", "p99 ms", "max ms", "srv CPU%", "RSS MB", "peak MB"),
        [
            [
                f"{row['minute']:.1f}",
                f"{row['actions']:,}",
                f"{row['round_trip_ms']['p50'] or 0:.1f}",
                f"{row['round_trip_ms']['p99'] or 0:.1f}",
                f"{row['round_trip_ms']['max'] or 0:.0f}",
                f"{row['server_cpu_pct']:.0f}",
                f"{row['rss_mb']:.1f}",
                f"{row['peak_rss_mb']:.1f}",
            ]
            for row in slices
        ],
    )
    print(json.dumps(report["soak"]["trend"], indent=2))
    if args.plot is not None:
        title = f"rummykit soak: {tables} tables, {level}"
        if plot_soak(slices, args.plot, title):
            print(f"plot: {args.plot}")
        else:
            print("matplotlib is not installed: no plot (the table above has the figures)")


async def churn(
    server: LoadServer, settings: PlayerSettings, args: argparse.Namespace
) -> dict[str, Any]:
    """``args.churn`` tables made, played a little and closed, then left to go idle."""
    recorder = Recorder(window_start=0.0)
    progress = Progress()
    for index in range(args.concurrency):  # every module loaded before "before" is read
        await churn_table(index, settings, recorder, args.churn_actions)
    await asyncio.sleep(2)
    before = server.sample()
    trace: list[tuple[float, float]] = []
    next_index = args.concurrency

    async def worker() -> None:
        nonlocal next_index
        while next_index < args.concurrency + args.churn:
            index, next_index = next_index, next_index + 1
            await churn_table(index, settings, recorder, args.churn_actions)

    async def watch() -> None:
        while True:
            reading = server.sample()
            trace.append((round(reading.wall - before.wall, 1), round(reading.rss_kb / 1024, 1)))
            made = next_index - args.concurrency
            progress.say(
                f"churn: {made:,}/{args.churn:,} tables, RSS {reading.rss_kb / 1024:.0f} MB"
            )
            await asyncio.sleep(1)

    started = time.monotonic()
    watcher = asyncio.create_task(watch())
    await asyncio.gather(*(worker() for _ in range(args.concurrency)))
    churn_s = time.monotonic() - started
    at_end = server.sample()
    idle_s = args.idle_table_seconds + 2  # the lobby sweeps at least as often as that
    progress.say(f"churn done in {churn_s:.0f} s; waiting {idle_s:.0f} s for the tables to go idle")
    await asyncio.sleep(idle_s)
    # the lobby sweeps when asked for a table (it has no timer of its own): ask once
    await churn_table(0, settings, recorder, 0)
    await asyncio.sleep(2)
    after = server.sample()
    watcher.cancel()
    progress.done()
    return {
        "tables": args.churn,
        "concurrency": args.concurrency,
        "actions_a_table": args.churn_actions,
        "idle_table_s": args.idle_table_seconds,
        "churn_s": round(churn_s, 1),
        "before": memory(before),
        "at_end_of_churn": memory(at_end),
        "peak_rss_mb": max(rss for _, rss in trace) if trace else None,
        "after_idle": memory(after),
        "rss_trace_mb": trace,
        "errors": dict(recorder.errors),
        "refusals": dict(recorder.refusals),
        "tables_created": recorder.tables_created,
        "server_log_error_lines": server.error_lines(),
    }


def run_churn(args: argparse.Namespace, report: dict[str, Any]) -> None:
    with LoadServer(idle_table_s=args.idle_table_seconds, keep_logs=args.logs) as server:
        settings = _settings(server, args.levels[0], args)
        result = asyncio.run(churn(server, settings, args))
    report["churn"] = {"level": args.levels[0], **result}
    _save(args, report)
    render(
        f"Memory with {args.churn:,} tables come and gone ({args.levels[0]}, "
        f"{args.churn_actions} actions each, idle after {args.idle_table_seconds:.0f} s)",
        ("moment", "RSS MB", "peak RSS MB"),
        [
            [name, f"{result[key]['rss_mb']:.1f}", f"{result[key]['peak_rss_mb']:.1f}"]
            for name, key in (
                ("before", "before"),
                ("at the end of the churn", "at_end_of_churn"),
                ("after they went idle", "after_idle"),
            )
        ],
    )
    print(f"errors {result['errors']}, refusals {result['refusals']}")


def _save(args: argparse.Namespace, report: dict[str, Any]) -> None:
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


def _numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def _folders(text: str) -> list[Path | None]:
    return [Path(part) for part in text.split(",") if part]


def _levels(text: str) -> list[str]:
    levels = [part for part in text.split(",") if part]
    unknown = [level for level in levels if level not in BOT_LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown level {unknown[0]!r}: {', '.join(BOT_LEVELS)}")
    return levels


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    add = parser.add_argument
    add("--tables", type=_numbers, default=[50, 100, 250, 500], help="table counts (50,100)")
    add("--levels", type=_levels, default=["basic", "strong", "expert"], help="computer levels")
    add("--seconds", type=float, default=60.0, help="the measured window of each run")
    add("--warmup", type=float, default=10.0, help="seconds between the last table and the window")
    add("--ramp-rate", type=float, default=20.0, help="tables created a second while ramping up")
    add("--think", type=float, default=1.0, help="the person's mean think time, seconds")
    add("--pace", type=int, help="the computer's pace in ms (default: the table's, 700)")
    add("--json", type=Path, help="write the figures here")
    add("--soak", type=float, help="a soak of this many seconds at --tables/--levels (first)")
    add("--slice", type=float, default=60.0, help="the soak's slice, seconds")
    add("--plot", type=Path, help="the soak's plot (PNG; needs matplotlib)")
    add("--churn", type=int, help="make, play a little and close this many tables")
    add("--concurrency", type=int, default=50, help="churn: tables in play at once")
    add("--churn-actions", type=int, default=4, help="churn: the person's actions a table")
    add("--idle-table-seconds", type=float, default=60.0, help="churn: the server's idle time")
    add(
        "--processes",
        type=int,
        default=1,
        help="server processes: 1 on SQLite, or more on a throwaway PostgreSQL and Redis",
    )
    add("--compare", action="store_true", help="each cell on 1 process and on 2, side by side")
    add("--logs", type=Path, help="copy the servers' logs into this folder after each run")
    add("--seats", type=int, default=4, help="seats a table: the person and the computers")
    add(
        "--sources",
        type=_folders,
        default=[None],
        help="source folders the one-process server runs, each cell on each, side by side "
        "(a worktree of an earlier commit for a before and after: /work/main,.)",
    )
    add("--profile", type=Path, help="one process: write each run's cProfile into this folder")
    args = parser.parse_args(argv)
    if args.sources != [None] and (args.processes > 1 or args.compare):
        parser.error("--sources compares one process's code: leave out --processes")
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.churn is not None and (args.processes > 1 or args.compare):
        parser.error("--churn measures one process (its memory): leave out --processes")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report: dict[str, Any] = {
        "machine": machine_info(None),
        "command": " ".join(["benchmarks/load.py", *(sys.argv[1:] if argv is None else argv)]),
        "config": _config(args),
        "runs": [],
    }
    if args.churn is not None:
        run_churn(args, report)
    elif args.soak is not None:
        run_soak(args, report)
    else:
        run_matrix(args, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
