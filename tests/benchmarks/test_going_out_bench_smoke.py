"""benchmarks/going_out.py in miniature: one game's questions, every set of searches agreeing."""

import json

import pytest

from helpers import run_benchmark


@pytest.mark.timeout(300)
def test_every_set_of_searches_answers_one_games_questions_alike() -> None:
    finished = run_benchmark(
        "going_out.py", "--games", "1", "--largest", "50", "--repeats", "1", "--json"
    )
    assert finished.returncode == 0, finished.stderr
    rows = json.loads(finished.stdout)
    assert [row["searches"] for row in rows] == ["turns", "fixed orders", "most constrained"]
    assert len({row["questions"] for row in rows}) == 1 and rows[0]["questions"] > 0
    assert rows[0]["time_vs_turns"] == 1.0
    for row in rows:
        assert 0 < row["worst_s"] <= row["total_s"]
