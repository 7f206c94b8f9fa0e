"""Let bots play a whole game, and keep its record."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.bots.base import Bot
from rummykit.core.observation import observe
from rummykit.core.presets import Preset
from rummykit.core.record import GameRecord, record_of
from rummykit.core.rules import Rules
from rummykit.core.state import GameState

ACTION_CAP = 3000
"""Actions after which a deal is abandoned: two seats cycling through a stock that is
renewed without limit could otherwise play forever (a normal deal takes under 300)."""


def play_game(
    preset: Preset,
    bots: Sequence[Bot],
    seed: int,
    rules: Rules | None = None,
    players: Sequence[str] | None = None,
) -> tuple[GameRecord, bool]:
    """Play a game between ``bots`` (one a seat); the record, and whether it ended properly.

    The deck order, the first dealer and every bot's choices all follow from ``seed``.
    """
    rng = random.Random(seed)
    rules = rules or preset.rules
    seats = len(bots)
    game = GameState(rules, seats, dealer=rng.randrange(seats), seed=rng.randrange(2**32))
    names = list(players) if players is not None else [bot.name for bot in bots]
    while not game.game_over:
        game.start_deal(seed=rng.randrange(2**16))
        actions = 0
        while not game.deal_over:
            if actions >= ACTION_CAP:
                return record_of(game, preset, names), False
            seat = game.turn
            action = bots[seat].choose(observe(game, seat), rng)
            game.apply(action)
            actions += 1
    return record_of(game, preset, names), True
