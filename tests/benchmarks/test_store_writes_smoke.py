"""benchmarks/store_writes.py in miniature: every cell runs and the table says so.

No timing is asserted (the machine is shared): only that each source and thread count was
measured, and that every write landed (the reader and the writers saw each other's tables).
"""

import json
from pathlib import Path

import pytest
from benchmarks.store_writes import main

pytestmark = pytest.mark.timeout(120)


def test_the_write_benchmark_measures_each_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "writes.json"
    assert main(["--quick", "--sources", ".", "--json", str(out)]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert [row["threads"] for row in rows] == [1, 4]
    for row in rows:
        assert row["writes_per_s"] > 0 and 0 < row["write_p50_ms"] <= row["write_p99_ms"]
    assert "| . | 4 |" in capsys.readouterr().out
