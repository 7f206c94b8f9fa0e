"""Playing for the game: the chance to win from the scores, and playouts scored by it."""

from __future__ import annotations

import bisect
import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rummykit.bots
from helpers import stacked_game
from rummykit.bots import ExpertBot, MasterBot
from rummykit.bots.deal_points_fit import main as fit_main
from rummykit.bots.deal_points_fit import won_points
from rummykit.bots.equity import (
    DEAL_POINTS_FILE,
    game_equity,
    game_outcome,
    plays_for_game,
    points_outcome,
    won_deal_points,
)
from rummykit.bots.expert import PLAYOUT_TURNS
from rummykit.bots.playout import playout_value, sharp_action
from rummykit.core.deadwood import deadwood_value
from rummykit.core.presets import find_preset
from rummykit.core.rules import Rules
from rummykit.core.state import GameState

CLASSIC = find_preset("classic").rules
TARGET = CLASSIC.target
scores = st.integers(min_value=0, max_value=TARGET - 1)


def test_the_shipped_spread_counts_every_deal_once() -> None:
    """The file names its deals; won and unwon add up to them, and the shares to 1."""
    path = Path(rummykit.bots.__file__).with_name(DEAL_POINTS_FILE)
    data = json.loads(path.read_text("utf-8"))
    assert sum(data["won"].values()) + data["unwon"] == data["deals"] > 1000
    spread = won_deal_points()
    assert all(points > 0 for points, _ in spread)
    assert sum(share for _, share in spread) == pytest.approx(1.0)


def test_an_even_game_is_a_coin_toss_and_a_won_game_is_certain() -> None:
    assert game_equity(CLASSIC, 0, 0) == pytest.approx(0.5)
    assert game_equity(CLASSIC, 57, 57) == pytest.approx(0.5)
    assert game_equity(CLASSIC, TARGET, 40) == 1.0
    assert game_equity(CLASSIC, 40, TARGET + 3) == 0.0


@given(scores, scores)
def test_the_two_players_chances_add_up_to_one(mine: int, theirs: int) -> None:
    chance = game_equity(CLASSIC, mine, theirs)
    assert 0.0 < chance < 1.0
    assert chance + game_equity(CLASSIC, theirs, mine) == pytest.approx(1.0)


@given(scores, scores)
def test_more_points_never_lower_the_chance(mine: int, theirs: int) -> None:
    """Both directions: more of one's own points helps, more of the other's hurts."""
    chance = game_equity(CLASSIC, mine, theirs)
    if mine + 1 < TARGET:
        assert game_equity(CLASSIC, mine + 1, theirs) >= chance
    if theirs + 1 < TARGET:
        assert game_equity(CLASSIC, mine, theirs + 1) <= chance


@pytest.mark.parametrize(("mine", "theirs"), [(0, 0), (50, 70), (90, 20), (10, 95)])
def test_the_chances_match_games_played_from_the_spread(mine: int, theirs: int) -> None:
    """Checked by simulation, not by the same recursion: 20,000 games from these scores,
    each deal won by either player at even odds for points drawn from the spread (deals
    nobody wins change nothing, so they are left out)."""
    spread = won_deal_points()
    points = [p for p, _ in spread]
    cumulative = list(itertools.accumulate(share for _, share in spread))
    rng = random.Random(mine * 1000 + theirs)
    games, won = 20_000, 0
    for _ in range(games):
        me, them = mine, theirs
        while me < TARGET and them < TARGET:
            gain = points[bisect.bisect(cumulative, rng.random() * cumulative[-1])]
            if rng.random() < 0.5:
                me += gain
            else:
                them += gain
        won += me >= TARGET
    expected = game_equity(CLASSIC, mine, theirs)
    error = (expected * (1 - expected) / games) ** 0.5
    assert abs(won / games - expected) < 4 * error + 1e-9


def test_the_same_points_matter_more_near_the_target() -> None:
    """Ten points change little at the start and much when the other side is close."""
    early = game_equity(CLASSIC, 10, 0) - game_equity(CLASSIC, 0, 0)
    late = game_equity(CLASSIC, 90, 92) - game_equity(CLASSIC, 80, 92)
    assert 0 < early < late


@pytest.mark.parametrize(
    ("seats", "changes", "modelled"),
    [
        (2, {}, True),
        (3, {}, False),
        (2, {"scoring": "penalty"}, False),
        (2, {"scoring": "melds"}, False),
        (2, {"deals": 4}, False),
        (2, {"target": 1000}, False),
    ],
)
def test_only_two_player_games_to_a_target_of_winner_collects_are_modelled(
    seats: int, changes: dict[str, object], modelled: bool
) -> None:
    assert plays_for_game(CLASSIC.replace(**changes), seats) is modelled


