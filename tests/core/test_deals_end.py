"""Every deal ends: ``idle_renewals`` under random presets and random option combinations.

Random play, and play by our computer players, of one deal under random legal rules (every
option drawn from its own description, ``idle_renewals`` a number) and random table sizes:
the deal ends, and the stock is never renewed more than ``idle_renewals`` times in a row
with nothing laid. Bot play ends well under ``DEAL_ACTION_CAP``; random play, which takes the
discard as often as the stock and so crosses a stock slowly, ends within a far bound.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import random_rules
from rummykit.bots import make_bot
from rummykit.bots.play import DEAL_ACTION_CAP, play_deal
from rummykit.core.actions import LayOff, Meld
from rummykit.core.presets import PRESETS
from rummykit.core.record import dump_record, record_of, replay_json, state_json
from rummykit.core.rules import MAX_SEATS, MIN_SEATS, Rules
from rummykit.core.state import GameState

RANDOM_PLAY_BOUND = 30_000
"""Actions a deal of random play may take: a deal that went round for ever would pass it."""
BOT_PLAY_BOUND = DEAL_ACTION_CAP // 3
"""Actions a deal of bot play must end within, well under the cap.

The longest seen in 2,000 random games was 752 actions."""


@st.composite
def any_rules(draw: st.DrawFn) -> tuple[Rules, int]:
    """A preset's rules, or any legal combination of options, with ``idle_renewals`` on."""
    seats = draw(st.integers(MIN_SEATS, MAX_SEATS))
    limit = draw(st.integers(1, 4))
    if draw(st.booleans()):
        rng = draw(st.randoms(use_true_random=False))
        return random_rules(rng, seats, idle_renewals=limit), seats
    preset = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    seats = max(preset.min_seats, min(seats, preset.max_seats))
    rules = preset.rules.replace(deals=1)
    if seats > 6:
        rules = rules.replace(decks=2)
    if draw(st.booleans()):  # the deal nothing else ends: renewals without limit, pile flipped
        rules = rules.replace(renew="flip", renewals=None, idle_renewals=limit)
    return rules, seats


def idle_run_never_passes_the_limit(game: GameState, action: object, before: int) -> None:
    limit = game.rules.idle_renewals
    assert limit is not None
    assert game.idle_renewals_used <= limit
    if isinstance(action, Meld | LayOff):
        assert game.idle_renewals_used == 0
    else:
        assert game.idle_renewals_used in (before, before + 1)


@settings(max_examples=40, deadline=None)
@given(any_rules(), st.integers(0, 2**32 - 1))
def test_every_deal_of_random_play_ends(setup: tuple[Rules, int], seed: int) -> None:
    rules, seats = setup
    rng = random.Random(seed)
    game = GameState.new(rules, seats, seed=seed)
    for _ in range(RANDOM_PLAY_BOUND):
        if game.deal_over:
            break
        action = rng.choice(list(game.legal_actions()))
        before = game.idle_renewals_used
        game.apply(action)
        idle_run_never_passes_the_limit(game, action, before)
    assert game.deal_over


@settings(max_examples=25, deadline=None)
@given(any_rules(), st.integers(0, 2**32 - 1), st.sampled_from(["strong", "basic"]))
def test_every_deal_of_bot_play_ends_well_under_the_cap(
    setup: tuple[Rules, int], seed: int, first: str
) -> None:
    rules, seats = setup
    game = GameState.new(rules, seats, seed=seed)
    names = [first, "basic" if first == "strong" else "strong"]
    bots = [make_bot(names[seat % 2]) for seat in range(seats)]
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(seats)]
    limit = rules.idle_renewals
    assert limit is not None
    for _ in play_deal(game, bots, rngs, BOT_PLAY_BOUND):
        assert game.idle_renewals_used <= limit
    assert game.deal_over, f"not over after {BOT_PLAY_BOUND} actions"


@pytest.mark.parametrize("limit", [1, 2])
def test_a_deal_ended_by_idle_renewals_replays_from_its_record_alone(limit: int) -> None:
    preset = PRESETS["standard"]
    rules = preset.rules.replace(idle_renewals=limit, empty_stock_choice=False)
    game = GameState.new(rules, 2, seed=5)
    while not game.deal_over:  # nobody lays a card: the same cards come round
        seat = game.turn
        game.apply_text(f"{seat} draw stock")
        game.apply_text(f"{seat} discard {game.hands[seat][-1]}")
    assert game.idle_renewals_used == game.renewals_used == limit
    text = dump_record(record_of(game, preset, ["Ann", "Bob"]))
    assert f'"idle_renewals": {limit}' in text
    replayed, code = replay_json(text)
    assert code == 0, replayed["error"]
    assert replayed["deals"][0]["result"] == "blocked"
    assert replayed["state"] == state_json(game)
