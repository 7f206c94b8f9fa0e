"""benchmarks/load.py in miniature: a few live tables through a real server process.

No timing is asserted (the machine is shared): only that each mode completes and reports
figures that make sense together.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from benchmarks.load_client import PlayerSettings

ROOT = Path(__file__).resolve().parents[2]
LOAD = ROOT / "benchmarks" / "load.py"


def run_load(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "load.json"
    finished = subprocess.run(
        [sys.executable, str(LOAD), *args, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=150,
        cwd=tmp_path,
    )
    assert finished.returncode == 0, finished.stderr
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert report["machine"]["nproc"] >= 1
    return report


def assert_ordered(spread: dict[str, float]) -> None:
    assert 0 <= spread["p50"] <= spread["p90"] <= spread["p99"] <= spread["max"]


@pytest.mark.timeout(180)
def test_a_small_load_run_plays_tables_and_reports_round_trips_cpu_and_memory(
    tmp_path: Path,
) -> None:
    report = run_load(
        tmp_path,
        *("--tables", "3", "--levels", "basic", "--seconds", "4", "--warmup", "1"),
        *("--think", "0.1", "--pace", "50", "--ramp-rate", "10"),
    )
    [run] = report["runs"]
    assert (run["tables"], run["level"]) == (3, "basic")
    assert run["tables_created"] >= 3
    assert run["actions"] > 0
    assert_ordered(run["round_trip_ms"])
    assert run["computer_steps"] > 0 and run["computer_moves_per_s"] > 0
    assert_ordered(run["computer_step_beyond_pace_ms"])
    assert run["server_cpu_pct"] > 0
    assert run["server_memory"]["rss_mb"] > 10
    assert run["server_memory"]["peak_rss_mb"] >= run["server_memory"]["rss_mb"]
    assert run["errors"] == {} and run["refusals"] == {} and run["unanswered"] == 0
    assert run["server_log_error_lines"] == 0


@pytest.mark.timeout(180)
def test_a_small_churn_reports_memory_before_during_and_after_the_tables_went_idle(
    tmp_path: Path,
) -> None:
    report = run_load(
        tmp_path,
        *("--churn", "12", "--concurrency", "3", "--churn-actions", "2"),
        *("--idle-table-seconds", "1", "--levels", "basic"),
    )
    churn = report["churn"]
    assert churn["tables"] == 12
    assert churn["tables_created"] == 3 + 12 + 1  # warm-up, churn, the request that sweeps
    assert churn["errors"] == {}
    assert churn["before"]["rss_mb"] > 10
    assert churn["peak_rss_mb"] >= churn["before"]["rss_mb"]
    assert churn["after_idle"]["peak_rss_mb"] >= churn["after_idle"]["rss_mb"]


@pytest.mark.timeout(120)
def test_a_short_soak_reports_each_slice_and_the_trend(tmp_path: Path) -> None:
    report = run_load(
        tmp_path,
        *("--soak", "4", "--slice", "2", "--tables", "2", "--levels", "basic"),
        *("--warmup", "0", "--think", "0.1", "--pace", "50"),
    )
    soak = report["soak"]
    assert len(soak["slices"]) == 2
    assert soak["trend"]["rss_mb_first"] > 10
    assert sum(row["actions"] for row in soak["slices"]) <= soak["actions"]


@pytest.mark.timeout(240)
def test_a_small_comparison_plays_on_one_process_and_on_two_sharing_postgres_and_redis(
    tmp_path: Path,
) -> None:
    report = run_load(
        tmp_path,
        *("--compare", "--tables", "4", "--levels", "basic", "--seconds", "6"),
        # a longer warm-up than the others: each of the two processes starts its own workers
        *("--warmup", "4", "--think", "0.1", "--pace", "50", "--ramp-rate", "10"),
    )
    assert report["config"]["processes"] == [1, 2]
    one, two = sorted(report["runs"], key=lambda run: run["processes"])
    assert (one["processes"], two["processes"]) == (1, 2)
    for run in (one, two):
        assert run["actions"] > 0 and run["tables_created"] >= 4
        assert_ordered(run["round_trip_ms"])
        assert run["errors"] == {} and run["refusals"] == {} and run["unanswered"] == 0
        assert run["server_log_error_lines"] == 0
    # the cluster's figures cover both processes and the services they share
    assert one["services_cpu_pct"] == 0
    assert two["services_cpu_pct"] > 0
    assert two["server_memory"]["rss_mb"] > one["server_memory"]["rss_mb"]
    assert set(report["holds"]) == {"basic, 1 × SQLite", "basic, 2 × PG+Redis"}


def test_players_on_a_site_of_two_share_the_tables_and_half_the_sockets_are_relayed() -> None:
    base = PlayerSettings(port=1, level="basic", think_s=0.0, site=(1, 2))
    spread = [base.spread(index) for index in range(8)]
    made_on = [settings.port for settings in spread]
    relayed = [settings.socket_port != settings.port for settings in spread]
    assert made_on.count(1) == made_on.count(2) == 4
    assert relayed.count(True) == 4
    assert PlayerSettings(port=1, level="basic", think_s=0.0).spread(5).socket_port is None
