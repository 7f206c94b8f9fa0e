"""The load run's figures: percentiles, one summary a run, the soak's minutes and their trend."""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.load_client import Recorder
from benchmarks.load_server import Sample, cpu_percent


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """The nearest-rank percentile (``fraction`` 0.99 for p99); ``None`` without values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


def mb(kb: int) -> float:
    return round(kb / 1024, 1)


def spread(values: Sequence[float]) -> dict[str, float | None]:
    """p50, p90, p99 and max of seconds, in milliseconds."""
    return {
        "p50": ms(percentile(values, 0.50)),
        "p90": ms(percentile(values, 0.90)),
        "p99": ms(percentile(values, 0.99)),
        "max": ms(max(values) if values else None),
    }


def memory(sample: Sample) -> dict[str, float | int]:
    return {
        "rss_mb": mb(sample.rss_kb),
        "peak_rss_mb": mb(sample.hwm_kb),
        "children_rss_mb": mb(sample.child_rss_kb),
        "children": sample.children,
    }


def summarize(
    recorder: Recorder,
    first: Sample,
    last: Sample,
    generator_cpu_s: float,
    unanswered: list[float],
) -> dict[str, Any]:
    """One run's figures over its measured window.

    Actions still unanswered when the window's grace ended count with the time they had waited
    so far (a lower bound), so that a drowning server does not look faster than it is.
    """
    seconds = last.wall - first.wall
    server = round(cpu_percent(first, last), 1)
    workers = round(cpu_percent(first, last, "child_ticks"), 1)
    services = round(cpu_percent(first, last, "service_ticks"), 1)
    machine = cpu_percent(first, last, "machine_busy_ticks")
    generator = 100 * generator_cpu_s / seconds if seconds > 0 else 0.0
    round_trips = [took for _, took in recorder.round_trips] + unanswered
    excess = [took for _, took in recorder.step_excess]
    waits = [wait for wait, _ in recorder.turn_waits]
    steps = [count for _, count in recorder.turn_waits]
    return {
        "seconds": round(seconds, 1),
        "actions": len(round_trips),
        "actions_per_s": round(len(round_trips) / seconds, 1) if seconds > 0 else None,
        "unanswered": len(unanswered),
        "round_trip_ms": spread(round_trips),
        "computer_step_beyond_pace_ms": spread(excess),
        "computer_steps": len(excess),
        "computer_moves_per_s": round(recorder.computer_moves / seconds, 1)
        if seconds > 0
        else None,
        "wait_between_turns_s": {
            "p50": round(statistics.median(waits), 2) if waits else None,
            "p99": round(percentile(waits, 0.99) or 0, 2) if waits else None,
            "steps_per_turn": round(statistics.mean(steps), 2) if steps else None,
        },
        "server_cpu_pct": server,
        "workers_cpu_pct": workers,
        "services_cpu_pct": services,
        "server_memory": memory(last),
        "generator_cpu_pct": round(generator, 1),
        "other_processes_cpu_pct": round(machine - server - workers - services - generator, 1),
        "generator_loop_lag_ms": spread(recorder.loop_lag),
        "errors": dict(recorder.errors),
        "refusals": dict(recorder.refusals),
        "tables_created": recorder.tables_created,
        "games_finished": recorder.games_finished,
    }


def minutes(recorder: Recorder, samples: list[tuple[float, Sample]]) -> list[Any]:
    """The soak, slice by slice (``minute``: when each ends): round trips, CPU and memory.

    ``samples`` pairs each server reading with the generator's clock (``perf_counter``) at the
    same moment; the first is the window's start.
    """
    rows = []
    for (start, first), (end, last) in itertools.pairwise(samples):
        trips = [took for sent, took in recorder.round_trips if start <= sent < end]
        rows.append(
            {
                "minute": round((end - samples[0][0]) / 60, 2),
                "actions": len(trips),
                "round_trip_ms": spread(trips),
                "server_cpu_pct": round(cpu_percent(first, last), 1),
                "workers_cpu_pct": round(cpu_percent(first, last, "child_ticks"), 1),
                "machine_cpu_pct": round(cpu_percent(first, last, "machine_busy_ticks"), 1),
                **memory(last),
            }
        )
    return rows


def slope(values: Sequence[float]) -> float | None:
    """The least-squares slope of values over their index (units per slice)."""
    if len(values) < 2:
        return None
    return statistics.linear_regression(range(len(values)), values).slope


def trend(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """First against last slice, and the slope across all, of memory and p99."""
    if not rows:
        return {}
    rss = [row["rss_mb"] for row in rows]
    p99 = [row["round_trip_ms"]["p99"] or 0.0 for row in rows]
    rss_slope = slope(rss)
    p99_slope = slope(p99)
    return {
        "rss_mb_first": rss[0],
        "rss_mb_last": rss[-1],
        "rss_mb_per_slice": None if rss_slope is None else round(rss_slope, 2),
        "p99_ms_first": p99[0],
        "p99_ms_last": p99[-1],
        "p99_ms_per_slice": None if p99_slope is None else round(p99_slope, 2),
        "p99_ms_median": round(statistics.median(p99), 1),
    }


def plot_soak(rows: list[dict[str, Any]], path: Path, title: str) -> bool:
    """RSS and p99 by minute as a PNG, if matplotlib is installed; whether one was written."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    x = [row["minute"] for row in rows]
    figure, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 5))
    top.plot(x, [row["rss_mb"] for row in rows], marker="o")
    top.set_ylabel("server RSS, MB")
    top.set_ylim(bottom=0)
    top.set_title(title)
    for key, label in (("p50", "p50"), ("p99", "p99")):
        bottom.plot(x, [row["round_trip_ms"][key] for row in rows], marker="o", label=label)
    bottom.set_ylabel("round trip, ms")
    bottom.set_ylim(bottom=0)
    bottom.set_xlabel("minutes into the measured soak")
    bottom.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return True


