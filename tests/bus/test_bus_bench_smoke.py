"""benchmarks/bus_roundtrip.py in miniature, on the test Redis: every figure of both kinds is
measured and makes sense (no timing is asserted: the machine is shared)."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from redis_service import RedisService

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bus_roundtrip.py"


@pytest.mark.slow  # a benchmark's smoke test, as those of tests/benchmarks
@pytest.mark.timeout(120)
def test_the_bus_benchmark_measures_every_figure(
    tmp_path: Path, redis_server: RedisService
) -> None:
    out = tmp_path / "bus.json"
    command = [sys.executable, str(SCRIPT), "--quick", "--redis-url", redis_server.url]
    finished = subprocess.run(
        [*command, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=100,
        cwd=tmp_path,
    )
    assert finished.returncode == 0, finished.stderr
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert report["config"]["quick"] is True and report["config"]["redis_url_given"] is True
    figures = report["figures"]
    assert set(figures) == {"hop", "round trip", "acquire", "renew"}
    for kinds in figures.values():
        assert set(kinds) == {"memory", "redis"}
        for spread in kinds.values():
            assert spread["count"] == report["config"]["samples"]
            assert 0 <= spread["p50"] <= spread["p99"] <= spread["max"]
    assert "round trip" in finished.stdout and "redis p99" in finished.stdout
