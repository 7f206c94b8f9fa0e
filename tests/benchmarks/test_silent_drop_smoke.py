"""benchmarks/silent_drop.py in miniature: one cut through the black hole with a short heartbeat
and grace, Chromium in a process of its own (so no browser runs in this one).

No timing is asserted (the machine is shared): only that every moment was seen and that they
come in their order. ``tests/web/test_silent_drop.py`` holds the bounds.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from web.conftest import need_chromium

ROOT = Path(__file__).resolve().parents[2]
SILENT_DROP = ROOT / "benchmarks" / "silent_drop.py"


@pytest.mark.timeout(180)
def test_one_cut_sees_the_page_the_server_and_the_computer_in_order(tmp_path: Path) -> None:
    need_chromium("the browser benchmark's smoke test")
    out = tmp_path / "silent_drop.json"
    command = [sys.executable, str(SILENT_DROP), "--runs", "1", "--settle", "1"]
    command += ["--beat", "0.5", "--silent", "2", "--grace", "3", "--json", str(out)]
    finished = subprocess.run(
        command, capture_output=True, text=True, timeout=170, cwd=tmp_path, check=False
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert report["settings"]["beat_s"] == 0.5 and report["settings"]["drop_grace_s"] == 3
    (run,) = report["runs"]
    assert all(run[figure] is not None for figure in run), run
    assert 0 < run["page"] < run["reconnecting"]
    assert 0 < run["server"] <= run["stand_in"] <= run["played"]
    assert run["back"] > 0
    assert report["summary"]["stand_in"]["median"] == round(run["stand_in"], 2)