def deal_ready_to_end(rules: Rules, scores: tuple[int, int]) -> GameState:
    """Seat 0 (to play after the dealer) can meld its whole hand and go out at once."""
    game = stacked_game(
        rules,
        ["2C 3C 4C 5C 6C 7C 8C 9C TC JC", "KD KH QS JD 9H 8S 6D 5H 4S 2D"],
        up="3D",
        dealer=1,
    )
    game.scores = list(scores)
    return game


@pytest.mark.parametrize(("mine", "theirs"), [(0, 0), (40, 60), (60, 40)])
def test_a_finished_deal_is_scored_by_the_chance_after_its_points(mine: int, theirs: int) -> None:
    game = deal_ready_to_end(CLASSIC, (mine, theirs))
    value = playout_value(game, 0, PLAYOUT_TURNS, policy=sharp_action, outcome=game_outcome)
    assert game.deal_over and game.deal_points is not None
    won = game.deal_points[0]
    assert won > 0
    assert value == pytest.approx(game_equity(CLASSIC, mine + won, theirs))
    assert game_outcome(game, 1) == pytest.approx(1 - value)


def test_a_deal_that_ends_the_game_is_worth_all_or_nothing() -> None:
    game = deal_ready_to_end(CLASSIC, (TARGET - 1, TARGET - 1))
    playout_value(game, 0, PLAYOUT_TURNS, policy=sharp_action, outcome=game_outcome)
    assert game.game_over
    assert game_outcome(game, 0) == 1.0 and game_outcome(game, 1) == 0.0


def test_a_deal_cut_short_is_scored_as_won_by_the_lower_hand() -> None:
    """Seat 0 melds its three kings and holds 41 in deadwood, seat 1 no meld and 81: scored
    as though seat 0 went out and collected the 40, from either seat."""
    game = stacked_game(
        CLASSIC,
        ["AC 2D 4H 6S 8C TD QH KS KC KD", "3S 5H 6C 8D TH JS QC KH QD 9S"],
        up="4D",
        dealer=1,
    )
    game.scores = [30, 50]
    held = [deadwood_value(game.hands[seat], CLASSIC) for seat in range(2)]
    assert held == [41, 81] and not game.deal_over
    gap = 40
    assert game_outcome(game, 0) == pytest.approx(game_equity(CLASSIC, 30 + gap, 50))
    assert game_outcome(game, 1) == pytest.approx(game_equity(CLASSIC, 50, 30 + gap))
    assert points_outcome(game, 0) == pytest.approx(gap)


def test_games_it_does_not_model_are_scored_by_their_points() -> None:
    rules = CLASSIC.replace(scoring="penalty")
    game = deal_ready_to_end(rules, (0, 0))
    playout_value(game, 0, PLAYOUT_TURNS, policy=sharp_action)
    assert game_outcome(game, 0) == points_outcome(game, 0) != 0


def test_the_master_plays_for_the_game_and_the_expert_for_the_deal() -> None:
    assert MasterBot.outcome is game_outcome
    assert ExpertBot.outcome is points_outcome


def kept_set(folder: Path, number: int, deal_points: list[list[int]]) -> None:
    positions = [{"deal_points": points} for points in deal_points]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"set-{number:05d}.json").write_text(json.dumps({"positions": positions}))


def test_the_fit_counts_each_won_deal_of_the_kept_sets_once(tmp_path: Path) -> None:
    """Each deal is listed for both seats; the winner's points count, a blocked deal not."""
    kept_set(tmp_path / "rung", 0, [[12, 0, 0, 3], [0, 7, 0, 0]])
    kept_set(tmp_path / "rung", 1, [[0, 12], [5, 0]])
    won, deals, sets = won_points(tmp_path)
    assert (dict(won), deals, sets) == ({12: 2, 7: 1, 3: 1, 5: 1}, 6, 2)
    out = tmp_path / "spread.json"
    fit_main([str(tmp_path), "--out", str(out)])
    data = json.loads(out.read_text())
    assert data["won"] == {"3": 1, "5": 1, "7": 1, "12": 2}
    assert (data["deals"], data["unwon"], data["sets"]) == (6, 1, 2)


def test_the_fit_refuses_sets_of_more_than_two_seats(tmp_path: Path) -> None:
    kept_set(tmp_path, 0, [[1], [0], [0]])
    with pytest.raises(ValueError, match="two-seat"):
        won_points(tmp_path)
