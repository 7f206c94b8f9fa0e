"""benchmarks/pairing.py in miniature: the policy's figures make sense together.

No timing is asserted (the machine is shared): only that each part runs, writes its JSON,
seats every player it can, and that a busier pool seats players sooner and closer.
"""

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.pairing import simulate

ROOT = Path(__file__).resolve().parents[2]


def test_the_quick_run_writes_both_parts(tmp_path: Path) -> None:
    out = tmp_path / "pairing.json"
    finished = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "pairing.py"), "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert finished.returncode == 0, finished.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["config"]["quick"] is True
    assert {cell["seats"] for cell in report["policy"]} == {2, 4}
    assert report["server"]["pairs"] == 3 and report["server"]["ms"]["p50"] > 0
    assert "| seats | arrivals a minute |" in finished.stdout


def test_a_busier_pool_seats_players_sooner_and_closer_in_rating() -> None:
    quiet, busy = simulate(3, 2, 60, seed=5), simulate(60, 2, 60, seed=5)
    for cell in (quiet, busy):
        assert cell["tables"] * 2 + cell["left_waiting"] == cell["players"]
        assert cell["left_waiting"] <= max(2, cell["players"] // 50)  # the last arrivals
    assert busy["wait_s"]["p50"] < quiet["wait_s"]["p50"]
    assert busy["spread"]["p50"] < quiet["spread"]["p50"]
