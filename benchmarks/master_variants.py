"""Screen a variant of ``master`` against ``expert``: the quick runs behind its constants.

A variant is ``master`` with some of its module constants changed (``NAME=VALUE``), played
against ``expert`` as a duplicate tournament in one process, both searching to the same
time budget (``--budget``, shorter than the real 200 ms so that a run takes minutes) or to
the same fixed sample count (``--samples``). It prints one JSON line. For example::

    .venv/bin/python benchmarks/master_variants.py --games 80 --seed 31 --budget 100 \\
        CUT_PLAYOUTS=1 MAX_CANDIDATES=5 SWITCH_MARGIN=1.0

``--cut-turns N`` changes the turns a seat played before the fitted value scores. The
figures in ``benchmarks/README.md`` ("What was tried") came from runs of this script.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time

import rummykit.bots.master as master
from rummykit.bots import deal_value
from rummykit.bots.base import BOTS
from rummykit.bots.expert import ExpertBot
from rummykit.tournament import SimConfig, run_sim


def apply_constants(pairs: list[str]) -> dict[str, object]:
    """Set ``master``'s module constants from ``NAME=VALUE`` texts; the values set."""
    changed: dict[str, object] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        current = getattr(master, name)  # an unknown name raises AttributeError
        value: object = text == "1" if isinstance(current, bool) else type(current)(text)
        setattr(master, name, value)
        changed[name] = value
    return changed


def main(argv: list[str] | None = None) -> int:
    """Play the variant against ``expert`` and print the figures as one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("constants", nargs="*", help="NAME=VALUE for master's constants")
    parser.add_argument("--games", type=int, default=80, help="games (80)")
    parser.add_argument("--seed", type=int, default=31, help="the tournament seed (31)")
    parser.add_argument("--budget", type=float, default=100.0, help="ms a decision (100)")
    parser.add_argument("--samples", type=int, help="a fixed sample count instead of --budget")
    parser.add_argument("--cut-turns", type=int, help="turns a seat before the value scores")
    parser.add_argument("--whole-games", action="store_true", help="games to 100, not deals")
    args = parser.parse_args(argv)
    changed = apply_constants(args.constants)
    if args.cut_turns is not None:
        cut = dataclasses.replace(deal_value.shipped_value(), cut_turns=args.cut_turns)
        deal_value.shipped_value = lambda: cut  # type: ignore[assignment]
    budget, samples = args.budget, args.samples
    BOTS["variant"] = lambda: master.MasterBot(budget_ms=budget, samples=samples)
    BOTS["expert-same"] = lambda: ExpertBot(budget_ms=budget, samples=samples)
    config = SimConfig.from_options(
        ("variant", "expert-same"),
        games=args.games,
        preset="classic",
        deals_only=not args.whole_games,
        seed=args.seed,
    )
    started = time.perf_counter()
    result = run_sim(config).to_json()
    variant, expert = result["seats"]
    figures = {
        "constants": changed,
        "cut_turns": args.cut_turns,
        "budget_ms": None if samples else budget,
        "samples": samples,
        "seed": args.seed,
        "games": result["games"],
        "variant_won": variant["games_won"],
        "expert_won": expert["games_won"],
        "variant_points_per_deal": variant["points_per_deal"],
        "expert_points_per_deal": expert["points_per_deal"],
        "variant_ms_p50_p99": [variant["decision_ms_p50"], variant["decision_ms_p99"]],
        "seconds": round(time.perf_counter() - started),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
