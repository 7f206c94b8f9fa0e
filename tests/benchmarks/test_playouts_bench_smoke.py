"""benchmarks/playouts.py in miniature: the two playout policies duel over a few deals.

No timing or strength is asserted (too few deals, a shared machine): only that every deal is
played out, from both seats, and that the figures hang together.
"""

import json
from pathlib import Path

import pytest

from helpers import run_benchmark


@pytest.mark.timeout(300)
def test_a_short_duel_of_the_playout_policies_adds_up(tmp_path: Path) -> None:
    out = tmp_path / "playouts.json"
    finished = run_benchmark(
        "playouts.py", "--deals", "20", "--presets", "classic,knock", "--json", str(out)
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
