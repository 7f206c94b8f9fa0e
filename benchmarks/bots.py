"""The bots' ladder: who beats whom, by how much, and how fast each one decides.

Run it with ``.venv/bin/python benchmarks/bots.py`` (every rung, long: the expert rung alone
takes most of an hour on two cores) or pick rungs: ``--only basic-random strong-basic``.
``--quick`` plays a few games of each rung as a smoke test. ``--jobs N`` plays in N
processes; ``--json FILE`` writes every figure. The results table belongs in
``benchmarks/README.md``.

Every rung is a duplicate tournament of ``rummy sim`` (each deck order played once per seat
rotation), so the luck of the cards cancels; intervals are 95% (Wilson for rates, Student's
t over duplicate sets for points).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

from rummykit.tournament import SimConfig, run_sim


@dataclasses.dataclass(frozen=True)
class Rung:
    """One match of the ladder and the goal it is held to."""

    name: str
    bots: tuple[str, ...]
    preset: str
    games: int
    deals_only: bool
    goal: str


RUNGS = (
    Rung(
        "basic-random",
        ("basic", "random"),
        "classic",
        200,
        False,
        "basic wins >= 99% of decisive deals",
    ),
    Rung(
        "strong-basic",
        ("strong", "basic"),
        "classic",
        1000,
        False,
        "strong wins >= 60% of games, interval above 50%",
    ),
    Rung(
        "expert-strong",
        ("expert", "strong"),
        "classic",
        300,
        True,
        "expert wins >= 55% of games, interval above 50% (single deals: see README)",
    ),
    # ----- issues 14 and 34: the level above expert -----
    Rung(
        "master-expert",
        ("master", "expert"),
        "classic",
        400,
        False,
        "master wins >= 56% of games to 100, interval above 50%",
    ),
    Rung(
        "master-expert-deals",
        ("master", "expert"),
        "classic",
        300,
        True,
        "master wins more than half of single deals, interval above 50% (see README)",
    ),
    Rung(
        "strong-basic-knock",
        ("strong", "basic"),
        "knock",
        400,
        False,
        "strong wins >= 60% of knock rummy games, interval above 50%",
    ),
    Rung(
        "party-four",
        ("random", "basic", "strong", "expert"),
        "party",
        40,
        True,
        "the levels finish in order",
    ),
    # ----- issue 13: 500 Rum -----
    Rung(
        "strong-basic-500",
        ("strong", "basic"),
        "500",
        200,
        False,
        "strong wins >= 60% of 500 Rum games, interval above 50%",
    ),
)


def run_rung(
    rung: Rung,
    jobs: int,
    quick: bool,
    seed: int,
    checkpoint: Path | None = None,
    games: int | None = None,
) -> dict[str, Any]:
    """Play one rung and return its figures (the ``rummy sim --json`` object and more).

    With ``checkpoint`` its finished sets are kept in ``checkpoint / rung.name``, and a run
    stopped part-way goes on from there when started again. ``games`` plays (or, from a
    checkpoint, reports) only the rung's first games instead of all of them.
    """
    if games is None:
        games = min(rung.games, 4 * len(rung.bots)) if quick else rung.games
    config = SimConfig.from_options(
        rung.bots,
        games=games,
        preset=rung.preset,
        deals_only=rung.deals_only,
        seed=seed,
        checkpoint=checkpoint / rung.name if checkpoint is not None else None,
    )
    started = time.perf_counter()
    result = run_sim(config, jobs=jobs).to_json()
    result["rung"] = rung.name
    result["goal"] = rung.goal
    result["wall_seconds"] = round(time.perf_counter() - started, 1)
    return result


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _interval(pair: list[float | None] | None) -> str:
    if not pair or pair[0] is None or pair[1] is None:
        return "-"
    return f"[{100 * pair[0]:.1f}, {100 * pair[1]:.1f}]"


def markdown(results: list[dict[str, Any]]) -> str:
    """The results as the Markdown tables of ``benchmarks/README.md``."""
    lines = [
        "| rung | games | bot | games won | win rate [95%] | decisive deals won [95%] "
        "| points/deal | ms p50 / p99 |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for result in results:
        for seat in result["seats"]:
            points = seat["points_per_deal"]
            lines.append(
                f"| {result['rung']} | {result['games']} | {seat['bot']} | {seat['games_won']} "
                f"| {_percent(seat['win_rate'])} {_interval(seat['win_rate_ci95'])} "
                f"| {_percent(seat['decisive_deal_win_rate'])} "
                f"{_interval(seat['decisive_deal_win_rate_ci95'])} "
                f"| {'-' if points is None else f'{points:+.2f}'} "
                f"| {seat['decision_ms_p50']:.2f} / {seat['decision_ms_p99']:.2f} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the chosen rungs and print their table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=[rung.name for rung in RUNGS])
    parser.add_argument("--quick", action="store_true", help="a few games a rung")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=2026, help="the tournament seed")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument(
        "--checkpoint",
        type=Path,
        metavar="DIR",
        help="keep each rung's finished sets in DIR/RUNG: a stopped run goes on from there",
    )
    parser.add_argument(
        "--games",
        type=int,
        help="play only each rung's first N games (with --checkpoint: report the sets kept)",
    )
    args = parser.parse_args(argv)
    chosen = [rung for rung in RUNGS if not args.only or rung.name in args.only]
    results = []
    for rung in chosen:
        print(f"{rung.name}: {' vs '.join(rung.bots)} ...", file=sys.stderr, flush=True)
        results.append(
            run_rung(rung, args.jobs, args.quick, args.seed, args.checkpoint, args.games)
        )
        print(f"  done in {results[-1]['wall_seconds']} s", file=sys.stderr, flush=True)
    print(markdown(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
