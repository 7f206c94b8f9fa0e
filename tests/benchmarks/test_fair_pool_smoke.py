"""benchmarks/fair_pool.py and benchmarks/step_cost.py in miniature.

No timing is asserted: the machine is shared. The figures must hang together: every cell
ran on a server of the code asked for, with no error, and a step costs some CPU and bytes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_benchmark

pytestmark = pytest.mark.timeout(240)

ROOT = Path(__file__).resolve().parents[2]


def test_fair_pool_measures_the_honest_table_alone_and_beside_a_flood(tmp_path: Path) -> None:
    report = tmp_path / "fair_pool.json"
    finished = run_benchmark(
        "fair_pool.py", "--flood", "2", "--seconds", "3", "--json", str(report), timeout=230
    )
    assert finished.returncode == 0, finished.stderr
    cells = json.loads(report.read_text())["cells"]
    assert [(cell["cell"], cell["flood_tables"]) for cell in cells] == [
        ("alone, this tree", 0),
        ("flood, this tree", 2),
    ]
    for cell in cells:
        assert cell["code"] == str(ROOT)
        assert cell["server_errors"] == 0
        assert cell["errors"] == {}
    assert cells[1]["flood_tables_created"] >= 2
    assert "| flood, this tree | 2 |" in finished.stdout


def test_step_cost_times_the_serving_threads_cpu_a_step(tmp_path: Path) -> None:
    report = tmp_path / "step_cost.json"
    finished = run_benchmark(
        "step_cost.py",
        "--sources",
        str(ROOT),
        "--steps",
        "30",
        "--repeats",
        "1",
        "--json",
        str(report),
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    (only,) = json.loads(report.read_text()).values()
    (run,) = only["runs"]
    assert run["cpu_us_a_step"] > 0
    assert run["bytes_a_step"] > 0
    assert run["frames_a_step"] >= 2  # the event and the view, for the one page
