"""``master``: the expert's search, judging its choices by sharper playouts.

It must play legally (``test_legal_play`` and ``test_bot_interface`` run it with the other
bots), search only what its seat can see, and choose the same on a fixed sample budget
whatever the clock does. Its strength is measured by ``benchmarks/bots.py``, not here: a
tournament small enough for the tests only shows that one plays through.
"""

from __future__ import annotations

import itertools
import random
import types

import pytest

import rummykit.bots.expert as expert_module
from bot_games import positions, random_game, reshuffle_hidden
from rummykit.bots import ExpertBot, MasterBot, make_bot
from rummykit.bots.base import BOTS
from rummykit.bots.hints import HINT_LEVELS
from rummykit.bots.playout import greedy_action, sharp_action
from rummykit.core.observation import Observation, observe
from rummykit.protocol.facts import BOT_LEVELS, TABLE_HINT_LEVELS
from rummykit.tournament import SimConfig, run_sim


def views(seed: int, seats: int = 2, every: int = 3) -> list[Observation]:
    """Every ``every``-th view of the seat to act in a deal played by ``strong``."""
    game, rng = random_game(seed, seats, melding="during_play")
    found = []
    for number, position in enumerate(positions(game, [make_bot("strong")] * seats, rng)):
        if number % every == 0:
            found.append(observe(position, position.turn))
    return found


def test_master_is_offered_at_the_tables_and_for_hints_above_the_expert() -> None:
    """The table settings' levels (the lobby, the party page and ``rummy party --cpu`` read
    them) are registered bots, weakest first, ``master`` last: measured above ``expert``."""
    assert all(level in BOTS for level in BOT_LEVELS)
    assert BOT_LEVELS == ("basic", "strong", "expert", "master")
    assert TABLE_HINT_LEVELS == ("strong", "expert", "master") == HINT_LEVELS


def test_the_master_weighs_the_expert_candidates_and_plays_out_sharper() -> None:
    """The search is the expert's, candidates and all; only the playouts differ (and how
    they are scored: `test_equity`)."""
    master, expert = MasterBot(samples=1), ExpertBot(samples=1)
    checked = 0
    for view in views(5) + views(6, seats=3):
        assert master.candidates(view) == expert.candidates(view)
        checked += 1
    assert checked >= 10
    assert master.policy is sharp_action and expert.policy is greedy_action


def test_the_master_chooses_the_same_whatever_cards_it_cannot_see() -> None:
    game, rng = random_game(12, 3)
    bot = MasterBot(samples=3)
    checked = 0
    for number, position in enumerate(positions(game, [make_bot("basic")] * 3, rng)):
        if number % 4:
            continue
        seat = position.turn
        other = reshuffle_hidden(position, seat, random.Random(number))
        here = bot.choose(observe(position, seat), random.Random(number))
        there = bot.choose(observe(other, seat), random.Random(number))
        assert here == there
        checked += 1
    assert checked >= 5


def test_on_a_sample_budget_the_master_ignores_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same rng and sample budget give the same choices even when the clock jumps a
    minute between two readings: the sample count, not the time, bounds the search."""
    chosen = views(41, every=4)
    assert len(chosen) >= 5
    first = [
        MasterBot(samples=7).choose(view, random.Random(number))
        for number, view in enumerate(chosen)
    ]
    ticks = itertools.count()
    slow_clock = types.SimpleNamespace(perf_counter=lambda: 60.0 * next(ticks))
    monkeypatch.setattr(expert_module, "time", slow_clock)
    again = [
        MasterBot(budget_ms=1.0, samples=7).choose(view, random.Random(number))
        for number, view in enumerate(chosen)
    ]
    assert next(ticks) > 0, "the master read the slow clock"
    assert again == first


def test_on_a_time_budget_the_master_plays_at_least_one_sample() -> None:
    """With a budget far too short for a playout, every candidate still gets its share of
    the first sample, and the choice is legal."""
    for number, view in enumerate(views(8, every=5)):
        action = MasterBot(budget_ms=0.001).choose(view, random.Random(number))
        assert action in view.legal_actions


def test_the_master_refuses_a_sample_budget_below_one() -> None:
    with pytest.raises(ValueError, match="at least one sample"):
        MasterBot(samples=0)


def test_a_small_duplicate_tournament_against_the_expert_plays_through() -> None:
    """One single deal, played from both seats, on one sample a decision: the tournament
    the benchmark runs at size, in miniature. Neither deal is cut: near an empty stock two
    searchers could pass the same cards through the pile for ever (``STALL_TURNS``)."""
    BOTS["master-1"] = lambda: MasterBot(samples=1)
    BOTS["expert-1"] = lambda: ExpertBot(samples=1)
    try:
        config = SimConfig.from_options(
            ("master-1", "expert-1"), games=2, preset="classic", deals_only=True, seed=3
        )
        result = run_sim(config).to_json()
    finally:
        del BOTS["master-1"], BOTS["expert-1"]
    assert result["games"] == 2 and result["cut_games"] == 0
    won = sum(seat["games_won"] for seat in result["seats"])
    assert won + result["ties"] == 2
