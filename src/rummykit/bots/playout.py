"""Playouts: how the searching players finish a sampled deal, fast enough to do it often.

``expert`` and ``master`` (and the review's judge) weigh a choice by dealing the cards they
cannot see and playing the deal out with a quick policy for every seat. That loop is where
their thinking time goes, so it lives here, in a module compiled with the engine
(``[tool.rummykit.compiled]`` in pyproject.toml): every sample more in the same time is
strength.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rummykit.bots.basic import basic_draw, basic_play, basic_whole_hand_meld
from rummykit.bots.cycles import repeated_cards
from rummykit.bots.equity import points_outcome
from rummykit.core.actions import Action
from rummykit.core.rules import Melding
from rummykit.core.state import GameState, Phase

Policy = Callable[[GameState], Action]
"""How every seat of a sampled position plays it out: the action for the seat to act."""

Outcome = Callable[[GameState, int], float]
"""How a played-out position is scored for a seat (higher is better)."""


def greedy_action(game: GameState) -> Action:
    """Basic play for the seat to act, read off the full (sampled) position.

    The same policy as ``basic`` (``basic_draw``, ``basic_play``): quick, and sensible
    enough for a playout.
    """
    return _basic_playout_action(game, False)


def sharp_action(game: GameState) -> Action:
    """Basic play that sheds loose cards before partnered ones (``master``'s playouts).

    It draws as basic play does and melds and lays off alike, but keeps half a pair or two
    thirds of a run while it has a loose card to throw. As a player of its own it won 59% of
    the decisive single classic deals against ``basic`` (benchmarks/README.md).
    """
    return _basic_playout_action(game, True)


def _basic_playout_action(game: GameState, keep_partners: bool) -> Action:
    seat = game.turn
    hand = game.hands[seat]
    if game.phase is Phase.DRAW:  # only the two plain draws: listing deep takes is costly
        return basic_draw(seat, hand, game.discard_top, game.rules, game.can)
    if game.rules.melding is Melding.WHOLE_HAND:
        meld = basic_whole_hand_meld(game)
        if meld is not None:
            return meld
    deal = game.deal
    repeated = repeated_cards(
        game.rules, deal.renewals_used, deal.idle_renewals_used, deal.thrown[seat]
    )
    return basic_play(hand, game.rules, list(game.legal_actions()), keep_partners, repeated)


def playout_value(
    game: GameState,
    seat: int,
    turns: int,
    deadline: float = float("inf"),
    policy: Policy = greedy_action,
    outcome: Outcome = points_outcome,
) -> float:
    """Play ``game`` forward with ``policy`` and score it for ``seat`` (higher is better).

    The playout stops after ``turns`` turns a seat, or at ``deadline`` (``perf_counter``
    time), and the position is then scored by ``outcome``: by default the seat's points
    less the others', the hands scored as they stand if the deal is not over.
    """
    limit = game.turn_number + turns * game.seat_count
    while not game.deal_over and game.turn_number <= limit:
        if time.perf_counter() >= deadline:
            break
        game.apply_unchecked(policy(game))
    return outcome(game, seat)
