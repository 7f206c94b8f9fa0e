"""benchmarks/ratings_settle.py in miniature: it runs, and its figures hang together."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from benchmarks.ratings_settle import kendall_tau, performance_ranks

ROOT = Path(__file__).resolve().parent.parent.parent
SETTLE = ROOT / "benchmarks" / "ratings_settle.py"

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("settle") / "settle.json"
    finished = subprocess.run(
        [sys.executable, str(SETTLE), "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    assert "Kendall tau" in finished.stdout
    loaded: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return loaded


def test_kendall_tau_is_one_for_the_same_order_and_minus_one_reversed() -> None:
    assert kendall_tau([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert kendall_tau([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert kendall_tau([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)


def test_performance_ranks_are_competition_ranks_from_zero() -> None:
    ranks = performance_ranks([25.0, 25.0, 25.0, 25.0], random.Random(3))
    assert sorted(ranks) == [0, 1, 2, 3]


def test_only_bradley_terry_full_keeps_a_tie_halfway(report: dict[str, Any]) -> None:
    misses = report["halfway"]
    assert misses["BradleyTerryFull"] < 1e-9
    assert all(miss > 0.01 for name, miss in misses.items() if name != "BradleyTerryFull")


def test_a_lower_threshold_takes_more_games_and_bigger_tables_settle_sooner(
    report: dict[str, Any],
) -> None:
    rows = report["settle"]["rows"]
    for size in {row["table_size"] for row in rows}:
        games = [row["games_median"] for row in rows if row["table_size"] == size]
        assert games == sorted(games, reverse=True)  # thresholds listed low to high
    at_settled = [row["games_median"] for row in rows if row["threshold"] == 4.5]
    assert at_settled == sorted(at_settled, reverse=True)  # table sizes listed small to large


def test_ratings_order_players_better_than_chance(report: dict[str, Any]) -> None:
    assert all(tau > 0.3 for tau in report["order"].values())
