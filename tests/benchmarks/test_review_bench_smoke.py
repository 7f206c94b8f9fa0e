"""benchmarks/review.py in miniature: one short record reviewed in one process and in two.

No timing is asserted (the machine is shared): only that both runs judge the same decisions
and report figures that hang together.
"""

import json
from pathlib import Path

import pytest

from helpers import run_benchmark


@pytest.mark.timeout(300)
def test_a_short_review_is_timed_in_one_process_and_in_two(tmp_path: Path) -> None:
    out = tmp_path / "review.json"
    finished = run_benchmark(
        *("review.py", "--games", "review_expert.json", "--samples", "2"),
        *("--jobs", "1,2", "--json", str(out)),
    )
    assert finished.returncode == 0, finished.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [row["jobs"] for row in rows] == [1, 2]
    one, two = rows
    assert one["decisions"] == two["decisions"] > 5 and one["marked"] == two["marked"]
    for row in rows:
        assert row["seconds"] > 0
        # both are rounded to hundredths: the rate lies within what the rounded time allows
        slowest, fastest = row["seconds"] + 0.005, max(row["seconds"] - 0.005, 1e-9)
        rate = row["decisions_per_s"]
        assert row["decisions"] / slowest - 0.005 <= rate <= row["decisions"] / fastest + 0.005
    assert "Review time" in finished.stdout
