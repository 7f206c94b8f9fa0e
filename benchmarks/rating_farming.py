"""Rating farming: where a newcomer who beats accounts made for the purpose ends.

Issue 29's probe: a farmer winning 36 games against freshly made accounts went from 1500 to
3083 in 9 minutes (12 wins against one account: 1867). Each farm here is played through the
store (SQLite in memory, its clock moved by hand, a game every 15 s), rated as a ranked table
rates it; the victims join from the farmer's address or each from one of its own
(``tests/farming.py``). "before" replays the same wins under the rule before
``rummykit.ratings.trust`` (the repeat weight alone); "now" is the store's. The yardstick is
one normal win: two settled accounts of equal rating, 70 points.

Usage::

    .venv/bin/python benchmarks/rating_farming.py
    .venv/bin/python benchmarks/rating_farming.py --json benchmarks/results/rating_farming.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

# run as a script: tests/ holds the farms the tests play too
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from farming import Farm, before_the_rule, farm, normal_win
from party_client import accounts_store
from table_client import ManualClock

FARMS: dict[str, Farm] = {
    "36 wins, 36 fresh accounts, one address": Farm(36),
    "36 wins, 36 fresh accounts, 36 addresses": Farm(36, shared_network=False),
    "12 wins, one fresh account, one address": Farm(12, per_victim=12),
    "12 wins, one fresh account, another address": Farm(12, per_victim=12, shared_network=False),
    "4 wins, 4 fresh accounts, one address": Farm(4),
    "4 wins, 4 fresh accounts, 4 addresses": Farm(4, shared_network=False),
    "36 wins, 6 accounts that first played each other, one address": Farm(
        36, per_victim=6, victims_met=1
    ),
    "36 wins, 6 accounts that first played each other, 6 addresses": Farm(
        36, per_victim=6, shared_network=False, victims_met=1
    ),
    "the same, a week after those games": Farm(
        36, per_victim=6, shared_network=False, victims_met=1, wait_days=7.0
    ),
}
"""The farms measured: the issue's two, the test's four wins, and a farmer who first has the
victims play each other (from one address, then from one each: seven addresses in all, and
then also waits a week: what the rule does not stop)."""


def measure(name: str, plan: Farm) -> dict[str, Any]:
    """One farm in a new store: the farmer's rating at the end, before the rule and now."""
    clock = ManualClock()
    clock.now = 1_760_000_000.0
    store = accounts_store(":memory:", clock, ("Farmer",))
    started = clock.now
    try:
        now = farm(store, clock, plan)
    finally:
        store.close()
    before = before_the_rule(plan)
    return {
        "farm": name,
        **asdict(plan),
        "before": before[-1],
        "now": now[-1],
        "now_highest": max(now),
        "normal_win": normal_win(),
        "clock_hours": round((clock.now - started) / 3600, 2),
    }


def main() -> None:
    """Measure every farm and print a Markdown table (and the JSON, if asked)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    args = parser.parse_args()
    began = time.perf_counter()
    rows = [measure(name, plan) for name, plan in FARMS.items()]
    print("| farm | before | now | one normal win |")
    print("| --- | ---: | ---: | ---: |")
    for row in rows:
        print(f"| {row['farm']} | {row['before']} | {row['now']} | +{row['normal_win']} |")
    print(f"\n{time.perf_counter() - began:.1f} s")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
