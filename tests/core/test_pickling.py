"""The engine's values survive pickling, in the compiled build and the pure one alike.

Process pools (the site's computer players, ``rummy review``, ``rummy sim``) send games,
observations, actions and bots to other processes; a compiled class restores differently
from a pure one (``rummykit.core.frozen``), so each kind is sent and compared here.
"""

from __future__ import annotations

import pickle
import random

from helpers import random_rules
from rummykit.bots.base import make_bot
from rummykit.core.deadwood import best_partition
from rummykit.core.observation import observe
from rummykit.core.record import state_json
from rummykit.core.state import GameState


def played_game(seed: int, steps: int) -> GameState:
    rng = random.Random(seed)
    game = GameState.new(random_rules(rng, 3, deals=3), 3, seed=seed)
    bot = make_bot("basic")
    for _ in range(steps):
        if game.game_over:
            break
        if game.deal_over:
            game.start_deal()
            continue
        game.apply(bot.choose(observe(game, game.turn), rng))
    return game


def test_a_game_in_progress_comes_back_whole_and_plays_on_the_same() -> None:
    for seed in range(12):
        game = played_game(seed, 60)
        copy = pickle.loads(pickle.dumps(game))
        assert state_json(copy) == state_json(game)
        assert (copy.scores, copy.summaries, copy.logs) == (game.scores, game.summaries, game.logs)
        assert (copy.version, copy.winner, copy.game_over) == (
            game.version,
            game.winner,
            game.game_over,
        )
        assert copy.deal == game.deal
        assert copy.rng.getstate() == game.rng.getstate()
        if not game.game_over and not game.deal_over:
            assert list(copy.legal_actions()) == list(game.legal_actions())


def test_observations_actions_partitions_and_bots_come_back_equal() -> None:
    game = played_game(5, 40)
    while game.deal_over and not game.game_over:
        game.start_deal()
    view = observe(game, game.turn)
    assert pickle.loads(pickle.dumps(view)) == view
    actions = list(game.legal_actions())
    assert pickle.loads(pickle.dumps(actions)) == actions
    partition = best_partition(game.hands[0], game.rules)
    assert pickle.loads(pickle.dumps(partition)) == partition
    assert pickle.loads(pickle.dumps(game.summaries)) == game.summaries
    for name in ("random", "basic", "strong"):
        bot = pickle.loads(pickle.dumps(make_bot(name)))
        assert bot.name == name
        assert bot.choose(view, random.Random(1)) == make_bot(name).choose(view, random.Random(1))
