"""Play seeded games under seeded random rules and write down every step, for comparing builds.

The compiled and the pure engine must agree move for move: the same legal actions, the same
state after each action, the same bot choices, the same least deadwood of each hand, the same
scores. ``trace`` is run once in the test's process (compiled where built) and once in a
process started with ``RUMMYKIT_PURE=1``; ``python -m build_trace`` reads cases on stdin
and prints their traces as JSON.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from helpers import random_rules
from rummykit.bots.base import make_bot
from rummykit.build import engine_build
from rummykit.core.deadwood import best_partition
from rummykit.core.observation import observe
from rummykit.core.record import state_json
from rummykit.core.state import GameState

STEP_CAP = 300
"""Actions a game at most: several deals under most rules, a second or so a game."""
BOT_NAMES = ("basic", "strong")
"""Bots whose choices the traces compare (they are compiled too); the rest of the moves are
drawn at random from the legal actions."""


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def trace(seed: int, seats: int) -> list[str]:
    """One step a line: the legal actions, the action taken and the position it made."""
    rng = random.Random(seed)
    rules = random_rules(rng, seats, deals=rng.choice((1, 2, 3)))
    game = GameState.new(rules, seats, dealer=rng.randrange(seats), seed=seed)
    bots = [make_bot(rng.choice(BOT_NAMES)) for _ in range(seats)]
    steps: list[str] = []
    while len(steps) < STEP_CAP and not game.game_over:
        if game.deal_over:
            game.start_deal()
            continue
        legal = [str(action) for action in game.legal_actions()]
        if rng.random() < 0.5:
            action = bots[game.turn].choose(observe(game, game.turn), rng)
        else:
            action = rng.choice(list(game.legal_actions()))
        game.apply(action)
        least = [best_partition(hand, rules).value for hand in game.hands]
        steps.append(_digest([legal, str(action), state_json(game), least, game.scores]))
    return steps


def main() -> None:
    """Read ``[[seed, seats], ...]`` on stdin; print the build and each case's trace."""
    cases = json.load(sys.stdin)
    json.dump({"build": engine_build(), "traces": [trace(*case) for case in cases]}, sys.stdout)


if __name__ == "__main__":
    main()
