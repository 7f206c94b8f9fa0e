"""Party figures through a real server process: reconnection, the turn timer, loop lag, capacity.

Each part runs against its own ``rummy serve`` on 127.0.0.1 (``load_server.LoadServer``: a
fresh store, the server's defaults, rate limits on, one worker process per core):

- ``reconnect``: people who drop and come back to a live party table mid-game; the time from
  sending ``hello`` (with the last version seen) to the view, for a recent version (the missed
  events, then the view) and for one older than the table keeps (the view alone).
- ``timeout``: 200 timed tables (``turn_timer`` 30, the real one) whose people stop acting,
  all turns running out within a few seconds of each other; how late the computer's first move
  for them arrives after the deadline the view announced.
- ``lag``: the round trip of a cheap message on an idle table, every 50 ms, with the server
  idle and then with 50 tables of ``expert`` computer players thinking at once.
- ``ramp``: four-seat party tables (two people acting as soon as it is their turn, two
  computer players), more and more of them, each count on a fresh server, then counts halfway
  between the last within budget and the first over it: the largest count whose act-to-view
  round trip keeps p99 within 50 ms.

Usage::

    .venv/bin/python benchmarks/parties.py --json benchmarks/results/parties.json  # ~12 min
    .venv/bin/python benchmarks/parties.py --quick                                 # < 1 min
    .venv/bin/python benchmarks/parties.py --only ramp --ramp-tables 100,200,300
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

# run as a script: the repository (for benchmarks.*) and tests/ (for the load modules' player)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests"))
from benchmarks.engine import machine_info, render
from benchmarks.load import Progress, drive
from benchmarks.load_client import PlayerSettings, Recorder, play_table
from benchmarks.load_report import ms, percentile
from benchmarks.load_server import LoadServer, Sample, cpu_percent, sample
from benchmarks.party_load import PARTY_SEATS, PEOPLE, party_addresses, party_player, start_party
from benchmarks.party_probes import (
    MODES,
    Expired,
    Probe,
    Reconnect,
    ReconnectSettings,
    reconnector,
    timed_seat,
)

from rummykit.protocol.facts import BOT_LEVELS

PARTS: Final = ("reconnect", "timeout", "lag", "ramp")
TURN_TIMER: Final = 30
"""The timed tables' timer: the shortest a party may choose."""
PROBE_ADDRESS: Final = "127.255.0.1"
"""The lag probe's own address (the players' are 127.1.x.y and up)."""
EXPIRY_PATIENCE_S: Final = 30.0
"""How long past its turn's timer a timed seat waits for the computer before giving up."""


def spread(values: Sequence[float]) -> dict[str, float | None]:
    """p50, p95, p99, max (and min, for figures that may be negative) of seconds, in ms."""
    return {
        "p50": ms(percentile(values, 0.50)),
        "p95": ms(percentile(values, 0.95)),
        "p99": ms(percentile(values, 0.99)),
        "max": ms(max(values) if values else None),
        "min": ms(min(values) if values else None),
    }


def _server_cost(first: Sample, last: Sample) -> dict[str, float]:
    return {
        "server_cpu_pct": round(cpu_percent(first, last), 1),
        "workers_cpu_pct": round(cpu_percent(first, last, "child_ticks"), 1),
        "machine_cpu_pct": round(cpu_percent(first, last, "machine_busy_ticks"), 1),
        "server_rss_mb": round(last.rss_kb / 1024, 1),
    }


