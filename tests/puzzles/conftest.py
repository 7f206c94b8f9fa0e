"""The puzzle tests' fixtures: a tiny record holding one known puzzle.

Deal 1 of ``tests/records/review_mistakes.json`` up to its action 32, where seat 0 could go
out (meld 6c 6h 6s, then throw its last card) and threw 6h instead (the planted
``no_go_out``), made the first deal of a record of its own: two seats, a few dozen
decisions, judged in about a second.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummykit.core.record import GameRecord, load_record

RECORDS = Path(__file__).parent.parent / "records"
PLANTED_ACTION = 32
"""The index of seat 0's planted error in the deal (the tests say it again)."""


@pytest.fixture(scope="module")
def planted_data() -> dict[str, Any]:
    """The record as JSON data."""
    data: dict[str, Any] = json.loads((RECORDS / "review_mistakes.json").read_text("utf-8"))
    deal = data["deals"][1]
    data["deals"] = [dict(deal, actions=deal["actions"][: PLANTED_ACTION + 1])]
    return data


@pytest.fixture(scope="module")
def planted_record(planted_data: dict[str, Any]) -> GameRecord:
    """The record, read."""
    return load_record(planted_data)
