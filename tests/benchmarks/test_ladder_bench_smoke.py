"""benchmarks/bots.py in miniature: one rung played into a checkpoint, then read back.

No strength or timing is asserted: only that a rung's kept sets give back the same figures
without being played again, as a run of hours stopped and started again would.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import run_benchmark, without_timings


def ladder(*args: str) -> list[dict[str, Any]]:
    finished = run_benchmark("bots.py", "--only", "strong-basic", "--jobs", "1", *args)
    assert finished.returncode == 0, finished.stderr
    assert "| strong-basic |" in finished.stdout
    results: list[dict[str, Any]] = json.loads(Path(args[args.index("--json") + 1]).read_text())
    return results


@pytest.mark.timeout(300)
def test_a_rung_kept_in_a_checkpoint_reads_back_the_same(tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    first = ladder("--games", "4", "--checkpoint", str(kept), "--json", str(tmp_path / "a.json"))
    assert sorted(path.name for path in (kept / "strong-basic").glob("set-*.json")) == [
        "set-00000.json",
        "set-00001.json",
    ]
    again = ladder("--games", "4", "--checkpoint", str(kept), "--json", str(tmp_path / "b.json"))
    assert first[0]["games"] == 4
    keep = ("rung", "goal", "games", "ties", "seats", "deals")
    assert [without_timings({k: r[k] for k in keep}) for r in again] == [
        without_timings({k: r[k] for k in keep}) for r in first
    ]
    # Read back, not played again: a kept set's count, changed by hand, shows in the figures.
    path = kept / "strong-basic" / "set-00000.json"
    tally = json.loads(path.read_text())
    tally["set_points_per_deal"][0][0] += 100.0  # the mean of two sets' means: +50
    path.write_text(json.dumps(tally))
    changed = ladder("--games", "4", "--checkpoint", str(kept), "--json", str(tmp_path / "c.json"))
    was, now = first[0]["seats"][0]["points_per_deal"], changed[0]["seats"][0]["points_per_deal"]
    assert now == pytest.approx(was + 50.0)