def cell_row(result: dict[str, Any]) -> list[str]:
    """One run as a row of the matrix table."""

    def num(value: float | None, digits: int = 1) -> str:
        return "n/a" if value is None else f"{value:,.{digits}f}"

    trip = result["round_trip_ms"]
    step = result["computer_step_beyond_pace_ms"]
    errors = sum(result["errors"].values()) + result["unanswered"]
    return [
        str(result["tables"]),
        result["level"],
        setup_name(result),
        f"{result['actions']:,}",
        num(trip["p50"]),
        num(trip["p90"]),
        num(trip["p99"]),
        num(trip["max"], 0),
        num(step["p50"], 0),
        num(step["p99"], 0),
        num(result["server_cpu_pct"], 0),
        num(result["workers_cpu_pct"], 0),
        num(result.get("services_cpu_pct", 0.0), 0),
        num(result["server_memory"]["rss_mb"]),
        num(result["generator_cpu_pct"], 0),
        num(result["other_processes_cpu_pct"], 0),
        f"{errors}/{sum(result['refusals'].values())}",
    ]


def setup_name(result: dict[str, Any]) -> str:
    """How a run's site was made: one process on SQLite, or several on PostgreSQL and Redis."""
    processes = int(result.get("processes", 1))
    name = "1 × SQLite" if processes == 1 else f"{processes} × PG+Redis"
    source = result.get("source")
    return f"{name}, {Path(source).resolve().name}" if source else name


CELL_HEADERS = (
    "tables",
    "level",
    "site",
    "actions",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "max ms",
    "step+ p50",
    "step+ p99",
    "srv CPU%",
    "wrk CPU%",
    "svc CPU%",
    "RSS MB",
    "gen CPU%",
    "others%",
    "err/ref",
)
"""``step+``: a computer step beyond its pace, ms. CPU in % of one core: ``srv`` the server
processes, ``wrk`` their workers, ``svc`` PostgreSQL and Redis, ``gen`` the load generator,
``others`` every other process on the machine (other work shares it). ``RSS``: the server
processes' memory, summed."""
