"""benchmarks/parties.py in miniature: each part through a real server process, tiny sizes.

No timing is asserted (the machine is shared): only that each part completes, writes its
JSON and reports figures that make sense together.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from benchmarks.parties import largest_within, next_between

ROOT = Path(__file__).resolve().parents[2]
PARTIES = ROOT / "benchmarks" / "parties.py"


def run_parties(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "parties.json"
    finished = subprocess.run(
        [sys.executable, str(PARTIES), "--quick", *args, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=150,
        cwd=tmp_path,
    )
    assert finished.returncode == 0, finished.stderr
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert report["machine"]["nproc"] >= 1
    assert report["config"]["quick"] is True
    return report


def assert_ordered(spread: dict[str, float], *keys: str) -> None:
    values = [spread[key] for key in keys]
    assert all(value is not None for value in values), spread
    assert values == sorted(values), spread


@pytest.mark.timeout(180)
def test_reconnection_lag_and_party_tables_in_miniature(tmp_path: Path) -> None:
    report = run_parties(
        tmp_path,
        *("--only", "reconnect,lag,ramp", "--reconnect-tables", "2", "--reconnects", "4"),
        # a 10 s loaded window: in 2 s a loaded machine had not yet started the workers, and
        # in 5 s, beside a browser test run, the players had once not acted
        *("--lag-tables", "2", "--lag-seconds", "10", "--ramp-tables", "2"),
        # basic computers and a 10 s window: two computers at the default pace (700 ms a
        # move, two or three moves a turn) can hold the people without a turn for about 4 s,
        # and a CI worker beside another once had none in a 5 s window
        *("--ramp-level", "basic", "--ramp-seconds", "10"),
    )
    reconnect = report["reconnect"]
    assert reconnect["errors"] == {} and reconnect["server_log_error_lines"] == 0
    for mode in ("recent", "full"):
        part = reconnect["modes"][mode]
        assert part["reconnects"] >= 1
        assert_ordered(part["hello_to_view_ms"], "min", "p50", "p95", "p99", "max")
        # each hello is within its socket's opening, so every percentile is too
        for key in ("p50", "p99", "max"):
            assert part["open_to_view_ms"][key] >= part["hello_to_view_ms"][key]
        assert part["view_bytes_mean"] > 500
    # a version older than the table keeps (here 0: none seen) gets the view alone
    assert reconnect["modes"]["full"]["missed_events_max"] == 0
    recent = reconnect["modes"]["recent"]
    assert recent["with_missed_events"] == reconnect["modes"]["recent, with events"]["reconnects"]

    lag = report["lag"]
    for window in ("idle", "loaded"):
        assert lag[window]["probes"] > 0 and lag[window]["unanswered"] == 0
        assert_ordered(lag[window], "min", "p50", "p95", "p99", "max")
    assert lag["p99_ratio"] > 0
    assert lag["players"]["actions"] > 0 and lag["players"]["workers_cpu_pct"] > 0

    [step] = report["ramp"]["steps"]
    assert step["tables"] == 2 and step["tables_created"] >= 2
    assert step["actions"] > 0 and step["errors"] == {} and step["unanswered"] == 0
    assert_ordered(step["round_trip_ms"], "p50", "p90", "p99", "max")
    assert report["ramp"]["largest_within_budget"] in (None, 2)
    assert "computer_step_beyond_pace_ms" not in step  # seat 0's figure, wrong at a party


@pytest.mark.timeout(180)
def test_turn_timers_run_out_and_the_computer_plays_never_before_the_deadline(
    tmp_path: Path,
) -> None:
    """The real 30 s timer: this test waits for it (the server has no test hook)."""
    report = run_parties(tmp_path, "--only", "timeout", "--timeout-tables", "3")
    timeout = report["timeout"]
    assert timeout["parties_started"] == 3 and timeout["expired"] == 3
    assert timeout["no_expiry"] == {} and timeout["errors"] == {}
    assert timeout["server_log_error_lines"] == 0
    assert_ordered(timeout["lateness_ms"], "min", "p50", "p95", "p99", "max")
    same_clock = timeout["same_clock_lateness_ms"]
    assert_ordered(same_clock, "min", "p50", "p95", "p99", "max")
    assert same_clock["min"] >= 0  # the server shares this clock: never early
    window = timeout["deadlines_after_go_s"]
    assert 30 <= window["first"] <= window["last"]


def test_the_ramp_narrows_down_between_the_last_count_within_budget_and_the_first_over() -> None:
    steps: list[dict[str, Any]] = [
        {"tables": 25, "within_budget": True},
        {"tables": 100, "within_budget": True},
        {"tables": 200, "within_budget": False},
    ]
    assert (largest_within(steps), next_between(steps)) == (100, 150)
    steps.append({"tables": 150, "within_budget": False})
    assert (largest_within(steps), next_between(steps)) == (100, 125)
    steps.append({"tables": 125, "within_budget": True})
    steps.append({"tables": 400, "within_budget": True})  # noise past a failure: not counted
    assert (largest_within(steps), next_between(steps)) == (125, 140)
    assert largest_within([{"tables": 2, "within_budget": False}]) is None
    assert next_between([{"tables": 2, "within_budget": True}]) is None
