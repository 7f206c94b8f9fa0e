"""benchmarks/first_load.py in miniature: two first loads of a table through a real server
process and Chromium (in a process of its own, so no browser runs in this one).

No timing is asserted (the machine is shared): only that the loads complete, stay within the
300 KB budget and report figures that hang together.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from web.conftest import need_chromium

ROOT = Path(__file__).resolve().parents[2]
FIRST_LOAD = ROOT / "benchmarks" / "first_load.py"


@pytest.mark.timeout(180)
def test_two_first_loads_stay_within_the_budget_and_reach_the_hand(tmp_path: Path) -> None:
    need_chromium("the browser benchmark's smoke test")
    out = tmp_path / "first_load.json"
    finished = subprocess.run(
        [sys.executable, str(FIRST_LOAD), "--loads", "2", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=170,
        cwd=tmp_path,
        check=False,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    summary = report["summary"]
    assert summary["loads"] == len(report["loads"]) == 2
    assert summary["within_budget"] and summary["bytes_max"] < 300 * 1024
    for load in report["loads"]:
        assert load["bytes"] == sum(load["by_kind"].values())
        assert load["by_kind"]["script"] > 0 and load["by_kind"]["page"] > 0
        assert load["first_hand_ms"] > 0
        assert load["socket_bytes"] > 0  # the hand came over the table's socket
    spread = summary["first_hand_ms"]
    assert spread["min"] <= spread["median"] <= spread["max"]
