"""The playout policies as players: how much better the master's sharp play is than basic.

``expert`` plays its sampled deals out with basic play (``greedy_action``), ``master`` with
basic play that keeps its partnered cards (``sharp_action``). Both read only the seat's own
hand and what lies face up, so they can play real deals against each other. This plays
duplicate single deals (each deck twice, the policies swapping seats) under each preset
asked for, and reports deals won, points a deal and what an action costs each policy.

    .venv/bin/python benchmarks/playouts.py --deals 2000 --json benchmarks/results/playouts.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.engine import render

from rummykit.bots.playout import Policy, greedy_action, sharp_action
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState
from rummykit.tournament.stats import wilson_interval

POLICIES: dict[str, Policy] = {"sharp": sharp_action, "basic": greedy_action}
ACTION_CAP = 600
"""Actions after which a deal is cut (and counted as neither's): two policies that never
take from the pile always end a deal well before."""


def play_deal(preset: str, seed: int, order: tuple[str, str]) -> tuple[list[int] | None, Any]:
    """One two-seat deal with ``order[seat]``'s policy at each seat: the points (``None`` if
    cut) and, for each policy, its actions and the seconds they took."""
    game = GameState.new(find_preset(preset).rules, 2, dealer=seed % 2, seed=seed)
    spent = {name: [0, 0.0] for name in order}
    for _ in range(ACTION_CAP):
        if game.deal_over:
            break
        name = order[game.turn]
        started = time.perf_counter()
        action = POLICIES[name](game)
        spent[name][1] += time.perf_counter() - started
        spent[name][0] += 1
        game.apply_unchecked(action)
    points = list(game.deal_points) if game.deal_over and game.deal_points else None
    return points, spent


def duel(preset: str, deals: int, seed: int) -> dict[str, Any]:
    """``deals`` single deals (``deals // 2`` decks, each played from both seats)."""
    won = {"sharp": 0, "basic": 0}
    points = {"sharp": 0, "basic": 0}
    actions = {"sharp": [0, 0.0], "basic": [0, 0.0]}
    cut = played = 0
    for deck in range(deals // 2):
        for order in (("sharp", "basic"), ("basic", "sharp")):
            result, spent = play_deal(preset, seed + deck, order)
            for name, (count, seconds) in spent.items():
                actions[name][0] += count
                actions[name][1] += seconds
            if result is None:
                cut += 1
                continue
            played += 1
            for seat, name in enumerate(order):
                points[name] += result[seat]
            if result[0] != result[1]:
                won[order[0] if result[0] > result[1] else order[1]] += 1
    decisive = won["sharp"] + won["basic"]
    low, high = wilson_interval(won["sharp"], decisive) if decisive else (0.0, 0.0)
    return {
        "preset": preset,
        "deals": played,
        "cut": cut,
        "sharp_won": won["sharp"],
        "basic_won": won["basic"],
        "sharp_decisive_rate": won["sharp"] / decisive if decisive else None,
        "sharp_decisive_ci95": [low, high],
        "sharp_points_per_deal": points["sharp"] / played if played else None,
        "basic_points_per_deal": points["basic"] / played if played else None,
        "sharp_us_per_action": 1e6 * actions["sharp"][1] / max(actions["sharp"][0], 1),
        "basic_us_per_action": 1e6 * actions["basic"][1] / max(actions["basic"][0], 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Play the duels and print (and write, with ``--json``) their table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="single deals a preset (2000)")
    parser.add_argument("--seed", type=int, default=7, help="the first deck's seed (7)")
    parser.add_argument(
        "--presets",
        default="classic,knock,500",
        help="presets, comma-separated (classic,knock,500)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals must be at least 2 (one deck played from both seats)")
    rows = [duel(preset, args.deals, args.seed) for preset in args.presets.split(",")]
    render(
        "Sharp play against basic play, two seats, single deals",
        [
            "preset",
            "deals",
            "sharp won",
            "basic won",
            "sharp of decisive [95%]",
            "points/deal",
            "µs/action sharp / basic",
        ],
        [
            [
                row["preset"],
                str(row["deals"]),
                str(row["sharp_won"]),
                str(row["basic_won"]),
                f"{100 * (row['sharp_decisive_rate'] or 0):.1f}% "
                f"[{100 * row['sharp_decisive_ci95'][0]:.1f}, "
                f"{100 * row['sharp_decisive_ci95'][1]:.1f}]",
                f"{row['sharp_points_per_deal']:+.2f} / {row['basic_points_per_deal']:+.2f}",
                f"{row['sharp_us_per_action']:.0f} / {row['basic_us_per_action']:.0f}",
            ]
            for row in rows
        ],
    )
    if args.json is not None:
        args.json.write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
