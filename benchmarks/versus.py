"""The engine benchmark on two source trees, side by side in one run: did a change slow it?

Runs each tree's own ``benchmarks/engine.py --quick`` (or with ``--seconds``/``--repeats``),
alternately on a baseline tree and on this one, round after round, so that both meet the same
machine load, and prints each figure's median for both and the ratio (this tree ÷ baseline
for rates, baseline ÷ this tree for costs: above 1.0 this tree is faster).

    git worktree add /tmp/baseline <commit>
    .venv/bin/python benchmarks/versus.py /tmp/baseline --rounds 5
    .venv/bin/python benchmarks/versus.py --pure --rounds 5   # compiled against pure sources

With ``--pure`` the baseline is this tree's own sources run pure (``RUMMYKIT_PURE=1``), and
this tree runs its compiled engine (``make compile``): what compiling buys, in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

FIGURES: tuple[tuple[str, str, str, bool], ...] = (
    ("play", "ours moves/s", "random play, moves/s (checked apply)", True),
    ("play", "unchecked moves/s", "random play, moves/s (apply_unchecked)", True),
    ("costs", "ours legal", "legal-action list, µs", False),
    ("costs", "ours legal play", "legal-action list, play phase, µs", False),
    ("costs", "ours new game", "GameState.new, µs", False),
    ("costs", "ours next deal", "start_deal, µs", False),
    ("costs", "ours deadwood10 cold", "deadwood of 10 cards (cold), µs", False),
    ("costs", "ours discard11 cold", "best discard of 11 (cold), µs", False),
)
"""(section, name in engine.py's JSON, label, whether higher is better)."""


def run_once(source: Path, extra: list[str], pure: bool = False) -> dict[str, Any]:
    """One run of ``source``'s own engine.py, with its ``src`` first on the import path.

    Each tree measures itself with its own script, so a tree whose modules moved still runs.
    ``pure`` runs the pure sources even where a compiled engine is built.
    """
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "figures.json"
        env = {**os.environ, "PYTHONPATH": str(source / "src")}
        env.pop("RUMMYKIT_PURE", None)
        if pure:
            env["RUMMYKIT_PURE"] = "1"
        subprocess.run(
            [sys.executable, str(source / "benchmarks" / "engine.py"), "--json", str(out), *extra],
            env=env,
            check=True,
            capture_output=True,
            timeout=900,
        )
        figures: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
        return figures


def median_figure(runs: list[dict[str, Any]], section: str, name: str) -> float:
    """The median over runs of one figure's own median."""
    return float(statistics.median(run[section][name]["median"] for run in runs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "baseline", type=Path, nargs="?", help="a checkout of the baseline (its src/)"
    )
    parser.add_argument(
        "--pure",
        action="store_true",
        help="the baseline is this tree's pure sources; this tree runs compiled",
    )
    parser.add_argument("--rounds", type=int, default=5, help="runs of each tree, alternating")
    parser.add_argument("--seconds", type=float, help="engine.py --seconds (else --quick)")
    parser.add_argument("--repeats", type=int, help="engine.py --repeats")
    args = parser.parse_args(argv)
    if (args.baseline is None) == (not args.pure):
        parser.error("give a baseline tree, or --pure (not both)")
    base_tree = ROOT if args.pure else args.baseline.resolve()
    extra = ["--quick"] if args.seconds is None else ["--seconds", str(args.seconds)]
    if args.repeats is not None:
        extra += ["--repeats", str(args.repeats)]
    baseline: list[dict[str, Any]] = []
    current: list[dict[str, Any]] = []
    for round_number in range(args.rounds):
        print(f"round {round_number + 1}/{args.rounds}", file=sys.stderr, flush=True)
        baseline.append(run_once(base_tree, extra, pure=args.pure))
        current.append(run_once(ROOT, extra))
    builds = (current[0].get("engine_build"), baseline[0].get("engine_build"))
    if args.pure and builds != ("compiled", "pure"):
        parser.error(f"expected a compiled and a pure run, got {builds}: run make compile")
    print("| figure | baseline | this tree | ratio (>1: this tree faster) |")
    print("| --- | ---: | ---: | ---: |")
    for section, name, label, higher in FIGURES:
        before = median_figure(baseline, section, name)
        after = median_figure(current, section, name)
        ratio = after / before if higher else before / after
        print(f"| {label} | {before:,.2f} | {after:,.2f} | {ratio:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
