"""benchmarks/thinking.py in miniature: both searching levels timed on a few positions.

No timing is asserted (a shared machine): only that each level drew at least one sample a
decision and never more than its cap, and that the figures hang together.
"""

import json
from pathlib import Path

import pytest

from helpers import run_benchmark
from rummykit.bots.expert import MAX_SAMPLES
from rummykit.bots.master import MASTER_MAX_SAMPLES


@pytest.mark.timeout(300)
def test_the_searchers_samples_and_time_a_decision_hang_together(tmp_path: Path) -> None:
    out = tmp_path / "thinking.json"
    finished = run_benchmark("thinking.py", "--positions", "3", "--fixed", "2", "--json", str(out))
    assert finished.returncode == 0, finished.stderr
    figures = json.loads(out.read_text())
    assert figures["engine"] in {"compiled", "pure"}
    rows = {row["level"]: row for row in figures["rows"]}
    assert set(rows) == {"expert", "master"}
    assert rows["expert"]["cap"] == MAX_SAMPLES and rows["master"]["cap"] == MASTER_MAX_SAMPLES
    for row in rows.values():
        assert row["positions"] == 3 and row["fixed_samples"] == 2
        assert 1 <= row["samples_min"] <= row["samples_p50"] <= row["samples_max"] <= row["cap"]
        assert 0 < row["ms_p50"] <= row["ms_p99"]
        assert row["ms_at_fixed"] > 0
    assert "Thinking a decision" in finished.stdout
