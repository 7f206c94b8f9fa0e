"""Let bots play: the one loop that plays a deal with bots, and a whole game with its record.

The tournament, the bot tests and ``rummy`` all play through ``play_deal``, so every one
of them hands a bot only its seat's observation, applies its choice with the checked
``GameState.apply`` and cuts a deal at the same ``DEAL_ACTION_CAP``.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from rummykit.bots.base import Bot
from rummykit.core.actions import Action
from rummykit.core.frozen import rebuild_by_fields
from rummykit.core.observation import Observation, observe
from rummykit.core.presets import Preset
from rummykit.core.record import GameRecord, record_of
from rummykit.core.rules import Rules
from rummykit.core.state import GameState

DEAL_ACTION_CAP: Final = 3000
"""Actions after which a deal is cut. A deal between sensible bots takes under 300 actions;
a stock renewed 15 times (``party``) about 1000, and random bots up to about 2200 there.
Only a deal that would never end passes 3000: under every preset ``idle_renewals`` ends a
deal whose stock keeps coming round with nothing laid, so that takes rules with it set to
``null`` and renewals without limit, or seats handing the top discard back and forth over an
empty stock (``benchmarks/deals_end.py`` counts the cut deals per preset)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Choice:
    """One decision of a bot in a deal: what it saw, what it chose, how long it took."""

    seat: int
    observation: Observation
    """What the seat saw: ``observe(game, seat)``."""
    action: Action
    seconds: float
    """Wall-clock time of the bot's ``choose`` call."""

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[object, ...]]:
        return rebuild_by_fields(self)


def play_deal(
    game: GameState,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    cap: int = DEAL_ACTION_CAP,
) -> Iterator[Choice]:
    """Play the current deal of ``game`` with ``bots`` (one a seat), a choice at a time.

    Each bot sees only ``observe(game, seat)`` and draws on ``rngs[seat]`` (pass the same
    rng for every seat to share one). Each choice is yielded while ``game`` still shows the
    position it was made in, then applied with the checked ``apply``: an illegal choice
    raises ``IllegalActionError``. The caller must not change the game. The deal stops when
    it is over or after ``cap`` actions; ``game.deal_over`` then says which.
    """
    for _ in range(cap):
        if game.deal_over:
            return
        seat = game.turn
        observation = observe(game, seat)
        started = time.perf_counter()
        action = bots[seat].choose(observation, rngs[seat])
        yield Choice(seat, observation, action, time.perf_counter() - started)
        game.apply(action)


def play_deal_out(
    game: GameState,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    cap: int = DEAL_ACTION_CAP,
) -> bool:
    """Play the current deal of ``game`` to its end; whether it ended within ``cap`` actions."""
    for _ in play_deal(game, bots, rngs, cap):
        pass
    return game.deal_over


def play_game(
    preset: Preset,
    bots: Sequence[Bot],
    seed: int,
    rules: Rules | None = None,
    players: Sequence[str] | None = None,
) -> tuple[GameRecord, bool]:
    """Play a game between ``bots`` (one a seat); the record, and whether it ended properly.

    The deck order, the first dealer and every bot's choices all follow from ``seed``; a
    deal cut at ``DEAL_ACTION_CAP`` ends the game early.
    """
    rng = random.Random(seed)
    rules = rules or preset.rules
    seats = len(bots)
    game = GameState(rules, seats, dealer=rng.randrange(seats), seed=rng.randrange(2**32))
    names = list(players) if players is not None else [bot.name for bot in bots]
    shared = [rng] * seats
    while not game.game_over:
        game.start_deal(seed=rng.randrange(2**16))
        if not play_deal_out(game, bots, shared):
            return record_of(game, preset, names), False
    return record_of(game, preset, names), True
