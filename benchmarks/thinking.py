"""How the searching players spend their time: samples a decision, and milliseconds.

``expert`` and ``master`` deal the cards they cannot see and play each candidate out in every
sampled deal, until their time (200 ms) runs out or they reach their sample cap
(``MAX_SAMPLES``, ``MASTER_MAX_SAMPLES``). This plays classic two-seat deals with ``basic``
to reach positions, and at each position with more than one legal action asks each level
for its choice as it plays at the tables (by the clock), counting the samples it drew; then
once more at a fixed sample count, to compare what a sample costs each.

    .venv/bin/python benchmarks/thinking.py --positions 60 --json benchmarks/results/thinking.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.engine import render

from rummykit.bots.basic import BasicBot
from rummykit.bots.expert import ExpertBot
from rummykit.bots.master import MasterBot
from rummykit.build import engine_build
from rummykit.core.observation import Observation, observe
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState

LEVELS: dict[str, type[ExpertBot]] = {"expert": ExpertBot, "master": MasterBot}


def positions(count: int, seed: int) -> list[Observation]:
    """``count`` observations of the seat to act, from classic deals played by ``basic``."""
    rng = random.Random(seed)
    rules = find_preset("classic").rules
    basic = BasicBot()
    found: list[Observation] = []
    while len(found) < count:
        game = GameState.new(rules, seats=2, seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(2, 40)):
            if game.deal_over:
                break
            game.apply(basic.choose(observe(game, game.turn), rng))
        if not game.deal_over and len(game.legal_actions()) > 1:
            found.append(observe(game, game.turn))
    return found


def counted(level: type[ExpertBot], drawn: list[int], **options: Any) -> ExpertBot:
    """A bot of ``level`` that adds one to ``drawn[0]`` for each position it samples."""
    sample: Callable[[Observation, random.Random], GameState] = level.sampler

    def counting(observation: Observation, rng: random.Random) -> GameState:
        drawn[0] += 1
        return sample(observation, rng)

    bot = level(**options)
    bot.sampler = counting
    return bot


def measure(name: str, views: list[Observation], fixed: int) -> dict[str, Any]:
    """Samples and milliseconds a decision of level ``name``, by the clock and at ``fixed``."""
    drawn = [0]
    timed = counted(LEVELS[name], drawn)
    samples: list[int] = []
    spent: list[float] = []
    for number, view in enumerate(views):
        drawn[0] = 0
        started = time.perf_counter()
        timed.choose(view, random.Random(number))
        spent.append((time.perf_counter() - started) * 1000)
        samples.append(drawn[0])
    steady = LEVELS[name](samples=fixed)
    started = time.perf_counter()
    for number, view in enumerate(views):
        steady.choose(view, random.Random(number))
    per_fixed = (time.perf_counter() - started) * 1000 / len(views)
    ordered = sorted(spent)
    return {
        "level": name,
        "positions": len(views),
        "cap": LEVELS[name].max_samples,
        "samples_p50": statistics.median(samples),
        "samples_min": min(samples),
        "samples_max": max(samples),
        "ms_p50": round(statistics.median(spent), 1),
        "ms_p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
        "fixed_samples": fixed,
        "ms_at_fixed": round(per_fixed, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Measure each level and print (and write, with ``--json``) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60, help="positions a level (60)")
    parser.add_argument("--fixed", type=int, default=40, help="the fixed sample count (40)")
    parser.add_argument("--seed", type=int, default=34, help="the positions' seed (34)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.fixed < 1:
        parser.error("--positions and --fixed must be at least 1")
    views = positions(args.positions, args.seed)
    rows = [measure(name, views, args.fixed) for name in LEVELS]
    render(
        f"Thinking a decision, classic two seats ({engine_build()} engine)",
        ["level", "cap", "samples p50 (min-max)", "ms p50", "ms p99", "ms at fixed samples"],
        [
            [
                row["level"],
                str(row["cap"]),
                f"{row['samples_p50']:g} ({row['samples_min']}-{row['samples_max']})",
                f"{row['ms_p50']:.1f}",
                f"{row['ms_p99']:.1f}",
                f"{row['ms_at_fixed']:.1f} ({row['fixed_samples']})",
            ]
            for row in rows
        ],
    )
    if args.json:
        payload = {"engine": engine_build(), "seed": args.seed, "rows": rows}
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
