"""benchmarks/whole_hand_lists.py in miniature: one game, every ask giving the first's list."""

import json

import pytest

from helpers import run_benchmark


@pytest.mark.timeout(300)
def test_a_whole_hand_list_asked_again_is_the_first_remembered_or_searched() -> None:
    finished = run_benchmark("whole_hand_lists.py", "--games", "1", "--json")
    assert finished.returncode == 0, finished.stderr  # it exits if an answer differed
    rows = json.loads(finished.stdout)
    assert [row["ask"] for row in rows] == [
        "first ask",
        "again, remembered",
        "again, searched afresh",
    ]
    assert len({row["positions"] for row in rows}) == 1 and rows[0]["positions"] > 0
    assert rows[0]["time_vs_first"] == 1.0
    for row in rows:
        assert 0 < row["worst_s"] <= row["total_s"]
