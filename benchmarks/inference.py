"""How well the samplers guess the other hand: uniform deals against inferred ones.

The searchers (``expert``, ``master``) judge a choice in positions dealt from the cards they
cannot see. ``sample_position`` deals them uniformly; ``inferred_position`` weighs each deal
by how well the other hands explain what their players refused and threw. This plays
two-seat classic deals between computer players, stops at positions along the way, and asks
each sampler where every unseen card lies: the share of its samples that put the card in the
other player's hand. Scored against where the card really was:

- log loss (lower is better) and the Brier score, over every unseen card of every position;
- the mean chance given to the cards the other player really held, beside that given to the
  ones it did not.

    .venv/bin/python benchmarks/inference.py --deals 60 --json benchmarks/results/inference.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummykit.bots import make_bot
from rummykit.bots.inference import inferred_position
from rummykit.core.cards import Card
from rummykit.core.determinize import sample_position, unseen_cards
from rummykit.core.observation import Observation, observe
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState, Phase

Sampler = Callable[[Observation, random.Random], GameState]
SAMPLERS: dict[str, Sampler] = {"uniform": sample_position, "inferred": inferred_position}
FIRST_TURN = 4
"""Positions before this turn say too little about anyone's hand to be worth scoring."""
ACTION_CAP = 600
HEADER = (
    "| players | positions | sampler | log loss | Brier | chance held | chance not | µs a sample |"
)


def positions(level: str, deals: int, seed: int) -> list[tuple[Observation, list[Card]]]:
    """Observations of the seat to draw, with the other seat's real hand, from ``deals``
    two-seat classic deals between ``level`` players."""
    found: list[tuple[Observation, list[Card]]] = []
    rng = random.Random(seed)
    rules = find_preset("classic").rules
    for number in range(deals):
        game = GameState.new(rules, 2, dealer=number % 2, seed=seed * 100_003 + number)
        bots = [make_bot(level), make_bot(level)]
        for _ in range(ACTION_CAP):
            if game.deal_over:
                break
            view = observe(game, game.turn)
            if view.phase is Phase.DRAW and view.turn_number >= FIRST_TURN:
                found.append((view, list(game.hands[1 - game.turn])))
            game.apply(bots[game.turn].choose(view, rng))
    return found


def score(
    sampler: Sampler, found: list[tuple[Observation, list[Card]]], samples: int, seed: int
) -> dict[str, float]:
    """The sampler's guesses of the other hand, scored against the real one."""
    rng = random.Random(seed)
    loss = brier = 0.0
    held_chance: list[float] = []
    free_chance: list[float] = []
    cards = 0
    started = time.perf_counter()
    for view, real in found:
        seat = view.seat if view.seat is not None else view.turn
        other = 1 - seat
        counts: Counter[Card] = Counter()
        for _ in range(samples):
            counts.update(set(sampler(view, rng).hands[other]))
        truly = Counter(real)
        truly.subtract(view.known_cards[other])
        for card in unseen_cards(view):
            chance = min(max(counts[card] / samples, 1e-3), 1 - 1e-3)
            held = truly[card] > 0
            loss -= math.log(chance if held else 1 - chance)
            brier += (chance - held) ** 2
            (held_chance if held else free_chance).append(chance)
            cards += 1
    elapsed = time.perf_counter() - started
    return {
        "log_loss": loss / cards,
        "brier": brier / cards,
        "chance_held": sum(held_chance) / len(held_chance),
        "chance_free": sum(free_chance) / len(free_chance),
        "us_per_sample": elapsed / (len(found) * samples) * 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    """Score both samplers on positions of deals between each level asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60, help="deals a level (default 60)")
    parser.add_argument("--samples", type=int, default=100, help="samples a position")
    parser.add_argument("--levels", nargs="*", default=["strong", "basic"])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)
    results: list[dict[str, Any]] = []
    print(HEADER)
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for level in args.levels:
        found = positions(level, args.deals, args.seed)
        for name, sampler in SAMPLERS.items():
            figures = score(sampler, found, args.samples, args.seed)
            results.append({"level": level, "positions": len(found), "sampler": name, **figures})
            print(
                f"| {level} | {len(found)} | {name} | {figures['log_loss']:.4f} "
                f"| {figures['brier']:.4f} | {figures['chance_held']:.3f} "
                f"| {figures['chance_free']:.3f} | {figures['us_per_sample']:.0f} |",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
