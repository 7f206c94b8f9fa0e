"""benchmarks/failover_runs.py in miniature: one run, the first process killed in the party's
lobby; the table of results printed and the JSON written. (``test_failover_moments`` is the
scenario's own small soak: 20 runs.)"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(180)

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "failover_runs.py"


def test_the_failover_benchmark_runs_the_scenario_and_tabulates_it(tmp_path: Path) -> None:
    out = tmp_path / "failover.json"
    finished = subprocess.run(
        [sys.executable, str(BENCHMARK), "--runs", "1", "--moments", "lobby", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=170,
        check=False,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    report = json.loads(out.read_text())
    (run,) = report["runs"]
    assert run["moment"] == "lobby" and run["killed"] and run["records_equal"]
    assert run["finished"] == ["Host", "Guest", "Other"] and run["seconds"] > 0
    assert report["summary"]["all"]["finished"] == 1
    assert "Failover runs" in finished.stdout
