"""benchmarks/late_arrival.py in miniature: both late arrivals, without the wait (``--read 0``).

No timing is asserted beyond what the rule promises: a person's first turn, at the first
table and after the wait between deals, has the whole turn time when their page gets it.
"""

from __future__ import annotations

import json

import pytest

from helpers import run_benchmark

pytestmark = pytest.mark.timeout(180)

TURN_TIMER = 30


def test_a_late_arrival_gets_the_whole_turn_at_the_first_table_and_the_next_deal() -> None:
    finished = run_benchmark("late_arrival.py", "--read", "0", "--json", timeout=170)
    assert finished.returncode == 0, finished.stderr
    found = json.loads(finished.stdout)
    assert set(found) == {"first_table", "next_deal"}
    for seconds in found.values():
        assert TURN_TIMER - 1 < seconds <= TURN_TIMER