def _num(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


async def _gather_counted(
    jobs: Sequence[Callable[[], Any]], concurrency: int, progress: Progress, label: str
) -> list[Any]:
    """Run ``jobs`` (coroutine functions) ``concurrency`` at a time; their results or errors."""
    results: list[Any] = [None] * len(jobs)
    next_job = 0

    async def worker() -> None:
        nonlocal next_job
        while next_job < len(jobs):
            index, next_job = next_job, next_job + 1
            try:
                results[index] = await jobs[index]()
            except Exception as error:  # counted by the caller, never fatal to the run
                results[index] = error
            progress.say(f"{label}: {next_job}/{len(jobs)}")

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return results


def _error_counts(results: Sequence[Any]) -> dict[str, int]:
    counts = collections.Counter(
        f"{type(each).__name__}: {each}"[:100] for each in results if isinstance(each, Exception)
    )
    return dict(counts)


# ----- 1. reconnection ---------------------------------------------------------------------


async def _reconnect(server: LoadServer, args: argparse.Namespace) -> dict[str, Any]:
    progress = Progress()
    settings = ReconnectSettings(server.port, args.stay, args.gap)
    steady = PlayerSettings(
        port=server.port, level=args.reconnect_level, think_s=args.think, pace_ms=args.pace
    )
    results: list[Reconnect] = []
    errors: collections.Counter[str] = collections.Counter()
    recorder = Recorder()  # the steady people's (no window: it counts only their errors)
    each = math.ceil(2 * args.reconnects / args.reconnect_tables)
    cpus = [args.reconnect_level] * (PARTY_SEATS - PEOPLE)
    games = 0

    async def table(index: int) -> None:
        nonlocal games
        done = 0
        while done < each:
            party = await start_party(server.port, party_addresses(index), cpus)
            rng = random.Random(index)
            steady_task = asyncio.create_task(
                play_table(steady, recorder, rng, party.table, party.tokens[0], party.addresses[0])
            )
            try:
                done += await reconnector(settings, party, 1, each - done, results, errors)
            finally:
                steady_task.cancel()
            games += 1

    async def report() -> None:
        while True:
            await asyncio.sleep(1)
            progress.say(f"reconnect: {len(results):,}/{each * args.reconnect_tables:,} done")

    first = sample(server.pid)
    started = time.perf_counter()
    reporter = asyncio.create_task(report())
    outcomes = await asyncio.gather(
        *(table(index) for index in range(args.reconnect_tables)), return_exceptions=True
    )
    reporter.cancel()
    progress.done()
    seconds = time.perf_counter() - started
    modes: dict[str, Any] = {}
    for mode in MODES:
        mine = [result for result in results if result.mode == mode]
        events = [result.events for result in mine]
        modes[mode] = {
            "reconnects": len(mine),
            "hello_to_view_ms": spread([result.hello_s for result in mine]),
            "open_to_view_ms": spread([result.open_s for result in mine]),
            "missed_events_mean": round(statistics.mean(events), 2) if events else None,
            "missed_events_max": max(events) if events else None,
            "with_missed_events": sum(1 for count in events if count > 0),
            "view_bytes_mean": round(statistics.mean(r.view_bytes for r in mine)) if mine else None,
            "versions_behind_mean": round(statistics.mean(r.version - r.said for r in mine), 1)
            if mine
            else None,
        }
    with_events = [r.hello_s for r in results if r.mode == "recent" and r.events > 0]
    modes["recent, with events"] = {
        "reconnects": len(with_events),
        "hello_to_view_ms": spread(with_events),
    }
    return {
        "tables": args.reconnect_tables,
        "seconds": round(seconds, 1),
        "modes": modes,
        "errors": {**dict(errors), **dict(recorder.errors), **_error_counts(outcomes)},
        "parties_started": games,
        **_server_cost(first, sample(server.pid)),
        "server_log_error_lines": server.error_lines(),
    }


def run_reconnect(args: argparse.Namespace) -> dict[str, Any]:
    with LoadServer() as server:
        result = asyncio.run(_reconnect(server, args))
    rows = [
        [
            mode,
            f"{part['reconnects']:,}",
            *(_num(part["hello_to_view_ms"][key]) for key in ("p50", "p95", "p99", "max")),
            _num(part.get("missed_events_mean"), 2),
            _num(part["open_to_view_ms"]["p95"]) if "open_to_view_ms" in part else "",
        ]
        for mode, part in result["modes"].items()
    ]
    render(
        f"Reconnection: hello to view, ms ({result['tables']} party tables, "
        f"{args.reconnect_level} computers, pace {args.pace} ms)",
        ("hello says", "count", "p50", "p95", "p99", "max", "events", "open→view p95"),
        rows,
    )
    return result


# ----- 2. the turn timer ---------------------------------------------------------------------


async def _timeout(server: LoadServer, args: argparse.Namespace) -> dict[str, Any]:
    progress = Progress()
    tables = args.timeout_tables
    first = sample(server.pid)
    setup_started = time.perf_counter()
    parties = await _gather_counted(
        [
            functools.partial(
                start_party,
                server.port,
                party_addresses(index, 1),
                ["basic"],
                turn_timer=TURN_TIMER,
            )
            for index in range(tables)
        ],
        args.setup_concurrency,
        progress,
        "timeout: starting parties",
    )
    started = [party for party in parties if not isinstance(party, Exception)]
    connected = 0
    go = asyncio.Event()

    def one_more() -> None:
        nonlocal connected
        connected += 1

    patience = TURN_TIMER + EXPIRY_PATIENCE_S
    seats = [
        asyncio.create_task(timed_seat(server.port, party, one_more, go, patience))
        for party in started
    ]
    while connected < len(started) and not all(seat.done() for seat in seats):
        await asyncio.sleep(0.1)
        progress.say(f"timeout: {connected}/{len(started)} seats connected")
    setup_s = time.perf_counter() - setup_started
    go.set()
    go_wall = time.time()
    waiting = asyncio.ensure_future(asyncio.gather(*seats, return_exceptions=True))
    while not waiting.done():
        await asyncio.sleep(1)
        done = sum(1 for seat in seats if seat.done())
        progress.say(f"timeout: {done}/{len(seats)} turns ran out or ended", force=False)
    outcomes = waiting.result()
    progress.done()
    expired = [outcome for outcome in outcomes if isinstance(outcome, Expired)]
    reasons = collections.Counter(outcome for outcome in outcomes if isinstance(outcome, str))
    deadlines = [outcome.deadline for outcome in expired]
    return {
        "tables": tables,
        "turn_timer_s": TURN_TIMER,
        "parties_started": len(started),
        "setup_s": round(setup_s, 1),
        "expired": len(expired),
        "lateness_ms": spread([outcome.lateness_s for outcome in expired]),
        "same_clock_lateness_ms": spread([outcome.same_clock_s for outcome in expired]),
        "deadlines_after_go_s": {
            "first": round(min(deadlines) - go_wall, 2) if deadlines else None,
            "last": round(max(deadlines) - go_wall, 2) if deadlines else None,
        },
        "no_expiry": dict(reasons),
        "errors": {**_error_counts(parties), **_error_counts(outcomes)},
        **_server_cost(first, sample(server.pid)),
        "server_log_error_lines": server.error_lines(),
    }


def run_timeout(args: argparse.Namespace) -> dict[str, Any]:
    with LoadServer() as server:
        result = asyncio.run(_timeout(server, args))
    window = result["deadlines_after_go_s"]
    rows = [
        [
            name,
            f"{result['expired']:,}",
            *(_num(result[key][part], 1) for part in ("min", "p50", "p95", "p99", "max")),
        ]
        for name, key in (
            ("client's estimate", "lateness_ms"),
            ("shared clock", "same_clock_lateness_ms"),
        )
    ]
    render(
        f"Turn timer: the computer's first move after the deadline, ms ({result['tables']} "
        f"tables, {TURN_TIMER} s timer; deadlines {window['first']}-{window['last']} s after "
        "the signal to play one turn)",
        ("lateness", "expired", "min", "p50", "p95", "p99", "max"),
        rows,
    )
    return result


# ----- 3. event-loop lag -------------------------------------------------------------------


def _probes(probe: Probe, start: float, end: float) -> dict[str, Any]:
    now = time.perf_counter()
    taken = [took for sent, took in probe.samples if start <= sent < end]
    late = [took for sent, took in probe.unanswered(now) if start <= sent < end]
    return {"probes": len(taken) + len(late), "unanswered": len(late), **spread(taken + late)}


async def _lag(server: LoadServer, args: argparse.Namespace) -> dict[str, Any]:
    progress = Progress()
    probe = await Probe.open(server.port, PROBE_ADDRESS)
    probing = asyncio.create_task(probe.run(args.lag_every))
    idle_start, first = time.perf_counter(), sample(server.pid)
    await asyncio.sleep(args.lag_idle)
    idle_end, idle_last = time.perf_counter(), sample(server.pid)
    idle = {**_probes(probe, idle_start, idle_end), **_server_cost(first, idle_last)}
    settings = PlayerSettings(
        port=server.port, level=args.lag_level, think_s=0.0, pace_ms=args.lag_pace
    )
    recorder = Recorder()
    timing = argparse.Namespace(ramp_rate=args.ramp_rate, warmup=args.warmup)
    players, _ = await drive(
        server, settings, args.lag_tables, timing, progress, args.lag_seconds, recorder=recorder
    )
    loaded = _probes(probe, recorder.window_start, recorder.window_end)
    probing.cancel()
    await probe.close()
    ratio = round(loaded["p99"] / idle["p99"], 1) if loaded["p99"] and idle["p99"] else None
    return {
        "tables": args.lag_tables,
        "level": args.lag_level,
        "pace_ms": args.lag_pace,
        "every_ms": args.lag_every * 1000,
        "idle": idle,
        "loaded": loaded,
        "p99_ratio": ratio,
        "skipped_probes": probe.skipped,
        "players": players,
    }


def run_lag(args: argparse.Namespace) -> dict[str, Any]:
    with LoadServer() as server:
        result = asyncio.run(_lag(server, args))
    players = result["players"]
    rows = [
        [
            name,
            f"{part['probes']:,}",
            *(_num(part[key]) for key in ("p50", "p95", "p99", "max")),
            _num(cpu.get("server_cpu_pct"), 0),
            _num(cpu.get("workers_cpu_pct"), 0),
        ]
        for name, part, cpu in (
            ("idle", result["idle"], result["idle"]),
            (f"{result['tables']} {result['level']} tables", result["loaded"], players),
        )
    ]
    render(
        f"Event-loop lag: a refused hello's round trip every {result['every_ms']:.0f} ms, ms "
        f"(p99 ratio {result['p99_ratio']}×)",
        ("server", "probes", "p50", "p95", "p99", "max", "srv CPU%", "wrk CPU%"),
        rows,
    )
    return result


# ----- 4. how many party tables ------------------------------------------------------------

NOT_FOR_PARTIES: Final = (
    "computer_step_beyond_pace_ms",
    "computer_steps",
    "computer_moves_per_s",
    "wait_between_turns_s",
)
"""The load run's figures that take seat 0 for the only person: wrong at a party (dropped)."""


def _ramp_step(args: argparse.Namespace, tables: int, progress: Progress) -> dict[str, Any]:
    """``tables`` party tables on a fresh server: their figures, and whether within budget."""
    progress.say(f"ramp: {tables} party tables", force=True)
    timing = argparse.Namespace(ramp_rate=args.ramp_rate, warmup=args.warmup)
    with LoadServer() as server:
        settings = PlayerSettings(server.port, args.ramp_level, args.ramp_think)
        result, _ = asyncio.run(
            drive(
                server,
                settings,
                tables,
                timing,
                progress,
                args.ramp_seconds,
                make_player=party_player,
            )
        )
    for key in NOT_FOR_PARTIES:
        result.pop(key, None)
    p99 = result["round_trip_ms"]["p99"]
    within = p99 is not None and p99 <= args.budget_ms and result["unanswered"] == 0
    return {"tables": tables, "within_budget": within, **result}


def largest_within(steps: Sequence[dict[str, Any]]) -> int | None:
    """The largest count within budget below the smallest count over it."""
    over = min((step["tables"] for step in steps if not step["within_budget"]), default=math.inf)
    return max(
        (step["tables"] for step in steps if step["within_budget"] and step["tables"] < over),
        default=None,
    )


def next_between(steps: Sequence[dict[str, Any]]) -> int | None:
    """The count halfway between the largest within budget and the smallest over it (a
    multiple of 5), if there is room for one."""
    below = largest_within(steps)
    over = min((step["tables"] for step in steps if not step["within_budget"]), default=None)
    if below is None or over is None:
        return None
    middle = round((below + over) / 2 / 5) * 5
    return middle if below < middle < over else None


def run_ramp(args: argparse.Namespace) -> dict[str, Any]:
    progress = Progress()
    steps: list[dict[str, Any]] = []
    for tables in args.ramp_tables:
        steps.append(_ramp_step(args, tables, progress))
        if not steps[-1]["within_budget"] and not args.ramp_all:
            break
    for _ in range(args.refine):
        middle = next_between(steps)
        if middle is None:
            break
        steps.append(_ramp_step(args, middle, progress))
    steps.sort(key=lambda step: int(step["tables"]))
    largest = largest_within(steps)
    render(
        f"Party tables (2 people acting at once, 2 {args.ramp_level} computers): act to view, "
        f"ms, over {args.ramp_seconds:.0f} s",
        (
            "tables",
            "actions",
            "p50",
            "p90",
            "p99",
            "max",
            "srv CPU%",
            "wrk CPU%",
            "gen CPU%",
            "others%",
            "gen lag p99",
            "err/ref",
            f"≤{args.budget_ms:.0f}",
        ),
        [
            [
                str(step["tables"]),
                f"{step['actions']:,}",
                *(_num(step["round_trip_ms"][key]) for key in ("p50", "p90", "p99", "max")),
                _num(step["server_cpu_pct"], 0),
                _num(step["workers_cpu_pct"], 0),
                _num(step["generator_cpu_pct"], 0),
                _num(step["other_processes_cpu_pct"], 0),
                _num(step["generator_loop_lag_ms"]["p99"]),
                f"{sum(step['errors'].values()) + step['unanswered']}"
                f"/{sum(step['refusals'].values())}",
                "yes" if step["within_budget"] else "no",
            ]
            for step in steps
        ],
    )
    print(f"largest count within p99 ≤ {args.budget_ms:.0f} ms: {largest}")
    return {
        "level": args.ramp_level,
        "think_s": args.ramp_think,
        "budget_ms": args.budget_ms,
        "largest_within_budget": largest,
        "steps": steps,
    }


# ----- the command -------------------------------------------------------------------------

FULL: Final[dict[str, Any]] = {
    "reconnect_tables": 25,
    "reconnects": 500,
    "stay": 1.0,
    "gap": 1.0,
    "timeout_tables": 200,
    "lag_tables": 50,
    "lag_idle": 20.0,
    "lag_seconds": 40.0,
    "ramp_tables": [25, 50, 100, 200, 400],
    "ramp_seconds": 30.0,
    "warmup": 5.0,
}
QUICK: Final[dict[str, Any]] = {
    "reconnect_tables": 2,
    "reconnects": 6,
    "stay": 0.3,
    "gap": 0.5,
    "timeout_tables": 4,
    "lag_tables": 2,
    "lag_idle": 1.5,
    "lag_seconds": 2.0,
    "ramp_tables": [2],
    "ramp_seconds": 2.0,
    "warmup": 0.5,
}
"""``--quick``: every part in miniature (the timer part still waits its real 30 s)."""


def _numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def _parts(text: str) -> list[str]:
    parts = [part for part in text.split(",") if part]
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown part {unknown[0]!r}: {', '.join(PARTS)}")
    return parts


def _level(text: str) -> str:
    if text not in BOT_LEVELS:
        raise argparse.ArgumentTypeError(f"unknown level {text!r}: {', '.join(BOT_LEVELS)}")
    return text


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    add = parser.add_argument
    add("--only", type=_parts, default=list(PARTS), help=f"parts to run ({','.join(PARTS)})")
    add("--quick", action="store_true", help="every part in miniature (under a minute)")
    add("--json", type=Path, help="write the figures here")
    add("--reconnect-tables", type=int, help="party tables whose second person reconnects")
    add("--reconnects", type=int, help="reconnections of each kind (recent, full)")
    add("--stay", type=float, help="mean seconds connected between drops")
    add("--gap", type=float, help="seconds away before coming back")
    add("--reconnect-level", type=_level, default="strong", help="their computer players")
    add("--think", type=float, default=0.3, help="reconnect: the other person's think time")
    add("--pace", type=int, default=300, help="reconnect: the computer players' pace, ms")
    add("--timeout-tables", type=int, help="timed tables (one person, one computer player)")
    add("--setup-concurrency", type=int, default=10, help="parties started at once")
    add("--lag-tables", type=int, help="tables of computer players thinking")
    add("--lag-level", type=_level, default="expert", help="their level")
    add("--lag-pace", type=int, default=0, help="their pace, ms (0: think back to back)")
    add("--lag-idle", type=float, help="seconds of probes with the server idle")
    add("--lag-seconds", type=float, help="seconds of probes under load")
    add("--lag-every", type=float, default=0.05, help="seconds between probes")
    add("--ramp-tables", type=_numbers, help="party table counts, in order (25,50,100)")
    add("--ramp-level", type=_level, default="strong", help="the parties' computer players")
    add("--ramp-think", type=float, default=0.0, help="the people's think time, seconds")
    add("--ramp-seconds", type=float, help="the measured window of each count")
    add("--ramp-all", action="store_true", help="run every count, even past the budget")
    add(
        "--refine",
        type=int,
        default=2,
        help="counts tried between the last within budget and the first over it",
    )
    add("--budget-ms", type=float, default=50.0, help="the round trip's p99 budget")
    add("--warmup", type=float, help="seconds between the last table and a window")
    add("--ramp-rate", type=float, default=20.0, help="tables started a second")
    args = parser.parse_args(argv)
    for key, value in (QUICK if args.quick else FULL).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    return args


RUNS: Final[dict[str, Callable[[argparse.Namespace], dict[str, Any]]]] = {
    "reconnect": run_reconnect,
    "timeout": run_timeout,
    "lag": run_lag,
    "ramp": run_ramp,
}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report: dict[str, Any] = {
        "machine": machine_info(None),
        "command": " ".join(["benchmarks/parties.py", *(sys.argv[1:] if argv is None else argv)]),
        "config": {
            key: str(value) if isinstance(value, Path) else value
            for key, value in vars(args).items()
        },
    }
    for part in args.only:
        started = time.perf_counter()
        report[part] = RUNS[part](args)
        report[part]["run_s"] = round(time.perf_counter() - started, 1)
        if args.json is not None:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
