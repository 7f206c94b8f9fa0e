"""benchmarks/store_backends.py in miniature, on the session's PostgreSQL and a SQLite file.

No timing is asserted (the machine is shared): only that every operation is timed on both
databases and the JSON says so.
"""

import json
from pathlib import Path

import pytest
from benchmarks.store_backends import BACKENDS, main

pytestmark = pytest.mark.timeout(120)


def test_the_store_benchmark_times_each_operation_on_both(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "store.json"
    assert main(["--quick", "--database-url", postgres_url, "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["config"]["quick"] is True
    for backend in BACKENDS:
        figures = report["figures"][backend]
        assert set(figures) == {"append", "deals", "finish"}
        for each in figures.values():
            assert each["calls"] > 0 and 0 < each["p50_ms"] <= each["p99_ms"]
    assert "| finish |" in capsys.readouterr().out
