"""benchmarks/cluster.py in miniature: two server processes, a few round trips, three pairs
of guests paired on one process and on two, five tables re-owned after a SIGKILL. No timing
is asserted (the machine is shared): only that every figure is measured, and that every
table came back."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(180)

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "cluster.py"


def test_the_cluster_benchmark_measures_round_trips_pairing_and_reowning(tmp_path: Path) -> None:
    out = tmp_path / "cluster.json"
    finished = subprocess.run(
        [sys.executable, str(BENCHMARK), "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=170,
        check=False,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    report = json.loads(out.read_text())
    for name in ("owner", "relayed"):
        trip = report["round_trip_ms"][name]
        assert trip["n"] == 20 and 0 < trip["p50"] <= trip["p99"]
    moved = report["reowned_s"]
    assert moved["tables"] == 5 and 0 < moved["p50"] <= moved["max"]
    assert "re-owned after SIGKILL" in finished.stdout
    for name in ("one process", "two processes"):
        paired = report["paired_ms"][name]
        assert paired["n"] == 3 and 0 < paired["p50"] <= paired["p90"] <= paired["max"]
    assert "quick pairing, second seek -> both seats" in finished.stdout
