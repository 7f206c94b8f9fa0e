"""benchmarks/playouts.py in miniature: the two playout policies duel over a few deals.

No timing or strength is asserted (too few deals, a shared machine): only that every deal is
played out, from both seats, and that the figures hang together.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLAYOUTS = ROOT / "benchmarks" / "playouts.py"


@pytest.mark.timeout(300)
def test_a_short_duel_of_the_playout_policies_adds_up(tmp_path: Path) -> None:
    out = tmp_path / "playouts.json"
    finished = subprocess.run(
        [
            *(sys.executable, str(PLAYOUTS), "--deals", "20"),
            *("--presets", "classic,knock", "--json", str(out)),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=280,
    )
    assert finished.returncode == 0, finished.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [row["preset"] for row in rows] == ["classic", "knock"]
    for row in rows:
        assert row["deals"] == 20 and row["cut"] == 0
        assert row["sharp_won"] + row["basic_won"] <= row["deals"]
        low, high = row["sharp_decisive_ci95"]
        assert low <= row["sharp_decisive_rate"] <= high
        assert row["sharp_us_per_action"] > 0 and row["basic_us_per_action"] > 0
    assert "Sharp play against basic play" in finished.stdout
